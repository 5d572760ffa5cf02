"""What every finder of the guard reads: :class:`GuardContext`, built once per claim and grounding
(:meth:`~sourced_nlp.verdict.guard.Guard.read`), and the signature of a finder (:data:`Finder`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..context import ClaimContext
from ..finding import Finding
from ..passage import Passage
from ..tree import Token, _children, _text, _word_class, tokens
from ..wordalign import GuardLexicon, Link, _is_content


@dataclass
class GuardContext:
    """One claim read against the passages of its grounding.

    ``ctx``: the claim's context (its record, the passage index); ``claim``: the claim's words;
    ``passages``: the evidence passages, ``ev`` their words (one list a passage, in that order:
    a finding's ``passage`` indexes them); ``links``: the alignment of the claim's words
    (:func:`~sourced_nlp.verdict.wordalign.align_words`), ``to`` the aligned ones
    (``{claim word: (passage, word)}``), ``hows`` by what relation, ``used`` the evidence words
    aligned with; ``names``: the name keys of the claim's words and of each passage's
    (:func:`~sourced_nlp.verdict.wordalign.name_keys`). The guard's settings and cue sets:
    ``lex`` (the guard's lexicon), ``meta`` (words a claim uses to point at its sources),
    ``unaligned`` (``all``, ``predicates`` or ``slots``), ``group_words`` (the words of the
    lexical antonym groups), ``neg_cues``/``neg_pseudo`` (the negation cues and
    pseudo-negations) and ``exclusion`` (the exclusion cues, longest first).
    """

    ctx: ClaimContext
    claim: list[Token]
    passages: list[Passage]
    ev: list[list[Token]]
    links: list[Link]
    to: dict[int, tuple[int, int]]
    hows: dict[int, str | None]
    used: set[tuple[int, int]]
    names: tuple[dict, list[dict]]
    lex: GuardLexicon
    meta: frozenset[str]
    unaligned: str
    group_words: tuple[str, ...]
    neg_cues: frozenset[str]
    neg_pseudo: frozenset[str]
    exclusion: tuple[tuple[str, ...], ...]
    _slots: dict[int, tuple[int, int] | None] = field(default_factory=dict, repr=False)
    _hedged: bool | None = field(default=None, repr=False)
    _others: list[list[Token]] | None = field(default=None, repr=False)

    def cword(self, k: int) -> str:
        """Claim word ``k`` as written in the claim."""
        t = self.claim[k]
        return self.ctx.record["text"][t.start : t.end]

    def complement(self, e: int) -> bool:
        """Evidence passage ``e`` states the claim by denying of every member what the claim
        affirms the antonym of ("none of the samples tested positive" for "all samples tested
        negative": :attr:`~sourced_nlp.verdict.alignment.Alignment.complement`): its opposed
        quantifier and word say the claim's."""
        p = self.passages[e]
        return any(al.complement and self.ctx.index.passages[al.pid] is p for al in self.ctx.alignments)

    def text(self, e: int, tok: Token) -> str:
        """Word ``tok`` of evidence passage ``e`` as written there."""
        return _text(self.passages[e], tok)

    def others(self) -> list[list[Token]]:
        """The words of every passage of the sources (the evidence's included) that has any: not
        a line of a record (read on first use, then kept)."""
        if self._others is None:
            self._others = [
                tokens(p.f["tokens"])
                for p in self.ctx.index.passages  # type: ignore[typeddict-item]
                if not p.structured and "tokens" in p.f
            ]
        return self._others

    @property
    def hedged(self) -> bool:
        """The claim hedges or attributes itself (:func:`claim_hedged`)."""
        if self._hedged is None:
            self._hedged = claim_hedged(self.lex, self.ctx, self.claim)
        return self._hedged

    def slot(self, k: int) -> tuple[int, int] | None:
        """The evidence word in the slot of claim word ``k``, ``(passage, word)`` or None: an
        unaligned word with the same kind of dependency on the word the claim's head is aligned
        with; for a claim word whose head is not aligned (a root verb), the unaligned head that
        the evidence words aligned with its dependents share."""
        if k not in self._slots:
            self._slots[k] = _counterpart(self.lex, self.claim, k, self.ev, self.to, self.used)
        return self._slots[k]


#: a finder of the guard: every finding it makes against the grounding, in order
Finder = Callable[[GuardContext], list[Finding]]
#: a finder of one unaligned claim word (:mod:`.unaccounted`): its finding, or None
WordFinder = Callable[[GuardContext, int], "Finding | None"]


def claim_hedged(lex: GuardLexicon, ctx, claim) -> bool:
    """A claim that hedges or attributes itself ("can", "prosecutors say") states no bare fact."""
    return bool(ctx.record.get("hedged")) or any(
        t.tag == "MD"
        and t.lemma != "will"
        or t.pos == "VERB"
        and t.lemma in lex.attribution_verbs
        or t.lemma in ("say", "accord", "report", "state")
        for t in claim
    )  # a verb: "the plan will cut" attributes nothing


def _counterpart(
    lex: GuardLexicon, claim: list[Token], k: int, ev: list[list[Token]], to: dict, used: set
) -> tuple[int, int] | None:
    """:meth:`GuardContext.slot`."""
    tok = claim[k]
    cls = lex.dep_class.get(tok.dep, tok.dep)
    h = tok.head
    if h >= 0 and h in to:
        e, he = to[h]
        for j in _children(ev[e], he):
            t = ev[e][j]
            if (
                (e, j) not in used
                and lex.dep_class.get(t.dep, t.dep) == cls
                and _is_content(t, lex)
                and _word_class(t) == _word_class(tok)
            ):
                return e, j
        return None
    votes: dict[tuple[int, int], int] = {}
    for c in _children(claim, k):
        if c in to:
            e, j = to[c]
            head = ev[e][j].head
            if (
                head >= 0
                and (e, head) not in used
                and _is_content(ev[e][head], lex)
                and _word_class(ev[e][head]) == _word_class(tok)
            ):
                votes[(e, head)] = votes.get((e, head), 0) + 1
    return max(votes, key=lambda x: (votes[x], -x[0], -x[1])) if votes else None
