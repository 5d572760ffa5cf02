"""Word finder ``contradicted.antonym``: an unaligned claim word and the evidence word in its slot
(the same head, the same kind of dependency) stand against each other: WordNet antonyms
(``downgraded``/``upgraded``, ``required``/``optional``), a negative prefix
(``profitable``/``unprofitable``), two members of one scale or set (``few``/``most``,
``Monday``/``Tuesday``); for a main predicate with no word in its slot, an opposed predicate of
the evidence (:func:`find_antonym`).

Measured on natural labelled text (``python bench/rule_precision.py``, 2026-12-07: RAGTruth train
and the five dev sets, pooled; ``bench/RESULTS.md``): as the deciding finding, 10 of 11
contradictions right (95% interval 62-98%): it may contradict; what it takes back is hallucinated
1.65 times as often as what the guard lets through.
"""

from __future__ import annotations

from collections.abc import Callable

from ..finding import Finding
from ..tree import Token, _is_predicate, _negated, _text
from .context import GuardContext

DECIDES = ("contradicted.antonym",)


def find_antonym(gctx: GuardContext, k: int) -> Finding | None:
    """The evidence word in the slot of unaligned claim word ``k`` (:meth:`GuardContext.slot
    <.context.GuardContext.slot>`) opposed to it (:func:`opposed`), the word not denied where it
    stands ("not all"); for a main predicate with no word in its slot, the first unaligned main
    predicate (a verb or adjective) of the evidence opposed to it. None when there is neither."""
    claim, ev, passages, cword, groups = gctx.claim, gctx.ev, gctx.passages, gctx.cword, gctx.ctx.aligner.opposed
    tok = claim[k]
    slot = gctx.slot(k)
    if slot is not None and not _negated(claim, k):
        e, j = slot
        other = ev[e][j]
        if opposed(gctx, tok, other, cword(k), _text(passages[e], other), groups) and not gctx.complement(e):
            w, s = cword(k), _text(passages[e], other)
            return Finding(
                "contradicted",
                "contradicted.antonym",
                f"the claim says '{w}'; the source says '{s}'",
                [{"claim": w, "source": s, "kind": "antonym"}],
                e,
            )
    if slot is None and _is_predicate(claim, k):
        pred = next(
            (
                (e, j)
                for e, toks in enumerate(ev)
                for j in range(len(toks))
                if (e, j) not in gctx.used
                and _is_predicate(toks, j)
                and toks[j].pos in ("VERB", "ADJ")
                and opposed(gctx, tok, toks[j], cword(k), _text(passages[e], toks[j]), groups)
                and not gctx.complement(e)
            ),
            None,
        )
        if pred is not None:
            e, j = pred
            w, s = cword(k), _text(passages[e], ev[e][j])
            return Finding(
                "contradicted",
                "contradicted.antonym",
                f"the claim says '{w}'; the source says '{s}'",
                [{"claim": w, "source": s, "kind": "antonym"}],
                e,
            )
    return None


def opposed(
    gctx: GuardContext, a: Token, b: Token, a_text: str, b_text: str, groups: Callable[[str, str], bool]
) -> bool:
    """Two words stand against each other: by lemma, spaCy's own lemma or as written
    ("required" the adjective, whose lemma is the verb's), in WordNet or in the antonym
    groups of ``models/lexical.json`` (``groups``); or the evidence's noun is a synonym or
    the broader word of an antonym of the claim's ("income", broader than "profit", against
    "loss")."""
    lex = gctx.lex
    pairs = ((a.lemma, b.lemma), (a.raw, b.raw), (a_text.lower(), b_text.lower()))
    if any(lex.opposed(x, y) or groups(x, y) for x, y in pairs):
        return True
    if a.pos == "NOUN" and b.pos == "NOUN":
        against = set(lex.antonyms.get(a.raw, ())) | {w for w in gctx.group_words if groups(a.lemma, w)}
        return any(lex.related(b.raw, x) in ("synonym", "broader") for x in against)
    return False
