"""The guard's finders: what of a grounded claim's evidence, read against the claim's aligned words
(:func:`~.wordalign.align_words`), takes the grounding back (:mod:`.guard`): a universal or
exclusive quantifier the evidence does not bear out (:func:`find_scope`), two names in each
other's place (:func:`find_roles`), a value or act said of another subject (:func:`find_binding`),
a qualifier, hedge or attribution of the evidence the claim drops (:func:`find_dropped`), a
word the claim denies that the evidence affirms (:func:`find_denied`).
"""

from __future__ import annotations

from collections.abc import Callable

from .tree import DEP, END, FLAG, HEAD, LEMMA, POS, RAW, START, TAG, _ancestors, _children, _clause, _negated, _subject, _subtree, _text
from .bound import one_thing, status_bound
from .finding import Finding
from .veridical import claim_hedged, find_attributed
from .wordalign import GuardLexicon, _is_content, name_labels, same_name


def find_scope(lex: GuardLexicon, claim, k, ev, to, passages, cword) -> Finding | None:
    """A universal quantifier ("all patients") against evidence that counts a share of the
    noun or names a kind of it; an exclusive one ("CSV only") against evidence that lists
    more than the claim names."""
    tok = claim[k]
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


def _role(toks, i: int) -> str | None:
    """The part a name plays in its verb's event: ``agent`` (the active subject, the passive's
    "by" phrase) or ``other`` (the passive subject, an object); None for any other dependency."""
    while toks[i][DEP] in ("compound", "flat") and toks[i][HEAD] >= 0 and toks[toks[i][HEAD]][FLAG] == "n":
        i = toks[i][HEAD]  # a word of a name ("Beta" of "Beta Corp") plays the part of its head
    dep = toks[i][DEP]
    if dep == "nsubj" or dep == "pobj" and toks[i][HEAD] >= 0 and toks[toks[i][HEAD]][DEP] == "agent":
        return "agent"
    return "other" if dep in ("nsubjpass", "dobj", "pobj") else None


def find_roles(claim, ev, to, passages, cword) -> list[Finding]:
    """Two names of the claim, the agent and another argument of one verb (:func:`_role`: the
    voice read from the parse, so "Smith was defeated by Jones" is "Jones defeated Smith"), in
    each other's part in the evidence."""
    subj = {k for k, t in enumerate(claim) if t[FLAG] == "n" and t[DEP] in ("nsubj", "nsubjpass") and k in to}
    obj = {k for k, t in enumerate(claim) if t[FLAG] == "n" and t[DEP] in ("dobj", "pobj") and k in to}
    for s in subj:
        for o in obj:
            (es, js), (eo, jo) = to[s], to[o]
            rs, ro = _role(claim, s), _role(claim, o)
            if es == eo and rs != ro and _role(ev[es], js) == ro and _role(ev[eo], jo) == rs:
                return [Finding("contradicted", "contradicted.roles",
                                f"the claim has '{cword(s)}' and '{cword(o)}' in each other's place",
                                [{"claim": f"{cword(s)} ... {cword(o)}", "source": f"{_text(passages[es], ev[eo][jo])} ... {_text(passages[es], ev[es][js])}",
                                  "kind": "roles"}], es)]
    return []


