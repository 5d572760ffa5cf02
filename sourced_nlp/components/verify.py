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
each; the README's Development section lists them.

Pluggable parts, through spaCy's registry (``@misc``), in the config:

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
  ``nlp.to_disk`` writes each of them beside the component, ``from_disk`` reads them back.

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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import registry

from . import extensions
from .. import judges
from ..citing import provenance
from ..judges.backends import register as _register_judges
from ..text.citations import locate
from ..text.lexicons import load_lexicon
from .blocks import BlockIndex
from .parts import PART_CHARS, shift_passage, split_parts
from ..report.model import SCHEMA
from ..text.sources import normalize_sources
from ..verdict import DEFAULT_RULES, CitedSources, PassageIndex, Rule, Thresholds, VerdictLexicon, Verifier, WordMatcher
from ..verdict import validate_thresholds, word_in
from ..verdict.rules.empty import no_features, no_sources
from .passages import Lexical

_register_judges()  # the judge backends' factories, sourced.judge.*.v1, in spacy.registry.misc

UPSTREAM = ("sourced_claims", "sourced_quantities", "sourced_entities", "sourced_negation", "sourced_passages")
_DEFAULTS = Thresholds()
_INDEXES_KEPT = 8
_BLOCK_INDEXES_KEPT = 4  # the cheap indexes of large sources (a 5 MB source's is about 100 MB)
_BLOCKS_KEPT = 4096  # parsed blocks of large sources (at most 600 characters each)
_CLAIM_INDEXES_KEPT = 1024  # the per-claim passage indexes over the blocks of large sources
_THRESHOLD_NAMES = tuple(f.name for f in dataclasses.fields(Thresholds))
#: the lexicons of the component's config: config key -> bundled default
LEXICONS = {"lexicon": "lexical", "records": "records", "verdict_words": "verdict", "negation": "negation", "units": "units"}


def _kept(cache: OrderedDict, key, make: Callable[[], object], bound: int):
    """``cache[key]``, made by ``make()`` on a miss; past ``bound`` entries the least recently
    used is dropped. Every cache of the component is kept this way."""
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    value = cache[key] = make()
    while len(cache) > bound:
        cache.popitem(last=False)
    return value


@registry.misc("sourced.rules.v1")
def make_rules(exclude: list[str] = []) -> tuple[Rule, ...]:  # noqa: B006 - a config default, never mutated
    """The decision order of the verdict: :data:`~sourced_nlp.verdict.rules.DEFAULT_RULES`
    without the rules whose function name is in ``exclude`` (``["spread"]``).

    Raises:
        ValueError: a name in ``exclude`` that is no rule of the default order, or one that
            would leave out the last rule (``unverified``, which always decides).
    """
    names = [r.__name__ for r in DEFAULT_RULES]  # type: ignore[attr-defined]
    unknown = [x for x in exclude if x not in names]
    if unknown or "unverified" in exclude:
        raise ValueError(f"sourced.rules.v1: cannot exclude {unknown or ['unverified']}; the rules are {names}")
    return tuple(r for r in DEFAULT_RULES if r.__name__ not in exclude)  # type: ignore[attr-defined]


@registry.misc("sourced.meaning.v1")
def make_meaning(path: str | None = None):
    """The meaning tier (:mod:`sourced_nlp.verdict.rules.meaning`) over a model file: the shipped
    ``models/meaning-v1.json`` when ``path`` is None. ``sourced_verify`` puts it just before the
    last rule; its config key ``meaning: null`` leaves it out (the rules only).

    Raises:
        FileNotFoundError, ValueError: no model file at ``path``, or one of another shape or of
            other features (:meth:`sourced_nlp.verdict.meaning.model.MeaningModel.load`).
    """
    from ..verdict.meaning.model import MeaningModel
    from ..verdict.rules.meaning import MeaningRule

    return MeaningRule(MeaningModel.load(path))


@registry.misc("sourced.word_matcher.v1")
def make_word_matcher() -> WordMatcher:
    """The word matcher of coverage: a claim's lemma is held by a passage when it is among its
    lemmas or the words of its names, another form of the word, or a review verb that agrees
    with the passage's review (:func:`sourced_nlp.verdict.words.word_in`)."""
    return word_in


