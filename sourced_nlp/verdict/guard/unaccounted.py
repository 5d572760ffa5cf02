"""Finder of the claim words the evidence does not account for: each content word of the claim
with no counterpart in the evidence (not a word of a name or value, which the rules have compared
on their own), in the claim's order, read by the word finders of :data:`WORD_FINDERS` in turn;
the first of them that finds something gives the word's finding (:func:`find_unaccounted`).
Strongest first: an antonym in its slot (:mod:`.antonym`), a quantifier the evidence does not bear
out (:mod:`.scope`), a word that carries meaning unaccounted for (:mod:`.unaligned`).
"""

from __future__ import annotations

from ..finding import Finding
from .antonym import find_antonym
from .context import GuardContext, WordFinder
from .scope import find_scope
from .unaligned import find_unaligned

DECIDES = ()

#: the word finders, in the order they are asked about each unaligned claim word
WORD_FINDERS: tuple[WordFinder, ...] = (find_antonym, find_scope, find_unaligned)


def find_unaccounted(gctx: GuardContext) -> list[Finding]:
    """At most one finding per unaligned claim word, in the claim's order (module docstring)."""
    out: list[Finding] = []
    for ln in gctx.links:
        if ln.ev is not None or gctx.claim[ln.k].flag == "n":
            continue  # a name or value the rules have compared on their own
        for find in WORD_FINDERS:
            got = find(gctx, ln.k)
            if got is not None:
                out.append(got)
                break
    return out