def find_binding(lex: GuardLexicon, claim, ev, to, passages, cword, labels, names) -> list[Finding]:
    """A value of the claim (a number, a day, an identifier), or the act of a named subject,
    grounds only through the subject it is said of: the evidence clause that holds it must
    have the claim clause's subject. Where it has another: a name for the claim's name, in a
    passage that does not name the claim's subject at all (contradicted.entity: "Version 3.0
    removed the API" for "Version 2.0 removed the API"); for a subject that is no name, the
    claim's subject with another value in that slot (contradicted.value), else
    unverified.unbound. A subject that is a pronoun or a description of a name ("the
    73-year-old aid worker") may be the claim's own: no finding; so may the claim's subject
    without an adjective of the claim ("the pool" / "the small pool"), unless the evidence's
    has a modifier of its own ("the team tier" / "the basic tier"): :func:`_bare`. Two person
    names of one word each ("Smith" / "Marion") may be one person's: unverified.unbound, not
    contradicted.entity (:func:`_maybe_one_person`)."""
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

        missing = [w for w in heads if not any(holds(w, i) for i in inside)]
        if j in inside or not missing:
            continue  # the value describes the subject itself, or the subject is the claim's
        if not named and all(claim[w][POS] == "ADJ" for w in missing) and _bare(lex, toks, e, inside, to, lambda i: holds(cs, i)):
            continue  # "the massive burrito costs $8" / "the burrito is $8": the evidence's subject is the claim's, unqualified
        if not named and cs not in to:
            continue  # a subject in other words ("on-time rate" / "on-time performance"): the coverage rules' call
        p = passages[e]
        theirs = p.f["text"][toks[min(inside)][START]:toks[max(inside)][END]]
        ours = " ".join(cword(w) for w in sorted(subj_words))
        if named:
            if toks[es][FLAG] != "n" or any(holds(cs, i) for i in range(len(toks))):
                continue  # a description that may be the name's; a passage that names both
            if _maybe_one_person(claim, cs, labels, toks, es, name_labels(p.f)):
                return [Finding("unverified", "unverified.unbound",
                                f"the source says '{cword(c)}' of '{theirs}': it may or may not be '{ours}' (a first name and a surname)",
                                [{"claim": ours, "source": theirs, "kind": "subject"}], e)]
            return [Finding("contradicted", "contradicted.entity", f"the source says '{cword(c)}' of '{theirs}', not of '{ours}'",
                            [{"claim": ours, "source": theirs, "kind": "entity"}], e)]
        if toks[es][FLAG] == "n":
            continue
        other = bound_value(lex, claim, c, subj_words, ev, passages)
        if other is not None:
            oe, text = other
            return [Finding("contradicted", "contradicted.value", f"the source gives '{text}' for '{ours}'",
                            [{"claim": cword(c), "source": text, "kind": "quantity"}], oe)]
        return [Finding("unverified", "unverified.unbound", f"the source says '{cword(c)}' of '{theirs}', not of '{ours}'",
                        [{"claim": ours, "source": theirs, "kind": "subject"}], e)]
    return []


def _maybe_one_person(claim, cs, labels, toks, es, ev_labels) -> bool:
    """Both subjects are one-word names, no title ("Smith" / "Marion", not "Dr. Okafor"): one may be
    the other's first name. One is a person's by the NER, the other a person's or unlabelled."""
    def single(ts, i, lab) -> bool:  # "Dr." of "Dr. Okafor" is a compound too
        return lab.get(i) in ("PERSON", "", None) and ts[i][POS] == "PROPN" and not any(ts[c][DEP] in ("compound", "flat") for c in _children(ts, i))
    return single(claim, cs, labels) and single(toks, es, ev_labels) and "PERSON" in (labels.get(cs), ev_labels.get(es))


def _bare(lex: GuardLexicon, toks, e, inside, to, holds) -> bool:
    """The evidence subject (its words ``inside``) holds the claim subject's head noun
    (``holds``) with no modifier of its own that the claim does not share: an adjective of the
    claim it lacks only says more of the same thing ("pool" / "small pool"), where a modifier
    of its own may name another one ("team tier" / "basic tier")."""
    held = [i for i in inside if holds(i)]
    aligned = set(to.values())
    return bool(held) and not any(
        toks[c][DEP] in ("amod", "compound", "nmod", "poss") and (e, c) not in aligned and _is_content(toks[c], lex)
        for i in held for c in _children(toks, i))


def bound_value(lex: GuardLexicon, claim, c, subj_words, ev, passages) -> tuple[int, str] | None:
    """Another value in the evidence, in a clause whose subject is the claim's, in the slot
    of the claim's value ``c`` (the same dependency on a word of the same lemma)."""
    tok = claim[c]
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


