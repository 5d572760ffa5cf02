"""A LangChain Runnable: :class:`SourcedCheck` takes ``{"answer": str, "documents": [...]}`` and
returns the report of :func:`sourced_nlp.check` (the ``sourced.report/1`` dict), or, with
``raise_on_fail=True``, raises :class:`~sourced_nlp.errors.NotGroundedError` when the gate
fails, so that it can guard a chain.

    >>> from sourced_nlp.integrations.langchain import SourcedCheck
    >>> report = SourcedCheck().invoke({"answer": "It has 40 rooms.", "documents": ["It has 30 rooms."]})
    >>> report["counts"]["contradicted"]
    1

Needs ``langchain-core`` (``pip install 'sourced-nlp[langchain]'``); importing this module
without it raises an ImportError that says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

try:
    from langchain_core.runnables import RunnableConfig, RunnableSerializable
    from pydantic import Field, PrivateAttr
except ImportError as err:  # pragma: no cover - the dev extra installs it
    from ._shared import missing

    raise ImportError(missing("langchain-core", "langchain", __name__)) from err

from ..errors import NotGroundedError
from ._shared import Checker, claim_lines

__all__ = ["SourcedCheck", "NotGroundedError"]


def _parts(value: Any) -> tuple[str, Any]:
    """``(answer, documents)`` of the input; an answer may be a chat model's message (its
    ``content``, a string).

    Raises:
        TypeError: not a mapping with ``"answer"`` and ``"documents"``, or an answer that is no text.
    """
    if not isinstance(value, Mapping) or "answer" not in value or "documents" not in value:
        got = f"a mapping with keys {sorted(map(str, value))}" if isinstance(value, Mapping) else type(value).__name__
        raise TypeError(f"SourcedCheck takes {{'answer': str, 'documents': [...]}}, got {got}")
    answer = value["answer"]
    content = getattr(answer, "content", None)
    if not isinstance(answer, str) and isinstance(content, str):
        answer = content  # an AIMessage
    if not isinstance(answer, str):
        raise TypeError(
            f"SourcedCheck: 'answer' must be a str (or a message whose content is one), got {type(answer).__name__}"
        )
    return answer, value["documents"]


class SourcedCheck(RunnableSerializable[dict, dict]):
    """Checks ``{"answer", "documents"}`` claim by claim; returns the ``sourced.report/1`` dict.

    ``documents`` are the sources as :func:`sourced_nlp.check` reads them: strings, LangChain
    ``Document`` objects (a retriever's output), ``(Document, score)`` pairs, LlamaIndex nodes,
    ``{"id", "text"}`` mappings.

    Attributes:
        fail_on: the gate, as :meth:`Report.gate <sourced_nlp.report.model.Report.gate>` reads it:
            ``"contradicted"`` (the default), ``"unverified"``, or a severity (``high``,
            ``medium``, ``low``).
        fail_under: the grounding score (0-100) must be at least this.
        min_coverage: the citation coverage (0-1) must be at least this.
        raise_on_fail: raise :class:`~sourced_nlp.errors.NotGroundedError` (``.report``: the
            :class:`~sourced_nlp.report.model.Report`) when the gate fails, instead of returning
            the report.
        nlp: a pipeline with ``sourced_verify``; default :func:`sourced_nlp.load_pipeline`,
            loaded on the first check and kept.

    Raises:
        ValueError, TypeError: at construction, a gate that :meth:`Report.gate` refuses.
    """

    fail_on: str = "contradicted"
    fail_under: Optional[float] = None
    min_coverage: Optional[float] = None
    raise_on_fail: bool = False
    nlp: Any = Field(default=None, exclude=True, repr=False)
    _checker: Checker = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        self._checker = Checker(self.nlp, self.fail_on, self.fail_under, self.min_coverage)

    def _check(self, value: Any) -> dict:
        answer, documents = _parts(value)
        report, reasons = self._checker.check(answer, documents)
        if reasons and self.raise_on_fail:
            lines = [f"the answer fails the gate ({'; '.join(reasons)}):"]
            raise NotGroundedError("\n".join(lines + [f"- {line}" for line in claim_lines(report)]), report)
        return report.to_dict()

    def invoke(self, input: dict, config: Optional[RunnableConfig] = None, **kwargs: Any) -> dict:
        """The report of ``input`` (``{"answer", "documents"}``), traced as one run.

        Raises:
            NotGroundedError: with ``raise_on_fail``, the gate fails (the message lists the
                claims not grounded); TypeError: an input of another shape; SourceError: sources
                or an answer that cannot be checked, as for :func:`sourced_nlp.check`.
        """
        return self._call_with_config(self._check, input, config, **kwargs)
