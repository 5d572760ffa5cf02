"""The sources of a check as the verdict reads them: each source's passage records, parsed once
by the components before ``sourced_verify`` and cached by content, and the passage index of a
list of sources (:class:`~sourced_nlp.verdict.index.PassageIndex`), kept for re-use.

A prose source longer than ``lazy_parse_chars`` is read cheaply first (:mod:`.blocks`) and only
the blocks a claim needs are parsed; a source longer than a part is parsed in parts
(:mod:`.parts`). Every cache is a bounded LRU (:func:`_kept`); the bounds are below.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence

from spacy.language import Language

from ..verdict import PassageIndex, Thresholds, VerdictLexicon
from .blocks import BlockIndex
from .parts import PART_CHARS, shift_passage, split_parts
from .passages import Lexical

_INDEXES_KEPT = 8
_BLOCK_INDEXES_KEPT = 4  # the cheap indexes of large sources (a 5 MB source's is about 100 MB)
_BLOCKS_KEPT = 4096  # parsed blocks of large sources (at most 600 characters each)
_CLAIM_INDEXES_KEPT = 1024  # the per-claim passage indexes over the blocks of large sources


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


class SourceIndexer:
    """Parses and indexes sources for ``sourced_verify`` (see the module docstring).

    Args:
        nlp: the pipeline; its components before ``name`` parse the sources.
        name: the name of the component this indexer serves (parsing stops before it).
        thresholds: the verdict's tunables (``text_value_words`` shapes the index).
        cache_size: how many sources' passage records to keep.
        lazy_parse_chars: a prose source longer than this is parsed only where claims need it;
            None: every source is parsed whole.
    """

    def __init__(
        self, nlp: Language, name: str, thresholds: Thresholds, cache_size: int, lazy_parse_chars: int | None
    ) -> None:
        self.nlp = nlp
        self.name = name
        self.thresholds = thresholds
        self.cache_size = cache_size
        self.lazy_parse_chars = lazy_parse_chars
        self._cache: OrderedDict[str, list[dict]] = OrderedDict()
        self._indexes: OrderedDict[tuple, PassageIndex] = OrderedDict()
        self._block_indexes: OrderedDict[str, BlockIndex] = OrderedDict()
        self._blocks: OrderedDict[str, list[dict]] = OrderedDict()
        self._claim_indexes: OrderedDict[tuple, PassageIndex] = OrderedDict()
        self._digests: OrderedDict[int, tuple[str, str]] = OrderedDict()

    def use_lexicons(self, lexical: Lexical, verdict_lexicon: VerdictLexicon) -> None:
        """The lexicons the indexes are built with; the kept indexes of whole sources are dropped."""
        self.lexical = lexical
        self.verdict_lexicon = verdict_lexicon
        self._synonyms: dict[str, list[str]] = {}  # canonical word -> the words that read as it
        for word, canon in lexical.canon.items():
            self._synonyms.setdefault(canon, []).append(word)
        self._indexes.clear()

    def clear(self) -> None:
        """Forget every parsed source, block and index."""
        for cache in (
            self._cache,
            self._indexes,
            self._block_indexes,
            self._blocks,
            self._claim_indexes,
            self._digests,
        ):
            cache.clear()

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
            if claims is not None and self.lazy(s):
                recs, blocks = self.needed_passages(s["text"], claims)
                whole = self._block_indexes[self._digest(s["text"])]
                sampled[s["id"]] = (
                    float(whole.documents),
                    lambda lemma, whole=whole: whole.frequency(lemma, self._synonyms.get(lemma, ())),
                )
            else:
                recs, blocks = self.source_passages(s["text"]), None
            passages.append((s["id"], recs, bool(s.get("structured"))))
            key += ((s["id"], self._digest(s["text"]), bool(s.get("structured")), blocks),)
        kept, bound = (self._claim_indexes, _CLAIM_INDEXES_KEPT) if sampled else (self._indexes, _INDEXES_KEPT)
        return _kept(
            kept,
            key,
            lambda: PassageIndex(
                passages,
                frozenset(self.lexical.relation_words),
                self.lexical.review_sentiment,
                self.lexical.canon,
                lexicon=self.verdict_lexicon,
                text_value_words=self.thresholds.text_value_words,
                sampled=sampled or None,
            ),
            bound,
        )

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

    def lazy(self, source: dict) -> bool:
        """Whether a source is parsed only where claims need it: prose longer than ``lazy_parse_chars``."""
        return (
            self.lazy_parse_chars is not None
            and not source.get("structured")
            and len(source["text"]) > self.lazy_parse_chars
        )

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
            unit = text[start : blocks.blocks[last][0] + len(blocks.blocks[last][1])]
            passages.extend(
                shift_passage(rec, start, len(passages) + k) for k, rec in enumerate(self._block_passages(unit))
            )
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
            passages.extend(
                shift_passage(rec, start, len(passages) + k) for k, rec in enumerate(self._parse_passages(part))
            )
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