def find_dropped(lex: GuardLexicon, ctx, claim, ev, to, used, passages) -> list[Finding]:
    """Words of the evidence that qualify what the claim states, on a word the claim aligns
    with, missing from the claim: a status, an ordinal of a superlative, an exception
    (contradicted); a hedge or an attribution (unverified, unless the claim hedges too)."""
    aligned = {v for v in to.values()}
    claim_lemmas = {t[LEMMA] for t in claim}
    out: list[Finding] = []
    hedged = claim_hedged(lex, ctx, claim)
    for e, toks in enumerate(ev):
        p = passages[e]
        for j, t in enumerate(toks):
            if (e, j) in used or t[LEMMA] in claim_lemmas:
                continue
            near = [a for a in _ancestors(toks, j, 2) if (e, a) in aligned]
            lemma, s, h0 = t[LEMMA], _text(p, t), t[HEAD]
            if lemma in lex.status and h0 >= 0 and (toks[h0][LEMMA] in claim_lemmas or any(
                    (e, c) in aligned and toks[c][FLAG] == "n" for c in (*_children(toks, h0), toks[h0][HEAD]) if c >= 0)):
                near = [h0]  # "former director Osei": the title the claim names, or the title of its name
            if not near:
                continue
            head = toks[near[0]]
            if lemma in lex.status and t[DEP] in ("amod", "compound", "advmod") and t[FLAG] != "n" and head[POS] in ("NOUN", "PROPN") \
                    and status_bound(claim, toks, e, near[0], to):
                out.append(Finding("contradicted", "contradicted.qualifier", f"the source says '{s} {_text(p, head)}'",
                                   [{"claim": "", "source": s, "kind": "qualifier"}], e))
            elif (lemma in lex.ordinals or t[FLAG] == "o") and head[TAG] == "JJS":
                out.append(Finding("contradicted", "contradicted.qualifier", f"the source says '{s} {_text(p, head)}'",
                                   [{"claim": "", "source": s, "kind": "qualifier"}], e))
            elif lemma in lex.exceptions and t[DEP] in ("prep", "advcl", "mark", "cc"):
                out.append(Finding("contradicted", "contradicted.qualifier", f"the source makes an exception: '{s} ...'",
                                   [{"claim": "", "source": s, "kind": "qualifier"}], e))
            elif not hedged and (_modal_hedge(lex, toks, j, e, aligned) if t[TAG] == "MD" else
                                 lemma in lex.hedges and t[POS] != "PROPN"
                                 or lemma in lex.attribution_preps and t[DEP] == "prep" and _vague_source(toks, j)):
                out.append(Finding("unverified", "unverified.hedged", f"the source hedges or attributes it: '{s}'",
                                   [{"claim": "", "source": s, "kind": "hedge"}], e))
        if not hedged:
            out += find_attributed(lex, claim, toks, to, e, p)
        marked = next((t for t in toks if _provisional(lex, toks, t) and t[LEMMA] not in claim_lemmas), None)
        if marked is not None:
            out.append(Finding("unverified", "unverified.hedged", f"the source marks it '{_text(p, marked)}'",
                               [{"claim": "", "source": _text(p, marked), "kind": "provisional"}], e))
    return out


def _vague_source(toks, j: int) -> bool:
    """The source an attribution ("according to ...") names is vague: a bare plural or an
    indefinite ("according to critics", "according to some analysts", "according to reports"),
    not a named or definite one ("according to Cal Fire", "according to the police", "according
    to her grandmother"), which only says where the statement comes from. Measured on natural
    text (``bench/rule_precision.py``): "according to" took back 23 groundings, 3 of them
    hallucinated, against 14.5% of what the guard lets through; most named a definite source."""
    for c in _children(toks, j):
        for o in [c, *_children(toks, c)]:
            if toks[o][DEP] != "pobj":
                continue
            if toks[o][FLAG] == "n" or toks[o][POS] in ("PROPN", "PRON"):
                return False
            return not any(toks[d][DEP] in ("det", "poss") and toks[d][LEMMA] in ("the", "this", "that", "its", "his", "her", "their", "our")
                           or toks[d][DEP] == "poss" for d in _children(toks, o))
    return True


def _modal_hedge(lex: GuardLexicon, toks, j, e, aligned) -> bool:
    """A hedging modal ("may", "might", "could") hedges the claim only where it governs words the
    claim is aligned with: an aligned word under the verb it is the auxiliary of ("the museum
    might close": close; not "I could eat this every day" next to the dish the claim names)."""
    t = toks[j]
    if t[LEMMA] not in lex.hedge_modals and t[LEMMA] not in lex.hedges or t[HEAD] < 0:
        return False
    return any((e, i) in aligned for i in _subtree(toks, t[HEAD]) if i != j)


