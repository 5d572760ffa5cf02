"""Every ``Doc._`` and ``Span._`` extension of sourced-nlp, registered in one place.

The whole data model on one screen. Every value is made of plain types (str, int, float,
bool, list, dict) so that docs survive ``DocBin`` and ``nlp.pipe(n_process=2)``; no value ever
holds a ``Span`` or ``Doc``. ``Span._`` values are stored by spaCy in ``doc.user_data`` keyed by
the span's character offsets, so they belong to the spans in ``doc.spans[...]``. After a
``DocBin`` round trip the lists come back as tuples (spaCy reads user data with msgpack
``use_list=False``); the values are otherwise the same.

Doc extensions
    sources (list[dict] | None): the sources an answer is checked against, each
        ``{"id": str, "text": str}`` (set by the user, or by :func:`sourced_nlp.check`;
        strings and JSON values are normalised by :func:`sourced_nlp.text.sources.normalize_sources`).
    passages (list[dict] | None): the passage index of a *source* doc, one dict per passage
        (see :mod:`sourced_nlp.components.passages`).
    reply_citations (list | None): the citations of a JSON claims reply, ``[start, end,
        [citation, ...]]`` per claim line of the doc's text, each citation as the reply gives it
        (set by :func:`sourced_nlp.cite`); ``sourced_verify`` adds them to the claim spans the
        line overlaps, after the components that read the markers and before any claim is checked.
    report (dict | None): the report of an *answer* doc, ``Report.to_dict()`` shape
        (``"schema": "sourced.report/1"``), set by ``sourced_verify``.

Span extensions (on the spans of ``doc.spans["sourced_claims"]`` and ``["sourced_skipped"]``)
    claim_kind (str | None): ``"claim"`` for a checkable claim; for a skipped segment its kind:
        ``"preamble"``, ``"greeting"``, ``"question"``, ``"heading"``, ``"empty"``.
    citations (list[dict]): citation markers inside the claim, left out of what is checked,
        ``{"marker": "[1]", "targets": ["1"], "quote": str | None, "start": int, "end": int}``
        (answer char offsets).
    anchors (list[dict]): entity anchors of the span, ``{"text", "key", "label", "start",
        "end", "aliases": [str], "inherited": bool}``.
    negated (bool): the span's main predicate is negated.
    negation_cue (str | None): the cue text (``"not"``, ``"never"``, ``"no longer"``, ...).
    negation_scope (list[int] | None): ``[start, end]`` char offsets the cue scopes over.
    negated_predicate (str | None): lower-case lemma of the predicate the cue negates.
    denied_clauses (list[list[int]] | None): ``[start, end]`` char offsets of what each negation
        cue of the span denies, up to the verbs coordinated with it.
    verdict (str | None): ``"grounded"``, ``"contradicted"`` or ``"unverified"``.
    evidence (list[dict]): ``{"source", "start", "end", "text"}`` (source char offsets).
    reason (str | None): why the verdict, in words.
    support (float | None): in [0, 1], higher = better supported.
    differs (list[dict]): for a contradiction, ``{"claim": str, "source": str, "kind": str}``.

Span extensions (on ``doc.spans["sourced_quantities"]``)
    quantity (dict | None): the parsed value, see :class:`sourced_nlp.text.quantity.Quantity`
        (``Quantity.to_dict()``).
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

CLAIMS_KEY = "sourced_claims"
SKIPPED_KEY = "sourced_skipped"
QUANTITIES_KEY = "sourced_quantities"
UNREAD_KEY = "sourced_unread"  # tokens that look like figures but were not read as values

_DOC_ATTRS = {"sources": None, "passages": None, "reply_citations": None, "report": None}
_SPAN_ATTRS = {
    "claim_kind": None,
    "citations": None,
    "anchors": None,
    "negated": False,
    "negation_cue": None,
    "negation_scope": None,
    "negated_predicate": None,
    "denied_clauses": None,
    "verdict": None,
    "evidence": None,
    "reason": None,
    "support": None,
    "differs": None,
    "quantity": None,
}


def segments(doc: Doc) -> list[Span]:
    """Every segment of a doc — claims and skipped segments — in text order."""
    return sorted([*doc.spans.get(CLAIMS_KEY, []), *doc.spans.get(SKIPPED_KEY, [])], key=lambda s: s.start_char)


def register() -> None:
    """Register every extension once; calling it again is a no-op (``force=False`` guards)."""
    for name, default in _DOC_ATTRS.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
    for name, default in _SPAN_ATTRS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, default=default)


register()
