"""What a target returned, normalised into one typed :class:`Output`.

A target may return:

- a string: the answer (citation markers such as ``[doc-id]`` in it are read when scoring);
- a mapping with any of ``answer`` (or ``output``/``text``), ``contexts``, ``citations``,
  ``usage``, ``latency_ms``, ``abstained``;
- an object with those attributes (a dataclass, a pydantic model, an SDK response).

``None`` as the answer, an empty one, ``abstained: true``, or an answer that is only a refusal
(:data:`ABSTAIN_PHRASES`) counts as an abstention.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Output", "normalize", "is_abstention", "ABSTAIN_PHRASES"]

#: Phrases that, as the whole gist of a short answer, mean the system declined to answer.
ABSTAIN_PHRASES = (
    "i don't know",
    "i do not know",
    "i cannot answer",
    "i can't answer",
    "cannot be answered",
    "can't be answered",
    "not enough information",
    "insufficient information",
    "the sources do not say",
    "the sources don't say",
    "the sources do not mention",
    "the provided sources do not",
    "no answer in the sources",
    "not in the sources",
    "unable to answer",
    "i'm unable to answer",
    "i am unable to answer",
)
_ABSTAIN_MAX_WORDS = 25
_FIELDS = ("answer", "contexts", "citations", "usage", "latency_ms", "abstained")
_TOKEN_KEYS = {
    "input_tokens": ("input_tokens", "prompt_tokens"),
    "output_tokens": ("output_tokens", "completion_tokens"),
}


@dataclass
class Output:
    """One call of the target, normalised.

    Attributes:
        answer: the answer text; None when the system gave none.
        contexts: the passages the system answered from, ``[{"id", "text"}]``; empty when it
            did not say (the case's sources are then scored against).
        citations: ``[{"source": id, "quote"?: str}]`` the answer gives outside its text.
        usage: ``{"input_tokens", "output_tokens"}`` (ints) when the target reported them
            (``prompt_tokens``/``completion_tokens`` are read as those); ``{}`` when not.
        latency_ms: milliseconds: the target's own figure when it gave one, else the wall time
            of the call measured by the harness.
        abstained: the system declined to answer (see :func:`is_abstention`).
    """

    answer: str | None
    contexts: list[dict] = field(default_factory=list)
    citations: list[dict] = field(default_factory=list)
    usage: dict = field(default_factory=dict)
    latency_ms: float = 0.0
    abstained: bool = False

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping) -> "Output":
        """An output saved by :meth:`to_dict` (a run file); unknown keys are ignored."""
        return normalize(dict(d), float(d.get("latency_ms") or 0.0))


def is_abstention(answer: str | None) -> bool:
    """Whether ``answer`` declines to answer: None, blank, or a short text (at most 25 words)
    holding one of :data:`ABSTAIN_PHRASES` (case-insensitive, curly apostrophes read as ``'``)."""
    if answer is None or not answer.strip():
        return True
    text = answer.casefold().replace("\u2019", "'")
    if len(text.split()) > _ABSTAIN_MAX_WORDS:
        return False
    return any(p in text for p in ABSTAIN_PHRASES)


def _get(value: Any, name: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


def _contexts(raw: Any) -> list[dict]:
    """``[{"id", "text"}]`` from strings (ids ``ctx0``, ``ctx1``, ...) or mappings with ``text``
    (or ``content``/``page_content``) and ``id`` (or ``source``)."""
    if raw is None:
        return []
    if isinstance(raw, (str, Mapping)) or not isinstance(raw, (list, tuple)):
        raise TypeError(f"'contexts' must be a list, got {type(raw).__name__}")
    out = []
    for i, c in enumerate(raw):
        if isinstance(c, str):
            out.append({"id": f"ctx{i}", "text": c})
            continue
        text = next((t for t in (_get(c, k) for k in ("text", "content", "page_content")) if t is not None), None)
        if not isinstance(text, str):
            raise TypeError(f"contexts[{i}] has no text")
        cid = _get(c, "id")
        cid = cid if cid is not None else _get(c, "source")
        out.append({"id": str(cid) if cid is not None else f"ctx{i}", "text": text})
    return out


def _citations(raw: Any) -> list[dict]:
    """``[{"source", "quote"?}]`` from ids (strings) or mappings with ``source`` (or ``id``)."""
    if raw is None:
        return []
    if isinstance(raw, (str, Mapping)) or not isinstance(raw, (list, tuple)):
        raise TypeError(f"'citations' must be a list, got {type(raw).__name__}")
    out = []
    for i, c in enumerate(raw):
        if isinstance(c, (str, int)) and not isinstance(c, bool):
            out.append({"source": str(c)})
            continue
        source = _get(c, "source")
        source = source if source is not None else _get(c, "id")
        if source is None:
            raise TypeError(f"citations[{i}] names no source")
        item = {"source": str(source)}
        quote = _get(c, "quote")
        if isinstance(quote, str) and quote.strip():
            item["quote"] = quote
        out.append(item)
    return out


def _usage(raw: Any) -> dict:
    """``{"input_tokens", "output_tokens"}`` from a mapping or an object; missing counts left out."""
    if raw is None:
        return {}
    out = {}
    for key, names in _TOKEN_KEYS.items():
        for name in names:
            v = _get(raw, name)
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0:
                out[key] = int(v)
                break
    return out


def _answer(value: Any) -> str | None:
    for name in ("answer", "output", "text"):
        v = _get(value, name)
        if v is not None:
            if not isinstance(v, str):
                raise TypeError(f"'{name}' must be a string, got {type(v).__name__}")
            return v
    return None


def normalize(value: Any, measured_ms: float) -> Output:
    """The :class:`Output` of one call.

    Args:
        value: what the target returned: a str, a mapping, or an object with attributes.
        measured_ms: the wall time of the call, used when the target gives no ``latency_ms``.

    Raises:
        TypeError: ``value`` is None or another type with none of the fields; a field of the
            wrong type (``contexts`` not a list, a context without text, a non-string answer).
    """
    if isinstance(value, str):
        return Output(answer=value, latency_ms=round(measured_ms, 3), abstained=is_abstention(value))
    if value is None or (not isinstance(value, Mapping) and not any(hasattr(value, f) for f in _FIELDS)):
        raise TypeError(
            f"the target returned {type(value).__name__}; expected a str, a dict or an object "
            "with an 'answer' attribute"
        )
    answer = _answer(value)
    latency = _get(value, "latency_ms")
    ok = isinstance(latency, (int, float)) and not isinstance(latency, bool) and math.isfinite(latency)
    abstained = bool(_get(value, "abstained")) or is_abstention(answer)
    return Output(
        answer=answer,
        contexts=_contexts(_get(value, "contexts")),
        citations=_citations(_get(value, "citations")),
        usage=_usage(_get(value, "usage")),
        latency_ms=round(float(latency) if ok else measured_ms, 3),
        abstained=abstained,
    )
