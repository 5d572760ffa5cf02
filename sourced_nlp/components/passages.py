"""``sourced_passages``: the passage index of a doc — one feature record per segment.

A passage is one segment of ``sourced_claims`` (a sentence, a list item, a line of a linearised
record), claims and skipped segments alike. Its record holds what alignment compares, all plain
types (so a source parsed once can be cached, pickled and shipped to other processes):

``{"i": int, "start": int, "end": int, "text": str, "kind": str,
"lemmas": [str], "predicates": [str], "subject": [str], "one_subject": bool,
"entities": [anchor dict], "quantities": [quantity dict], "unread": [str],
"negated": bool, "cue": str | None, "negated_predicate": str | None, "denied": [[int, int]],
"hedged": bool, "contrast": bool, "quotes": [str], "tokens": [[...]], "norm": str}``

* ``lemmas``: content lemmas, lower case, mapped to the canonical member of their synonym group
  (``models/lexical.json``; a relational adjective to the noun it pertains to, ``pertainyms``:
  "renal" -> "kidney"); stop words, punctuation, degree words ("a lot", "sharply"), the
  tokens of quantities, entity anchors and citation markers are left out.
* ``unread``: the tokens that look like figures but were read as no value (``sourced_unread``,
  :func:`~sourced_nlp.components.quantity_tokens.unread_figure`); a claim holding one is never grounded.
* ``predicates``: canonical lemmas of the main predicates (root and the verbs it coordinates or
  complements), phrasal verbs joined (``go down`` -> ``fall``).
* ``denied``: ``[start, end]`` char offsets, from the segment's start, of what each negation cue
  denies (``Span._.denied_clauses``).
* ``tokens``: every word with its lemma, part of speech, tag, dependency, head and offsets, for
  the guard of ``grounded`` (:meth:`Passages.tokens`).
* ``norm``: the text in entity-key form (lower case, ``.`` dropped, punctuation spaced), for
  finding a name the NER missed.

The same records describe an answer's claims, so claims and source passages are compared by the
same features. Assigns ``doc._.passages``. The inverted index across several sources is
:class:`sourced_nlp.verdict.index.PassageIndex`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Mapping
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from ..text.lexicons import LexiconComponent, lexicon_data
from . import extensions

_QUOTE = re.compile(r"[\"\u201c\u201d]([^\"\u201c\u201d]{3,}?)[\"\u201c\u201d]")
_NORM_PUNCT = re.compile(r"[^\w\s&+-]", re.UNICODE)
_CONTENT_POS = {"NOUN", "VERB", "ADJ", "ADV", "PROPN", "NUM", "X"}


@Language.factory(
    "sourced_passages",
    assigns=["doc._.passages"],
    requires=["doc.spans", "span._.anchors", "span._.negated", "span._.quantity"],
    default_config={"lexicon": "lexical"},
)
def make_passages(nlp: Language, name: str, lexicon: str):
    """Create the passage index component (see the module docstring)."""
    return Passages(name=name, lexicon=lexicon)


class Lexical:
    """Synonym canonicalisation, degree words and hedges from ``models/lexical.json``.

    Args:
        lexicon: bundled name or path of the lexical lexicon, or its data.
    """

    def __init__(self, lexicon: str | Mapping[str, Any] = "lexical") -> None:
        lex = lexicon_data(lexicon)
        self.canon: dict[str, str] = {}
        for group in lex["synonyms"]:
            for word in group:
                self.canon.setdefault(word, group[0])
        self.degree = set(lex["degree_words"])
        self.particles = frozenset(lex.get("particles", ()))  # "shut down", "pay off": kept with the verb
        self.excess = frozenset(lex.get("excess_words", ()))  # after "too": an excess the claim asserts
        self.hedges = set(lex["hedges"])
        # the model's lemma of a few word forms is wrong ("Rated" -> "rat"): surface form -> lemma
        self.lemma_fixes: dict[str, str] = dict(lex.get("lemma_fixes", {}))
        # a relational adjective is read as the noun it pertains to ("renal" -> "kidney")
        self.pertainyms: dict[str, str] = dict(lex.get("pertainyms", {}))
        self.relation_words = {self.canonical(w) for w in lex.get("structured_relation_words", [])}
        # review verbs of a record's reviews: +1 praise, -1 complaint (checked against the stars),
        # 0 a verb that frames the reviewer's opinion ("felt", "found", "citing"), held by any review
        self.review_sentiment: dict[str, int] = {}
        verbs = lex.get("review_verbs", {})
        for side, words in (
            (0, verbs.get("neutral", [])),
            (1, verbs.get("positive", [])),
            (-1, verbs.get("negative", [])),
        ):
            for w in words:
                self.review_sentiment[self.canonical(w)] = side
        # meta words point at the sources ("as passage 1 says"), light words wrap an instruction
        # ("make sure ...", "you need to ..."): a claim need find neither in a source
        self.meta_words = frozenset(
            self.canonical(w) for w in (*lex.get("meta_words", []), *lex.get("light_words", []))
        )
        self.antonyms: dict[str, list[tuple[int, int]]] = {}
        for gi, sides in enumerate(lex["antonym_groups"]):
            for side, words in enumerate(sides):
                for w in words:
                    key = self.canonical(w)
                    if (gi, side) not in self.antonyms.setdefault(key, []):
                        self.antonyms[key].append((gi, side))

    def canonical(self, lemma: str) -> str:
        """The canonical member of the lemma's synonym group, or the lemma itself."""
        return self.canon.get(lemma, lemma)

    def opposed(self, a: str, b: str) -> bool:
        """True when canonical lemmas ``a`` and ``b`` stand on opposite sides of an antonym group."""
        for g, side in self.antonyms.get(a, ()):
            if any(g2 == g and s2 != side for g2, s2 in self.antonyms.get(b, ())):
                return True
        return False


