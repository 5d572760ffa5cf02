"""The guard of ``grounded``: a claim is grounded only when every word that carries its meaning is
accounted for in its evidence, word by word.

Every rule that grounds a claim (and the meaning tier) hands its result to :func:`guard`, which
aligns the claim's words with the words of its evidence passages (:func:`align_words`: the same
lemma, two forms of one stem, one WordNet synset or derivational family, a broader word of the
claim for a narrower one of the evidence — ``models/wordnet.json``; the names and values the
rules compared are aligned already) and then reads what is left over, from the strongest finding
to the weakest (when the guard takes a grounding back, the verifier lets the ``contradicted``
rule speak: a passage that states another value now decides):

* **contradicted.antonym** — an unaligned claim word and the evidence word in its slot (the
  same head, the same kind of dependency) stand against each other: WordNet antonyms
  (``downgraded``/``upgraded``, ``required``/``optional``), a negative prefix
  (``profitable``/``unprofitable``), two members of one scale or set (``few``/``most``,
  ``Monday``/``Tuesday``).
* **contradicted.scope** — a universal or exclusive quantifier the evidence does not bear out:
  "all patients" where the evidence counts a share of them or names a kind of them ("domestic
  applicants"), "CSV only" where the evidence lists more.
* **contradicted.qualifier** — the claim drops a word of the evidence that changes who or what
  is meant: a title's status (``former`` CEO), an ordinal of a superlative (``second``-largest),
  an exception (``except Asia``).
* **contradicted.roles** — two names of the claim in each other's place (who acquired whom).
* **contradicted.entity** / **contradicted.value** — a value or act of the claim's named subject
  is said of another name in the evidence ("Version 3.0 removed the API" for "Version 2.0
  removed the API"); the claim's subject has another value in the same slot ("the free plan
  allows up to 10 users").
* **unverified.hedged** — the evidence hedges (``may``, ``reportedly``) or attributes ("according
  to", "critics say") what the claim states as fact, or marks it as not final ("preliminary,
  superseded").
* **unverified.unbound** — a value is said of another subject in the evidence ("10 users" of
  the Pro plan for the free plan's), and no clause of the claim's subject gives another value.
* **unverified.language** — the claim is not in English (two function words of another
  language): the rules read English only.
* **unverified.unaligned** — a word that carries the claim's meaning (a verb, adjective or
  adverb; a quantifier, ordinal, comparative or superlative; a temporal relation) has no
  counterpart in the evidence, or another word stands in its slot ("raised" where the source
  says "held"). The reason names the word.

Which words carry meaning is read from the parse (parts of speech, tags, dependency labels) and
the closed classes of ``models/guard.json`` (whose optional ``light`` list names words that may
stay unaligned under the stricter settings; none is shipped). A claim against a business
record's lines is left to the record rules.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from collections.abc import Callable
from typing import NamedTuple

from ..text.lexicons import load_lexicon
from .context import ClaimContext
from .index import passage_at
from .passage import Passage
from .types import Result, result
from .words import same_word

DECIDES = ("contradicted.antonym", "contradicted.scope", "contradicted.qualifier", "contradicted.roles",
           "contradicted.entity", "contradicted.value", "unverified.hedged", "unverified.unaligned", "unverified.unbound",
           "unverified.language")

#: which claim words with no counterpart in the evidence keep a claim from ``grounded``: every
#: word that carries meaning (``all``); the main predicates and the closed classes (quantifiers,
#: ordinals, comparatives and superlatives, exclusive words: ``predicates``); none (``slots``,
#: the default: only a word with another word in its slot)
UNALIGNED = ("all", "predicates", "slots")

# the fields of a token record (sourced_nlp.components.passages.Passages.tokens)
LEMMA, POS, TAG, DEP, HEAD, START, END, FLAG, RAW = range(9)


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


def _is_content(tok: list, lex: GuardLexicon) -> bool:
    """A word that the alignment looks for: an open-class word, a quantifier, a modal, a
    temporal relation; never an article, pronoun, negation (the polarity rules read those) or
    other function word."""
    if tok[FLAG] == "a" or tok[DEP] == "neg":
        return False
    if tok[POS] in ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM") or tok[FLAG] in ("n", "o"):
        return True
    if tok[TAG] == "MD":
        return True
    if tok[TAG] in lex.quantifier_tags and tok[LEMMA] in lex.scale:
        return True
    return tok[LEMMA] in lex.temporal


def carries(tok: list, lex: GuardLexicon, meta: frozenset[str] = frozenset()) -> bool:
    """The word carries the claim's meaning (module docstring): it must be aligned."""
    lemma = tok[LEMMA]
    if tok[FLAG] == "n" or lemma in lex.light or tok[RAW] in lex.light or tok[RAW] in meta or tok[DEP] == "neg" or tok[TAG] == "MD":
        return False
    if lemma in lex.hedges:
        return False  # the claim's own hedge: the hedged rule reads it
    if tok[POS] in lex.carrier_pos or tok[TAG] in lex.carrier_tags or tok[FLAG] == "o":
        return True
    if tok[TAG] in lex.quantifier_tags and lemma in lex.scale:
        return True
    return lemma in lex.temporal or lemma in lex.exclusive or lemma in lex.ordinals