def validate_config(thresholds: Thresholds, cache_size: int, lazy_parse_chars: int | None = None) -> None:
    """Check the tunables of ``sourced_verify`` before it is built.

    Every float field of :class:`~sourced_nlp.verdict.thresholds.Thresholds` is a share in
    [0, 1]; every int field and ``cache_size`` (how many parsed sources are kept) is a count
    that must be an integer >= 1 (:func:`~sourced_nlp.verdict.thresholds.validate_thresholds`),
    and so must ``lazy_parse_chars`` (the length above which a prose source is parsed only
    where its claims need it) unless it is None (every source parsed whole).

    Raises:
        ValueError: naming the field, the value given and the allowed range, for the first
            field out of range (or not a number: a bool, a string, NaN).
    """
    counts: dict[str, object] = {"cache_size": cache_size}
    if lazy_parse_chars is not None:
        counts["lazy_parse_chars"] = lazy_parse_chars
    validate_thresholds(thresholds, counts)


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
        "rules": {"@misc": "sourced.rules.v1"},
        "word_matcher": {"@misc": "sourced.word_matcher.v1"},
        "judge": None,
        "meaning": {"@misc": "sourced.meaning.v1"},
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
) -> "Verify":
    """Create the verifier; adds the missing upstream sourced components first. The thresholds
    are the fields of :class:`~sourced_nlp.verdict.thresholds.Thresholds`, by name.

    Raises:
        ValueError: a threshold out of range (see :func:`validate_config`), before any
            component is added to ``nlp``.
    """
    given = locals()
    t = Thresholds(**{name: given[name] for name in _THRESHOLD_NAMES})
    validate_config(t, cache_size, lazy_parse_chars)
    for upstream in UPSTREAM:
        if upstream not in nlp.pipe_names:
            nlp.add_pipe(upstream)
    lexicons = {"lexicon": lexicon, "records": records, "verdict_words": verdict_words, "negation": negation, "units": units}
    return Verify(nlp, name, lexicons=lexicons, thresholds=t, cache_size=cache_size,
                  lazy_parse_chars=lazy_parse_chars, require_citations=require_citations, rules=rules, word_matcher=word_matcher,
                  judge=judge, meaning=meaning)


