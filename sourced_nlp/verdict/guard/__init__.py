"""The guard of ``grounded``: a claim is grounded only when every word that carries its meaning is
accounted for in its evidence, word by word.

Every rule that grounds a claim (and the meaning tier) hands its result to :class:`Guard`, which
aligns the claim's words with the words of its evidence passages
(:func:`~sourced_nlp.verdict.wordalign.align_words`: the same lemma, two forms of one stem, one
WordNet synset or derivational family, a broader word of the claim for a narrower one of the
evidence — ``models/wordnet.json``; a converse with its two ends swapped, "younger than" for
"older than": :mod:`~sourced_nlp.verdict.converse`; the names and values the rules compared are
aligned already) and
then reads what is left over, from the strongest finding to the weakest (when the guard takes a
grounding back, the verifier lets the ``contradicted`` rule speak: a passage that states another
value now decides):

* **contradicted.antonym** (:mod:`.antonym`) — an unaligned claim word and the evidence word in its
  slot (the same head, the same kind of dependency) stand against each other: WordNet antonyms
  (``downgraded``/``upgraded``, ``required``/``optional``), a negative prefix
  (``profitable``/``unprofitable``), two members of one scale or set (``few``/``most``,
  ``Monday``/``Tuesday``).
* **contradicted.scope** (:mod:`.scope`) — a universal or exclusive quantifier the evidence does not
  bear out: "all patients" where the evidence counts a share of them or names a kind of them
  ("domestic applicants"), "CSV only" where the evidence lists more.
* **contradicted.qualifier** (:mod:`.dropped`) — the claim drops a word of the evidence that changes
  who or what is meant: a title's status (``former`` CEO), an ordinal of a superlative
  (``second``-largest), an exception (``except Asia``).
* **contradicted.polarity** (:mod:`.denied`) — a word the claim denies ("a bridge that was not
  repaired", "pleaded not guilty") that the evidence holds by lemma, affirmed, and no passage of the
  sources denies: the negation component reads the main predicate's cue only.
* **contradicted.polarity** also — a noun or name of the claim that its evidence sets aside ("moved
  to Denver rather than Austin", "instead of", "not Austin": :mod:`.excluded`).
* **contradicted.roles** (:mod:`.roles`, :mod:`.moved`) — two names of the claim in each other's
  place (who acquired whom, the voice read from the parse: "Smith was defeated by Jones" is "Jones
  defeated Smith"), or two nouns each in the other's slot ("from the reservoir to the lake" for
  "from the lake to the reservoir").
* **contradicted.entity** / **contradicted.value** (:mod:`.binding`; a rate per another noun:
  :mod:`.rate`) — a value or act of the claim's named subject is said of another name in the
  evidence ("Version 3.0 removed the API" for "Version 2.0 removed the API"); the claim's subject
  has another value in the same slot ("the free plan allows up to 10 users").
* **unverified.hedged** (:mod:`.dropped`, :mod:`.unasserted`) — the evidence hedges (``may``,
  ``reportedly``; a modal only over words the claim shares: "might close", not "a sauce I could eat
  every day") or attributes ("according to", "critics say") what the claim states as fact, or marks
  it as not final ("preliminary, superseded"), or does not assert the claim's predicate at all: a
  plan, a condition, a modal or tense the claim does not share, "nearly" (:mod:`.unasserted`).
* **unverified.unbound** (:mod:`.binding`) — a value is said of another subject in the evidence ("10
  users" of the Pro plan for the free plan's), and no clause of the claim's subject gives another
  value.
* **unverified.language** (:mod:`.language`) — the claim is not in English (two function words of
  another language): the rules read English only.
* **unverified.unaligned** (:mod:`.unaligned`) — a word that carries the claim's meaning (a verb,
  adjective or adverb; a quantifier, ordinal, comparative or superlative; a temporal relation) has
  no counterpart in the evidence, or another word stands in its slot ("raised" where the source says
  "held"). The reason names the word.

Which words carry meaning is read from the parse (parts of speech, tags, dependency labels) and
the closed classes of ``models/guard.json`` (whose optional ``light`` list names words that may
stay unaligned under the stricter settings; none is shipped). A claim against a business
record's lines is left to the record rules.

Every finding is measured on natural labelled text (``bench/rule_precision.py``, whose table ships as
``models/rule_precision.json``). A contradicting finding the table demotes (its precision's 95%
interval below 50%, :meth:`~sourced_nlp.verdict.precision.PrecisionTable.contradicts`) takes the
grounding back as ``unverified.possible``, not ``contradicted``. A finding of verdict ``possible``
(another verb in the slot of the claim's predicate, reworded around it: :mod:`.unaligned`) takes
nothing back: the grounding stays, its reason ending "; possible: ..." so the reader sees it.

The finders are one a module, each with its ``DECIDES`` (the rule names it gives), and each reads
a :class:`~.context.GuardContext` (``find_x(gctx) -> list[Finding]``); :data:`DEFAULT_FINDERS` is
their order, which is the order of the findings: the guard takes the first contradicted one it
admits, else the first demoted contradicted one, else the first unverified one. The word alignment and the guard's lexicon are in :mod:`sourced_nlp.verdict.wordalign`,
the token records (:class:`~sourced_nlp.verdict.tree.Token`) and the walks of the parse in
:mod:`sourced_nlp.verdict.tree`; their public names are importable from here too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ...text.lexicons import load_lexicon
from ..context import ClaimContext
from ..converse import converse_links
from ..finding import Finding
from ..index import passage_at
from ..passage import Passage
from ..precision import PrecisionTable, default_precision, possible
from ..tree import Token, tokens
from ..types import Result, result
from ..wordalign import (  # noqa: F401
    GuardLexicon,
    Link,
    _is_content,
    align_words,
    alignment,
    carries,
    default_guard_lexicon,
    name_keys,
    name_labels,
    same_name,
)
from .binding import bound_value, find_binding
from .context import Finder, GuardContext, claim_hedged
from .denied import find_denied
from .dropped import find_attributed, find_dropped
from .excluded import excluded_by, find_excluded
from .language import find_language
from .moved import find_moved
from .rate import denominator, find_rate
from .roles import find_roles
from .scope import find_scope
from .unaccounted import WORD_FINDERS, find_unaccounted
from .unasserted import find_unasserted

#: the rule names the guard gives: those of its finders' modules (each module's ``DECIDES``)
DECIDES = (
    "contradicted.antonym",
    "contradicted.polarity",
    "contradicted.scope",
    "contradicted.qualifier",
    "contradicted.roles",
    "contradicted.entity",
    "contradicted.value",
    "unverified.hedged",
    "unverified.unaligned",
    "unverified.unbound",
    "unverified.language",
)

#: which claim words with no counterpart in the evidence keep a claim from ``grounded``: every
#: word that carries meaning (``all``); the main predicates and the closed classes (quantifiers,
#: ordinals, comparatives and superlatives, exclusive words: ``predicates``); none (``slots``,
#: the default: only a word with another word in its slot)
UNALIGNED = ("all", "predicates", "slots")

#: the finders, in the order their findings are listed (and weighed: the first contradicted
#: finding takes the grounding back, else the first finding)
DEFAULT_FINDERS: tuple[Finder, ...] = (
    find_language,  # unverified.language (alone: see ALONE)
    find_roles,  # contradicted.roles: two names in each other's place
    find_moved,  # contradicted.roles: two nouns each in the other's slot
    find_denied,  # contradicted.polarity: a word the claim denies, affirmed in the evidence
    find_excluded,  # contradicted.polarity: a word the evidence sets aside ("rather than")
    find_rate,  # contradicted.value: a rate per another noun
    find_binding,  # contradicted.entity / contradicted.value / unverified.unbound
    find_unaccounted,  # per unaligned claim word: contradicted.antonym / contradicted.scope / unverified.unaligned
    find_dropped,  # contradicted.qualifier / unverified.hedged: what the claim drops
    find_unasserted,  # unverified.hedged: a predicate the evidence does not assert
)

#: the finders whose finding is the only one: a claim not in English is read no further
ALONE: tuple[Finder, ...] = (find_language,)

#: the lexicons the guard reads, key -> bundled default: its own ``wordnet`` (``models/wordnet.json``)
#: and ``guard`` (``models/guard.json``), set in ``sourced.guard.v1``; and ``sourced_verify``'s
#: ``lexicon`` (``models/lexical.json``: the hedges, the antonym groups) and ``negation``
#: (``models/negation.json``: the negation and exclusion cues), which the component gives it
#: (:meth:`Guard.with_lexicons`)
LEXICONS = {"wordnet": "wordnet", "guard": "guard", "lexicon": "lexical", "negation": "negation"}
#: the guard's own lexicons (of :data:`LEXICONS`), which ``sourced_verify`` does not read itself
OWN_LEXICONS = ("wordnet", "guard")


class Guard:
    """Reads a grounded claim's alignment (module docstring).

    Args:
        lexicon: the guard's words; None: read from the ``wordnet``, ``guard`` and ``lexicon``
            lexicons of ``lexicons``.
        meta_words: lemmas a claim uses to point at its sources, never required.
        unaligned: which claim words with no counterpart keep a claim from grounded
            (:data:`UNALIGNED`).
        lexicons: bundled name or path of each lexicon the guard reads (:data:`LEXICONS` keys;
            a missing key takes the bundled one, but for ``wordnet`` and ``guard`` when
            ``lexicon`` is given: None, not known). Kept as :attr:`lexicons`.

    Raises:
        ValueError: an ``unaligned`` that is none of :data:`UNALIGNED`.
        FileNotFoundError: a lexicon that is neither bundled nor a file.
    """

    #: the finders the guard asks, in order
    finders: tuple[Finder, ...] = DEFAULT_FINDERS

    def __init__(
        self,
        lexicon: GuardLexicon | None = None,
        meta_words: frozenset[str] = frozenset(),
        unaligned: str = "slots",
        lexicons: Mapping[str, str | None] | None = None,
        precision: PrecisionTable | None = None,
    ) -> None:
        if unaligned not in UNALIGNED:
            raise ValueError(
                f"sourced_verify config: guard_unaligned must be one of {', '.join(UNALIGNED)}, got {unaligned!r}"
            )
        unknown = dict.fromkeys(OWN_LEXICONS) if lexicon is not None else {}
        #: the bundled name or path of each lexicon the guard reads (:data:`LEXICONS`; None: a
        #: lexicon given as an object, :class:`GuardLexicon`, whose files are not known)
        self.lexicons: dict[str, str | None] = {**LEXICONS, **unknown, **(lexicons or {})}
        refs = self.lexicons
        if lexicon is None and all(refs[k] == LEXICONS[k] for k in (*OWN_LEXICONS, "lexicon")):
            lexicon = default_guard_lexicon()
        self.lex = lexicon or GuardLexicon.load(wordnet=refs["wordnet"], guard=refs["guard"], lexical=refs["lexicon"])  # type: ignore[arg-type]
        self.meta = meta_words
        self.unaligned = unaligned
        #: the measured precision of the guard's contradicting findings (None: the shipped table,
        #: :mod:`sourced_nlp.verdict.precision`): a finding it demotes takes a grounding back as
        #: ``unverified.possible``, not ``contradicted``
        self.precision = precision
        #: the words of the lexical antonym groups (``models/lexical.json``), canonical lemmas
        self.group_words: tuple[str, ...] = tuple(
            sorted(
                w
                for sides in load_lexicon(refs["lexicon"])["antonym_groups"]
                for side in sides
                for w in side
                if " " not in w
            )
        )  # type: ignore[arg-type]
        neg = load_lexicon(refs["negation"])  # type: ignore[arg-type]
        #: the negation cues and pseudo-negations of ``models/negation.json`` (:func:`find_denied`)
        self.neg_cues = frozenset(
            (*neg["neg_dep_cues"], *neg["determiner_cues"], *neg["preposition_cues"], *neg["verb_cues"])
        )
        self.neg_pseudo = frozenset(neg["pseudo"])
        #: the exclusion cues of ``models/negation.json``, longest first (:func:`find_excluded`)
        self.exclusion = tuple(sorted((tuple(c.split()) for c in neg.get("exclusion_cues", ())), key=len, reverse=True))

    def with_meta(self, meta_words: frozenset[str]) -> "Guard":
        """The same guard, leaving ``meta_words`` (the verifier's) out of what must be aligned."""
        return Guard(self.lex, meta_words, self.unaligned, self.lexicons, self.precision)

    def with_lexicons(self, **refs: str) -> "Guard":
        """The same guard reading other lexicons (:data:`LEXICONS` keys, bundled name or path):
        ``sourced_verify`` gives it its ``lexicon`` and ``negation``, and ``from_disk`` the files
        ``to_disk`` wrote. Its :class:`GuardLexicon` is read again for another ``wordnet`` or
        ``guard``; for another ``lexicon`` only its hedges are.

        Raises:
            KeyError: a key that is none of :data:`LEXICONS`.
            FileNotFoundError: a lexicon that is neither bundled nor a file.
        """
        unknown = sorted(set(refs) - set(LEXICONS))
        if unknown:
            raise KeyError(f"the guard reads no lexicon {unknown}; its lexicons are {sorted(LEXICONS)}")
        new = {**self.lexicons, **refs}
        lex = self.lex
        if any(new[k] != self.lexicons[k] for k in OWN_LEXICONS):
            lex = GuardLexicon.load(
                wordnet=new["wordnet"] or "wordnet", guard=new["guard"] or "guard", lexical=new["lexicon"] or "lexical"
            )
        elif new["lexicon"] != self.lexicons["lexicon"]:
            lex = dataclasses.replace(lex, hedges=frozenset(load_lexicon(new["lexicon"] or "lexical")["hedges"]))
        return Guard(lex, self.meta, self.unaligned, new, self.precision)

    def __call__(self, ctx: ClaimContext, res: Result) -> Result:
        """``res`` as is, unless it is ``grounded`` and a finding takes it back (module docstring)."""
        gctx = self.context(ctx, res)
        if gctx is None:
            return res
        found = self.findings(gctx)
        words = alignment(ctx.record, gctx.links, gctx.passages)
        shown = [f for f in found if f.verdict == "possible"]
        found = [f for f in found if f.verdict != "possible"]
        if not found:
            if shown:  # what a finding of too little precision saw: shown, the verdict kept
                return {**res, "reason": f"{res['reason']}; possible: {shown[0].reason}", "alignment": words}  # type: ignore[typeddict-item]
            return {**res, "alignment": words}  # type: ignore[typeddict-item]
        table = self.precision or default_precision()
        first = min(
            found,
            key=lambda f: (
                0
                if f.verdict == "contradicted" and table.contradicts(f.rule, guard=True)
                else 1
                if f.verdict == "contradicted"
                else 2
            ),
        )
        ev = res["evidence"][first.passage]
        if first.verdict == "contradicted" and table.contradicts(first.rule, guard=True):
            out = result("contradicted", first.reason, 0.05, [ev], first.differs, rule=first.rule)
        elif first.verdict == "contradicted":
            # demoted by its precision on natural text: the grounding is taken back, not contradicted
            reason = possible(first.reason, first.rule, table.guard_of(first.rule), guard=True)
            support = ctx.support if ctx.best is not None else 0.4
            out = result(
                "unverified", reason, max(0.15, min(0.65, support)), [ev], first.differs, rule="unverified.possible"
            )
        else:
            support = ctx.support if ctx.best is not None else 0.4
            out = result(
                "unverified", first.reason, max(0.15, min(0.65, support)), [ev], first.differs, rule=first.rule
            )
        return {**out, "alignment": words}  # type: ignore[typeddict-item]

    def read(self, ctx: ClaimContext, res: Result) -> list[Finding]:
        """Every finding against a grounded ``res``, in the order the guard weighs them (an empty
        list when ``res`` is not grounded or the guard does not read it: a record, no tokens).
        The benchmark of the rules' precision (``bench/rule_precision.py``) counts each of them."""
        gctx = self.context(ctx, res)
        return [] if gctx is None else self.findings(gctx)

    def context(self, ctx: ClaimContext, res: Result) -> GuardContext | None:
        """What the finders read of a grounded ``res``: the claim's words aligned with those of its
        evidence passages (:func:`align_words`); None when ``res`` is not grounded or the guard
        does not read it (a line of a record for evidence, a claim or passage without tokens)."""
        if res["verdict"] != "grounded" or not res["evidence"]:
            return None
        claim_toks = ctx.record.get("tokens")
        passages = [self._passage(ctx, ev) for ev in res["evidence"]]
        if not claim_toks or any(p is None or p.structured or "tokens" not in p.f for p in passages):
            return None
        claim = tokens(claim_toks)
        ev = [tokens(p.f["tokens"]) for p in passages]  # type: ignore[union-attr,typeddict-item]
        names = (name_keys(ctx.record), [name_keys(p.f) for p in passages])  # type: ignore[union-attr]
        links = converse_links(claim, ev, align_words(claim, ev, self.lex, names), self.lex)
        to = {ln.k: ln.ev for ln in links if ln.ev is not None}
        return GuardContext(
            ctx=ctx,
            claim=claim,
            passages=passages,
            ev=ev,
            links=links,
            to=to,  # type: ignore[arg-type]
            hows={ln.k: ln.how for ln in links},
            used=set(to.values()),
            names=names,
            lex=self.lex,
            meta=self.meta,
            unaligned=self.unaligned,
            group_words=self.group_words,
            neg_cues=self.neg_cues,
            neg_pseudo=self.neg_pseudo,
            exclusion=self.exclusion,
        )

    def findings(self, gctx: GuardContext) -> list[Finding]:
        """Every finding of the finders (:attr:`finders`) against grounding the claim, in their
        order; a finder of :data:`ALONE` that finds something gives the only findings."""
        out: list[Finding] = []
        for find in self.finders:
            got = find(gctx)
            if got and find in ALONE:
                return got
            out += got
        return out

    @staticmethod
    def _passage(ctx: ClaimContext, ev: dict) -> Passage | None:
        pid = passage_at(ctx.index, ev["source"], ev["start"], ev["end"])
        return None if pid is None else ctx.index.passages[pid]


__all__ = [
    "ALONE",
    "DECIDES",
    "DEFAULT_FINDERS",
    "LEXICONS",
    "OWN_LEXICONS",
    "UNALIGNED",
    "WORD_FINDERS",
    "Finder",
    "Finding",
    "Guard",
    "GuardContext",
    "GuardLexicon",
    "Link",
    "Token",
    "align_words",
    "alignment",
    "bound_value",
    "carries",
    "claim_hedged",
    "default_guard_lexicon",
    "denominator",
    "excluded_by",
    "find_attributed",
    "find_binding",
    "find_denied",
    "find_dropped",
    "find_excluded",
    "find_language",
    "find_moved",
    "find_rate",
    "find_roles",
    "find_scope",
    "find_unaccounted",
    "find_unasserted",
    "name_keys",
    "name_labels",
    "same_name",
    "tokens",
]
