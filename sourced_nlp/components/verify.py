"""``sourced_verify``: the verdict of every claim of an answer doc against its sources.

A doc carries its sources in ``doc._.sources`` (strings, ``{"id", "text"}`` mappings or JSON
values; normalised by :func:`sourced_nlp.text.sources.normalize_sources`). Each source text goes
through the pipeline's components before this one (tokenizer, parser, NER, the sourced
components; a source longer than 100,000 characters in parts, :mod:`sourced_nlp.components.parts`) and its
passage records are cached by content hash (SHA-1 of the text), and the
passage index of a list of sources is kept for the last 8 lists, so re-checking against the same
sources costs only the answer. A prose source longer than ``lazy_parse_chars`` (20,000 by
default; ``null``: never) is read cheaply first and only the blocks the answer's claims need
go through the pipeline, each once, cached by content hash (:mod:`sourced_nlp.components.blocks`). The verdict rules are in :mod:`sourced_nlp.verdict`, one module
each; docs/rules.md lists them.

Pluggable parts, through spaCy's registry (``@misc``; their functions are in :mod:`.pluggable`), in the config:

* ``rules``: the decision order, ``{"@misc": "sourced.rules.v1"}`` (the rules of
  :data:`sourced_nlp.verdict.rules.DEFAULT_RULES`, in that order; ``exclude`` leaves rules out
  by function name).
* ``meaning``: the meaning tier, ``{"@misc": "sourced.meaning.v1"}`` (``path``: a model file; the
  shipped ``models/meaning-v1.json`` by default), tried just before the last rule for the claims
  the rules leave unverified with every name and value present
  (:mod:`sourced_nlp.verdict.rules.meaning`); ``null``: the rules only.
* ``word_matcher``: whether a passage holds a claim's word, for coverage,
  ``{"@misc": "sourced.word_matcher.v1"}`` (:func:`sourced_nlp.verdict.words.word_in`).
* The lexicons, by bundled name or path: ``lexicon`` (``models/lexical.json``), ``records``,
  ``verdict_words``, ``negation`` and ``units`` (:class:`sourced_nlp.verdict.lexicon.VerdictLexicon`);
  the guard reads ``lexicon`` and ``negation`` too, and its own ``wordnet`` and ``guard``
  (``sourced.guard.v1``). ``nlp.to_disk`` writes each of them beside the component (the guard's
  own in ``guard/``), ``from_disk`` reads them back.
* ``precision``: the table of each rule's measured precision on natural text, by bundled name or
  path (``models/rule_precision.json``, written by ``bench/rule_precision.py``;
  :mod:`sourced_nlp.verdict.precision`); every claim's ``rule_precision`` is read from it (:mod:`.trust`).
  ``to_disk`` writes it beside the lexicons (``precision.json``), ``from_disk`` reads it back.
* ``strict``: null (the default: no verdict changes), or a share in (0, 1]: a ``grounded`` claim
  whose rule's measured precision is under it (or unmeasured) becomes ``unverified``, rule
  ``unverified.strict``, its evidence kept (``sourced check --strict``; ``STRICT_DEFAULT`` of
  :mod:`sourced_nlp.verdict.precision` is 0.9).

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
from collections.abc import Iterable, Sequence
from pathlib import Path

import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span

from .. import judges
from ..citing import provenance
from ..judges.backends import register as _register_judges
from ..report.findings import report_findings
from ..report.model import ClaimResult, Report, Skipped
from ..text.citations import locate
from ..text.lexicons import load_lexicon
from ..text.sources import normalize_sources
from ..verdict import (
    DEFAULT_RULES,
    CitedSources,
    PassageIndex,
    Rule,
    Thresholds,
    VerdictLexicon,
    Verifier,
    WordMatcher,
    validate_thresholds,
    word_in,
)
from ..verdict.guard import OWN_LEXICONS, Guard
from ..verdict.precision import PrecisionTable, check_strict, load_precision
from ..verdict.rules.empty import no_features, no_sources
from . import extensions
from .indexer import SourceIndexer
from .passages import Lexical
from .pluggable import make_guard, make_meaning, make_rules, make_word_matcher  # noqa: F401 - registers them; importable from here
from .replies import add_reply_citations
from .trust import Trusted

_register_judges()  # the judge backends' factories, sourced.judge.*.v1, in spacy.registry.misc

UPSTREAM = ("sourced_claims", "sourced_quantities", "sourced_entities", "sourced_negation", "sourced_passages")
_DEFAULTS = Thresholds()
_THRESHOLD_NAMES = tuple(f.name for f in dataclasses.fields(Thresholds))
#: the lexicons of the component's config: config key -> bundled default
LEXICONS = {
    "lexicon": "lexical",
    "records": "records",
    "verdict_words": "verdict",
    "negation": "negation",
    "units": "units",
}


def validate_config(
    thresholds: Thresholds, cache_size: int, lazy_parse_chars: int | None = None, strict: float | None = None
) -> None:
    """Check the tunables of ``sourced_verify`` before it is built.

    Every float field of :class:`~sourced_nlp.verdict.thresholds.Thresholds` is a share in
    [0, 1]; every int field and ``cache_size`` (how many parsed sources are kept) is a count
    that must be an integer >= 1 (:func:`~sourced_nlp.verdict.thresholds.validate_thresholds`),
    and so must ``lazy_parse_chars`` (the length above which a prose source is parsed only
    where its claims need it) unless it is None (every source parsed whole). ``strict`` is None
    or a share in (0, 1] (:func:`~sourced_nlp.verdict.precision.check_strict`).

    Raises:
        ValueError: naming the field, the value given and the allowed range, for the first
            field out of range (or not a number: a bool, a string, NaN).
    """
    counts: dict[str, object] = {"cache_size": cache_size}
    if lazy_parse_chars is not None:
        counts["lazy_parse_chars"] = lazy_parse_chars
    validate_thresholds(thresholds, counts)
    check_strict(strict)


@Language.factory(
    "sourced_verify",
    assigns=["span._.verdict", "span._.evidence", "span._.reason", "span._.support", "doc._.report"],
    requires=["doc._.passages", "doc._.sources"],
    default_config={
        **LEXICONS,
        **{name: getattr(_DEFAULTS, name) for name in _THRESHOLD_NAMES},
        "cache_size": 256,
        "lazy_parse_chars": 20_000,
        "require_citations": False,
        "precision": "rule_precision",
        "strict": None,
        "rules": {"@misc": "sourced.rules.v1"},
        "word_matcher": {"@misc": "sourced.word_matcher.v1"},
        "judge": None,
        "meaning": {"@misc": "sourced.meaning.v1"},
        "guard": {"@misc": "sourced.guard.v1"},
    },
)
def make_verify(
    nlp: Language,
    name: str,
    lexicon: str,
    records: str,
    verdict_words: str,
    negation: str,
    units: str,
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
    unanchored_conflict: float,
    support_best: float,
    support_spread: float,
    support_novel_words: float,
    support_novel_name: float,
    swap_min_words: int,
    fusion_record_lines: int,
    key_span: int,
    text_value_words: int,
    cache_size: int,
    rules: Sequence[Rule],
    word_matcher: WordMatcher,
    lazy_parse_chars: int | None = 20_000,
    require_citations: bool = False,
    judge=None,
    meaning=None,
    guard: Guard | None = None,
    precision: str = "rule_precision",
    strict: float | None = None,
) -> "Verify":
    """Create the verifier; adds the missing upstream sourced components first. The thresholds
    are the fields of :class:`~sourced_nlp.verdict.thresholds.Thresholds`, by name.

    Raises:
        ValueError: a threshold out of range (see :func:`validate_config`), before any
            component is added to ``nlp``.
    """
    given = locals()
    t = Thresholds(**{name: given[name] for name in _THRESHOLD_NAMES})
    validate_config(t, cache_size, lazy_parse_chars, strict)
    for upstream in UPSTREAM:
        if upstream not in nlp.pipe_names:
            nlp.add_pipe(upstream)
    lexicons = {
        "lexicon": lexicon,
        "records": records,
        "verdict_words": verdict_words,
        "negation": negation,
        "units": units,
    }
    return Verify(
        nlp,
        name,
        lexicons=lexicons,
        thresholds=t,
        cache_size=cache_size,
        lazy_parse_chars=lazy_parse_chars,
        require_citations=require_citations,
        rules=rules,
        word_matcher=word_matcher,
        judge=judge,
        meaning=meaning,
        guard=guard,
        precision=precision,
        strict=strict,
    )


class Verify(Trusted):
    """The verdict component (see the module docstring).

    Args:
        nlp: the pipeline it belongs to; the components before it parse the sources.
        name: the component name.
        lexicons: bundled name or path of each lexicon (:data:`LEXICONS` keys; a missing key
            takes the bundled one; ``lexicon``: the lexical lexicon, antonym groups).
        thresholds: the tunables of :mod:`sourced_nlp.verdict`.
        cache_size: how many parsed sources to keep (least recently used dropped first).
        lazy_parse_chars: a prose source longer than this (characters) is indexed cheaply and
            parsed only in the blocks its claims need (:mod:`sourced_nlp.components.blocks`); None: every
            source is parsed whole.
        require_citations: a claim without a citation gets an ``uncited`` finding.
        rules: the decision order (``sourced.rules.v1``).
        word_matcher: the word matcher of coverage (``sourced.word_matcher.v1``).
        judge: a judge backend (``{"@misc": "sourced.judge.replay.v1", ...}`` in the config),
            asked about every claim the rules leave unverified; None (the default): no judge.
        meaning: the meaning tier (``sourced.meaning.v1``), tried just before the last rule, so
            after every rule that can show a verdict and before the judge; None: the rules only.
        guard: the guard of ``grounded`` (``sourced.guard.v1``), which every grounded result of
            the rules and the meaning tier passes; None: no guard.
        precision: the table of the rules' measured precision, a bundled name or path
            (``"rule_precision"``: ``models/rule_precision.json``), or a
            :class:`~sourced_nlp.verdict.precision.PrecisionTable`.
        strict: None, or the least measured precision (a share in (0, 1]) a grounding's rule
            must have for the claim to stay ``grounded`` (see the module docstring).

    Raises:
        ValueError: a threshold, ``cache_size`` or ``strict`` out of range (see :func:`validate_config`).
        FileNotFoundError: a lexicon or precision table that is neither bundled nor a file.
    """

    def __init__(
        self,
        nlp: Language,
        name: str,
        *,
        lexicons: dict[str, str] | None = None,
        thresholds: Thresholds,
        cache_size: int,
        lazy_parse_chars: int | None = 20_000,
        require_citations: bool = False,
        rules: Sequence[Rule] = DEFAULT_RULES,
        word_matcher: WordMatcher = word_in,
        judge=None,
        meaning: Rule | None = None,
        guard: Guard | None = None,
        precision: str | PrecisionTable = "rule_precision",
        strict: float | None = None,
    ) -> None:
        validate_config(thresholds, cache_size, lazy_parse_chars, strict)
        self.strict = strict
        self.precision = precision if isinstance(precision, PrecisionTable) else load_precision(precision)
        self.meaning = meaning  # the meaning tier: just before the last rule (unverified), when given
        self.judge = judge  # a sourced.judge.*.v1 backend: asked about the claims the rules leave unverified
        self.require_citations = require_citations
        self.guard = guard  # sourced.guard.v1: every grounded result is checked word by word
        self.nlp = nlp
        self.name = name
        self.thresholds = thresholds
        self.rules = tuple(rules)
        self.word_matcher = word_matcher
        self.cache_size = cache_size
        self.indexer = SourceIndexer(nlp, name, thresholds, cache_size, lazy_parse_chars)
        self._load_lexicons({**LEXICONS, **(lexicons or {})})

    @property
    def lazy_parse_chars(self) -> int | None:
        """A prose source longer than this is parsed only where its claims need it (the source
        indexer's setting; setting it takes effect at once)."""
        return self.indexer.lazy_parse_chars

    @lazy_parse_chars.setter
    def lazy_parse_chars(self, chars: int | None) -> None:
        self.indexer.lazy_parse_chars = chars

    def _load_lexicons(self, refs: dict[str, str]) -> None:
        self.lexicons = refs
        if self.guard is not None:  # the guard reads the component's lexical and negation lexicons
            self.guard = self.guard.with_lexicons(lexicon=refs["lexicon"], negation=refs["negation"])
        self.lexical = Lexical(refs["lexicon"])
        self.verdict_lexicon = VerdictLexicon.load(
            records=refs["records"],
            verdict=refs["verdict_words"],
            negation=refs["negation"],
            lexical=refs["lexicon"],
            units=refs["units"],
        )
        self.verifier = Verifier(
            self.thresholds,
            self.lexical.opposed,
            lambda q, t: locate(q, t, min_score=0.9),
            self.lexical.meta_words,
            rules=self._decision_order(),
            word_matcher=self.word_matcher,
            lexicon=self.verdict_lexicon,
            guard=self.guard,
            precision=self.precision,
        )
        self.indexer.use_lexicons(self.lexical, self.verdict_lexicon)

    @property
    def meaning(self) -> Rule | None:
        """The meaning tier (a rule, ``sourced.meaning.v1``), or None; setting it takes effect at
        once (``nlp.get_pipe("sourced_verify").meaning = MeaningRule(my_model)``)."""
        return self._meaning

    @meaning.setter
    def meaning(self, rule: Rule | None) -> None:
        self._meaning = rule
        if hasattr(self, "verifier"):
            self.verifier.rules = self._decision_order()

    def _decision_order(self) -> tuple[Rule, ...]:
        """The rules, the meaning tier (when one is configured) just before the last of them."""
        if self.meaning is None:
            return self.rules
        return (*self.rules[:-1], self.meaning, self.rules[-1])

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Write each lexicon the component reads (``<key>.json`` in ``path``), the guard's own
        (``guard/<key>.json``: ``wordnet``, ``guard``) and the precision table (``precision.json``),
        so that a pipeline saved with one given as a path loads without that path."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        for key, ref in self.lexicons.items():
            srsly.write_json(path / f"{key}.json", load_lexicon(ref))
        srsly.write_json(path / "precision.json", dict(self.precision.data))
        for key, ref in _guard_own(self.guard).items():
            (path / "guard").mkdir(exist_ok=True)
            srsly.write_json(path / "guard" / f"{key}.json", load_lexicon(ref))

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "Verify":
        """Read back the lexicons and the precision table :meth:`to_disk` wrote (a missing file
        keeps the configured one)."""
        path = Path(path)
        refs = {
            key: str(path / f"{key}.json") if (path / f"{key}.json").is_file() else ref
            for key, ref in self.lexicons.items()
        }
        own = {
            key: str(path / "guard" / f"{key}.json")
            for key in _guard_own(self.guard)
            if (path / "guard" / f"{key}.json").is_file()
        }
        if own:
            self.guard = self.guard.with_lexicons(**own)  # type: ignore[union-attr]
        self._load_lexicons(refs)
        if (path / "precision.json").is_file():  # read here, not through the cache of names and paths
            self.precision = load_precision(srsly.read_json(path / "precision.json"))
        return self

    def index_for(self, sources: list[dict], claims: Sequence[dict] | None = None) -> PassageIndex:
        """:meth:`SourceIndexer.index_for <sourced_nlp.components.indexer.SourceIndexer.index_for>`
        (kept here for one release; ``verify.indexer`` is the source indexer)."""
        return self.indexer.index_for(sources, claims)

    def source_passages(self, text: str) -> list[dict]:
        """:meth:`SourceIndexer.source_passages <sourced_nlp.components.indexer.SourceIndexer.source_passages>`
        (kept here for one release)."""
        return self.indexer.source_passages(text)

    def __call__(self, doc: Doc) -> Doc:
        """Per claim: its citations checked, its verdict (the cited sources first), its citation
        status and findings; then the judge (when one is configured) on what stays unverified;
        then each claim's ``rule_precision`` (its final rule's, :meth:`_trusted`) and, with
        ``strict``, the groundings of the less precise rules taken down; then every claim span
        relabelled once and ``doc._.report`` built. A JSON reply's citations
        (``doc._.reply_citations``) go on their claim spans first."""
        add_reply_citations(doc)
        raw = doc._.sources
        sources = normalize_sources(raw) if raw else []
        records = {(r["start"], r["end"]): r for r in (doc._.passages or [])}
        # a large prose source is parsed in the blocks each claim needs: one index per claim
        per_claim = any(self.indexer.lazy(s) for s in sources)
        whole = None if per_claim else self.indexer.index_for(sources)
        texts = {s["id"]: s["text"] for s in sources}
        cited_kept: dict[tuple, tuple] = {}  # the cited sources' indexes, for the doc (whole sources)
        quantities = None if whole is None else [q for p in whole.passages for _, q in p.quantities]
        spans = list(doc.spans.get(extensions.CLAIMS_KEY, []))
        findings: list[dict] = []
        claims_out: list[dict] = []
        passages: dict[int, list] = {}  # the candidate passages of each claim the judge is asked about
        for span in spans:
            raw_rec = records.get((span.start_char, span.end_char))
            index = None
            if not sources or raw_rec is None:
                result, extra = (no_sources() if not sources else no_features()), {}
            else:
                index = whole or self.indexer.index_for(sources, [raw_rec])
                result, extra = self._check_claim(
                    span, raw_rec, sources, texts, index, whole, quantities, cited_kept, findings, len(claims_out)
                )
            result = dict(result)
            rule = result.pop("rule")
            claims_out.append(
                {
                    "text": span.text,
                    "start": span.start_char,
                    "end": span.end_char,
                    "citations": list(span._.citations or []),
                    **result,
                    **extra,
                    "rule": rule,
                }
            )
            if self.judge is not None and result["verdict"] in judges.asks(self.judge):
                passages[len(claims_out) - 1] = judges.candidates(index, raw_rec) if index is not None else []
        if self.judge is not None:  # the judge tier (sourced_nlp.judges), after every rule
            claims_out = judges.apply_judge(self.judge, claims_out, passages, texts, findings)
        claims_out = self._trusted(claims_out, findings)
        doc.spans[extensions.CLAIMS_KEY] = [_relabelled(doc, span, c) for span, c in zip(spans, claims_out)]
        doc._.report = self._report(doc, sources, claims_out, findings)
        return doc

    def _check_claim(
        self,
        span: Span,
        raw_rec: dict,
        sources: list[dict],
        texts: dict[str, str],
        index: PassageIndex,
        whole: PassageIndex | None,
        quantities: list | None,
        cited_kept: dict,
        findings: list[dict],
        i: int,
    ) -> tuple[dict, dict]:
        """One claim: its citations resolved (:func:`sourced_nlp.citing.provenance.check_citations`),
        its verdict against every source with the cited ones judged first (the ``cited`` rule,
        over their own index), then its citation status and findings
        (:func:`~sourced_nlp.citing.provenance.claim_outcome`). Returns ``(result, extra)``."""
        citations = list(span._.citations or [])
        rec = provenance.claim_record(raw_rec, span._.citations)
        checked, cited_ids, found = provenance.check_citations(citations, sources, i)
        cited = None
        if cited_ids:
            key = tuple(sorted(cited_ids))
            if whole is None or key not in cited_kept:
                subset = [s for s in sources if s["id"] in cited_ids]
                cited_kept[key] = (
                    self.indexer.index_for(subset, None if whole is not None else [raw_rec]),
                    {s["id"]: s["text"] for s in subset},
                )
            sub_index, sub_texts = cited_kept[key]
            cited = CitedSources(cited_ids, lambda chosen: self.verifier.verify(rec, sub_index, sub_texts))
        result = self.verifier.verify(rec, index, texts, cited)
        if quantities is None:  # a per-claim index: its own quantities
            quantities = [q for p in index.passages for _, q in p.quantities]
        extra = provenance.claim_outcome(rec, checked, cited_ids, result, sources, quantities, i, found)
        findings.extend(found)
        return result, extra

    def _report(self, doc: Doc, sources: list[dict], claims: list[dict], findings: list[dict]) -> dict:
        """The ``sourced.report/1`` dict of a checked doc, built through :class:`sourced_nlp.report.Report`
        (its counts, score and coverage are the report's own)."""
        report = Report(
            answer=doc.text,
            claims=[ClaimResult.from_dict(c) for c in claims],
            skipped=[
                Skipped(s.text, s.start_char, s.end_char, s._.claim_kind or s.label_)
                for s in doc.spans.get(extensions.SKIPPED_KEY, [])
            ],
            sources=[{"id": s["id"], "chars": len(s["text"])} for s in sources],
            findings=report_findings(findings, sources),
        ).to_dict()
        if self.require_citations:
            provenance.require_citations(report)
        return report


def _guard_own(guard: Guard | None) -> dict[str, str]:
    """The guard's own lexicons (``wordnet``, ``guard``) by bundled name or path; none for no
    guard, or one whose lexicon was given as an object."""
    if guard is None:
        return {}
    return {key: ref for key in OWN_LEXICONS if (ref := guard.lexicons.get(key)) is not None}


def _relabelled(doc: Doc, span: Span, claim: dict) -> Span:
    """The claim span labelled with its verdict, its verdict extensions set."""
    new = Span(doc, span.start, span.end, label=claim["verdict"])
    for attr in ("verdict", "reason", "support", "evidence", "differs"):
        setattr(new._, attr, claim[attr])
    return new
