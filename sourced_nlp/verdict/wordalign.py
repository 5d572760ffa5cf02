"""Word alignment: which word of the evidence holds each word of a claim (:func:`align_words`),
by the guard's lexicon (:class:`GuardLexicon`: WordNet's relations, ``models/wordnet.json``, and
the closed classes of ``models/guard.json``), and which words must be held (:func:`carries`).
Names and values align by the keys of the names they are words of (:func:`name_keys`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple

from ..text.lexicons import load_lexicon
from .passage import Passage
from .tree import Token, tokens
from .words import same_word


@dataclass(frozen=True)
class GuardLexicon:
    """The guard's words: WordNet's relations (``models/wordnet.json``) and the closed classes
    of ``models/guard.json``. Build it with :meth:`load`."""

    groups: dict[str, frozenset[int]]
    broader: dict[str, frozenset[int]]
    antonyms: dict[str, frozenset[str]]
    sets: dict[str, str]
    carrier_pos: frozenset[str]
    carrier_tags: frozenset[str]
    quantifier_tags: frozenset[str]
    slot_pos: frozenset[str]
    dep_class: dict[str, str]
    universal: frozenset[str]
    scale: frozenset[str]
    exclusive: frozenset[str]
    quantifier_group: dict[str, str]
    quantifier_conflicts: frozenset[tuple[str, str]]
    determiner_adjectives: frozenset[str]
    temporal: frozenset[str]
    hedge_modals: frozenset[str]
    hedges: frozenset[str]
    attribution_verbs: frozenset[str]
    attribution_preps: frozenset[str]
    status: frozenset[str]
    exceptions: frozenset[str]
    ordinals: frozenset[str]
    prefixes: tuple[str, ...]
    provisional: frozenset[str]
    foreign: frozenset[str]
    light: frozenset[str]
    #: the words that assert the clause they govern (:mod:`.veridical`); None: that finder is off
    veridical: frozenset[str] | None = None
    #: lemma -> the lemmas that say its relation from the other end (``converses`` of ``models/guard.json``)
    converses: dict[str, frozenset[str]] = field(default_factory=dict)
    #: adverbs by which a claim states its fact as beyond doubt (``certainty`` of ``models/guard.json``)
    certainty: frozenset[str] = frozenset()

    @classmethod
    def load(cls, wordnet: str = "wordnet", guard: str = "guard", lexical: str = "lexical") -> "GuardLexicon":
        """Read the lexicons (bundled names or paths).

        Raises:
            FileNotFoundError: a lexicon that is neither bundled nor a file.
            KeyError: a lexicon without one of the keys the guard reads.
        """
        wn, g = load_lexicon(wordnet), load_lexicon(guard)
        sets = {w: name for name, members in wn["incompatible"].items() for w in members}
        groups = {w: name for name, members in g["quantifiers"]["groups"].items() for w in members}
        return cls(
            groups={w: frozenset(v) for w, v in wn["groups"].items()},
            broader={w: frozenset(v) for w, v in wn["broader"].items()},
            antonyms={w: frozenset(v) for w, v in wn["antonyms"].items()},
            sets=sets,
            carrier_pos=frozenset(g["carrier_pos"]),
            carrier_tags=frozenset(g["carrier_tags"]),
            quantifier_tags=frozenset(g["quantifier_tags"]),
            slot_pos=frozenset(g["slot_pos"]),
            dep_class={d: name for name, deps in g["dep_classes"].items() for d in deps},
            universal=frozenset(g["quantifiers"]["universal"]),
            scale=frozenset(g["quantifiers"]["scale"]),
            exclusive=frozenset(g["quantifiers"]["exclusive"]),
            quantifier_group=groups,
            quantifier_conflicts=frozenset(tuple(sorted(c)) for c in g["quantifiers"]["conflicts"]),  # type: ignore[misc]
            determiner_adjectives=frozenset(g["determiner_adjectives"]),
            temporal=frozenset(g["temporal"]),
            hedge_modals=frozenset(g["hedge_modals"]),
            hedges=frozenset(load_lexicon(lexical)["hedges"]),
            attribution_verbs=frozenset(g["attribution_verbs"]),
            attribution_preps=frozenset(g["attribution_preps"]),
            status=frozenset(g["status"]),
            exceptions=frozenset(g["exceptions"]),
            ordinals=frozenset(g["ordinals"]),
            prefixes=tuple(g["negative_prefixes"]),
            provisional=frozenset(g["provisional"]),
            foreign=frozenset(g["foreign_function_words"]),
            light=frozenset(g.get("light", ())),
            veridical=frozenset(g["veridical"]) if "veridical" in g else None,
            converses=_pairs(g.get("converses", ())),
            certainty=frozenset(g.get("certainty", ())),
        )

    def related(self, a: str, b: str) -> str | None:
        """How claim lemma ``a`` aligns with evidence lemma ``b``: ``"lemma"``, ``"form"`` (two
        forms of one stem), ``"synonym"`` (a shared synset or derivational family), ``"broader"``
        (``a`` is a hypernym of ``b``), or None."""
        if a == b:
            return "lemma"
        if same_word(a, b) or _abbreviation(a, b):
            return "form"
        ga = self.groups.get(a)
        if ga:
            if ga & self.groups.get(b, frozenset()):
                return "synonym"
            if ga & self.broader.get(b, frozenset()):
                return "broader"
        return None

    def opposed(self, a: str, b: str) -> bool:
        """``a`` and ``b`` stand against each other in one slot: WordNet antonyms, one the other
        with a negative prefix, two members of one set (weekdays, months, colours), or two
        quantifiers of conflicting groups (``all``/``most``, ``most``/``few``)."""
        if a == b:
            return False
        if b in self.antonyms.get(a, ()):
            return True
        short, long_ = sorted((a, b), key=len)
        if len(short) >= 4 and any(long_ == p + short for p in self.prefixes):
            return True
        sa = self.sets.get(a)
        if sa is not None and sa == self.sets.get(b):
            return True
        qa, qb = self.quantifier_group.get(a), self.quantifier_group.get(b)
        return qa is not None and qb is not None and tuple(sorted((qa, qb))) in self.quantifier_conflicts


def _pairs(pairs) -> dict[str, frozenset[str]]:
    """``{word: the words paired with it}`` of a list of pairs, both ways."""
    out: dict[str, set[str]] = {}
    for a, b in pairs:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {w: frozenset(v) for w, v in out.items()}


def _abbreviation(a: str, b: str) -> bool:
    """One word is the other cut short ("min"/"minute", "approx"/"approximately"): a prefix of
    at least three letters, at most half the longer word."""
    short, long_ = sorted((a.rstrip("."), b.rstrip(".")), key=len)
    return len(short) >= 3 and long_.startswith(short) and len(short) * 2 <= len(long_) + 2


@functools.lru_cache(maxsize=1)
def default_guard_lexicon() -> GuardLexicon:
    """The guard's lexicon from the bundled files (built on first use, then kept)."""
    return GuardLexicon.load()