class Verify:
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

    Raises:
        ValueError: a threshold or ``cache_size`` out of range (see :func:`validate_config`).
        FileNotFoundError: a lexicon that is neither bundled nor a file.
    """

    def __init__(self, nlp: Language, name: str, *, lexicons: dict[str, str] | None = None, thresholds: Thresholds,
                 cache_size: int, lazy_parse_chars: int | None = 20_000, require_citations: bool = False, rules: Sequence[Rule] = DEFAULT_RULES,
                 word_matcher: WordMatcher = word_in, judge=None, meaning: Rule | None = None) -> None:
        validate_config(thresholds, cache_size, lazy_parse_chars)
        self.lazy_parse_chars = lazy_parse_chars
        self.meaning = meaning  # the meaning tier: just before the last rule (unverified), when given
        self.judge = judge  # a sourced.judge.*.v1 backend: asked about the claims the rules leave unverified
        self.require_citations = require_citations
        self.nlp = nlp
        self.name = name
        self.thresholds = thresholds
        self.rules = tuple(rules)
        self.word_matcher = word_matcher
        self.cache_size = cache_size
        self._cache: OrderedDict[str, list[dict]] = OrderedDict()
        self._indexes: OrderedDict[tuple, PassageIndex] = OrderedDict()
        self._block_indexes: OrderedDict[str, BlockIndex] = OrderedDict()
        self._blocks: OrderedDict[str, list[dict]] = OrderedDict()
        self._claim_indexes: OrderedDict[tuple, PassageIndex] = OrderedDict()
        self._digests: OrderedDict[int, tuple[str, str]] = OrderedDict()
        self._load_lexicons({**LEXICONS, **(lexicons or {})})

    def _load_lexicons(self, refs: dict[str, str]) -> None:
        self.lexicons = refs
        self.lexical = Lexical(refs["lexicon"])
        self._synonyms: dict[str, list[str]] = {}  # canonical word -> the words that read as it
        for word, canon in self.lexical.canon.items():
            self._synonyms.setdefault(canon, []).append(word)
        self.verdict_lexicon = VerdictLexicon.load(records=refs["records"], verdict=refs["verdict_words"],
                                                   negation=refs["negation"], lexical=refs["lexicon"], units=refs["units"])
        self.verifier = Verifier(
            self.thresholds, self.lexical.opposed, lambda q, t: locate(q, t, min_score=0.9), self.lexical.meta_words,
            rules=self._decision_order(), word_matcher=self.word_matcher, lexicon=self.verdict_lexicon,
        )
        self._indexes.clear()

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
        """Write each lexicon the component reads (``<key>.json`` in ``path``), so that a
        pipeline saved with a lexicon given as a path loads without that path."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        for key, ref in self.lexicons.items():
            srsly.write_json(path / f"{key}.json", load_lexicon(ref))

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "Verify":
        """Read back the lexicons :meth:`to_disk` wrote (a missing file keeps the configured one)."""
        path = Path(path)
        refs = {key: str(path / f"{key}.json") if (path / f"{key}.json").is_file() else ref for key, ref in self.lexicons.items()}
        self._load_lexicons(refs)
        return self

    def index_for(self, sources: list[dict], claims: Sequence[dict] | None = None) -> PassageIndex:
        """The passage index of a list of normalised sources, built once per distinct list (the
        last 8 kept): checking many answers against the same sources builds it once.

        ``claims`` (the claims' feature records) matter only for a prose source longer than
        ``lazy_parse_chars``: its passages are those of the blocks the claims need
        (:meth:`needed_passages`), its word weights estimated over the whole source
        (:meth:`sourced_nlp.components.blocks.BlockIndex.frequency`), and the index is kept per list of
        sources and blocks (the last 1,024 such). ``sourced_verify`` asks for one such index per
        claim, so that a claim's verdict does not depend on the other claims of the answer.
        Without ``claims`` every source is parsed whole."""
        key: tuple = ()
        passages = []
        sampled: dict[str, tuple[float, Callable[[str], float]]] = {}
        for s in sources:
            if claims is not None and self._lazy(s):
                recs, blocks = self.needed_passages(s["text"], claims)
                whole = self._block_indexes[self._digest(s["text"])]
                sampled[s["id"]] = (float(whole.documents), lambda lemma, whole=whole: whole.frequency(lemma, self._synonyms.get(lemma, ())))
            else:
                recs, blocks = self.source_passages(s["text"]), None
            passages.append((s["id"], recs, bool(s.get("structured"))))
            key += ((s["id"], self._digest(s["text"]), bool(s.get("structured")), blocks),)
        kept, bound = (self._claim_indexes, _CLAIM_INDEXES_KEPT) if sampled else (self._indexes, _INDEXES_KEPT)
        return _kept(kept, key, lambda: PassageIndex(
            passages, frozenset(self.lexical.relation_words), self.lexical.review_sentiment, self.lexical.canon,
            lexicon=self.verdict_lexicon, text_value_words=self.thresholds.text_value_words, sampled=sampled or None,
        ), bound)

    def _digest(self, text: str) -> str:
        """The SHA-1 of a source text, remembered for the last 16 text objects (a large source's
        hash is asked for once per claim)."""
        got = self._digests.get(id(text))
        if got is not None and got[0] is text:  # the text is held, so its id is not reused
            self._digests.move_to_end(id(text))
            return got[1]
        digest = hashlib.sha1(text.encode("utf8")).hexdigest()
        self._digests[id(text)] = (text, digest)
        while len(self._digests) > 16:
            self._digests.popitem(last=False)
        return digest

    def _lazy(self, source: dict) -> bool:
        """Whether a source is parsed only where claims need it: prose longer than ``lazy_parse_chars``."""
        return self.lazy_parse_chars is not None and not source.get("structured") and len(source["text"]) > self.lazy_parse_chars

    def needed_passages(self, text: str, claims: Sequence[dict]) -> tuple[list[dict], tuple[int, ...]]:
        """The passage records of the blocks of ``text`` that ``claims`` need
        (:meth:`sourced_nlp.components.blocks.BlockIndex.select`), offsets into the whole text, in order,
        and those blocks' ids. The cheap index of a text is kept for the last 4 texts (by SHA-1);
        a block's parse for the last 4,096 blocks (by the SHA-1 of its text). Needed blocks next to
        each other are parsed together only where the first ends inside a sentence
        (:meth:`sourced_nlp.components.blocks.BlockIndex.units`)."""
        blocks = _kept(self._block_indexes, self._digest(text), lambda: BlockIndex(text), _BLOCK_INDEXES_KEPT)
        ids = tuple(blocks.select(claims))
        passages: list[dict] = []
        for first, last in blocks.units(ids):  # a block on its own, or run on across a cut inside a sentence
            start = blocks.blocks[first][0]
            unit = text[start:blocks.blocks[last][0] + len(blocks.blocks[last][1])]
            passages.extend(shift_passage(rec, start, len(passages) + k) for k, rec in enumerate(self._block_passages(unit)))
        return passages, ids

    def _block_passages(self, block: str) -> list[dict]:
        """The passage records of one block, or of blocks parsed together (their own offsets),
        cached by the SHA-1 of the text."""
        key = hashlib.sha1(block.encode("utf8")).hexdigest()
        return _kept(self._blocks, key, lambda: self._parse_passages(block), _BLOCKS_KEPT)

    def source_passages(self, text: str) -> list[dict]:
        """Passage records of one source text, parsed by the upstream components (cached by the
        text's SHA-1). A text longer than a part (:data:`sourced_nlp.components.parts.PART_CHARS`, or
        ``nlp.max_length`` when smaller) is parsed in parts, one at a time
        (:func:`sourced_nlp.components.parts.split_parts`), its records' offsets moved into the whole text."""
        return _kept(self._cache, self._digest(text), lambda: self._parse_in_parts(text), self.cache_size)

    def _parse_in_parts(self, text: str) -> list[dict]:
        """The passage records of a text, parsed whole or, when longer than a part, in parts."""
        parts = split_parts(text, min(PART_CHARS, self.nlp.max_length))
        if len(parts) == 1:
            return self._parse_passages(text)
        passages: list[dict] = []
        for start, part in parts:
            passages.extend(shift_passage(rec, start, len(passages) + k) for k, rec in enumerate(self._parse_passages(part)))
        return passages

    def _parse_passages(self, text: str) -> list[dict]:
        """The passage records of one text (at most ``nlp.max_length`` characters) through the
        components before this one; the doc itself is not kept."""
        doc = self.nlp.make_doc(text)
        for pname, proc in self.nlp.pipeline:
            if pname == self.name:
                break
            doc = proc(doc)
        return doc._.passages or []

    def __call__(self, doc: Doc) -> Doc:
        raw = doc._.sources
        sources = normalize_sources(raw) if raw else []
        records = {(r["start"], r["end"]): r for r in (doc._.passages or [])}
        # a large prose source is parsed in the blocks each claim needs: one index per claim
        per_claim = any(self._lazy(s) for s in sources)
        index = None if per_claim else self.index_for(sources)
        texts = {s["id"]: s["text"] for s in sources}

        shared_cited = None if per_claim else self._cited_verifier(rec_sources=sources)
        shared_quantities = None if index is None else [q for p in index.passages for _, q in p.quantities]

        def index_of(rec: dict) -> PassageIndex:
            return self.index_for(sources, [rec]) if index is None else index

        def candidates_of(claim: dict) -> list:
            rec = records.get((claim["start"], claim["end"]))
            return judges.candidates(index_of(rec), rec) if rec is not None else []

        findings: list[dict] = []
        claims_out: list[dict] = []
        relabelled: list[Span] = []
        for span in doc.spans.get(extensions.CLAIMS_KEY, []):
            rec = records.get((span.start_char, span.end_char))
            extra: dict = {}
            if not sources:
                result = no_sources()
            elif rec is None:
                result = no_features()
            else:  # citations: the cited sources first (the verdict's cited rule), statuses in provenance.py
                claim_index = index_of(rec)
                verify_cited = shared_cited or self._cited_verifier(rec_sources=sources, claims=[rec])
                source_quantities = (shared_quantities if shared_quantities is not None
                                     else [q for p in claim_index.passages for _, q in p.quantities])
                rec = provenance.claim_record(rec, span._.citations)
                result, extra, found = provenance.check_claim(
                    rec, list(span._.citations or []), sources, self._verdict(rec, claim_index, texts, verify_cited),
                    source_quantities, len(claims_out))
                findings.extend(found)
            result = dict(result)
            rule = result.pop("rule")
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
                    "rule": rule,
                }
            )
        if self.judge is not None:  # the judge tier (sourced_nlp.judges), after every rule
            relabelled = judges.judge_doc(self.judge, doc, relabelled, claims_out, findings, sources,
                                          candidates_of)
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

    def _verdict(self, rec: dict, index: PassageIndex, texts: dict[str, str], verify_cited):
        """``verdict(cited_ids) -> result``: the claim's verdict against every source, its cited
        sources (``cited_ids``, when any) judged first by the ``cited`` rule."""

        def verdict(ids: list[str]) -> dict:
            cited = CitedSources(ids, lambda chosen: verify_cited(rec, chosen)) if ids else None
            return self.verifier.verify(rec, index, texts, cited)

        return verdict

    def _cited_verifier(self, rec_sources: list[dict], claims: Sequence[dict] | None = None):
        """``verify(rec, source_ids)``: a claim's verdict against those sources only (indexes
        cached per set of ids for the doc)."""
        indexes: dict[tuple, tuple] = {}

        def verify(rec: dict, ids: list[str]) -> dict:
            key = tuple(sorted(ids))
            if key not in indexes:
                subset = [s for s in rec_sources if s["id"] in ids]
                indexes[key] = (self.index_for(subset, claims), {s["id"]: s["text"] for s in subset})
            idx, texts = indexes[key]
            return self.verifier.verify(rec, idx, texts)

        return verify
