"""The guard of ``grounded``: a claim is grounded only when every word that carries its meaning is
accounted for in its evidence, word by word.

Every rule that grounds a claim (and the meaning tier) hands its result to :func:`guard`, which
aligns the claim's words with the words of its evidence passages (:func:`~.wordalign.align_words`: the same
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
* **contradicted.polarity** — a word the claim denies ("a bridge that was not repaired",
  "pleaded not guilty") that the evidence holds by lemma, affirmed, and no passage of the
  sources denies: the negation component reads the main predicate's cue only.
* **contradicted.polarity** also — a noun or name of the claim that its evidence sets aside
  ("moved to Denver rather than Austin", "instead of", "not Austin": :mod:`.exclusion`).
* **contradicted.roles** — two names of the claim in each other's place (who acquired whom, the
  voice read from the parse: "Smith was defeated by Jones" is "Jones defeated Smith"), or
  two nouns each in the other's slot ("from the reservoir to the lake" for "from the lake to the
  reservoir").
* **contradicted.entity** / **contradicted.value** — a value or act of the claim's named subject
  is said of another name in the evidence ("Version 3.0 removed the API" for "Version 2.0
  removed the API"); the claim's subject has another value in the same slot ("the free plan
  allows up to 10 users").
* **unverified.hedged** — the evidence hedges (``may``, ``reportedly``; a modal only over words
  the claim shares: "might close", not "a sauce I could eat every day") or attributes ("according
  to", "critics say") what the claim states as fact, or marks it as not final ("preliminary,
  superseded"), or does not assert the claim's predicate at all: a plan, a condition, a modal
  or tense the claim does not share, "nearly" (:mod:`.veridical`).
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

The word alignment and the guard's lexicon are in :mod:`.wordalign`, the walks of the parse in
:mod:`.tree`, the finders of each rule in :mod:`.finders`; their public names are importable from
here too.
"""

from __future__ import annotations

from collections.abc import Callable

from ..text.lexicons import load_lexicon
from .context import ClaimContext
from .finders import Finding, claim_hedged, find_binding, find_denied, find_dropped, find_moved, find_roles, find_scope
from .exclusion import find_excluded
from .veridical import find_unasserted
from .index import passage_at
from .rates import find_rate
from .passage import Passage
from .precision import PrecisionTable, default_precision, possible
from .tree import DEP, END, FLAG, HEAD, LEMMA, POS, RAW, START, TAG, _children, _is_predicate, _negated, _text, _word_class
from .types import Result, result
from .wordalign import (  # noqa: F401
    GuardLexicon, Link, _is_content, align_words, alignment, carries, default_guard_lexicon, name_keys, name_labels, same_name)

DECIDES = ("contradicted.antonym", "contradicted.polarity", "contradicted.scope", "contradicted.qualifier", "contradicted.roles",
           "contradicted.entity", "contradicted.value", "unverified.hedged", "unverified.unaligned", "unverified.unbound",
           "unverified.language")

#: which claim words with no counterpart in the evidence keep a claim from ``grounded``: every
#: word that carries meaning (``all``); the main predicates and the closed classes (quantifiers,
#: ordinals, comparatives and superlatives, exclusive words: ``predicates``); none (``slots``,
#: the default: only a word with another word in its slot)
UNALIGNED = ("all", "predicates", "slots")


