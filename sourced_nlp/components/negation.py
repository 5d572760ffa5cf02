"""``sourced_negation``: is the main predicate of a segment negated, by which cue?

Read from the dependency parse, not from word lists alone: a cue counts when it attaches to
the segment's main predicate (the root, or a verb or adjective the root heads as ``xcomp`` /
``ccomp`` / ``acomp``, or the verb an auxiliary root stands for). Cues (``models/negation.json``):

* ``neg`` dependents: ``not``, ``n't``, ``never``, ``no`` (``no longer`` is reported whole);
* a negative determiner or pronoun as subject or object: ``no``, ``none``, ``nothing``;
* ``without`` heading a phrase on the predicate;
* negative verbs: ``lack``; ``fail``/``refuse`` with a complement (``failed to reach``).

Pseudo-negations are not negation: "not only ... but also", "could not rule out", "no doubt".

Assigns, on every span of ``doc.spans["sourced_claims"]`` and ``["sourced_skipped"]``:
``Span._.negated`` (bool), ``Span._.negation_cue`` (str | None, the cue as written) and
``Span._.negation_scope`` (``[start, end]`` char offsets of the cue's head phrase, or None) and
``Span._.denied_clauses`` (``[[start, end]]``: what each cue of the span denies, main predicate
or not; see :meth:`Negation.denied_clauses`).
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from ..text.lexicons import LexiconComponent
from . import extensions


@Language.factory(
    "sourced_negation",
    assigns=["span._.negated", "span._.negation_cue", "span._.negation_scope", "span._.denied_clauses"],
    requires=["token.dep", "doc.spans"],
    default_config={"lexicon": "negation"},
)
def make_negation(nlp: Language, name: str, lexicon: str):
    """Create the negation component (see the module docstring)."""
    return Negation(name=name, lexicon=lexicon)


class Negation(LexiconComponent):
    """Detects negation of each segment's main predicate from the parse."""

    def __init__(self, name: str, lexicon: str) -> None:
        self.name = name
        self._init_lexicon(lexicon)

    def _use_lexicon(self, lex: dict) -> None:
        self.dep_cues = set(lex["neg_dep_cues"])
        self.det_cues = set(lex["determiner_cues"])
        self.prep_cues = set(lex["preposition_cues"])
        self.verb_cues = set(lex["verb_cues"])
        self.verb_cues_xcomp = set(lex["verb_cues_need_xcomp"])
        self.pseudo = [p.split() for p in lex["pseudo"]]

    def __call__(self, doc: Doc) -> Doc:
        self._require_lexicon()
        segments = extensions.segments(doc)
        for span in segments:
            cue = self.find(span)
            span._.negated = cue is not None
            span._.negation_cue = cue[0] if cue else None
            span._.negation_scope = cue[1] if cue else None
            span._.negated_predicate = cue[2] if cue else None
            span._.denied_clauses = self.denied_clauses(span)
        return doc

    def denied_clauses(self, span: Span) -> list[list[int]]:
        """``[start, end]`` char offsets of what each negation cue of the span denies, main
        predicate or not: from the cue (or the subject of the verb it negates: "delivery is not
        available") to the end of the phrase it negates, without the verbs coordinated with it
        ("It accepts credit cards, does not require appointments, has a parking lot and is
        wheelchair accessible": "not require appointments"; before "or" the cue denies them all).
        A determiner or preposition cue ("no outdoor seating or delivery", "without a
        reservation") denies its whole phrase."""
        out: list[list[int]] = []
        for tok in span:
            low = _low(tok)
            if tok.dep_ == "neg" and low in self.dep_cues:
                head, verbal = tok.head, True
            elif low in self.det_cues and tok.dep_ == "det":
                head, verbal = tok.head, False
            elif low in self.prep_cues and tok.dep_ == "prep":
                head, verbal = tok, False
            else:
                continue
            if self._is_pseudo(tok):
                continue
            # "does not offer delivery or take reservations": a cue before "or" denies both verbs
            verbal = verbal and not any(c.dep_ == "cc" and c.lower_ in ("or", "nor") for c in head.children)
            cut = {t.i for c in head.children if verbal and c.dep_ == "conj" for t in c.subtree}
            cut |= {c.i for c in head.children if verbal and c.dep_ == "cc" and c.i > tok.i}
            kept = [
                t
                for t in head.subtree
                if t.i >= tok.i and t.i not in cut and not t.is_punct and span.start <= t.i < span.end
            ]
            # "though delivery is not available": the subject before the cue is what is denied
            subjects = [
                t
                for c in head.children
                if verbal and c.dep_ in ("nsubj", "nsubjpass") and c.i < tok.i
                for t in c.subtree
                if span.start <= t.i < span.end
            ]
            if kept:
                first = min([tok, *subjects], key=lambda t: t.i)
                last = max(kept, key=lambda t: t.i)
                out.append([first.idx, last.idx + len(last.text)])
        return out

    def find(self, span: Span) -> tuple[str, list[int], str] | None:
        """The cue text, its scope ``[start, end]`` and the lower-case lemma of the predicate it
        negates, for a cue on the span's main predicate; None when there is none. A cue inside a
        subordinate clause ("if you do not file") does not negate the main predicate."""
        preds = _main_predicates(span)
        if not preds:
            return None
        pred_ids = {t.i for t in preds}
        cue_words = self.dep_cues | self.det_cues | self.prep_cues | {"no"}
        for tok in span:
            low = _low(tok)
            if low not in cue_words and tok.lemma_.lower() not in self.verb_cues:
                continue  # only a cue word can negate; the pseudo-negation check is costly
            if self._is_pseudo(tok):
                continue
            head = tok.head
            cue: str | None = None
            nxt = tok.nbor(1) if tok.i + 1 < len(tok.doc) else None
            if (
                low == "no"
                and nxt is not None
                and nxt.lower_ == "longer"
                and (nxt.head.i in pred_ids or head.i in pred_ids or head.head.i in pred_ids)
            ):
                cue = f"{tok.text} {nxt.text}"
                head = nxt.head if nxt.head.i in pred_ids else head
            elif tok.dep_ == "neg" and low in self.dep_cues and head.i in pred_ids:
                cue = tok.text
            elif low in self.det_cues and (
                (
                    tok.dep_ in ("det",)
                    and head.dep_ in ("nsubj", "nsubjpass", "dobj", "attr")
                    and head.head.i in pred_ids
                )
                or (tok.dep_ in ("nsubj", "nsubjpass", "dobj") and head.i in pred_ids)
            ):
                cue = tok.text
            elif low in self.prep_cues and tok.dep_ == "prep" and head.i in pred_ids:
                cue = tok.text
            elif tok.lemma_.lower() in self.verb_cues and tok.i in pred_ids:
                if tok.lemma_.lower() in self.verb_cues_xcomp:
                    if any(c.dep_ == "xcomp" for c in tok.children):
                        cue = tok.text
                else:
                    cue = tok.text
            if cue is not None:
                scope_head = head if tok.i not in pred_ids else tok
                if any(c.dep_ == "mark" and c.lower_ != "that" for c in scope_head.children):
                    continue  # "if you do not file": a condition; "is that gravy is not used" states it
                sub = list(scope_head.subtree)
                start = max(sub[0].idx, span.start_char)
                end = min(sub[-1].idx + len(sub[-1].text), span.end_char)
                # only a cue on the verb itself says the predicate is denied; "without X" and
                # "no X" deny an argument, so they name no negated predicate
                predicate_cue = (
                    tok.dep_ == "neg" or tok.lemma_.lower() in self.verb_cues or cue.lower().startswith("no longer")
                )
                negated = scope_head
                if tok.lemma_.lower() in self.verb_cues_xcomp:  # "failed to reduce": "reduce" is denied
                    negated = next((c for c in tok.children if c.dep_ == "xcomp"), negated)
                if negated.lemma_ == "be":  # "is not profitable": the complement is what is denied
                    comps = [c for c in negated.children if c.dep_ in ("acomp", "attr", "oprd")]
                    negated = comps[0] if comps else negated
                return cue, [start, end], negated.lemma_.lower() if predicate_cue else ""
        return None

    def _is_pseudo(self, tok: Token) -> bool:
        doc = tok.doc
        for words in self.pseudo:
            for offset in range(len(words)):
                i = tok.i - offset
                if i < 0 or i + len(words) > len(doc):
                    continue
                if [_low(doc[j]) for j in range(i, i + len(words))] == words and _low(tok) == words[offset]:
                    if offset == 0 or words[0] in ("not", "n't", "no"):
                        return True
            # "could not rule out": the cue is one word before the pseudo phrase's verb
        if tok.dep_ == "neg":
            head = tok.head
            if head.lemma_ == "rule" and any(c.lower_ == "out" for c in head.children):
                return True
        return False


def _low(tok: Token) -> str:
    """Lower-case text with the typographic apostrophe as ASCII ("don’t" -> "n't")."""
    return tok.lower_.replace("\u2019", "'")


def _main_predicates(span: Span) -> list[Token]:
    """The root of the span and the predicates it heads (xcomp, ccomp, acomp, and the verb an
    auxiliary stands for), followed down a chain of up to three complements so that a wrapper
    ("It is important to note that tickets are not free", "Be careful not to overcook it")
    leaves its fact the main predicate; a coordinated clause ("and not running") is not the main
    predicate."""
    roots = [t for t in span if t.head.i == t.i or t.head.i < span.start or t.head.i >= span.end]
    out: list[Token] = []
    for root in roots:
        if root.is_punct or root.is_space:
            continue
        out.append(root)
        level = [root]
        for _ in range(3):
            nxt = []
            for head in level:
                for c in head.children:
                    if c.dep_ in ("xcomp", "ccomp", "acomp", "aux", "auxpass") and span.start <= c.i < span.end:
                        out.append(c)
                        if c.dep_ in ("xcomp", "ccomp", "acomp"):
                            nxt.append(c)
            level = nxt
    return out
