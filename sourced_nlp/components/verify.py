"""``sourced_verify``: the verdict of every claim of an answer doc against its sources.

A doc carries its sources in ``doc._.sources`` (strings, ``{"id", "text"}`` mappings or JSON
values; normalised by :func:`sourced_nlp.sources.normalize_sources`). Each source text goes
through the pipeline's components before this one (tokenizer, parser, NER, the sourced
components) and its passage records are cached by content hash (SHA-1 of the text), and the
passage index of a list of sources is kept for the last 8 lists, so re-checking against the same
sources costs only the answer. The verdict rules are in
:mod:`sourced_nlp.align`.

Adding ``sourced_verify`` to a pipeline adds the upstream sourced components it needs
(``sourced_claims``, ``sourced_quantities``, ``sourced_entities``, ``sourced_negation``,
``sourced_passages``) when they are missing.

Assigns, on every claim span: ``Span._.verdict``, ``Span._.evidence``, ``Span._.reason``,
``Span._.support``, ``Span._.differs``; relabels the spans of ``doc.spans["sourced_claims"]``
with their verdict (for ``displacy.render(doc, style="span")``); sets ``doc._.report`` to the
report dict (``sourced_nlp.report.Report.to_dict()`` shape, ``"schema": "sourced.report/1"``).
A doc without sources gets every claim ``unverified`` with the reason "no sources".
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import OrderedDict

from spacy.language import Language
from spacy.tokens import Doc, Span

from .. import extensions
from ..align import PassageIndex, Thresholds, Verifier
from .. import judges, provenance
from ..citations import locate
from ..report import SCHEMA
from ..sources import normalize_sources
from .passages import Lexical

UPSTREAM = ("sourced_claims", "sourced_quantities", "sourced_entities", "sourced_negation", "sourced_passages")
_DEFAULTS = Thresholds()
_INDEXES_KEPT = 8


def validate_config(thresholds: Thresholds, cache_size: int) -> None:
    """Check the tunables of ``sourced_verify`` before it is built.

    Every float field of :class:`~sourced_nlp.align.Thresholds` is a share of a claim's
    content (a coverage, ``fusion_min_share``, or ``conflict_margin``, a difference of two
    coverages), so it must lie in [0, 1]; every int field (``max_candidates``, how many
    passages are compared with a claim) and ``cache_size`` (how many parsed sources are kept)
    is a count that must be an integer >= 1.

    Raises:
        ValueError: naming the field, the value given and the allowed range, for the first
            field out of range (or not a number: a bool, a string, NaN).
    """
    values = [(f.name, f.default, getattr(thresholds, f.name)) for f in dataclasses.fields(thresholds)]
    for name, default, value in values + [("cache_size", 1, cache_size)]:
        if isinstance(default, bool):
            continue
        if isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"sourced_verify config: {name} must be an integer >= 1 (a count), got {value!r}"
                )
        elif isinstance(default, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0
            if not ok:  # NaN fails the comparison too
                raise ValueError(f"sourced_verify config: {name} must be in [0, 1], got {value!r}")


@Language.factory(
    "sourced_verify",
    assigns=["span._.verdict", "span._.evidence", "span._.reason", "span._.support", "doc._.report"],
    requires=["doc._.passages", "doc._.sources"],
    default_config={
        "lexicon": "lexical",
        "grounded_coverage": _DEFAULTS.grounded_coverage,
        "grounded_coverage_anchored": _DEFAULTS.grounded_coverage_anchored,
        "contradicted_coverage": _DEFAULTS.contradicted_coverage,
        "polarity_coverage": _DEFAULTS.polarity_coverage,
        "fusion_coverage": _DEFAULTS.fusion_coverage,
        "fusion_coverage_record": _DEFAULTS.fusion_coverage_record,
        "fusion_coverage_content": _DEFAULTS.fusion_coverage_content,
        "fusion_min_share": _DEFAULTS.fusion_min_share,
        "conflict_margin": _DEFAULTS.conflict_margin,
        "swap_coverage": _DEFAULTS.swap_coverage,
        "spread_support": _DEFAULTS.spread_support,
        "max_candidates": _DEFAULTS.max_candidates,
        "cache_size": 256,
        "require_citations": False,
        "judge": None,
    },
)
def make_verify(
    nlp: Language,
    name: str,
    lexicon: str,
    grounded_coverage: float,
    grounded_coverage_anchored: float,
    contradicted_coverage: float,
    polarity_coverage: float,
    fusion_coverage: float,
    fusion_coverage_record: float,
    fusion_coverage_content: float,
    fusion_min_share: float,
    conflict_margin: float,
    swap_coverage: float,
    spread_support: float,
    max_candidates: int,
    cache_size: int,
    require_citations: bool = False,
    judge=None,
):
    """Create the verifier; adds the missing upstream sourced components first.

    Raises:
        ValueError: a threshold out of range (see :func:`validate_config`), before any
            component is added to ``nlp``.
    """
    thresholds = Thresholds(
        grounded_coverage=grounded_coverage,
        grounded_coverage_anchored=grounded_coverage_anchored,
        contradicted_coverage=contradicted_coverage,
        polarity_coverage=polarity_coverage,
        fusion_coverage=fusion_coverage,
        fusion_coverage_record=fusion_coverage_record,
        fusion_coverage_content=fusion_coverage_content,
        fusion_min_share=fusion_min_share,
        conflict_margin=conflict_margin,
        swap_coverage=swap_coverage,
        spread_support=spread_support,
        max_candidates=max_candidates,
    )
    validate_config(thresholds, cache_size)
    for upstream in UPSTREAM:
        if upstream not in nlp.pipe_names:
            nlp.add_pipe(upstream)
    return Verify(nlp, name, lexicon=lexicon, thresholds=thresholds, cache_size=cache_size,
                  require_citations=require_citations, judge=judge)


class Verify:
    """The verdict component (see the module docstring).

    Args:
        nlp: the pipeline it belongs to; the components before it parse the sources.
        name: the component name.
        lexicon: bundled name or path of the lexical lexicon (antonym groups).
        thresholds: the tunables of :mod:`sourced_nlp.align`.
        cache_size: how many parsed sources to keep (least recently used dropped first).
        require_citations: a claim without a citation gets an ``uncited`` finding.
        judge: a judge backend (``{"@misc": "sourced.judge.replay.v1", ...}`` in the config),
            asked about every claim the rules leave unverified; None (the default): no judge.

    Raises:
        ValueError: a threshold or ``cache_size`` out of range (see :func:`validate_config`).
    """

    def __init__(self, nlp: Language, name: str, *, lexicon: str, thresholds: Thresholds, cache_size: int,
                 require_citations: bool = False, judge=None) -> None:
        validate_config(thresholds, cache_size)
        self.judge = judge  # a sourced.judge.*.v1 backend: asked about the claims the rules leave unverified
        self.require_citations = require_citations
        self.nlp = nlp
        self.name = name
        self.lexical = Lexical(lexicon)
        self.verifier = Verifier(
            thresholds, self.lexical.opposed, lambda q, t: locate(q, t, min_score=0.9), self.lexical.meta_words
        )
        self.cache_size = cache_size
        self._cache: OrderedDict[str, list[dict]] = OrderedDict()
        self._indexes: OrderedDict[tuple, PassageIndex] = OrderedDict()

    def index_for(self, sources: list[dict]) -> PassageIndex:
        """The passage index of a list of normalised sources, built once per distinct list (the
        last 8 kept): checking many answers against the same sources builds it once."""
        key = tuple((s["id"], hashlib.sha1(s["text"].encode("utf8")).hexdigest(), bool(s.get("structured"))) for s in sources)
        if key in self._indexes:
            self._indexes.move_to_end(key)
            return self._indexes[key]
        index = PassageIndex(
            [(s["id"], self.source_passages(s["text"]), bool(s.get("structured"))) for s in sources],
            frozenset(self.lexical.relation_words), self.lexical.review_sentiment, self.lexical.canon,
        )
        self._indexes[key] = index
        while len(self._indexes) > _INDEXES_KEPT:
            self._indexes.popitem(last=False)
        return index

    def source_passages(self, text: str) -> list[dict]:
        """Passage records of one source text, parsed by the upstream components (cached)."""
        key = hashlib.sha1(text.encode("utf8")).hexdigest()
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        doc = self.nlp.make_doc(text)
        for pname, proc in self.nlp.pipeline:
            if pname == self.name:
                break
            doc = proc(doc)
        passages = doc._.passages or []
        self._cache[key] = passages
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return passages

    def __call__(self, doc: Doc) -> Doc:
        raw = doc._.sources
        sources = normalize_sources(raw) if raw else []
        index = self.index_for(sources)
        texts = {s["id"]: s["text"] for s in sources}
        records = {(r["start"], r["end"]): r for r in (doc._.passages or [])}
        verify_cited = self._cited_verifier(rec_sources=sources)
        source_quantities = [q for p in index.passages for _, q in p.quantities]
        findings: list[dict] = []
        claims_out: list[dict] = []
        relabelled: list[Span] = []
        for span in doc.spans.get(extensions.CLAIMS_KEY, []):
            rec = records.get((span.start_char, span.end_char))
            if not sources:
                result = {"verdict": "unverified", "reason": "no sources", "support": 0.0, "evidence": [], "differs": []}
            elif rec is None:
                result = {"verdict": "unverified", "reason": "no features for this span", "support": 0.0, "evidence": [], "differs": []}
            else:
                rec = provenance.claim_record(rec, span._.citations)
                result = self.verifier.verify(rec, index, texts)
            extra: dict = {}
            if sources and rec is not None:  # citations: the cited sources first (provenance.py)
                result, extra, found = provenance.check_claim(
                    rec, list(span._.citations or []), result, sources,
                    lambda ids, rec=rec: verify_cited(rec, ids), source_quantities, len(claims_out))
                findings.extend(found)
            new = Span(doc, span.start, span.end, label=result["verdict"])
            for attr in ("verdict", "reason", "support", "evidence", "differs"):
                setattr(new._, attr, result[attr])
            relabelled.append(new)
            claims_out.append(
                {
                    "text": span.text,
                    "start": span.start_char,
                    "end": span.end_char,
                    "citations": list(span._.citations or []),
                    **result,
                    **extra,
                }
            )
        if self.judge is not None:  # the judge tier (sourced_nlp.judges), after every rule
            relabelled = judges.judge_doc(self.judge, doc, relabelled, claims_out, findings, sources,
                                          lambda c: judges.candidates(index, records.get((c["start"], c["end"]))))
        doc.spans[extensions.CLAIMS_KEY] = relabelled
        skipped = [
            {"text": s.text, "start": s.start_char, "end": s.end_char, "kind": s._.claim_kind or s.label_}
            for s in doc.spans.get(extensions.SKIPPED_KEY, [])
        ]
        counts = {v: sum(1 for c in claims_out if c["verdict"] == v) for v in ("grounded", "contradicted", "unverified")}
        doc._.report = {
            "schema": SCHEMA,
            "answer": doc.text,
            "sources": [{"id": s["id"], "chars": len(s["text"])} for s in sources],
            "claims": claims_out,
            "skipped": skipped,
            "counts": counts,
            **provenance.summarize(claims_out, findings, sources),
        }
        if self.require_citations:
            provenance.require_citations(doc._.report)
        return doc

    def _cited_verifier(self, rec_sources: list[dict]):
        """``verify(rec, source_ids)``: a claim's verdict against those sources only (indexes
        cached per set of ids for the doc)."""
        indexes: dict[tuple, tuple] = {}

        def verify(rec: dict, ids: list[str]) -> dict:
            key = tuple(sorted(ids))
            if key not in indexes:
                subset = [s for s in rec_sources if s["id"] in ids]
                indexes[key] = (self.index_for(subset), {s["id"]: s["text"] for s in subset})
            idx, texts = indexes[key]
            return self.verifier.verify(rec, idx, texts)

        return verify
