"""A LlamaIndex evaluator: :class:`SourcedEvaluator` checks a response against its contexts claim
by claim, where a LlamaIndex evaluation already runs (``evaluate``, ``evaluate_response``,
``BatchEvalRunner``).

    >>> from sourced_nlp.integrations.llamaindex import SourcedEvaluator
    >>> result = SourcedEvaluator().evaluate(response="It has 40 rooms.", contexts=["It has 30 rooms."])
    >>> result.passing, result.score
    (False, 0.0)

Needs ``llama-index-core`` (``pip install 'sourced-nlp[llamaindex]'``); importing this module
without it raises an ImportError that says so.
"""

from __future__ import annotations

import asyncio
from typing import Any, Optional, Sequence

try:
    from llama_index.core.bridge.pydantic import Field
    from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
except ImportError as err:  # pragma: no cover - the dev extra installs it
    from ._shared import missing

    raise ImportError(missing("llama-index-core", "llamaindex", __name__)) from err

from ._shared import Checker, feedback

__all__ = ["SourcedEvaluator", "SourcedEvaluationResult"]


class SourcedEvaluationResult(EvaluationResult):
    """An ``EvaluationResult`` that also carries the per-claim report.

    Attributes:
        report: the ``sourced.report/1`` dict of the check: every claim with its verdict, rule,
            reason, support and evidence (offsets into the response and into each context).
        gate: why the gate failed, one reason each (empty when ``passing``).
    """

    report: Optional[dict] = Field(default=None, description="The sourced.report/1 report, claim by claim")
    gate: list[str] = Field(default_factory=list, description="Why the gate failed (empty when passing)")

    def to_report(self):
        """The :class:`~sourced_nlp.report.model.Report` of :attr:`report` (its views:
        ``to_text``, ``to_html``, ...)."""
        from ..report.model import Report

        return Report.from_dict(self.report)


class SourcedEvaluator(BaseEvaluator):
    """Checks a response against its contexts claim by claim (:func:`sourced_nlp.check`).

    Args:
        nlp: a pipeline with ``sourced_verify``; default :func:`sourced_nlp.load_pipeline`,
            loaded on the first evaluation and kept.
        fail_on: the gate, as :meth:`Report.gate <sourced_nlp.report.model.Report.gate>` reads
            it: ``"contradicted"`` (the default: a contradicted claim fails), ``"unverified"``
            (an unverified claim fails too, and so does a response with no claim), or a
            finding's severity (``high``, ``medium``, ``low``).
        fail_under: the grounding score (0-100) must be at least this.
        min_coverage: the citation coverage (0-1) must be at least this.

    The result (:class:`SourcedEvaluationResult`): ``passing`` (the gate passes), ``score`` (the
    share of claims grounded, in [0, 1]; None when the response states no claim), ``feedback``
    (one line per claim not grounded: verdict, rule, claim, reason; then why the gate failed),
    ``report`` (the per-claim ``sourced.report/1`` dict) and ``gate`` (the reasons). ``query`` is
    kept in the result but not checked: the sources are what a claim must agree with.

    Raises:
        ValueError, TypeError: a gate that :meth:`Report.gate` refuses.
    """

    def __init__(
        self,
        nlp: Any = None,
        fail_on: str = "contradicted",
        fail_under: float | None = None,
        min_coverage: float | None = None,
    ) -> None:
        self._checker = Checker(nlp, fail_on, fail_under, min_coverage)

    def _get_prompts(self) -> dict:
        return {}  # no prompt: nothing is asked of a model

    def _update_prompts(self, prompts: dict) -> None:
        pass

    def evaluate(
        self,
        query: Optional[str] = None,
        response: Optional[str] = None,
        contexts: Optional[Sequence[Any]] = None,
        **kwargs: Any,
    ) -> SourcedEvaluationResult:
        """Check ``response`` against ``contexts``: strings, or LlamaIndex nodes,
        ``NodeWithScore``, documents (their ids are kept in the evidence), or any source
        :func:`sourced_nlp.check` reads.

        Raises:
            ValueError: no response or no contexts; SourceError (a ValueError): a context or a
                response that cannot be checked, as for :func:`sourced_nlp.check`.
        """
        from ..text.sources import normalize_sources

        if response is None or contexts is None:
            raise ValueError("SourcedEvaluator needs a response (the answer) and contexts (its sources)")
        sources = normalize_sources(list(contexts))
        report, reasons = self._checker.check(response, sources)
        score = report.score
        return SourcedEvaluationResult(
            query=query,
            response=response,
            contexts=[s["text"] for s in sources],
            passing=not reasons,
            score=None if score is None else score / 100,
            feedback=feedback(report, reasons),
            report=report.to_dict(),
            gate=reasons,
        )

    async def aevaluate(
        self,
        query: Optional[str] = None,
        response: Optional[str] = None,
        contexts: Optional[Sequence[Any]] = None,
        **kwargs: Any,
    ) -> SourcedEvaluationResult:
        """:meth:`evaluate` in a worker thread, so that the event loop goes on with the other
        evaluators (checks themselves run one at a time)."""
        return await asyncio.to_thread(self.evaluate, query, response, contexts, **kwargs)

    def evaluate_response(
        self, query: Optional[str] = None, response: Any = None, **kwargs: Any
    ) -> SourcedEvaluationResult:
        """Check a query engine's ``Response`` against its ``source_nodes``, the nodes
        themselves (so that the evidence names each node by its id)."""
        text, nodes = (None, None) if response is None else (response.response, list(response.source_nodes))
        return self.evaluate(query=query, response=text, contexts=nodes, **kwargs)

    async def aevaluate_response(
        self, query: Optional[str] = None, response: Any = None, **kwargs: Any
    ) -> SourcedEvaluationResult:
        """:meth:`evaluate_response` in a worker thread."""
        return await asyncio.to_thread(self.evaluate_response, query, response, **kwargs)