def name_keys(record: dict) -> dict[int, set[str]]:
    """``{token index: the keys and aliases of the name it is a word of}`` for a feature record."""
    out: dict[int, set[str]] = {}
    toks = record.get("tokens") or ()
    for a in record.get("entities") or ():
        if a.get("inherited") or "start" not in a:
            continue
        lo, hi = a["start"] - record["start"], a["end"] - record["start"]
        keys = {a["key"], *a.get("aliases", ())}
        for k, t in enumerate(toks):
            if lo <= t[START] < hi:
                out.setdefault(k, set()).update(keys)
    return out


def name_labels(record: dict) -> dict[int, str]:
    """``{token index: the NER label of the name it is a word of}`` (``DAY``, ``ID``, ``ORG`` ...)."""
    out: dict[int, str] = {}
    toks = record.get("tokens") or ()
    for a in record.get("entities") or ():
        if a.get("inherited") or "start" not in a:
            continue
        lo, hi = a["start"] - record["start"], a["end"] - record["start"]
        for k, t in enumerate(toks):
            if lo <= t[START] < hi:
                out[k] = a.get("label", "")
    return out


def same_name(a: list, b: list, a_keys: set[str] | None, b_keys: set[str] | None) -> bool:
    """Two words of names or values are one: two names by key and alias ("Version 2.0" is not
    "Version 3.0"), or the end of a longer name ("Holmes" / "James Holmes"); a value's word by its
    lemma."""
    if a_keys and b_keys:
        return bool(a_keys & b_keys) or any(
            len(x.split()) > len(y.split()) and x.endswith(" " + y)
            for xs, ys in ((a_keys, b_keys), (b_keys, a_keys)) for x in xs for y in ys)
    return a[LEMMA] == b[LEMMA]


def align_words(claim: list[list], evidence: list[list[list]], lex: GuardLexicon,
                names: tuple[dict, list[dict]] | None = None) -> list[Link]:
    """Align each content word of a claim's token records with a word of the evidence's
    (token records of each evidence passage): the strongest relation wins (lemma, form,
    synonym, broader), ties go to the word in the same kind of slot, then the first. A word of
    a name aligns with a word of a name of the same key or alias (``names``: the claim's and each
    passage's :func:`name_keys`)."""
    rank = {"lemma": 0, "form": 1, "synonym": 2, "broader": 3}
    links: list[Link] = []
    for k, tok in enumerate(claim):
        if tok[POS] == "AUX" and tok[TAG] != "MD" and tok[HEAD] < 0:
            # a root "be"/"have": aligned with the evidence's root of the same lemma, for the slots below it
            hit = next(((e, j) for e, toks in enumerate(evidence) for j, t in enumerate(toks)
                        if t[POS] == "AUX" and t[LEMMA] == tok[LEMMA] and t[HEAD] < 0), None)
            if hit is not None:
                links.append(Link(k, hit, "lemma"))
            continue
        if not _is_content(tok, lex):
            continue
        if tok[FLAG] == "n":
            hit = next(((e, j) for e, toks in enumerate(evidence) for j, t in enumerate(toks)
                        if t[FLAG] == "n" and same_name(tok, t, names[0].get(k) if names else None,
                                                        names[1][e].get(j) if names else None)), None)
            links.append(Link(k, hit, "name"))
            continue
        best: tuple | None = None
        for e, toks in enumerate(evidence):
            for j, t in enumerate(toks):
                how = lex.related(tok[LEMMA], t[LEMMA]) or (lex.related(tok[RAW], t[RAW]) if tok[RAW] != tok[LEMMA] or t[RAW] != t[LEMMA] else None)
                if how is None:
                    continue
                key = (rank[how], lex.dep_class.get(t[DEP]) != lex.dep_class.get(tok[DEP]), e, j)
                if best is None or key < best[0]:
                    best = (key, (e, j), how)
        links.append(Link(k, best[1], best[2]) if best else Link(k, None, None))
    return links