class Link(NamedTuple):
    """One claim word and where the evidence holds it: ``ev`` is ``(passage index in the
    evidence list, token index)`` or None; ``how`` says by what relation (``name`` for a word of
    a name or value the rules compared)."""

    k: int
    ev: tuple[int, int] | None
    how: str | None


def _is_content(tok: Token, lex: GuardLexicon) -> bool:
    """A word that the alignment looks for: an open-class word, a quantifier, a modal, a
    temporal relation; never an article, pronoun, negation (the polarity rules read those) or
    other function word."""
    if tok.flag == "a" or tok.dep == "neg":
        return False
    if tok.pos in ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM") or tok.flag in ("n", "o"):
        return True
    if tok.tag == "MD":
        return True
    if tok.tag in lex.quantifier_tags and tok.lemma in lex.scale:
        return True
    return tok.lemma in lex.temporal


def carries(tok: Token, lex: GuardLexicon, meta: frozenset[str] = frozenset()) -> bool:
    """The word carries the claim's meaning (module docstring): it must be aligned."""
    lemma = tok.lemma
    if (
        tok.flag == "n"
        or lemma in lex.light
        or tok.raw in lex.light
        or tok.raw in meta
        or tok.dep == "neg"
        or tok.tag == "MD"
    ):
        return False
    if lemma in lex.hedges:
        return False  # the claim's own hedge: the hedged rule reads it
    if tok.pos in lex.carrier_pos or tok.tag in lex.carrier_tags or tok.flag == "o":
        return True
    if tok.tag in lex.quantifier_tags and lemma in lex.scale:
        return True
    return lemma in lex.temporal or lemma in lex.exclusive or lemma in lex.ordinals


def name_keys(record: dict) -> dict[int, set[str]]:
    """``{token index: the keys and aliases of the name it is a word of}`` for a feature record."""
    out: dict[int, set[str]] = {}
    toks = tokens(record.get("tokens") or ())
    for a in record.get("entities") or ():
        if a.get("inherited") or "start" not in a:
            continue
        lo, hi = a["start"] - record["start"], a["end"] - record["start"]
        keys = {a["key"], *a.get("aliases", ())}
        for k, t in enumerate(toks):
            if lo <= t.start < hi:
                out.setdefault(k, set()).update(keys)
    return out


