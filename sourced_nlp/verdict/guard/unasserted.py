"""Finder ``unverified.hedged`` of a predicate not asserted: whether the evidence asserts what the
claim states, the veridicality of the evidence's predicate.

A claim aligned word by word with its evidence may still state as done what the evidence only
plans, tries, fears, forecasts or denies: "The launch took place on June 4" against "The launch
was *scheduled to* take place on June 4", "The firm cut 300 jobs" against "The firm *narrowly
avoided* cutting 300 jobs", "The bridge collapsed" against "The bridge *nearly* collapsed",
"The plan will cut emissions" against "*If approved*, the plan will cut emissions", "The museum
reopened in April" against "The museum *will* reopen in April". :func:`find_unasserted` reads the
word the claim's main predicate is aligned with, in its evidence passage, and finds:

- **a governor that does not assert its complement**: the word is the clausal complement
  (``xcomp``, ``ccomp``) of a verb or adjective the claim does not share that is not one of
  the ``veridical`` words of ``models/guard.json`` (the verbs that assert what follows them:
  factives, implicatives, the source's own reporting verbs, aspectual verbs), or of a veridical
  one that is denied ("did not prove"). It is a list of the verbs that assert, not of those that
  do not: a governor nobody listed ("was poised to", "reversed its decision to") keeps the claim
  from ``grounded``. "It is false that ..." and "it is unclear whether ..." are read through the
  copula to its complement;
- **a modal or tense the claim does not share**: the claim states a past event ("reopened",
  "has paid") where the evidence has a modal ("will reopen", "must pay", "would cut"), or the
  claim says "will" where the evidence states the event as past;
- **a condition**: an "if" or "unless" clause on the evidence's predicate that the claim does not
  state;
- **an approximator**: "nearly" or "almost" on the evidence's verb (the event did not happen);
- **a question**: the evidence's sentence ends with a question mark ("Are polar bear
  populations increasing?" states nothing): on natural text (``bench/rule_precision.py``) it took
  back 3 groundings, all 3 hallucinated.

Speech the evidence quotes is not taken back: a claim stating as fact what a quoted speaker
says ("'... helped to control this outbreak,' Smith said") was tried and measured on the same
sets: 28 groundings taken back, 5 hallucinated (18%), no more often than what the guard lets
through, so annotators of natural summaries read a reported quote as the source's statement.

Each is ``unverified.hedged``, the evidence word shown. A claim that hedges itself (a modal other
than "will", an attribution: :func:`~.context.claim_hedged`) is left to :func:`~.dropped.find_dropped`, which
also asks :func:`~.dropped.find_attributed` whether the claim's verb is said under an attribution verb of
the evidence ("critics say", "denied that").

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): counted with ``dropped`` under
``unverified.hedged``: 64 taken back, 1.56x.
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import _children, _negated, _text
from .context import GuardContext

DECIDES = ("unverified.hedged",)


#: the dependencies of a clause that complements the verb or adjective it hangs on
COMPLEMENT = ("xcomp", "ccomp")


#: the subordinators of a condition
CONDITION = ("if", "unless")


#: the adverbs that say an event came close and did not happen (Quirk et al. 1985, 8.112: approximators)
APPROXIMATORS = ("nearly", "almost")


def _is_past(toks, i: int) -> bool:
    """The predicate is stated as past or done: a past-tense verb, or a participle with a
    perfect or passive auxiliary in the past or present ("has paid", "was paid")."""
    t = toks[i]
    aux = [toks[c] for c in _children(toks, i) if toks[c].dep in ("aux", "auxpass")]
    if any(a.tag == "MD" for a in aux):
        return False
    if t.tag == "VBD":
        return True
    return t.tag == "VBN" and any(a.lemma in ("have", "be") and a.tag in ("VBD", "VBZ", "VBP") for a in aux)


def _asserts(lex, toks, g: int) -> bool:
    """The governor asserts what it governs: a ``veridical`` word, not denied, and not itself
    said under a modal ("will begin charging"). Lemmas are canonical (``models/lexical.json``
    puts "claim" with "say"), so the word as written is checked against the attribution verbs
    in their regular forms ("claims", "claimed")."""
    t = toks[g]
    raw = t.raw
    if any(
        raw == v or raw.startswith(v) and raw[len(v) :] in ("s", "es", "d", "ed", "ing") for v in lex.attribution_verbs
    ):
        return False
    return t.lemma in lex.veridical and not _negated(toks, g) and not _modals(toks, g)


def _modals(toks, i: int) -> set[str]:
    return {toks[c].lemma for c in _children(toks, i) if toks[c].dep in ("aux", "auxpass") and toks[c].tag == "MD"}


def _governor(toks, j: int, aligned: set[int]) -> int | None:
    """The word that word ``j``'s clause complements, not shared with the claim: the head of a
    complement dependency, or, for a copula ("it is false that"), the copula's complement."""
    i = j
    for _ in range(3):
        h = toks[i].head
        if h < 0 or toks[i].dep not in COMPLEMENT:
            return None
        if h in aligned:
            i = h  # the claim shares this governor ("was scheduled to" in both): look further up
            continue
        if h > i:
            return None  # a complement follows its governor; a clause before it is the parser's join
        if toks[h].pos == "AUX" or toks[h].lemma == "be":
            words = [c for c in _children(toks, h) if toks[c].dep in ("acomp", "attr") and c not in aligned]
            return words[0] if words and toks[words[0]].pos in ("ADJ", "NOUN") else None
        # a verb or adjective with a subject of its own ("economists questioned whether", "the
        # launch was scheduled to"); not a participle or conjunct the parser hung a clause on
        has_subject = any(toks[c].dep in ("nsubj", "nsubjpass", "expl", "csubj") for c in _children(toks, h))
        if toks[h].pos == "ADJ" and toks[h].head >= 0 and toks[toks[h].head].lemma == "be":
            has_subject = True  # "is likely to", "was unable to"
        return h if toks[h].pos in ("VERB", "ADJ") and has_subject else None
    return None