class Guard:
    """Reads a grounded claim's alignment (module docstring).

    Args:
        lexicon: the guard's words.
        meta_words: lemmas a claim uses to point at its sources, never required.
    """

    def __init__(self, lexicon: GuardLexicon | None = None, meta_words: frozenset[str] = frozenset(),
                 unaligned: str = "slots", precision: PrecisionTable | None = None) -> None:
        if unaligned not in UNALIGNED:
            raise ValueError(f"sourced_verify config: guard_unaligned must be one of {', '.join(UNALIGNED)}, got {unaligned!r}")
        self.lex = lexicon or default_guard_lexicon()
        self.meta = meta_words
        self.unaligned = unaligned
        #: the measured precision of the guard's contradicting findings (None: the shipped table,
        #: :mod:`.precision`): a demoted finding takes a grounding back as ``unverified.possible``
        self.precision = precision
        #: the words of the lexical antonym groups (``models/lexical.json``), canonical lemmas
        self.group_words: tuple[str, ...] = tuple(sorted(
            w for sides in load_lexicon("lexical")["antonym_groups"] for side in sides for w in side if " " not in w))
        neg = load_lexicon("negation")
        #: the negation cues and pseudo-negations of ``models/negation.json`` (:func:`find_denied`)
        self.neg_cues = frozenset((*neg["neg_dep_cues"], *neg["determiner_cues"], *neg["preposition_cues"], *neg["verb_cues"]))
        self.neg_pseudo = frozenset(neg["pseudo"])
        #: the exclusion cues of ``models/negation.json``, longest first (:func:`find_excluded`)
        self.exclusion = tuple(sorted((tuple(c.split()) for c in neg.get("exclusion_cues", ())), key=len, reverse=True))

    def with_meta(self, meta_words: frozenset[str]) -> "Guard":
        """The same guard, leaving ``meta_words`` (the verifier's) out of what must be aligned."""
        return Guard(self.lex, meta_words, self.unaligned, self.precision)

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
        shown = [f for f in found if f.verdict == "possible"]
        found = [f for f in found if f.verdict != "possible"]
        if not found:
            if shown:  # what a finding of too little precision saw: shown, the verdict kept
                return {**res, "reason": f"{res['reason']}; possible: {shown[0].reason}", "alignment": words}  # type: ignore[typeddict-item]
            return {**res, "alignment": words}  # type: ignore[typeddict-item]
        table = self.precision or default_precision()
        first = min(found, key=lambda f: 0 if f.verdict == "contradicted" and table.contradicts(f.rule, guard=True)
                    else 1 if f.verdict == "contradicted" else 2)
        ev = res["evidence"][first.passage]
        if first.verdict == "contradicted" and table.contradicts(first.rule, guard=True):
            out = result("contradicted", first.reason, 0.05, [ev], first.differs, rule=first.rule)
        elif first.verdict == "contradicted":
            # demoted by its precision on natural text: the grounding is taken back, not contradicted
            reason = possible(first.reason, first.rule, table.guard_of(first.rule), guard=True)
            support = ctx.support if ctx.best is not None else 0.4
            out = result("unverified", reason, max(0.15, min(0.65, support)), [ev], first.differs, rule="unverified.possible")
        else:
            support = ctx.support if ctx.best is not None else 0.4
            out = result("unverified", first.reason, max(0.15, min(0.65, support)), [ev], first.differs, rule=first.rule)
        return {**out, "alignment": words}  # type: ignore[typeddict-item]

    def read(self, ctx: ClaimContext, res: Result) -> list[Finding]:
        """Every finding against a grounded ``res``, in the order the guard weighs them (an empty
        list when ``res`` is not grounded or the guard does not read it: a record, no tokens).
        The benchmark of the rules' precision (``bench/rule_precision.py``) counts each of them."""
        if res["verdict"] != "grounded" or not res["evidence"]:
            return []
        claim_toks = ctx.record.get("tokens")
        passages = [self._passage(ctx, ev) for ev in res["evidence"]]
        if not claim_toks or any(p is None or p.structured or "tokens" not in p.f for p in passages):
            return []
        return self.findings(ctx, claim_toks, passages)[0]  # type: ignore[arg-type]

    @staticmethod
    def _passage(ctx: ClaimContext, ev: dict) -> Passage | None:
        pid = passage_at(ctx.index, ev["source"], ev["start"], ev["end"])
        return None if pid is None else ctx.index.passages[pid]

    def findings(self, ctx: ClaimContext, claim: list[list], passages: list[Passage]) -> tuple[list[Finding], list[Link]]:
        """Every finding against grounding the claim on these passages, and the alignment of its
        words (:func:`align_words`)."""
        lex = self.lex
        ev_toks = [p.f["tokens"] for p in passages]  # type: ignore[typeddict-item]
        names = (name_keys(ctx.record), [name_keys(p.f) for p in passages])
        links = align_words(claim, ev_toks, lex, names)
        to, hows = {ln.k: ln.ev for ln in links if ln.ev is not None}, {ln.k: ln.how for ln in links}
        used = set(to.values())
        ctext = ctx.record["text"]

        def cword(k: int) -> str:
            return ctext[claim[k][START]:claim[k][END]]

        out: list[Finding] = []
        if sum(t[RAW] in lex.foreign for t in claim) >= 2:
            return [Finding("unverified", "unverified.language", "the claim is not in English; the rules read English only",
                            [], 0)], links
        out += find_roles(claim, ev_toks, to, passages, cword) + find_moved(lex, claim, ev_toks, to, hows, passages, cword)
        out += find_denied(self.neg_cues, self.neg_pseudo, claim, ev_toks, to, hows, passages, cword,
                           lambda: [p.f["tokens"] for p in ctx.index.passages if not p.structured and "tokens" in p.f])  # type: ignore[typeddict-item]
        out += find_excluded(self.exclusion, self.neg_pseudo, claim, ev_toks, to, passages, cword) \
            + find_rate(lex, claim, ev_toks, to, passages, cword)
        out += find_binding(lex, claim, ev_toks, to, passages, cword, name_labels(ctx.record), names)
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
            scope = find_scope(lex, claim, ln.k, ev_toks, to, passages, cword)
            if scope is not None:
                out.append(scope)
                continue
            w = cword(ln.k)
            if not carries(tok, lex, self.meta):
                continue  # a noun in other words ("on-time rate" / "on-time performance"): the coverage rules' call
            if slot is not None and ev_toks[slot[0]][slot[1]][POS] in lex.slot_pos and self._substitutable(claim, ln.k):
                s = _text(passages[slot[0]], ev_toks[slot[0]][slot[1]])
                # another verb in the slot of the claim's predicate takes the grounding back only
                # where it is the one word of the claim the evidence does not hold (a minimal pair:
                # "raised rates to 5.5%" / "held rates at 5.5%"); reworded around it, it is shown, not
                # taken back: on natural text (bench/rule_precision.py) verb take-backs were
                # hallucinated no more often than what the guard lets through (134 taken back, 25
                # hallucinated against 20.8 expected: 1.2x), most of them paraphrases ("deployed to
                # control the fire" / "sent to battle the blaze")
                verdict = "possible" if tok[POS] == "VERB" and not self._only_word(claim, ln.k, links) else "unverified"
                out.append(Finding(verdict, "unverified.unaligned", f"the claim says '{w}' where the source says '{s}'",
                                   [{"claim": w, "source": s, "kind": "word"}], slot[0]))
            elif self._required(claim, ln.k):
                out.append(Finding("unverified", "unverified.unaligned", f"the source does not say '{w}'",
                                   [{"claim": w, "source": "", "kind": "word"}], 0))
        out += find_dropped(lex, ctx, claim, ev_toks, to, used, passages)
        out += [] if claim_hedged(lex, ctx, claim) else find_unasserted(lex, claim, ev_toks, to, passages)
        return out, links

    def _only_word(self, claim: list[list], k: int, links: list[Link]) -> bool:
        """Claim word ``k`` is the one content word of the claim its evidence does not hold."""
        return not any(ln.ev is None and ln.k != k and claim[ln.k][FLAG] != "n" and _is_content(claim[ln.k], self.lex)
                       and carries(claim[ln.k], self.lex, self.meta) for ln in links)

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
        """A carrier word with no counterpart keeps the claim from grounded at this level; at
        every level, a status of a named person ("interim president Alvarez", ``status`` of
        ``models/guard.json``) the evidence does not give."""
        if self.unaligned == "all" or self._status_of_name(claim, k):
            return True
        if self.unaligned == "slots":
            return False
        return self._closed_or_predicate(claim, k, self.lex.exclusive)

    def _status_of_name(self, claim: list[list], k: int) -> bool:
        """The word is a status (``status`` of ``models/guard.json``) of a named person: of a
        proper name, or of a title compounded with one ("interim president Alvarez"); not of a
        month or day ("late November")."""
        tok, h = claim[k], claim[k][HEAD]
        if tok[LEMMA] not in self.lex.status or tok[DEP] not in ("amod", "compound") or tok[FLAG] == "n" or h < 0:
            return False
        head = claim[h]
        if self.lex.sets.get(head[LEMMA]):
            return False
        return head[FLAG] == "n" and head[POS] == "PROPN" or head[DEP] == "compound" and head[HEAD] >= 0 and claim[head[HEAD]][POS] == "PROPN"

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