def alignment(record: dict, links: list[Link], passages: list[Passage]) -> list[dict]:
    """The report's ``alignment`` of a claim: one ``{"word", "start", "end", "how"}`` per content
    word (offsets in the answer; ``how``: ``lemma``, ``form``, ``synonym``, ``broader``, ``name``
    or ``unaligned``), with ``"to": {"source", "start", "end"}`` (offsets in that source) for a
    word the evidence holds."""
    out = []
    toks, base, text = record["tokens"], record["start"], record["text"]
    for ln in links:
        t = toks[ln.k]
        word = {"word": text[t[START]:t[END]], "start": base + t[START], "end": base + t[END], "how": ln.how or "unaligned"}
        if ln.ev is None:
            word["how"] = "unaligned"
        else:
            p = passages[ln.ev[0]]
            e = p.f["tokens"][ln.ev[1]]  # type: ignore[typeddict-item]
            word["to"] = {"source": p.source, "start": p.f["start"] + e[START], "end": p.f["start"] + e[END]}
        out.append(word)
    return out


class Finding(NamedTuple):
    """What the guard found: the verdict and rule it gives, its reason, and what differs."""

    verdict: str
    rule: str
    reason: str
    differs: list[dict]
    passage: int


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


def _children(toks: list[list], i: int) -> list[int]:
    return [j for j, t in enumerate(toks) if t[HEAD] == i]


def _text(p: Passage, tok: list) -> str:
    return p.f["text"][tok[START]:tok[END]]


def _ancestors(toks: list[list], i: int, depth: int = 3) -> list[int]:
    out = []
    while depth and toks[i][HEAD] >= 0:
        i = toks[i][HEAD]
        out.append(i)
        depth -= 1
    return out


