"""The parse of a token record list (:mod:`sourced_nlp.components.passages`): the fields of a
token record, read by name (:class:`Token`, :func:`tokens`), and the walks of its dependency tree
the guard reads (:mod:`.guard`): heads, children, subtrees, the clause and subject of a word, the
predicate of a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from .passage import Passage

# the fields of a token record (sourced_nlp.components.passages.Passages.tokens), by index
LEMMA, POS, TAG, DEP, HEAD, START, END, FLAG, RAW = range(9)


class Token:
    """One word of a token record list, its fields by name (the record is a plain list, in this
    order, so that it caches, pickles and serialises as it is: :func:`tokens` reads it).

    ``lemma``: the canonical content lemma; ``pos``/``tag``/``dep``: spaCy's part of speech, tag
    and dependency label; ``head``: the index of the head in the list (-1: the root, or a head
    outside the span); ``start``/``end``: character offsets from the record's start; ``flag``:
    ``"n"`` a word of a name or value, ``"a"`` an article or pronoun, ``"o"`` an ordinal, else
    ``""``; ``raw``: spaCy's lemma in lower case. Plain slots: the guard reads them in its inner
    loops, and a slot is read faster than a list item or a named tuple's field."""

    __slots__ = ("lemma", "pos", "tag", "dep", "head", "start", "end", "flag", "raw")

    def __init__(
        self, lemma: str, pos: str, tag: str, dep: str, head: int, start: int, end: int, flag: str, raw: str
    ) -> None:
        self.lemma, self.pos, self.tag, self.dep, self.head = lemma, pos, tag, dep, head
        self.start, self.end, self.flag, self.raw = start, end, flag, raw

    def fields(self) -> tuple:
        """The fields in the record's order (``[lemma, pos, tag, dep, head, start, end, flag, raw]``)."""
        return (self.lemma, self.pos, self.tag, self.dep, self.head, self.start, self.end, self.flag, self.raw)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Token) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return f"Token{self.fields()!r}"


#: the words of the token lists read lately, by the list's identity (the list is kept with them,
#: so that its id is not reused while it is here): a source's passages are read for every claim
_TOKENS: dict[int, tuple[list, list[Token]]] = {}


def tokens(records: Sequence[Sequence]) -> list[Token]:
    """The token records of a span (a feature record's ``tokens``) as :class:`Token` s, in order:
    one per record, its fields by name. Built once per list while the list is read."""
    hit = _TOKENS.get(id(records))
    if hit is None or hit[0] is not records or len(hit[1]) != len(records):
        if len(_TOKENS) >= 4096:
            _TOKENS.clear()
        hit = _TOKENS[id(records)] = (records, [Token(*r) for r in records])  # type: ignore[assignment]
    return hit[1]


def _word_class(t: Token) -> str:
    """A coarse class of the word for its slot: a predicate (verb, adjective), a noun, an
    adverb, a determiner or other."""
    pos = t.pos
    if pos in ("VERB", "ADJ"):
        return "predicate"
    if pos in ("NOUN", "PROPN", "NUM"):
        return "noun"
    return pos


def _is_predicate(toks: list[Token], i: int) -> bool:
    """The word is what its sentence states: the root, or the complement of a root "be"."""
    t = toks[i]
    if t.head < 0:
        return True
    return t.dep in ("acomp", "attr", "oprd") and toks[t.head].head < 0 and toks[t.head].pos == "AUX"


def _root(toks: list[Token]) -> int:
    return next((i for i, t in enumerate(toks) if t.head < 0 and t.pos not in ("PUNCT", "SPACE")), 0)


def _subject(toks: list[Token], v: int) -> int | None:
    """The subject of the clause headed by ``v`` (a conjoined verb's from the verb it joins)."""
    for _ in range(3):
        s = next((i for i in _children(toks, v) if toks[i].dep in ("nsubj", "nsubjpass")), None)
        if s is not None:
            return s
        if toks[v].dep != "conj" or toks[v].head < 0:
            return None
        v = toks[v].head
    return None


def _clause(toks: list[Token], j: int) -> int | None:
    """The verb (or root "be") whose clause holds word ``j``."""
    for a in [j, *_ancestors(toks, j, 6)]:
        if toks[a].pos in ("VERB", "AUX") and (
            toks[a].dep in ("ROOT", "conj", "ccomp", "advcl", "relcl") or toks[a].head < 0
        ):
            return a
    return None


def _subtree(toks: list[Token], i: int) -> list[int]:
    out, todo = [i], [i]
    while todo:
        k = todo.pop()
        for c in _children(toks, k):
            out.append(c)
            todo.append(c)
    return sorted(out)


def _negated(toks: list[Token], k: int) -> bool:
    """The word is denied where it stands ("not all"): a negation just before it or on it."""
    return any(
        toks[i].dep == "neg" or toks[i].lemma in ("not", "n't") for i in (*range(max(0, k - 2), k), *_children(toks, k))
    )


#: the children of every word of the token lists read lately, by the list's identity (the list is
#: kept with them, so that its id is not reused while it is here); a sentence of n words asked
#: for the children of each word cost n * n steps without it
_KIDS: dict[int, tuple[list, list[list[int]]]] = {}


def _children(toks: list[Token], i: int) -> list[int]:
    """The words whose head is word ``i``, in order."""
    hit = _KIDS.get(id(toks))
    if hit is None or hit[0] is not toks or len(hit[1]) != len(toks):
        kids: list[list[int]] = [[] for _ in toks]
        for j, t in enumerate(toks):
            if 0 <= t.head < len(toks):
                kids[t.head].append(j)
        if len(_KIDS) >= 256:
            _KIDS.clear()
        hit = _KIDS[id(toks)] = (toks, kids)
    return list(hit[1][i]) if 0 <= i < len(toks) else []


def _text(p: Passage, tok: Token) -> str:
    return p.f["text"][tok.start : tok.end]


def _ancestors(toks: list[Token], i: int, depth: int = 3) -> list[int]:
    out = []
    while depth and toks[i].head >= 0:
        i = toks[i].head
        out.append(i)
        depth -= 1
    return out