def name_labels(record: dict) -> dict[int, str]:
    """``{token index: the NER label of the name it is a word of}`` (``DAY``, ``ID``, ``ORG`` ...)."""
    out: dict[int, str] = {}
    toks = tokens(record.get("tokens") or ())
    for a in record.get("entities") or ():
        if a.get("inherited") or "start" not in a:
            continue
        lo, hi = a["start"] - record["start"], a["end"] - record["start"]
        for k, t in enumerate(toks):
            if lo <= t.start < hi:
                out[k] = a.get("label", "")
    return out


def same_name(a: Token, b: Token, a_keys: set[str] | None, b_keys: set[str] | None) -> bool:
    """Two words of names or values are one: two names by key and alias ("Version 2.0" is not
    "Version 3.0"), or the end of a longer name ("Holmes" / "James Holmes"); a value's word by its
    lemma."""
    if a_keys and b_keys:
        return bool(a_keys & b_keys) or any(
            len(x.split()) > len(y.split()) and x.endswith(" " + y)
            for xs, ys in ((a_keys, b_keys), (b_keys, a_keys))
            for x in xs
            for y in ys
        )
    return a.lemma == b.lemma


def align_words(
    claim: list[Token], evidence: list[list[Token]], lex: GuardLexicon, names: tuple[dict, list[dict]] | None = None
) -> list[Link]:
    """Align each content word of a claim's token records with a word of the evidence's
    (token records of each evidence passage): the strongest relation wins (lemma, form,
    synonym, broader), ties go to the word in the same kind of slot, then the first. A word of
    a name aligns with a word of a name of the same key or alias (``names``: the claim's and each
    passage's :func:`name_keys`)."""
    rank = {"lemma": 0, "form": 1, "synonym": 2, "broader": 3}
    links: list[Link] = []
    for k, tok in enumerate(claim):
        if tok.pos == "AUX" and tok.tag != "MD" and tok.head < 0:
            # a root "be"/"have": aligned with the evidence's root of the same lemma, for the slots below it
            hit = next(
                (
                    (e, j)
                    for e, toks in enumerate(evidence)
                    for j, t in enumerate(toks)
                    if t.pos == "AUX" and t.lemma == tok.lemma and t.head < 0
                ),
                None,
            )
            if hit is not None:
                links.append(Link(k, hit, "lemma"))
            continue
        if not _is_content(tok, lex):
            continue
        if tok.flag == "n":
            hit = next(
                (
                    (e, j)
                    for e, toks in enumerate(evidence)
                    for j, t in enumerate(toks)
                    if t.flag == "n"
                    and same_name(tok, t, names[0].get(k) if names else None, names[1][e].get(j) if names else None)
                ),
                None,
            )
            links.append(Link(k, hit, "name"))
            continue
        best: tuple | None = None
        for e, toks in enumerate(evidence):
            for j, t in enumerate(toks):
                how = lex.related(tok.lemma, t.lemma) or (
                    lex.related(tok.raw, t.raw) if tok.raw != tok.lemma or t.raw != t.lemma else None
                )
                if how is None:
                    continue
                key = (rank[how], lex.dep_class.get(t.dep) != lex.dep_class.get(tok.dep), e, j)
                if best is None or key < best[0]:
                    best = (key, (e, j), how)
        links.append(Link(k, best[1], best[2]) if best else Link(k, None, None))
    return links


def alignment(record: dict, links: list[Link], passages: list[Passage]) -> list[dict]:
    """The report's ``alignment`` of a claim: one ``{"word", "start", "end", "how"}`` per content
    word (offsets in the answer; ``how``: ``lemma``, ``form``, ``synonym``, ``broader``,
    ``converse`` (:mod:`.converse`), ``name`` or ``unaligned``), with ``"to": {"source", "start", "end"}`` (offsets in that source) for a
    word the evidence holds."""
    out = []
    toks, base, text = tokens(record["tokens"]), record["start"], record["text"]
    for ln in links:
        t = toks[ln.k]
        word = {
            "word": text[t.start : t.end],
            "start": base + t.start,
            "end": base + t.end,
            "how": ln.how or "unaligned",
        }
        if ln.ev is None:
            word["how"] = "unaligned"
        else:
            p = passages[ln.ev[0]]
            e = tokens(p.f["tokens"])[ln.ev[1]]  # type: ignore[typeddict-item]
            word["to"] = {"source": p.source, "start": p.f["start"] + e.start, "end": p.f["start"] + e.end}
        out.append(word)
    return out
