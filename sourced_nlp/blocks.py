"""A large source read cheaply first: blocks, a BM25 index over their words, and the blocks a
claim needs parsed.

Parsing every sentence of a long source with the full pipeline (tagger, parser, NER and the
sourced components) costs far more than the claims need: a claim is compared with a shortlist
of passages (``max_candidates``), and a 550 KB source has thousands. So ``sourced_verify``
reads a source longer than ``lazy_parse_chars`` this way:

1. :class:`BlockIndex` cuts it into blocks of at most :data:`BLOCK_CHARS` characters (at a
   blank line, else a sentence end: :func:`sourced_nlp.parts.split_parts`) and indexes each
   block's words without spaCy: lower-cased, numbers without their thousands separators
   ("1,234" -> "1234"), other words cut to their first :data:`STEM_CHARS` letters, a crude
   stem that lets "reported" find "reporting". The cost grows with the source at regex speed.
2. :meth:`BlockIndex.select` ranks the blocks for each claim by BM25 (k1 = 1.2, b = 0.75, the
   usual defaults) over the claim's words, lemmas, names and values, then re-ranks the best
   ones by the share of the claim's word pairs they hold in order, so that a claim copied word
   for word from one of many similar lines finds that line. It keeps the best
   :data:`BLOCKS_PER_CLAIM`, the blocks on either side of the best one (a claim spread over
   sentences), and, for every number and name of the claim, the best block that holds it, so
   that a value or name found somewhere in the source is never taken for one found nowhere.
3. Only the selected blocks go through the pipeline, each once (cached by content hash in the
   component), and the verdict's passage index is built from their passages.

Nothing here changes a source of ``lazy_parse_chars`` characters or fewer: it is parsed whole,
as before.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from .parts import split_parts

__all__ = ["BLOCK_CHARS", "BLOCKS_PER_CLAIM", "STEM_CHARS", "BlockIndex", "terms"]

#: the most characters of a block (a few sentences); the unit of the cheap index and of a parse
BLOCK_CHARS = 600

#: how many of a claim's best-ranked blocks are parsed (besides its best block's neighbours and
#: the blocks that hold its numbers and names)
BLOCKS_PER_CLAIM = 4

#: a word longer than this many letters is indexed by its first this-many letters
STEM_CHARS = 6

# a number (digits with separators and decimals) or a word of letters
_WORD = re.compile(r"\d[\d,]*(?:\.\d+)?|[^\W\d_]+")
# words too common to rank by (BM25 would weigh them near zero anyway; this keeps posting lists short)
_STOP = frozenset(
    "a an and are as at be been but by for from had has have he her his i in is it its not of on or "
    "our she so than that the their them there these they this to was we were which who will with you".split()
)
_K1, _B = 1.2, 0.75


def _term(word: str) -> str:
    """The index term of one word or number (see the module docstring)."""
    if word[0].isdigit():
        return word.replace(",", "").rstrip(".")
    word = word.lower()
    return word[:STEM_CHARS]


def terms(text: str) -> list[str]:
    """The index terms of a text, in order, stop words left out.

    >>> terms("Revenue rose to $1,234.5 million in 2023.")
    ['revenu', 'rose', '1234.5', 'millio', '2023']
    """
    return [t for w in _WORD.findall(text) if (t := _term(w)) and t not in _STOP]


def _pairs(words: list[str]) -> set[tuple[str, str]]:
    return set(zip(words, words[1:]))


class BlockIndex:
    """The blocks of one source and a BM25 index over their terms.

    Args:
        text: the source text.
        block_chars: the most characters of a block (:data:`BLOCK_CHARS`).

    Attributes:
        blocks: ``[(start, block_text), ...]``, consecutive, joined they are ``text``.
        postings: term -> ``{block id: term frequency}``.
        lengths: the number of terms of each block.
    """

    def __init__(self, text: str, block_chars: int = BLOCK_CHARS) -> None:
        self.blocks = split_parts(text, block_chars)
        self.postings: dict[str, dict[int, int]] = {}
        self.lengths: list[int] = []
        for bid, (_, block) in enumerate(self.blocks):
            ts = terms(block)
            self.lengths.append(len(ts))
            for t in ts:
                row = self.postings.setdefault(t, {})
                row[bid] = row.get(bid, 0) + 1
        n = len(self.blocks)
        self.avg_length = (sum(self.lengths) / n) if n else 0.0
        self._n = n

    def idf(self, term: str) -> float:
        """BM25's IDF of a term, ``ln(1 + (N - df + 0.5) / (df + 0.5))``; 0 for a term no block holds."""
        df = len(self.postings.get(term, ()))
        return math.log(1 + (self._n - df + 0.5) / (df + 0.5)) if df else 0.0

    def scores(self, query: Iterable[str]) -> dict[int, float]:
        """BM25 score of every block that shares a term with the query (its terms, each counted once)."""
        score: dict[int, float] = {}
        for t in dict.fromkeys(query):
            row = self.postings.get(t)
            if not row:
                continue
            w = self.idf(t)
            for bid, tf in row.items():
                norm = _K1 * (1 - _B + _B * self.lengths[bid] / self.avg_length)
                score[bid] = score.get(bid, 0.0) + w * tf * (_K1 + 1) / (tf + norm)
        return score

    def rank(self, score: dict[int, float], words: list[str], limit: int = BLOCKS_PER_CLAIM) -> list[int]:
        """The ``limit`` best blocks by ``score`` (:meth:`scores`), best first, ties by position;
        the best ``4 * limit`` re-ranked by the share of the claim's word pairs (``words``, its
        terms in order) each holds in order: a score times ``1 + share``."""
        ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))[: 4 * limit]
        pairs = _pairs(words)
        if pairs:
            ranked = sorted(((bid, s * (1 + len(pairs & _pairs(terms(self.blocks[bid][1]))) / len(pairs))) for bid, s in ranked),
                            key=lambda kv: (-kv[1], kv[0]))
        return [bid for bid, _ in ranked[:limit]]

    def select(self, claims: Iterable[dict], per_claim: int = BLOCKS_PER_CLAIM) -> list[int]:
        """The blocks the claims need parsed (see the module docstring), in source order.

        Args:
            claims: the claims' feature records (``text``, ``lemmas``, ``entities``, ``quantities``
                of :class:`~sourced_nlp.verdict.types.FeatureRecord`).
            per_claim: how many best-ranked blocks per claim (:data:`BLOCKS_PER_CLAIM`).

        Returns:
            sorted block ids, each once.
        """
        chosen: set[int] = set()
        for claim in claims:
            words = terms(claim["text"])
            anchors = [t for t in words if t[0].isdigit()]
            for a in claim.get("entities") or ():
                for name in (a["key"], *a.get("aliases", ())):
                    anchors.extend(terms(name))
            for q in claim.get("quantities") or ():
                anchors.extend(t for t in terms(q.get("text") or "") if t[0].isdigit())
            lemmas = [_term(x) for x in claim.get("lemmas") or () if x and _WORD.fullmatch(x)]
            score = self.scores(t for t in (*words, *lemmas, *anchors) if t not in _STOP)
            best = self.rank(score, words, per_claim)
            chosen.update(best)
            if best:
                chosen.update(b for b in (best[0] - 1, best[0] + 1) if 0 <= b < self._n)
            for t in dict.fromkeys(anchors):
                # the best-scored block that holds the claim's number or name, so that a value
                # found somewhere in the source is among the passages compared
                row = self.postings.get(t)
                if row:
                    chosen.add(min(row, key=lambda bid: (-score.get(bid, 0.0), bid)))
        return sorted(chosen)