class Guard:
    """Reads a grounded claim's alignment (module docstring).

    Args:
        lexicon: the guard's words.
        meta_words: lemmas a claim uses to point at its sources, never required.
    """

    def __init__(self, lexicon: GuardLexicon | None = None, meta_words: frozenset[str] = frozenset(),
                 unaligned: str = "slots") -> None:
        if unaligned not in UNALIGNED:
            raise ValueError(f"sourced_verify config: guard_unaligned must be one of {', '.join(UNALIGNED)}, got {unaligned!r}")
        self.lex = lexicon or default_guard_lexicon()
        self.meta = meta_words
        self.unaligned = unaligned
        #: the words of the lexical antonym groups (``models/lexical.json``), canonical lemmas
        self.group_words: tuple[str, ...] = tuple(sorted(
            w for sides in load_lexicon("lexical")["antonym_groups"] for side in sides for w in side if " " not in w))

    def with_meta(self, meta_words: frozenset[str]) -> "Guard":
        """The same guard, leaving ``meta_words`` (the verifier's) out of what must be aligned."""
        return Guard(self.lex, meta_words, self.unaligned)

    def __call__(self, ctx: ClaimContext, res: Result) -> Result:
        """``res`` as is, unless it is ``grounded`` and a finding takes it back (module docstring)."""
        if res["verdict"] != "grounded" or not res["evidence"]:
            return res
        claim_toks = ctx.record.get("tokens")
        passages = [self._passage(ctx, ev) for ev in res["evidence"]]
        if not claim_toks or any(p is None or p.structured or "tokens" not in p.f for p in passages):
            return res
        found, links = self.findings(ctx, claim_toks, passages)  # type: ignore[arg-type]
        words = alignment(ctx.record, links, passages)  # type: ignore[arg-type]
        if not found:
            return {**res, "alignment": words}  # type: ignore[typeddict-item]
        first = min(found, key=lambda f: 0 if f.verdict == "contradicted" else 1)
        ev = res["evidence"][first.passage]
        if first.verdict == "contradicted":
            out = result("contradicted", first.reason, 0.05, [ev], first.differs, rule=first.rule)
        else:
            support = ctx.support if ctx.best is not None else 0.4
            out = result("unverified", first.reason, max(0.15, min(0.65, support)), [ev], first.differs, rule=first.rule)
        return {**out, "alignment": words}  # type: ignore[typeddict-item]

    @staticmethod
    def _passage(ctx: ClaimContext, ev: dict) -> Passage | None:
        pid = passage_at(ctx.index, ev["source"], ev["start"], ev["end"])
        return None if pid is None else ctx.index.passages[pid]

    def findings(self, ctx: ClaimContext, claim: list[list], passages: list[Passage]) -> tuple[list[Finding], list[Link]]:
        """Every finding against grounding the claim on these passages, and the alignment of its
        words (:func:`align_words`)."""
        lex = self.lex
        ev_toks = [p.f["tokens"] for p in passages]  # type: ignore[typeddict-item]
        links = align_words(claim, ev_toks, lex, (name_keys(ctx.record), [name_keys(p.f) for p in passages]))
        to = {ln.k: ln.ev for ln in links if ln.ev is not None}
        used = set(to.values())
        ctext = ctx.record["text"]

        def cword(k: int) -> str:
            return ctext[claim[k][START]:claim[k][END]]

        out: list[Finding] = []
        foreign = [t for t in claim if t[RAW] in lex.foreign]
        if len(foreign) >= 2:
            return [Finding("unverified", "unverified.language", "the claim is not in English; the rules read English only",
                            [], 0)], links
        out += self._roles(claim, ev_toks, to, passages, cword)
        names = (name_keys(ctx.record), [name_keys(p.f) for p in passages])
        out += self._binding(claim, ev_toks, to, passages, cword, name_labels(ctx.record), names)
        for ln in links:
            if ln.ev is not None or claim[ln.k][FLAG] == "n":
                continue  # a name or value the rules have compared on their own
            tok = claim[ln.k]
            slot = self._counterpart(claim, ln.k, ev_toks, to, used)
            if slot is not None and not _negated(claim, ln.k):
                e, j = slot
                other = ev_toks[e][j]
                if self._opposed(tok, other, cword(ln.k), _text(passages[e], other), ctx.aligner.opposed):
                    w, s = cword(ln.k), _text(passages[e], other)
                    out.append(Finding("contradicted", "contradicted.antonym", f"the claim says '{w}'; the source says '{s}'",
                                       [{"claim": w, "source": s, "kind": "antonym"}], e))
                    continue
            if slot is None and _is_predicate(claim, ln.k):
                pred = next(((e, j) for e, toks in enumerate(ev_toks) for j in range(len(toks))
                             if (e, j) not in used and _is_predicate(toks, j) and toks[j][POS] in ("VERB", "ADJ")
                             and self._opposed(tok, toks[j], cword(ln.k), _text(passages[e], toks[j]), ctx.aligner.opposed)), None)
                if pred is not None:
                    e, j = pred
                    w, s = cword(ln.k), _text(passages[e], ev_toks[e][j])
                    out.append(Finding("contradicted", "contradicted.antonym", f"the claim says '{w}'; the source says '{s}'",
                                       [{"claim": w, "source": s, "kind": "antonym"}], e))
                    continue
            scope = self._scope(claim, ln.k, ev_toks, to, passages, cword)
            if scope is not None:
                out.append(scope)
                continue
            w = cword(ln.k)
            if not carries(tok, lex, self.meta):
                continue  # a noun in other words ("on-time rate" / "on-time performance"): the coverage rules' call
            if slot is not None and ev_toks[slot[0]][slot[1]][POS] in lex.slot_pos and self._substitutable(claim, ln.k):
                s = _text(passages[slot[0]], ev_toks[slot[0]][slot[1]])
                out.append(Finding("unverified", "unverified.unaligned", f"the claim says '{w}' where the source says '{s}'",
                                   [{"claim": w, "source": s, "kind": "word"}], slot[0]))
            elif self._required(claim, ln.k):
                out.append(Finding("unverified", "unverified.unaligned", f"the source does not say '{w}'",
                                   [{"claim": w, "source": "", "kind": "word"}], 0))
        out += self._dropped(ctx, claim, ev_toks, to, used, passages)
        return out, links

    def _opposed(self, a: list, b: list, a_text: str, b_text: str, groups: Callable[[str, str], bool]) -> bool:
        """Two words stand against each other: by lemma, spaCy's own lemma or as written
        ("required" the adjective, whose lemma is the verb's), in WordNet or in the antonym
        groups of ``models/lexical.json`` (``groups``); or the evidence's noun is a synonym or
        the broader word of an antonym of the claim's ("income", broader than "profit", against
        "loss")."""
        lex = self.lex
        pairs = ((a[LEMMA], b[LEMMA]), (a[RAW], b[RAW]), (a_text.lower(), b_text.lower()))
        if any(lex.opposed(x, y) or groups(x, y) for x, y in pairs):
            return True
        if a[POS] == "NOUN" and b[POS] == "NOUN":
            against = set(lex.antonyms.get(a[RAW], ())) | {w for w in self.group_words if groups(a[LEMMA], w)}
            return any(lex.related(b[RAW], x) in ("synonym", "broader") for x in against)
        return False

    def _substitutable(self, claim: list[list], k: int) -> bool:
        """Another word in the slot of this one keeps the claim from grounded: the claim's main
        predicate ("raised" where the source says "held"), or a closed-class word (a quantifier,
        ordinal, comparative or superlative, temporal relation). A modifier in other words ("new"
        / "permanent" location) is the coverage rules' call."""
        return self._closed_or_predicate(claim, k, self.lex.temporal)

    def _required(self, claim: list[list], k: int) -> bool:
        """A carrier word with no counterpart keeps the claim from grounded at this level."""
        if self.unaligned == "all":
            return True
        if self.unaligned == "slots":
            return False
        return self._closed_or_predicate(claim, k, self.lex.exclusive)

    def _closed_or_predicate(self, claim: list[list], k: int, also: frozenset[str]) -> bool:
        """The word is a comparative, superlative or ordinal, a quantifier, one of ``also``, or a
        main predicate (a verb or adjective that is the root, the complement of a root "be", or
        joined to one)."""
        tok, lex = claim[k], self.lex
        if tok[TAG] in lex.carrier_tags or tok[FLAG] == "o" or tok[LEMMA] in lex.ordinals or tok[LEMMA] in also:
            return True
        if tok[TAG] in lex.quantifier_tags and tok[LEMMA] in lex.scale:
            return True
        return tok[POS] in ("VERB", "ADJ") and (_is_predicate(claim, k) or tok[DEP] == "conj" and _is_predicate(claim, tok[HEAD]))

    def _counterpart(self, claim: list[list], k: int, ev: list[list[list]], to: dict, used: set) -> tuple[int, int] | None:
        """The evidence word in the slot of claim word ``k``: an unaligned word with the same
        kind of dependency on the word the claim's head is aligned with; for a claim word whose
        head is not aligned (a root verb), the unaligned head that the evidence words aligned
        with its dependents share."""
        tok = claim[k]
        cls = self.lex.dep_class.get(tok[DEP], tok[DEP])
        h = tok[HEAD]
        if h >= 0 and h in to:
            e, he = to[h]
            for j in _children(ev[e], he):
                t = ev[e][j]
                if (e, j) not in used and self.lex.dep_class.get(t[DEP], t[DEP]) == cls and _is_content(t, self.lex) \
                        and _word_class(t) == _word_class(tok):
                    return e, j
            return None
        votes: dict[tuple[int, int], int] = {}
        for c in _children(claim, k):
            if c in to:
                e, j = to[c]
                head = ev[e][j][HEAD]
                if head >= 0 and (e, head) not in used and _is_content(ev[e][head], self.lex) and _word_class(ev[e][head]) == _word_class(tok):
                    votes[(e, head)] = votes.get((e, head), 0) + 1
        return max(votes, key=lambda x: (votes[x], -x[0], -x[1])) if votes else None

    def _scope(self, claim, k, ev, to, passages, cword) -> Finding | None:
        """A universal quantifier ("all patients") against evidence that counts a share of the
        noun or names a kind of it; an exclusive one ("CSV only") against evidence that lists
        more than the claim names."""
        lex, tok = self.lex, claim[k]
        negated = _negated(claim, k)
        if tok[LEMMA] in lex.universal and tok[HEAD] >= 0 and tok[HEAD] in to and not negated:
            e, j = to[tok[HEAD]]
            p, toks = passages[e], ev[e]
            # the evidence counts a share of the noun ("95% of patients", "12 patients") or names a
            # kind of it ("domestic applicants")
            counted = [i for i in (*_children(toks, j), *_ancestors(toks, j, 3))
                       if toks[i][LEMMA] == "%" and not any(toks[n][LEMMA] == "100" for n in _children(toks, i))
                       or lex.opposed(tok[LEMMA], toks[i][LEMMA])]
            kinds = [i for i in _children(toks, j) if toks[i][DEP] in ("amod", "compound") and (e, i) not in to.values()
                     and toks[i][TAG] in ("JJ", "NN", "NNP") and toks[i][LEMMA] not in lex.universal
                     and toks[i][LEMMA] not in lex.determiner_adjectives and toks[i][FLAG] != "n"]
            if counted or kinds:
                i = counted[0] if counted else kinds[0]
                if toks[i][LEMMA] == "%":
                    i = next((n for n in _children(toks, i) if toks[n][POS] == "NUM"), i)
                s = p.f["text"][toks[i][START]:max(toks[i][END], toks[j][END])] if counted else _text(p, toks[i])
                w = cword(k)
                return Finding("contradicted", "contradicted.scope", f"the claim says '{w}'; the source says '{s}'",
                               [{"claim": f"{w} {cword(tok[HEAD])}", "source": s, "kind": "scope"}], e)
        if tok[LEMMA] in lex.exclusive and not (tok[HEAD] >= 0 and claim[tok[HEAD]][POS] == "NUM"):
            aligned = set(to.values())
            for c, (e, j) in to.items():
                toks = ev[e]
                h = toks[j][HEAD]
                # the other members of a list the aligned word is in: its conjuncts, or words
                # with its head and its dependency
                members = [i for i in range(len(toks)) if i != j and (
                    toks[i][DEP] in ("conj", "appos") and toks[i][HEAD] == j
                    or toks[j][DEP] == "conj" and i == h
                    or h >= 0 and toks[i][HEAD] == h and toks[i][DEP] == toks[j][DEP] and toks[j][DEP] in ("nmod", "compound", "conj", "amod"))]
                members = [i for i in members if (e, i) not in aligned and _is_content(toks[i], lex)]
                if members and claim[c][POS] in ("NOUN", "PROPN") and abs(c - k) <= 3:
                    p = passages[e]
                    other = _text(p, toks[members[0]])
                    return Finding("contradicted", "contradicted.scope",
                                   f"the claim says '{cword(c)} {cword(k)}'; the source also names '{other}'",
                                   [{"claim": f"{cword(c)} {cword(k)}", "source": other, "kind": "scope"}], e)
        return None

    def _roles(self, claim, ev, to, passages, cword) -> list[Finding]:
        """Two names of the claim, subject and object of one verb, in each other's place."""
        subj = {k for k, t in enumerate(claim) if t[FLAG] == "n" and t[DEP] in ("nsubj", "nsubjpass") and k in to}
        obj = {k for k, t in enumerate(claim) if t[FLAG] == "n" and t[DEP] in ("dobj", "pobj") and k in to}
        for s in subj:
            for o in obj:
                (es, js), (eo, jo) = to[s], to[o]
                if es == eo and ev[es][js][DEP] in ("dobj", "pobj") and ev[eo][jo][DEP] in ("nsubj", "nsubjpass") and claim[s][DEP] == "nsubj":
                    return [Finding("contradicted", "contradicted.roles",
                                    f"the claim has '{cword(s)}' and '{cword(o)}' in each other's place",
                                    [{"claim": f"{cword(s)} ... {cword(o)}", "source": f"{_text(passages[es], ev[eo][jo])} ... {_text(passages[es], ev[es][js])}",
                                      "kind": "roles"}], es)]
        return []

    def _binding(self, claim, ev, to, passages, cword, labels, names) -> list[Finding]:
        """A value of the claim (a number, a day, an identifier), or the act of a named subject,
        grounds only through the subject it is said of: the evidence clause that holds it must
        have the claim clause's subject. Where it has another: a name for the claim's name, in a
        passage that does not name the claim's subject at all (contradicted.entity: "Version 3.0
        removed the API" for "Version 2.0 removed the API"); for a subject that is no name, the
        claim's subject with another value in that slot (contradicted.value), else
        unverified.unbound. A subject that is a pronoun or a description of a name ("the
        73-year-old aid worker") may be the claim's own: no finding."""
        lex = self.lex
        for c, (e, j) in to.items():
            tok = claim[c]
            cc = _clause(claim, c)
            cs = _subject(claim, cc) if cc is not None else None
            if cs is None or claim[cs][FLAG] == "a" or claim[cs][POS] == "PRON" or c in _subtree(claim, cs):
                continue
            # the subject's own words: its head and the words that name or describe it ("free
            # plan", "Dr. Patel"), not the clauses and phrases hung on it
            subj_words = [i for i in (cs, *_children(claim, cs))
                          if (i == cs or claim[i][DEP] in ("compound", "amod", "nmod", "flat")) and _is_content(claim[i], lex)]
            named = cs in labels  # the subject is a name (of the NER or a proper-noun run), not a value
            is_value = tok[FLAG] == "n" and (tok[POS] == "NUM" or labels.get(c) in ("DAY", "ID", "DATE", "TIME"))
            said_of_name = c == cc and named and tok[POS] == "VERB" and tok[TAG] in ("VBD", "VBZ", "VBP")  # "Version 2.0 removed": the act is the name's
            if not subj_words or not (is_value or said_of_name):
                continue
            toks = ev[e]
            above = _ancestors(toks, j, 4)
            if any(lex.related(claim[w][LEMMA], toks[a][LEMMA]) for a in above for w in subj_words):
                continue  # "with growth of 8%": the value hangs on the claim's subject itself
            clause = _clause(toks, j)
            es = _subject(toks, clause) if clause is not None else None
            if es is None or toks[es][FLAG] == "a" or toks[es][POS] == "PRON":
                continue
            inside = _subtree(toks, es)
            heads = [cs] if named else subj_words  # a name by its head ("James Holmes" / "Holmes")
            def holds(w: int, i: int) -> bool:
                if named:
                    return toks[i][FLAG] == "n" and same_name(claim[w], toks[i], names[0].get(w), names[1][e].get(i))
                return (e, i) == to.get(w) or bool(lex.related(claim[w][LEMMA], toks[i][LEMMA]))

            if j in inside or all(any(holds(w, i) for i in inside) for w in heads):
                continue  # the value describes the subject itself, or the subject is the claim's
            if not named and cs not in to:
                continue  # a subject in other words ("on-time rate" / "on-time performance"): the coverage rules' call
            p = passages[e]
            theirs = p.f["text"][toks[min(inside)][START]:toks[max(inside)][END]]
            ours = " ".join(cword(w) for w in sorted(subj_words))
            if named:
                if toks[es][FLAG] != "n" or any(holds(cs, i) for i in range(len(toks))):
                    continue  # a description that may be the name's; a passage that names both
                return [Finding("contradicted", "contradicted.entity", f"the source says '{cword(c)}' of '{theirs}', not of '{ours}'",
                                [{"claim": ours, "source": theirs, "kind": "entity"}], e)]
            if toks[es][FLAG] == "n":
                continue
            other = self._bound_value(claim, c, subj_words, ev, passages)
            if other is not None:
                oe, text = other
                return [Finding("contradicted", "contradicted.value", f"the source gives '{text}' for '{ours}'",
                                [{"claim": cword(c), "source": text, "kind": "quantity"}], oe)]
            return [Finding("unverified", "unverified.unbound", f"the source says '{cword(c)}' of '{theirs}', not of '{ours}'",
                            [{"claim": ours, "source": theirs, "kind": "subject"}], e)]
        return []

    def _bound_value(self, claim, c, subj_words, ev, passages) -> tuple[int, str] | None:
        """Another value in the evidence, in a clause whose subject is the claim's, in the slot
        of the claim's value ``c`` (the same dependency on a word of the same lemma)."""
        lex, tok = self.lex, claim[c]
        for e, toks in enumerate(ev):
            for j, t in enumerate(toks):
                if t[FLAG] != "n" or t[LEMMA] == tok[LEMMA] or t[POS] != tok[POS]:
                    continue
                clause = _clause(toks, j)
                es = _subject(toks, clause) if clause is not None else None
                if es is None:
                    continue
                inside = _subtree(toks, es)
                if all(any(lex.related(claim[w][LEMMA], toks[i][LEMMA]) for i in inside) for w in subj_words):
                    h, th = tok[HEAD], t[HEAD]
                    if h >= 0 and th >= 0 and lex.related(claim[h][LEMMA], toks[th][LEMMA]) or t[DEP] == tok[DEP]:
                        return e, passages[e].f["text"][t[START]:t[END]]
        return None

    def _dropped(self, ctx, claim, ev, to, used, passages) -> list[Finding]:
        """Words of the evidence that qualify what the claim states, on a word the claim aligns
        with, missing from the claim: a status, an ordinal of a superlative, an exception
        (contradicted); a hedge or an attribution (unverified, unless the claim hedges too)."""
        lex = self.lex
        aligned = {v for v in to.values()}
        claim_lemmas = {t[LEMMA] for t in claim}
        out: list[Finding] = []
        # a claim that hedges or attributes itself ("can", "prosecutors say") states no bare fact
        hedged = bool(ctx.record.get("hedged")) or any(
            t[TAG] == "MD" and t[LEMMA] != "will" or t[LEMMA] in lex.attribution_verbs or t[LEMMA] in ("say", "accord", "report", "state")
            for t in claim)
        for e, toks in enumerate(ev):
            p = passages[e]
            for j, t in enumerate(toks):
                if (e, j) in used or t[LEMMA] in claim_lemmas:
                    continue
                near = [a for a in _ancestors(toks, j, 2) if (e, a) in aligned]
                if not near:
                    continue
                head = toks[near[0]]
                lemma, s = t[LEMMA], _text(p, t)
                if lemma in lex.status and t[DEP] in ("amod", "compound", "advmod") and head[FLAG] != "n" and head[POS] == "NOUN":
                    out.append(Finding("contradicted", "contradicted.qualifier", f"the source says '{s} {_text(p, head)}'",
                                       [{"claim": "", "source": s, "kind": "qualifier"}], e))
                elif (lemma in lex.ordinals or t[FLAG] == "o") and head[TAG] == "JJS":
                    out.append(Finding("contradicted", "contradicted.qualifier", f"the source says '{s} {_text(p, head)}'",
                                       [{"claim": "", "source": s, "kind": "qualifier"}], e))
                elif lemma in lex.exceptions and t[DEP] in ("prep", "advcl", "mark", "cc"):
                    out.append(Finding("contradicted", "contradicted.qualifier", f"the source makes an exception: '{s} ...'",
                                       [{"claim": "", "source": s, "kind": "qualifier"}], e))
                elif not hedged and (t[TAG] == "MD" and lemma in lex.hedge_modals or lemma in lex.hedges
                                     or lemma in lex.attribution_preps and t[DEP] == "prep"):
                    out.append(Finding("unverified", "unverified.hedged", f"the source hedges or attributes it: '{s}'",
                                       [{"claim": "", "source": s, "kind": "hedge"}], e))
            if not hedged:
                out += self._attributed(claim, toks, to, e, p)
            marked = next((t for t in toks if t[LEMMA] in lex.provisional and t[LEMMA] not in claim_lemmas), None)
            if marked is not None:
                out.append(Finding("unverified", "unverified.hedged", f"the source marks it '{_text(p, marked)}'",
                                   [{"claim": "", "source": _text(p, marked), "kind": "provisional"}], e))
        return out

    def _attributed(self, claim, toks, to, e, p) -> list[Finding]:
        """The claim's main verb is said in the evidence under an attribution verb the claim does
        not use ("critics say the plan will raise prices")."""
        lex = self.lex
        roots = [k for k, t in enumerate(claim) if t[HEAD] < 0 and k in to and to[k][0] == e]
        for k in roots:
            j = to[k][1]
            for a in _ancestors(toks, j, 2):
                if toks[a][LEMMA] in lex.attribution_verbs and (e, a) not in to.values():
                    s = _text(p, toks[a])
                    return [Finding("unverified", "unverified.hedged", f"the source attributes it: '{s}'",
                                    [{"claim": "", "source": s, "kind": "attribution"}], e)]
        return []

