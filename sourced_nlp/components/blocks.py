"""A large source read cheaply first: blocks, a BM25 index over their words, and the blocks a
claim needs parsed.

Parsing every sentence of a long source with the full pipeline (tagger, parser, NER and the
sourced components) costs far more than the claims need: a claim is compared with a shortlist
of passages (``max_candidates``), and a 550 KB source has thousands. So ``sourced_verify``
reads a source longer than ``lazy_parse_chars`` this way:

1. :class:`BlockIndex` cuts it into blocks of whole sentences (:func:`cut_blocks`: sentences and
   lines packed up to :data:`BLOCK_CHARS` characters, a block never ending inside a sentence
   shorter than three blocks) and indexes each block's words without spaCy: lower-cased,
   numbers without their thousands separators ("1,234" -> "1234"), other words cut to their
   first :data:`STEM_CHARS` letters, a crude stem that lets "reported" find "reporting"; and
   each number by its value with its scale word (:func:`values`: "$3.2 million", "$3,200,000"
   and "3.2m" are all ``=3200000``). The cost grows with the source at regex speed.
2. :meth:`BlockIndex.select` ranks the blocks for each claim by BM25 (k1 = 1.2, b = 0.75, the
   usual defaults) over the claim's words, lemmas, names and values, then re-ranks the best
   ones by the share of the claim's word pairs they hold in order, so that a claim copied word
   for word from one of many similar lines finds that line. It keeps the best
   :data:`BLOCKS_PER_CLAIM`, the blocks on either side of the best one (a claim spread over
   sentences), and, for every number, value and name word of the claim, the best block that
   holds it, so that a value or name found somewhere in the source is among the passages the
   claim is compared with.
3. Only the selected blocks go through the pipeline, each once (cached by content hash in the
   component); each claim gets its own passage index over its blocks, its word weights
   estimated over the whole source (:meth:`BlockIndex.frequency`), so that a claim's verdict
   does not depend on the other claims of the answer.

Nothing here changes a source of ``lazy_parse_chars`` characters or fewer: it is parsed whole,
as before.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

__all__ = ["BLOCK_CHARS", "BLOCKS_PER_CLAIM", "STEM_CHARS", "BlockIndex", "cut_blocks", "terms", "values"]

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
# a number and the scale word after it, for its value ("3.2 million", "1.5bn", "12k")
_VALUE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s?(thousand|million|billion|trillion|mln|mn|bn|tn|k|m|b)?\b", re.I)
_SCALE = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "mln": 1e6,
    "mn": 1e6,
    "m": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
}
# where a sentence or a line ends (the end of a segment of :func:`cut_blocks`)
_SEGMENT_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+|\n\s*")
_SPACE = re.compile(r"\s+")
_HARD_END = re.compile(r"(?:[.!?][\"'\u201d\u2019)\]]*\s+|\n\s*)\Z")


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


def value_term(value: float) -> str:
    """The index term of a number's value: ``=`` and the value rounded to 9 significant digits
    (written as a whole number when it is one: ``=1500000000``, ``=3.25``)."""
    v = float(format(value, ".9g"))
    return "=" + (str(int(v)) if v.is_integer() and abs(v) < 1e18 else repr(v))


def values(text: str) -> list[str]:
    """The value terms of the numbers of a text, a scale word after a number applied.

    >>> values("$3.2 million, $3,200,000 and 3.2m; 40% in 2019")
    ['=3200000', '=3200000', '=3200000', '=40', '=2019']
    """
    out = []
    for m in _VALUE.finditer(text):
        try:
            number = float(m.group(1).replace(",", ""))
        except ValueError:  # "1,2,3": not one number
            continue
        out.append(value_term(number * _SCALE.get((m.group(2) or "").lower(), 1.0)))
    return out


def cut_blocks(text: str, size: int = BLOCK_CHARS) -> list[tuple[int, str]]:
    """Cut ``text`` into consecutive blocks of whole sentences.

    The text's segments (each ends after a sentence end and its spaces, or after a line
    break) are packed in order into blocks of at most ``size`` characters; a segment longer
    than ``size`` is a block of its own, and only one longer than ``3 * size`` is cut, at the
    spaces between words, into pieces of at most ``size``.

    Returns:
        ``[(start, block), ...]``; joined, the blocks are ``text``.

    Raises:
        ValueError: ``size`` below 2.
    """
    if size < 2:
        raise ValueError(f"cut_blocks: a block of {size} characters is too small (at least 2)")
    ends = [m.end() for m in _SEGMENT_END.finditer(text)]
    if not ends or ends[-1] != len(text):
        ends.append(len(text))
    pieces: list[tuple[int, int]] = []
    start = 0
    for end in ends:
        if end - start > 3 * size:
            pieces.extend(_cut_at_spaces(text, start, end, size))
        elif end > start:
            pieces.append((start, end))
        start = end
    blocks: list[tuple[int, str]] = []
    head = tail = 0
    for a, b in pieces:
        if b - head > size and tail > head:
            blocks.append((head, text[head:tail]))
            head = a
        tail = b
    if tail > head:
        blocks.append((head, text[head:tail]))
    return blocks


def _cut_at_spaces(text: str, start: int, end: int, size: int) -> list[tuple[int, int]]:
    """A run of text without a sentence end, in pieces of at most ``size`` cut after spaces."""
    out = []
    while end - start > size:
        cut = None
        for m in _SPACE.finditer(text, start + size // 2, start + size):
            cut = m.end()
        cut = cut if cut is not None and cut > start else start + size
        out.append((start, cut))
        start = cut
    out.append((start, end))
    return out


def pair_terms(ts: list[str]) -> list[str]:
    """The index terms of the word pairs of a text, from its terms in order (``"parkin plan"``):
    a rare pair weighs a block that says what the claim says, word next to word, above blocks
    that only repeat the claim's words apart."""
    return [f"{a} {b}" for a, b in zip(ts, ts[1:])]