def _provisional(lex: GuardLexicon, toks, t) -> bool:
    """The word marks the passage's statement as not final (``provisional`` of
    ``models/guard.json``): an adjective or participle ("preliminary", "superseded"), or a noun as
    a status: a modifier ("draft budget") or "in draft"; not a countable noun ("drafts" on tap,
    "the draft was approved")."""
    if t[LEMMA] not in lex.provisional:
        return False
    if t[POS] not in ("NOUN", "PROPN"):
        return True
    if t[TAG] in ("NNS", "NNPS"):
        return False
    return t[DEP] in ("compound", "amod", "nmod") or t[DEP] == "pobj" and t[HEAD] >= 0 and toks[t[HEAD]][LEMMA] in ("in", "as")


def find_denied(cues: frozenset[str], pseudo: frozenset[str], claim, ev, to, how, passages, cword,
                others: Callable[[], list[list[list]]] = list) -> list[Finding]:
    """A word the claim denies with a ``neg`` dependent ("the road that does not flood", "the
    senator, who was not elected") that the evidence holds by its own lemma, affirmed:
    no word of that lemma, in the evidence or in any other passage of the sources (``others``:
    every passage, the evidence's included; the evidence alone when it gives none), is denied by a cue on it, on a word above it up to its clause's verb, or on its object's
    determiner ("do not have", "was not known", "has no tip"). Other passages count because a
    contrast ("X have a tip, while Y do not") is grounded on the affirmed clause's passage and
    may be denied in another; a cue deeper in a clause the word governs ("knew they would not
    ...") does not deny it. The negation component reads the cue of a sentence's main predicate
    only (:mod:`sourced_nlp.components.negation`); this reads the cue on any word the claim
    shares with its evidence, a relative or subordinate clause's. The cues and the
    pseudo-negations ("not only") are those of ``models/negation.json``; a synonym, a broader
    word or another form of the stem ("waterlogged" / "water") is no evidence of an affirmation
    (the evidence may deny in other words)."""
    for k, t in enumerate(claim):
        h = t[HEAD]
        if t[DEP] != "neg" or t[RAW].replace("\u2019", "'") not in cues or h < 0 or h not in to or how.get(h) != "lemma":
            continue
        if k > h:  # a cue after its head is a contrast the parse hung there ("..., not climate change")
            continue
        nxt = claim[k + 1][RAW] if k + 1 < len(claim) else ""
        if f"{t[RAW]} {nxt}" in pseudo or t[RAW] == "no" and nxt == "longer":
            continue
        e, j = to[h]
        lemma = ev[e][j][LEMMA]

        def denied(toks: list[list], i: int) -> bool:
            # the cue on the word, on a word above it up to its clause's verb, or on its object
            # ("do not have", "was not known", "has no tip"); not a cue deeper in a clause it
            # governs ("knew they would not get into trouble")
            clause = _clause(toks, i)
            above = [i]
            for a in _ancestors(toks, i, 3):
                if clause is None or i == clause or clause in above:
                    break
                above.append(a)
            reach = {c for a in above for c in _children(toks, a)}
            reach |= {d for c in _children(toks, i) for d in _children(toks, c) if toks[d][DEP] == "det"}
            if any(toks[a][LEMMA] in cues and toks[a][POS] in ("VERB", "AUX") for a in above[1:]):
                return True  # a denying verb above it ("failed to progress")
            return any(toks[x][RAW].replace("\u2019", "'") in cues or toks[x][LEMMA] in cues or toks[x][DEP] == "neg" for x in reach)

        if any(denied(toks, i) for toks in (others() or ev) for i in range(len(toks)) if toks[i][LEMMA] == lemma):
            continue
        s = _text(passages[e], ev[e][j])
        w = f"{cword(k)} {cword(h)}"
        return [Finding("contradicted", "contradicted.polarity", f"the claim says '{w}'; the source says '{s}'",
                        [{"claim": w, "source": s, "kind": "polarity"}], e)]
    return []


