"""Every exception of sourced-nlp, in one place.

A leaf module (standard library only): every part of the package imports its errors from here.
An input that cannot be used is an :class:`InputError` (a ``ValueError``); ``SourceError`` is
the same class under the name it has always had, so ``except SourceError`` keeps working. The
command line turns an :class:`InputError` into one ``error: ...`` line and exit code 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .report.model import Report

__all__ = [
    "InputError",
    "SourceError",
    "TextTooLongError",
    "TooLargeError",
    "RecordError",
    "AuditError",
    "ModelNotFoundError",
    "NotGroundedError",
    "PipelineOrderError",
    "JudgeUnavailable",
    "NoAnswer",
    "CheckerProcessError",
]


class SourceError(ValueError):
    """A source or an answer that cannot be used: missing, empty, unreadable or malformed."""


#: The general input error: a source, an answer, a record, a file or a log that cannot be used.
InputError = SourceError


class TextTooLongError(SourceError):
    """An answer longer than the language model reads at once (``nlp.max_length``), or a source
    longer than a source may be (:data:`sourced_nlp.text.sources.MAX_SOURCE_CHARS`, or
    ``nlp.max_length`` when larger; a source is parsed in parts, so ``nlp.max_length`` does not
    bound it).

    Attributes:
        what: how the text is named in the message (``"answer"``, ``"source 'q3.txt'"``, a path).
        length: its length in characters.
        limit: the most characters such a text may have.
        index: the source's position in the list, or None for the answer.
        bound: what the limit is, as the message says it (``"the language model reads at once"``,
            ``"a source may have"``).
    """

    def __init__(
        self,
        what: str,
        length: int,
        limit: int,
        index: int | None = None,
        *,
        bound: str = "the language model reads at once",
    ) -> None:
        super().__init__(f"{what}: {length:,} characters, more than the {limit:,} {bound}")
        self.what, self.length, self.limit, self.index, self.bound = what, length, limit, index, bound

    def named(self, what: str) -> "TextTooLongError":
        """The same error with the text named ``what`` (a file path, say)."""
        return TextTooLongError(what, self.length, self.limit, self.index, bound=self.bound)


class TooLargeError(SourceError):
    """An input refused for its size before it is read whole: more bytes than its characters
    may take (a file, standard input, an upload), or a request body larger than ``sourced
    serve`` reads. ``sourced serve`` answers it with HTTP 413, as :class:`TextTooLongError`."""


class RecordError(SourceError):
    """One record of :func:`~sourced_nlp.api.check_many` that cannot be checked, named by its
    place and id.

    Attributes:
        index: the record's position in ``records`` (0-based).
        record_id: the record's ``"id"`` (a mapping record), or None.
        cause: the error that the record raised (a :class:`SourceError`, a
            :class:`TextTooLongError`, a ``TypeError``).
    """

    def __init__(self, index: int, record_id: Any, cause: Exception) -> None:
        where = f"record {index}" + (f" (id {record_id!r})" if record_id is not None else "")
        super().__init__(f"{where}: {cause}")
        self.index, self.record_id, self.cause = index, record_id, cause


class AuditError(SourceError):
    """The log cannot be read or appended to (unreadable, or its last record is malformed)."""


class ModelNotFoundError(RuntimeError):
    """Neither spaCy model package is installed."""


class NotGroundedError(AssertionError):
    """Raised by :func:`~sourced_nlp.api.assert_grounded`, and by the LangChain Runnable
    (:class:`~sourced_nlp.integrations.langchain.SourcedCheck` with ``raise_on_fail=True``)
    when the gate fails; ``.report`` holds the full report."""

    def __init__(self, message: str, report: Report) -> None:
        super().__init__(message)
        self.report = report


class PipelineOrderError(ValueError):
    """``sourced_verify`` runs before the components it needs (``add_pipe(..., first=True)``)."""


class JudgeUnavailable(RuntimeError):
    """A judge backend cannot run at all: its SDK is not installed, or no credentials are set."""


class NoAnswer(RuntimeError):
    """A judge's reply that holds no answer: a refusal, or a reply cut short."""


class CheckerProcessError(RuntimeError):
    """The checking child process exited, or failed to start (its exit code is in the message)."""