_EMPHASIS = re.compile(r"[*_~]*:?[*_~]+|[*_~]+:")  # the marks of Markdown emphasis, with a label's colon


class Passages(LexiconComponent):
    """Builds ``doc._.passages`` (see the module docstring)."""

    def __init__(self, name: str, lexicon: str) -> None:
        self.name = name
        self._init_lexicon(lexicon)

    def _use_lexicon(self, lex: dict) -> None:
        self.lexical = Lexical(lex)

    def __call__(self, doc: Doc) -> Doc:
        self._require_lexicon()
        segments = extensions.segments(doc)
        quantities = sorted(doc.spans.get(extensions.QUANTITIES_KEY, []), key=lambda q: q.start)
        starts = [q.start for q in quantities]
        unread = sorted(doc.spans.get(extensions.UNREAD_KEY, []), key=lambda u: u.start)
        unread_at = [u.start for u in unread]
        doc._.passages = [
            self.features(
                span,
                i,
                quantities[bisect.bisect_left(starts, span.start) : bisect.bisect_left(starts, span.end)],
                [
                    u
                    for u in unread[bisect.bisect_left(unread_at, span.start) : bisect.bisect_left(unread_at, span.end)]
                ],
            )
            for i, span in enumerate(segments)
        ]
        return doc

    def features(self, span: Span, i: int, quantities: list[Span], unread: list[Span] | None = None) -> dict:
        """The feature record of one segment (keys in the module docstring); ``quantities``:
        the quantity spans of the doc (those inside the segment are used); ``unread``: the
        doc's figures read as no value (``sourced_unread``; all of the doc's when None)."""
        skip: set[int] = set()
        qs: list[dict] = []
        for q in quantities:
            if q.start >= span.start and q.end <= span.end and q._.quantity:
                qd = dict(q._.quantity)
                if qd.get("noun"):
                    qd["noun"] = self.lexical.canonical(qd["noun"])  # "a 4-star rating", "stars: 4.0"
                if qd.get("head"):
                    qd["head"] = self.lexical.canonical(qd["head"])  # "grew 8%" and "rose 8%": one verb
                qs.append(qd)
                skip.update(range(q.start, q.end))
        anchors = list(span._.anchors or [])
        for a in anchors:
            if not a.get("inherited"):
                for tok in span:
                    if a["start"] <= tok.idx < a["end"] or tok.idx in a.get("also_at", ()):
                        skip.add(tok.i)  # the name's words; a day's other mentions
        markers: set[int] = set()
        for c in span._.citations or []:
            for tok in span:
                if c["start"] <= tok.idx < c["end"]:
                    markers.add(tok.i)
        markers.update(t.i for t in span if _EMPHASIS.fullmatch(t.text))  # "**Revenue:**" leaves "*" and ":*"
        skip |= markers
        lemmas: list[str] = []
        for tok in span:
            if tok.i in skip:
                continue
            lemma = self.token_lemma(tok)
            if lemma:
                lemmas.append(lemma)
        predicates = self.predicates(span)
        return {
            "i": i,
            "start": span.start_char,
            "end": span.end_char,
            "text": span.text,
            "kind": span._.claim_kind or "claim",
            "lemmas": lemmas,
            "predicates": predicates,
            "subject": self.subject(span),
            "one_subject": self.one_subject(span),
            "entities": anchors,
            "quantities": qs,
            "unread": [
                u.text
                for u in (span.doc.spans.get(extensions.UNREAD_KEY, ()) if unread is None else unread)
                if span.start <= u.start < span.end
            ],
            "negated": bool(span._.negated),
            "cue": span._.negation_cue,
            "negated_predicate": self.lexical.canonical(span._.negated_predicate) if span._.negated_predicate else None,
            "denied": [[a - span.start_char, b - span.start_char] for a, b in span._.denied_clauses or ()],
            "hedged": any(self.is_hedge(t) for t in span),
            "contrast": any(
                t.dep_ == "cc" and t.lower_ in ("but", "yet") or t.lower_ in ("while", "whereas", "although", "though")
                for t in span
            ),
            "quotes": self.quotes(span),
            "tokens": self.tokens(span, skip, markers),
            "norm": " " + " ".join(_NORM_PUNCT.sub(" ", span.text.lower().replace(".", "")).split()) + " ",
        }

    def tokens(self, span: Span, skip: set[int], markers: Collection[int] = ()) -> list[list]:
        """The words of the span as the guard of ``grounded`` aligns them
        (:mod:`sourced_nlp.verdict.wordalign`): one ``[lemma, pos, tag, dep, head, start, end, flag, raw]``
        per token that is not a space. ``lemma``: the canonical content lemma
        (:meth:`token_lemma`), else spaCy's lemma in lower case; ``head``: the index of the
        head in this list (-1 for the root or a head outside the span); ``start``/``end``: char
        offsets from the span's start; ``flag``: ``"n"`` a word of a name or value the rules
        compare on their own (an anchor, a quantity, a citation marker), ``"a"`` an article,
        demonstrative or personal pronoun (``PronType`` Art/Dem/Prs), ``"o"`` an ordinal
        (NER ``ORDINAL``), else ``""``; ``raw``: spaCy's lemma in lower case (``lemma`` may be
        the canonical member of a synonym group: "required" -> "need"). The tokens of a citation
        marker (``markers``: "[", "1", "]") and of Markdown emphasis ("*", ":*" of "**Revenue:**") are no
        words of the claim and are left out."""
        kept = [t for t in span if not t.is_space and t.i not in markers]
        at = {t.i: k for k, t in enumerate(kept)}
        out: list[list] = []
        for t in kept:
            raw = self.lexical.lemma_fixes.get(t.lower_, t.lemma_.lower())
            lemma = self.token_lemma(t) or raw
            flag = (
                "n"
                if t.i in skip
                else "o"
                if t.ent_type_ == "ORDINAL"
                else "a"
                if set(t.morph.get("PronType")) & {"Art", "Dem", "Prs"}
                else ""
            )
            out.append(
                [
                    lemma,
                    t.pos_,
                    t.tag_,
                    t.dep_,
                    at.get(t.head.i, -1) if t.head.i != t.i else -1,
                    t.idx - span.start_char,
                    t.idx + len(t.text) - span.start_char,
                    flag,
                    raw,
                ]
            )
        return out

    def subject(self, span: Span) -> list[str]:
        """Canonical content lemmas of the main clause's subject phrase when it is a common noun
        ("operating costs" -> ``["operate", "cost"]``); empty for a name, a pronoun or no subject."""
        for tok in span:
            if tok.dep_ in ("nsubj", "nsubjpass") and (tok.head.i == tok.i or tok.head.dep_ == "ROOT"):
                if tok.pos_ != "NOUN" or tok.ent_type_:
                    return []
                phrase = [t for t in tok.subtree if t.i <= tok.i and span.start <= t.i < span.end]
                return [x for t in phrase if (x := self.token_lemma(t))]
        return []

    @staticmethod
    def one_subject(span: Span) -> bool:
        """The main clause's subject is one common-noun thing or person ("One reviewer",
        "Another customer", "A dog owner": tag ``NN``), not several ("Reviewers": ``NNS``), and
        no other clause of the span has a subject of its own ("One diner enjoyed the salad, and
        another said ..."; "The falafel is crispy, and the hummus is smooth")."""
        subjects = [tok for tok in span if tok.dep_ in ("nsubj", "nsubjpass")]
        for tok in subjects:
            if tok.head.i == tok.i or tok.head.dep_ == "ROOT":
                # a clause joined to the main one with a subject of its own ("..., and another
                # said", "..., and the hummus is smooth"); a pronoun ("and then he left") is the
                # same one, and a subordinate clause ("though the biryani was bland") theirs
                others = any(
                    o is not tok
                    and o.head.dep_ == "conj"
                    and o.head.head.i == tok.head.i
                    and (o.pos_ in ("NOUN", "PROPN") or o.lower_ in ("another", "others"))
                    for o in subjects
                )
                return tok.tag_ == "NN" and not tok.ent_type_ and not others
        return False

    @staticmethod
    def quotes(span: Span) -> list[str]:
        """The quoted words of the span (two words or more), leaving out the quotes inside
        citation markers (``[S2: "..."]``: the marker's quote is checked as a citation)."""
        text = span.text
        for c in span._.citations or []:
            a, b = c["start"] - span.start_char, c["end"] - span.start_char
            text = text[:a] + " " * (b - a) + text[b:]
        return [m.group(1).strip() for m in _QUOTE.finditer(text) if len(m.group(1).split()) >= 2]

    def is_hedge(self, tok: Token) -> bool:
        """A hedge cue: a modal (tag ``MD``) or a hedging adverb/verb from the lexicon — never a
        proper noun ("May" the month)."""
        if tok.pos_ == "PROPN" or (
            tok.lower_ not in self.lexical.hedges and tok.lemma_.lower() not in self.lexical.hedges
        ):
            return False
        if tok.lower_ in ("may", "might", "could"):
            return tok.tag_ == "MD"
        return True

    def token_lemma(self, tok: Token) -> str | None:
        """The canonical content lemma of a token, or None for a function/degree word. An excess
        ("too much rice", "too few staff") is content: ``"too much"``, which only a source that
        says so holds ("the fish to rice ratio is off" does not say which way)."""
        if tok.lower_ in self.lexical.excess and tok.i > 0 and tok.doc[tok.i - 1].lower_ == "too":
            return f"too {tok.lower_}"
        if tok.is_stop or tok.is_punct or tok.is_space or tok.pos_ not in _CONTENT_POS:
            return None
        if tok.like_num and tok.i >= 2 and tok.doc[tok.i - 1].lower_ == "of" and tok.doc[tok.i - 2].lower_ == "out":
            return None  # "4 out of 5 stars": the top of the scale (no quantity either), no content word
        lemma = self.lexical.lemma_fixes.get(tok.lower_, tok.lemma_.lower())
        if not any(ch.isalnum() for ch in lemma) or lemma in self.lexical.degree:
            return None
        if tok.pos_ == "VERB":
            prt = [c.lower_ for c in tok.children if c.dep_ in ("prt", "advmod") and c.lower_ in self.lexical.particles]
            if prt:
                phrasal = f"{lemma} {prt[0]}"
                if phrasal in self.lexical.canon:
                    return self.lexical.canonical(phrasal)
        if tok.pos_ == "ADJ" and lemma in self.lexical.pertainyms:
            lemma = self.lexical.pertainyms[lemma]  # "renal failure": the kidney's (models/lexical.json pertainyms)
        return self.lexical.canonical(lemma)

    def predicates(self, span: Span) -> list[str]:
        """Canonical lemmas of the span's main predicates (root, its conj/xcomp/ccomp verbs)."""
        out: list[str] = []
        for tok in span:
            if tok.pos_ not in ("VERB", "AUX", "ADJ", "NOUN"):
                continue
            is_root = tok.head.i == tok.i or not (span.start <= tok.head.i < span.end)
            is_main = tok.dep_ in ("conj", "xcomp", "ccomp", "advcl", "relcl", "acomp") and tok.pos_ in ("VERB", "ADJ")
            if not (is_root or is_main):
                continue
            lemma = tok.lemma_.lower()
            if tok.pos_ == "AUX":
                comps = [
                    c
                    for c in tok.children
                    if c.dep_ in ("acomp", "advmod", "prt") and c.lower_ in ("up", "down", "higher", "lower")
                ]
                if comps:
                    out.append(self.lexical.canonical(comps[0].lower_))
                continue
            prt = [c.lower_ for c in tok.children if c.dep_ in ("prt", "advmod") and c.lower_ in self.lexical.particles]
            if prt and f"{lemma} {prt[0]}" in self.lexical.canon:
                lemma = f"{lemma} {prt[0]}"
            canon = self.lexical.canonical(lemma)
            if canon not in out:
                out.append(canon)
        return out
