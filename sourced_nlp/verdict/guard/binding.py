"""Finder of a value or act said of another subject (:func:`find_binding`): ``contradicted.entity``
(another name), ``contradicted.value`` (the claim's subject with another value in the slot),
``unverified.unbound`` (another subject).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): ``contradicted.entity`` and
``contradicted.value`` did not fire once (2 and 1 firings before, all wrong: a one-word name the NER
called an organisation, a list the parser read as a verb, the "2" of "CO 2"): they may contradict,
unmeasured; ``unverified.unbound`` took back 7 groundings, none hallucinated (0x): it misses the
1.5x of a take-back and is kept for the hand-written cases of its kind, an open item.
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import _ancestors, _children, _clause, _is_predicate, _subject, _subtree
from ..wordalign import GuardLexicon, _is_content, name_labels, same_name
from .context import GuardContext

DECIDES = ("contradicted.entity", "contradicted.value", "unverified.unbound")


def find_binding(gctx: GuardContext) -> list[Finding]:
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
    lex, claim, ev, to, passages, cword, names = (
        gctx.lex,
        gctx.claim,
        gctx.ev,
        gctx.to,
        gctx.passages,
        gctx.cword,
        gctx.names,
    )
    labels = name_labels(gctx.ctx.record)
    for c, (e, j) in to.items():
        tok = claim[c]
        cc = _clause(claim, c)
        cs = _subject(claim, cc) if cc is not None else None
        if cs is None or claim[cs].flag == "a" or claim[cs].pos == "PRON" or c in _subtree(claim, cs):
            continue
        # the subject's own words: its head and the words that name or describe it ("free
        # plan", "Dr. Patel"), not the clauses and phrases hung on it
        subj_words = [
            i
            for i in (cs, *_children(claim, cs))
            if (i == cs or claim[i].dep in ("compound", "amod", "nmod", "flat")) and _is_content(claim[i], lex)
        ]
        named = cs in labels  # the subject is a name (of the NER or a proper-noun run), not a value
        is_value = tok.flag == "n" and (tok.pos == "NUM" or labels.get(c) in ("DAY", "ID", "DATE", "TIME"))
        # "Version 2.0 removed": the act is the name's, when it is the claim's main predicate (not a
        # word deep in a list that the parser took for a verb: "..., bay leaf, slivered almonds")
        said_of_name = (
            c == cc and named and tok.pos == "VERB" and tok.tag in ("VBD", "VBZ", "VBP") and _is_predicate(claim, c)
        )
        if not subj_words or not (is_value or said_of_name):
            continue
        toks = ev[e]
        above = _ancestors(toks, j, 4)
        if any(lex.related(claim[w].lemma, toks[a].lemma) for a in above for w in subj_words):
            continue  # "with growth of 8%": the value hangs on the claim's subject itself
        clause = _clause(toks, j)
        es = _subject(toks, clause) if clause is not None else None
        if es is None or toks[es].flag == "a" or toks[es].pos == "PRON":
            continue
        inside = _subtree(toks, es)
        heads = [cs] if named else subj_words  # a name by its head ("James Holmes" / "Holmes")

        def holds(w: int, i: int) -> bool:
            if named:
                return toks[i].flag == "n" and same_name(claim[w], toks[i], names[0].get(w), names[1][e].get(i))
            return (e, i) == to.get(w) or bool(lex.related(claim[w].lemma, toks[i].lemma))

        missing = [w for w in heads if not any(holds(w, i) for i in inside)]
        if j in inside or not missing:
            continue  # the value describes the subject itself, or the subject is the claim's
        if (
            not named
            and all(claim[w].pos == "ADJ" for w in missing)
            and _bare(lex, toks, e, inside, to, lambda i: holds(cs, i))
        ):
            continue  # "the massive burrito costs $8" / "the burrito is $8": the evidence's subject is the claim's, unqualified
        if not named and cs not in to:
            continue  # a subject in other words ("on-time rate" / "on-time performance"): the coverage rules' call
        p = passages[e]
        theirs = p.f["text"][toks[min(inside)].start : toks[max(inside)].end]
        ours = " ".join(cword(w) for w in sorted(subj_words))
        if named:
            if toks[es].flag != "n" or any(holds(cs, i) for i in range(len(toks))):
                continue  # a description that may be the name's; a passage that names both
            if _maybe_one_person(claim, cs, labels, toks, es, name_labels(p.f)):
                return [
                    Finding(
                        "unverified",
                        "unverified.unbound",
                        f"the source says '{cword(c)}' of '{theirs}': it may or may not be '{ours}' (a first name and a surname)",
                        [{"claim": ours, "source": theirs, "kind": "subject"}],
                        e,
                    )
                ]
            return [
                Finding(
                    "contradicted",
                    "contradicted.entity",
                    f"the source says '{cword(c)}' of '{theirs}', not of '{ours}'",
                    [{"claim": ours, "source": theirs, "kind": "entity"}],
                    e,
                )
            ]
        if toks[es].flag == "n":
            continue
        other = bound_value(lex, claim, c, subj_words, ev, passages)
        if other is not None:
            oe, text = other
            return [
                Finding(
                    "contradicted",
                    "contradicted.value",
                    f"the source gives '{text}' for '{ours}'",
                    [{"claim": cword(c), "source": text, "kind": "quantity"}],
                    oe,
                )
            ]
        return [
            Finding(
                "unverified",
                "unverified.unbound",
                f"the source says '{cword(c)}' of '{theirs}', not of '{ours}'",
                [{"claim": ours, "source": theirs, "kind": "subject"}],
                e,
            )
        ]
    return []


def _maybe_one_person(claim, cs, labels, toks, es, ev_labels) -> bool:
    """Both subjects are one-word names, no title ("Smith" / "Marion", not "Dr. Okafor"): one may be
    the other's first name. One is a person's by the NER, the other a person's, unlabelled, or an
    organisation's: the NER often calls a lone first name an organisation ("Davina" for the
    defendant the source calls "Ayrton" and "now ... called Davina", one of the two firings of
    ``contradicted.entity`` here on natural text, both wrong)."""

    def single(ts, i, lab) -> bool:  # "Dr." of "Dr. Okafor" is a compound too
        return (
            lab.get(i) in ("PERSON", "ORG", "", None)
            and ts[i].pos == "PROPN"
            and not any(ts[c].dep in ("compound", "flat") for c in _children(ts, i))
        )

    return single(claim, cs, labels) and single(toks, es, ev_labels) and "PERSON" in (labels.get(cs), ev_labels.get(es))


def _bare(lex: GuardLexicon, toks, e, inside, to, holds) -> bool:
    """The evidence subject (its words ``inside``) holds the claim subject's head noun
    (``holds``) with no modifier of its own that the claim does not share: an adjective of the
    claim it lacks only says more of the same thing ("pool" / "small pool"), where a modifier
    of its own may name another one ("team tier" / "basic tier")."""
    held = [i for i in inside if holds(i)]
    aligned = set(to.values())
    return bool(held) and not any(
        toks[c].dep in ("amod", "compound", "nmod", "poss") and (e, c) not in aligned and _is_content(toks[c], lex)
        for i in held
        for c in _children(toks, i)
    )


def bound_value(lex: GuardLexicon, claim, c, subj_words, ev, passages) -> tuple[int, str] | None:
    """Another value in the evidence, in a clause whose subject is the claim's, in the slot
    of the claim's value ``c`` (the same dependency on a word of the same lemma)."""
    tok = claim[c]
    for e, toks in enumerate(ev):
        for j, t in enumerate(toks):
            if t.flag != "n" or t.lemma == tok.lemma or t.pos != tok.pos:
                continue
            clause = _clause(toks, j)
            es = _subject(toks, clause) if clause is not None else None
            if es is None:
                continue
            inside = _subtree(toks, es)
            if all(any(lex.related(claim[w].lemma, toks[i].lemma) for i in inside) for w in subj_words):
                h, th = tok.head, t.head
                # the same dependency on a word of a related lemma, as the docstring says; the
                # dependency alone put the "2" of "CO 2" in the slot of "29 billion tonnes" (the one
                # firing of this finding on natural text, wrong)
                if h >= 0 and th >= 0 and lex.related(claim[h].lemma, toks[th].lemma) and t.dep == tok.dep:
                    return e, passages[e].f["text"][t.start : t.end]
    return None