def _slot_of(lex: GuardLexicon, toks, i: int) -> tuple[int, str] | None:
    """The word's slot: the content word it depends on and how (its dependency class, or the
    preposition it hangs on: "parsing of sentences" is ``(parsing, "of")``)."""
    t = toks[i]
    h = t[HEAD]
    if h < 0:
        return None
    if t[DEP] == "pobj" and toks[h][DEP] in ("prep", "agent", "dative") and toks[h][HEAD] >= 0:
        return toks[h][HEAD], "of:" + toks[h][LEMMA]
    return h, lex.dep_class.get(t[DEP], t[DEP])


def _coordinated(toks, i: int, j: int) -> bool:
    """Words ``i`` and ``j`` are members of one coordination ("a hammer, a saw and a drill")."""
    def first(x: int) -> int:
        while toks[x][DEP] == "conj" and toks[x][HEAD] >= 0:
            x = toks[x][HEAD]
        return x
    return first(i) == first(j)


def find_moved(lex: GuardLexicon, claim, ev, to, how, passages, cword) -> list[Finding]:
    """Two nouns of the claim in each other's place, where the evidence holds both: "produces a
    correct input for every output" against "produces a correct output for every input". Each
    noun's slot (the aligned content word it depends on, and the dependency or preposition it
    hangs on by: :func:`_slot_of`) holds, in the evidence, the word the other noun is aligned
    with, and neither noun's own word is in its slot; two members of one list are in no
    order (:func:`_coordinated`). Nouns by lemma or form, names by key ("from Porto to Ajax" /
    "from Ajax to Porto", "Ortiz's deputy, Varga" / "Varga's deputy, Ortiz"); values are
    :func:`find_binding`'s."""
    ev_slots: dict[int, dict[tuple[int, str], list[int]]] = {}  # each passage's words by slot, once
    memo: dict[int, tuple[int, list[int]] | None] = {}

    def slot_in_ev(k: int) -> tuple[int, list[int]] | None:
        if k in memo:
            return memo[k]
        sl = _slot_of(lex, claim, k)
        out = None
        if sl is not None and sl[0] in to:
            e, hj = to[sl[0]]
            if e not in ev_slots:
                ev_slots[e] = {}
                for i in range(len(ev[e])):
                    if (x := _slot_of(lex, ev[e], i)) is not None:
                        ev_slots[e].setdefault(x, []).append(i)
            out = e, ev_slots[e].get((hj, sl[1]), [])
        memo[k] = out
        return out

    nouns = [k for k in to if claim[k][POS] in ("NOUN", "PROPN") and (
        claim[k][FLAG] != "n" and how.get(k) in ("lemma", "form") or claim[k][FLAG] == "n" and how.get(k) == "name")]
    at: dict[tuple[int, int], list[int]] = {}  # the claim nouns aligned with each evidence word
    for n, b in enumerate(nouns):
        at.setdefault(to[b], []).append(n)
    for a in nouns:
        sa = slot_in_ev(a)
        if sa is None or to[a][0] != sa[0] or to[a][1] in sa[1]:
            continue
        for b in [nouns[n] for n in sorted({n for j in sa[1] for n in at.get((sa[0], j), ())})]:
            if b == a or claim[b][LEMMA] == claim[a][LEMMA]:
                continue
            sb = slot_in_ev(b)
            if sb is None or sb[0] != sa[0] or to[a][1] not in sb[1] or to[b][1] in sb[1]:
                continue
            if _slot_of(lex, claim, a) == _slot_of(lex, claim, b) or _coordinated(claim, a, b) \
                    or _coordinated(ev[sa[0]], to[a][1], to[b][1]):
                continue  # members of one list, in any order
            if one_thing(claim, a, b) or one_thing(ev[sa[0]], to[a][1], to[b][1]):
                continue  # "the club's chairman, Jim Mann": one person, no roles
            p = passages[sa[0]]
            s = _text(p, ev[sa[0]][to[b][1]])
            return [Finding("contradicted", "contradicted.roles",
                            f"the claim has '{cword(a)}' and '{cword(b)}' in each other's place",
                            [{"claim": f"{cword(a)} ... {cword(b)}", "source": f"{s} ... {_text(p, ev[sa[0]][to[a][1]])}", "kind": "roles"}],
                            sa[0])]
    return []
