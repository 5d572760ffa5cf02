"""Word finder ``contradicted.scope``: a universal or exclusive quantifier of the claim the evidence
does not bear out (:func:`find_scope`: "all patients" where the evidence counts a share of them or
names a kind of them, "CSV only" where the evidence lists more).
"""

from __future__ import annotations

from ..finding import Finding
from ..tree import _ancestors, _children, _negated, _text
from ..wordalign import _is_content
from .context import GuardContext

DECIDES = ("contradicted.scope",)


def find_scope(gctx: GuardContext, k: int) -> Finding | None:
    """A universal quantifier ("all patients") against evidence that counts a share of the
    noun or names a kind of it; an exclusive one ("CSV only") against evidence that lists
    more than the claim names."""
    lex, claim, ev, to, passages, cword = gctx.lex, gctx.claim, gctx.ev, gctx.to, gctx.passages, gctx.cword
    tok = claim[k]
    negated = _negated(claim, k)
    if tok.lemma in lex.universal and tok.head >= 0 and tok.head in to and not negated:
        e, j = to[tok.head]
        p, toks = passages[e], ev[e]
        # the evidence counts a share of the noun ("95% of patients", "12 patients") or names a
        # kind of it ("domestic applicants")
        # "none of the samples tested positive" for "all samples tested negative": the denial of
        # every member and the antonym say the claim's "all" (Alignment.complement)
        complement = gctx.complement(e)
        counted = [
            i
            for i in (*_children(toks, j), *_ancestors(toks, j, 3))
            if toks[i].lemma == "%"
            and not any(toks[n].lemma == "100" for n in _children(toks, i))
            or lex.opposed(tok.lemma, toks[i].lemma)
            and not complement
        ]
        kinds = [
            i
            for i in _children(toks, j)
            if toks[i].dep in ("amod", "compound")
            and (e, i) not in to.values()
            and toks[i].tag in ("JJ", "NN", "NNP")
            and toks[i].lemma not in lex.universal
            and toks[i].lemma not in lex.determiner_adjectives
            and toks[i].flag != "n"
        ]
        if counted or kinds:
            i = counted[0] if counted else kinds[0]
            if toks[i].lemma == "%":
                i = next((n for n in _children(toks, i) if toks[n].pos == "NUM"), i)
            s = p.f["text"][toks[i].start : max(toks[i].end, toks[j].end)] if counted else _text(p, toks[i])
            w = cword(k)
            return Finding(
                "contradicted",
                "contradicted.scope",
                f"the claim says '{w}'; the source says '{s}'",
                [{"claim": f"{w} {cword(tok.head)}", "source": s, "kind": "scope"}],
                e,
            )
    if tok.lemma in lex.exclusive and not (tok.head >= 0 and claim[tok.head].pos == "NUM"):
        aligned = set(to.values())
        for c, (e, j) in to.items():
            toks = ev[e]
            h = toks[j].head
            # the other members of a list the aligned word is in: its conjuncts, or words
            # with its head and its dependency
            members = [
                i
                for i in range(len(toks))
                if i != j
                and (
                    toks[i].dep in ("conj", "appos")
                    and toks[i].head == j
                    or toks[j].dep == "conj"
                    and i == h
                    or h >= 0
                    and toks[i].head == h
                    and toks[i].dep == toks[j].dep
                    and toks[j].dep in ("nmod", "compound", "conj", "amod")
                )
            ]
            members = [i for i in members if (e, i) not in aligned and _is_content(toks[i], lex)]
            if members and claim[c].pos in ("NOUN", "PROPN") and abs(c - k) <= 3:
                p = passages[e]
                other = _text(p, toks[members[0]])
                return Finding(
                    "contradicted",
                    "contradicted.scope",
                    f"the claim says '{cword(c)} {cword(k)}'; the source also names '{other}'",
                    [{"claim": f"{cword(c)} {cword(k)}", "source": other, "kind": "scope"}],
                    e,
                )
    return None
