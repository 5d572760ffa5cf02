"""The parse of a token record list (:mod:`sourced_nlp.components.passages`): the fields of a
token record and the walks of its dependency tree the guard reads (:mod:`.guard`): heads,
children, subtrees, the clause and subject of a word, the predicate of a sentence.
"""

from __future__ import annotations

from .passage import Passage

# the fields of a token record (sourced_nlp.components.passages.Passages.tokens)
LEMMA, POS, TAG, DEP, HEAD, START, END, FLAG, RAW = range(9)


def _word_class(t: list) -> str:
    """A coarse class of the word for its slot: a predicate (verb, adjective), a noun, an
    adverb, a determiner or other."""
    pos = t[POS]
    if pos in ("VERB", "ADJ"):
        return "predicate"
    if pos in ("NOUN", "PROPN", "NUM"):
        return "noun"
    return pos


def _is_predicate(toks: list[list], i: int) -> bool:
    """The word is what its sentence states: the root, or the complement of a root "be"."""
    t = toks[i]
    if t[HEAD] < 0:
        return True
    return t[DEP] in ("acomp", "attr", "oprd") and toks[t[HEAD]][HEAD] < 0 and toks[t[HEAD]][POS] == "AUX"


def _root(toks: list[list]) -> int:
    return next((i for i, t in enumerate(toks) if t[HEAD] < 0 and t[POS] not in ("PUNCT", "SPACE")), 0)


def _subject(toks: list[list], v: int) -> int | None:
    """The subject of the clause headed by ``v`` (a conjoined verb's from the verb it joins)."""
    for _ in range(3):
        s = next((i for i in _children(toks, v) if toks[i][DEP] in ("nsubj", "nsubjpass")), None)
        if s is not None:
            return s
        if toks[v][DEP] != "conj" or toks[v][HEAD] < 0:
            return None
        v = toks[v][HEAD]
    return None


def _clause(toks: list[list], j: int) -> int | None:
    """The verb (or root "be") whose clause holds word ``j``."""
    for a in [j, *_ancestors(toks, j, 6)]:
        if toks[a][POS] in ("VERB", "AUX") and (toks[a][DEP] in ("ROOT", "conj", "ccomp", "advcl", "relcl") or toks[a][HEAD] < 0):
            return a
    return None


def _subtree(toks: list[list], i: int) -> list[int]:
    out, todo = [i], [i]
    while todo:
        k = todo.pop()
        for c in _children(toks, k):
            out.append(c)
            todo.append(c)
    return sorted(out)


def _negated(toks: list[list], k: int) -> bool:
    """The word is denied where it stands ("not all"): a negation just before it or on it."""
    return any(toks[i][DEP] == "neg" or toks[i][LEMMA] in ("not", "n't") for i in (*range(max(0, k - 2), k), *_children(toks, k)))


#: the children of every word of the token lists read lately, by the list's identity (the list is
#: kept with them, so that its id is not reused while it is here); a sentence of n words asked
#: for the children of each word cost n * n steps without it
_KIDS: dict[int, tuple[list, list[list[int]]]] = {}


def _children(toks: list[list], i: int) -> list[int]:
    """The words whose head is word ``i``, in order."""
    hit = _KIDS.get(id(toks))
    if hit is None or hit[0] is not toks or len(hit[1]) != len(toks):
        kids: list[list[int]] = [[] for _ in toks]
        for j, t in enumerate(toks):
            if 0 <= t[HEAD] < len(toks):
                kids[t[HEAD]].append(j)
        if len(_KIDS) >= 256:
            _KIDS.clear()
        hit = _KIDS[id(toks)] = (toks, kids)
    return list(hit[1][i]) if 0 <= i < len(toks) else []


def _text(p: Passage, tok: list) -> str:
    return p.f["text"][tok[START]:tok[END]]


def _ancestors(toks: list[list], i: int, depth: int = 3) -> list[int]:
    out = []
    while depth and toks[i][HEAD] >= 0:
        i = toks[i][HEAD]
        out.append(i)
        depth -= 1
    return out
