"""What a word of the evidence is said of: the guard binds a qualifier of the evidence to the
claim's own words before it holds it against the claim (``contradicted.qualifier``).

A status ("former", "interim", "acting") qualifies a title, and the title belongs to the names it
is joined to: its own modifiers and head ("former director Osei"), an apposition ("Chris Cornell,
then-former frontman of Soundgarden") or the subject of a copula ("Lopez is the former
treasurer"). Read on FaithBench's natural summaries (``bench/rule_precision.py``), the finding
held a status against claims that never gave that title of that person: 9 of its 11
contradictions there were wrong (seven claims about Audioslave contradicted by "then-former
frontman", said of Chris Cornell; "the team's manager" against "ex manager Micky Adams"; "next
destination" against "latest destination"). A status counts against a claim only where the
claim gives the same title, unqualified, of the same name.
"""

from __future__ import annotations

from ..tree import Token, _children

#: dependencies by which a word modifies the title it qualifies
_MODIFIERS = ("amod", "compound", "advmod", "nmod", "npadvmod")


def linked_names(toks: list[Token], i: int) -> list[int]:
    """The names (tokens flagged ``n``) that word ``i`` is said of: its children and head, the
    members of those names' runs, and, where ``i`` is the attribute of a copula, its subject."""
    around = [*_children(toks, i), toks[i].head]
    h = toks[i].head
    if h >= 0 and toks[h].lemma == "be":
        around += [c for c in _children(toks, h) if toks[c].dep in ("nsubj", "nsubjpass")]
    out: list[int] = []
    for c in around:
        if 0 <= c < len(toks) and toks[c].flag == "n":
            out += [c, *(g for g in _children(toks, c) if toks[g].flag == "n")]
    return sorted(set(out))


def status_bound(claim: list[Token], toks: list[Token], e: int, title: int, to: dict[int, tuple[int, int]]) -> bool:
    """The status on evidence word ``title`` (of passage ``e``) is held against the claim: the
    claim aligns a word with the title (or has its lemma, as part of a name: "Director Osei");
    that word carries no modifier of its own that its evidence does not hold, in the status's
    place ("next destination" / "latest destination": another qualifier, not a dropped one); and
    where the evidence binds the title to names, the claim binds its word to one of them, or
    names none of them at all ("the deputy mayor" for "former deputy mayor Lee"; not "the team's
    manager" of a claim that names "ex manager Micky Adams" in another role)."""
    if (toks[title].flag == "n" or toks[title].pos == "PROPN") and toks[title].dep not in ("compound", "flat"):
        return False  # the head of a name is the person, not a title ("interim spell locke shakes": a misparse)
    ks = [k for k, v in to.items() if v == (e, title)] or [
        k for k, t in enumerate(claim) if t.lemma == toks[title].lemma
    ]
    if not ks:
        return False
    names = set(linked_names(toks, title))
    for k in ks:
        if any(
            claim[c].dep in ("amod", "advmod") and claim[c].pos in ("ADJ", "ADV") and c not in to
            for c in _children(claim, k)
        ):
            continue
        if not names:
            return True
        mine = linked_names(claim, k)
        if any(to.get(m, (-1, -1))[0] == e and to[m][1] in names for m in mine):
            return True
        if not mine and not any(v[0] == e and v[1] in names for v in to.values()):
            return True
    return False


def name_head(toks: list[Token], i: int) -> int:
    """The head of the name run word ``i`` is in ("Jim" of "Jim Mann": "Mann")."""
    for _ in range(4):
        h = toks[i].head
        if h < 0 or toks[i].dep not in ("compound", "flat") or toks[h].flag != "n":
            break
        i = h
    return i


def one_thing(toks: list[Token], i: int, j: int) -> bool:
    """Words ``i`` and ``j`` name one thing: one is in apposition to the other, or a modifier of
    it ("the club's chairman, Jim Mann"; "chairman jim mann"; "Chelsea's Josh McEachran"), or the two are the subject and the
    attribute of one "be" ("California is a top peach-producing state"). Two such words have no
    roles to swap: on natural text (``bench/rule_precision.py``), ``contradicted.roles`` read each
    of these as a swap, three of its six contradictions, all wrong."""
    a, b = name_head(toks, i), name_head(toks, j)
    for x, y in ((a, b), (b, a)):
        if toks[x].head == y and toks[x].dep in ("appos", "compound", "flat", "attr", "poss"):
            return True
    ha, hb = toks[a].head, toks[b].head
    if (
        ha >= 0
        and ha == hb
        and toks[ha].lemma == "be"
        and {toks[a].dep, toks[b].dep} & {"nsubj", "nsubjpass"}
        and {toks[a].dep, toks[b].dep} & {"attr", "acomp", "appos"}
        and not any(
            toks[c].dep in ("predet", "quantmod", "nummod") or toks[c].tag in ("JJR", "RBR")
            for x in (a, b)
            for c in _children(toks, x)
        )
    ):
        return True  # "X is a Y"; not a measure of one against the other ("revenue was twice its costs")
    return False