def find_unasserted(gctx: GuardContext) -> list[Finding]:
    """The evidence word of the claim's main predicate, not asserted (module docstring):
    ``[Finding("unverified", "unverified.hedged", reason, differs, passage)]`` or ``[]``; ``[]`` too for a
    claim that hedges itself (:attr:`GuardContext.hedged <.context.GuardContext.hedged>`)."""
    lex, claim, ev, to, passages = gctx.lex, gctx.claim, gctx.ev, gctx.to, gctx.passages
    if gctx.hedged:
        return []
    if lex.veridical is None:
        return []  # a guard lexicon without the veridical words
    # a statement's main predicate; an instruction ("Open a command prompt": a base-form verb
    # with no subject) states no fact
    roots = [
        k
        for k, t in enumerate(claim)
        if t.head < 0
        and k in to
        and t.pos in ("VERB", "ADJ")
        and not (t.tag == "VB" and not any(claim[c].dep in ("nsubj", "nsubjpass", "expl") for c in _children(claim, k)))
    ]
    # a root "be" stands for its complement ("The service is free")
    roots += [
        c
        for k, t in enumerate(claim)
        if t.head < 0 and t.pos == "AUX"
        for c in _children(claim, k)
        if claim[c].dep == "acomp" and c in to
    ]
    claim_lemmas = {t.lemma for t in claim}
    for k in roots:
        e, j = to[k]
        toks, p = ev[e], passages[e]
        aligned = {jj for (ee, jj) in to.values() if ee == e}
        word = None
        g = _governor(toks, j, aligned)
        if g is not None and toks[g].lemma not in claim_lemmas and not _asserts(lex, toks, g):
            word = _text(p, toks[g])
        elif _is_past(claim, k) and _modals(toks, j) - _modals(claim, k):
            m = next(c for c in _children(toks, j) if toks[c].tag == "MD")
            word = f"{_text(p, toks[m])} {_text(p, toks[j])}"
        elif "will" in _modals(claim, k) and _is_past(toks, j):
            word = _text(p, toks[j])
        else:
            cond = next(
                (
                    m
                    for c in _children(toks, j)
                    if toks[c].dep == "advcl"
                    for m in _children(toks, c)
                    if toks[m].dep == "mark" and toks[m].lemma in CONDITION
                ),
                None,
            )
            if cond is not None and toks[cond].lemma not in claim_lemmas:
                word = _text(p, toks[cond])
            else:
                near = next(
                    (
                        c
                        for c in _children(toks, j)
                        if toks[c].dep == "advmod" and toks[c].lemma in APPROXIMATORS and toks[j].pos == "VERB"
                    ),
                    None,
                )
                if near is not None and toks[near].lemma not in claim_lemmas:
                    word = f"{_text(p, toks[near])} {_text(p, toks[j])}"
        if word is not None:
            return [
                Finding(
                    "unverified",
                    "unverified.hedged",
                    f"the source does not state it as done: '{word}'",
                    [{"claim": "", "source": word, "kind": "hedge"}],
                    e,
                )
            ]
        asked = _asked(toks, j)
        if asked is not None:
            first = next((i + 1 for i in range(j - 1, -1, -1) if toks[i].tag == "."), 0)
            s = p.f["text"][toks[first].start : toks[asked].end]
            return [
                Finding(
                    "unverified",
                    "unverified.hedged",
                    f"the source asks it: '{s}'",
                    [{"claim": "", "source": s, "kind": "question"}],
                    e,
                )
            ]
    return []


def _asked(toks, j: int) -> int | None:
    """The question mark that ends the sentence of word ``j`` of the evidence (the word is
    asked, not stated: "Will the bridge reopen in May?"), or None."""
    for i in range(j + 1, len(toks)):
        if toks[i].tag == ".":
            return i if toks[i].raw == "?" else None
    return None