def _pairs(words: list[str]) -> set[tuple[str, str]]:
    return set(zip(words, words[1:]))


class BlockIndex:
    """The blocks of one source and a BM25 index over their terms.

    Args:
        text: the source text.
        block_chars: the most characters of a block (:data:`BLOCK_CHARS`).

    Attributes:
        blocks: ``[(start, block_text), ...]``, consecutive, joined they are ``text``.
        soft: the ids of the blocks that end inside a sentence (a run of more than three blocks
            without a sentence end, cut at a space): such a block is parsed together with the
            next one when both are needed (:meth:`units`).
        postings: term -> ``{block id: term frequency}``.
        lengths: the number of terms of each block.
        sentences: the number of sentences and lines of each block (at least 1), the passages a
            parse would give, about; ``documents`` their sum.
    """

    def __init__(self, text: str, block_chars: int = BLOCK_CHARS) -> None:
        self.blocks = cut_blocks(text, block_chars)
        self.postings: dict[str, dict[int, int]] = {}
        self.lengths: list[int] = []
        self.sentences: list[int] = []
        self._frequency: dict[tuple[str, ...], float] = {}
        self._pair_sets: dict[int, set[tuple[str, str]]] = {}
        for bid, (_, block) in enumerate(self.blocks):
            self.sentences.append(max(1, len(_SEGMENT_END.findall(block.rstrip())) + 1))
            ts = terms(block)
            self.lengths.append(len(ts))
            for t in (*ts, *pair_terms(ts), *values(block)):
                row = self.postings.setdefault(t, {})
                row[bid] = row.get(bid, 0) + 1
        self.soft = {bid for bid, (start, block) in enumerate(self.blocks[:-1]) if not _HARD_END.search(block)}
        n = len(self.blocks)
        self.documents = sum(self.sentences)
        self.avg_length = (sum(self.lengths) / n) if n else 0.0
        self._n = n

    def frequency(self, word: str, also: Iterable[str] = ()) -> float:
        """About how many of the source's passages hold ``word`` (a lemma) or one of ``also``
        (the words of its synonym group, which a parse would read as it): over the blocks that
        hold one of their terms (:func:`terms`), their count in each, at most the block's
        sentences."""
        group = tuple(sorted({ts[0] for w in (word, *also) if len(ts := terms(w)) == 1}))
        if not group:
            return 0.0
        f = self._frequency.get(group)
        if f is None:
            counts: dict[int, int] = {}
            for t in group:
                for bid, tf in self.postings.get(t, {}).items():
                    counts[bid] = counts.get(bid, 0) + tf
            f = self._frequency[group] = float(sum(min(tf, self.sentences[bid]) for bid, tf in counts.items()))
        return f

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
        the best ``8 * limit`` re-ranked by the share of the claim's word pairs (``words``, its
        terms in order) each holds in order: a score times ``1 + share``."""
        ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))[: 8 * limit]
        pairs = _pairs(words)
        if pairs:
            ranked = sorted(
                ((bid, s * (1 + len(pairs & self._block_pairs(bid)) / len(pairs))) for bid, s in ranked),
                key=lambda kv: (-kv[1], kv[0]),
            )
        return [bid for bid, _ in ranked[:limit]]

    def _block_pairs(self, bid: int) -> set[tuple[str, str]]:
        """The word pairs of a block, in order (kept once read: the same blocks are re-ranked for
        many claims and re-checks)."""
        got = self._pair_sets.get(bid)
        if got is None:
            got = self._pair_sets[bid] = _pairs(terms(self.blocks[bid][1]))
        return got

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
            anchors.extend(values(claim["text"]))
            for q in claim.get("quantities") or ():
                anchors.extend(t for t in terms(q.get("text") or "") if t[0].isdigit())
                anchors.extend(value_term(float(q[k])) for k in ("low", "high") if isinstance(q.get(k), (int, float)))
            lemmas = [_term(x) for x in claim.get("lemmas") or () if x and _WORD.fullmatch(x)]
            score = self.scores(t for t in (*words, *pair_terms(words), *lemmas, *anchors) if t not in _STOP)
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

    def units(self, ids: Iterable[int]) -> list[tuple[int, int]]:
        """The parses that the blocks ``ids`` need: ``[(first block, last block), ...]`` in order,
        each block once; consecutive blocks share a parse only across a cut inside a sentence
        (:attr:`soft`), so a block that ends at a sentence end is always parsed on its own."""
        out: list[list[int]] = []
        for bid in sorted(set(ids)):
            if out and out[-1][1] == bid - 1 and bid - 1 in self.soft:
                out[-1][1] = bid
            else:
                out.append([bid, bid])
        return [(a, b) for a, b in out]
