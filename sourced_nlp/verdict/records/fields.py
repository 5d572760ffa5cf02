"""Rule ``record_field``: a claim that affirms what a line of a record denies, or another value.

Decides ``contradicted.record_field``; runs only when the sources hold a record with
``attributes`` lines. Every attribute line of the record is read, not only the candidates:
"serves beer" shares no word with "attributes alcohol: none.".

* :func:`field_conflicts` (a part of :mod:`sourced_nlp.verdict.rules.contradicted`, where it
  competes with the prose conflicts at coverage 1.0): an affirmed claim (or the affirmed part of
  a claim of both polarities, :func:`~sourced_nlp.verdict.polarity.polarity_sides`) naming an
  attribute the record denies ("accepts reservations" for ``reservations: False``,
  :func:`states_field`), or another value of a field ("a full bar" for ``alcohol: beer and
  wine``, the value denies of ``models/records.json``).
* :func:`denied_part` (a step of :mod:`sourced_nlp.verdict.rules.fused`): a part of a claim
  told across the lines of a record that a false line denies.
* :func:`record_words`: a capitalised word the tagger took for a name ("Takeout and delivery
  are available") that is the words of a field line, read as words (before every rule).

The generic words of Yelp's attribute keys (``generic_key_words`` of ``models/records.json``)
name no field; the words of a key stand within ``key_span`` (5) words of each other in a claim.
"""

from __future__ import annotations

import functools
import itertools
import re

from ..alignment import Alignment, Conflict
from ..context import ClaimContext
from ..index import PassageIndex
from ..lexicon import VerdictLexicon
from ..passage import Passage, line_value_text
from ..polarity import polarity_sides
from ..types import ClaimRecord
from ..words import in_words, lemma_in, same_word

DECIDES = ("contradicted.record_field",)


def field_conflicts(ctx: ClaimContext) -> list[Conflict]:
    """The record lines the claim's affirmed part conflicts with (module docstring)."""
    claim, index, lex = ctx.claim, ctx.index, ctx.lex
    if not index.attribute_lines:
        return []
    affirmed: ClaimRecord | None = claim
    if lex.negation_word.search(claim["text"].lower()):
        # a claim of both polarities affirms what lies outside its denied clauses
        sides = polarity_sides(claim, lex)
        affirmed = (
            None
            if sides is None
            else dict(  # type: ignore[assignment]
                claim, text=sides[0], lemmas=[x for x in claim["lemmas"] if in_words(x, sides[0])]
            )
        )
    if affirmed is None:
        return []
    found: list[Conflict] = []
    for pid in index.attribute_lines:
        p = index.passages[pid]
        other = other_value(affirmed, p, lex)
        if other:
            differs = [{"claim": other, "source": line_value_text(p), "kind": "value"}]
            found.append(
                Conflict(
                    1.0,
                    ctx.aligner.align(claim, [], pid, index),
                    differs,
                    f"the record gives {differs[0]['source']} where the claim says {other}",
                    "contradicted.record_field",
                )
            )
        elif p.value in lex.false_values and states_field(affirmed, p, index, lex, ctx.t.key_span):
            # "It also accepts reservations for large parties" against "reservations:
            # False": the claim affirms a field the record denies, whatever else it adds
            differs = [{"claim": "affirmed", "source": p.value, "kind": "polarity"}]
            found.append(
                Conflict(
                    1.0,
                    ctx.aligner.align(claim, [], pid, index),
                    differs,
                    f"the record says '{p.value}' for {p.f['text'].split(':')[0].strip()}",
                    "contradicted.record_field",
                )
            )
    return found


def states_field(claim: ClaimRecord, p: Passage, index: PassageIndex, lex: VerdictLexicon, key_span: int) -> bool:
    """The claim names the field of a record's line: every distinctive word of the line's key
    ("attributes restaurants reservations" -> "reservations"; "business parking lot" ->
    "parking", "lot") is a word of the claim (or, through the line's lemma, one of its lemmas:
    "kids" / "children"). The generic words of Yelp's attribute keys do not count; a key of a
    restriction or a denial ("by appointment only", "music no music") is never stated this way
    (its false value permits, it does not deny); only the lines of ``attributes`` count."""
    key = p.f["text"].split(":")[0].lower()
    words = re.findall(r"[a-z]+", key)
    if (
        not p.value
        or not words
        or words[0] != "attributes"
        or any(w in ("only", "no", "not", "without") for w in words)
    ):
        return False  # an attribute's line only: "hours: None" is a record without hours, no denial
    words = [w for w in words if w not in lex.generic_key_words]
    if not words:
        return False
    text, tokens, written = claim_words(claim["text"], lex.not_fields)
    said = set(tokens)
    if any(v in written and v not in said for w in words for v in (w, f"{w}s")):
        return False  # the key's word is in the claim only as a false friend
    if "".join(words) in said:
        return True  # "takeout" for "take out"
    positions: list[list[int]] = []
    for w in words:
        hits = [i for i, t in enumerate(tokens) if t in (w, w.rstrip("s"), f"{w}s")]
        if hits:
            positions.append(hits)
            continue
        if any(re.search(rf"\b{re.escape(x)}s?\b", text) for x in lex.field_words.get(w, ())):
            continue
        forms = {x for x in p.f["lemmas"] if in_words(x, w)} | {index.canon.get(v, v) for v in (w, w.rstrip("s"))}
        if not any(x in claim["lemmas"] for x in forms):
            return False
    # the words of the key stand together ("live music", "parking lot"), not apart ("takes
    # reservations ... a great night out" is no "take out")
    return not positions or any(max(c) - min(c) <= key_span for c in itertools.product(*positions))


def names_key(claim: ClaimRecord, p: Passage, index: PassageIndex, lex: VerdictLexicon) -> bool:
    """The claim holds every distinctive word of a record line's key, in some form ("take out"
    needs "take" and "out", or "takeout": "takes reservations" names no "take out"; "by
    appointment only" needs "appointment")."""
    words = [
        w
        for w in re.findall(r"[a-z]+", p.f["text"].split(":")[0].lower())
        if w not in lex.generic_key_words and w not in ("only", "no", "not")
    ]
    _, tokens, _ = claim_words(claim["text"], lex.not_fields)
    said = set(tokens) | set(claim["lemmas"])
    if "".join(words) in said:
        return True
    return all(
        any(w == t or same_word(w, t) or w.rstrip("s") == t.rstrip("s") or index.canon.get(w, w) == t for t in said)
        for w in words
    )


@functools.lru_cache(maxsize=256)
def claim_words(claim_text: str, not_fields: re.Pattern) -> tuple[str, list[str], frozenset[str]]:
    """``(lower-case text with the not-field phrases blanked, its words, the words as written)``
    of a claim, computed once for all the attribute lines it is held against."""
    text = not_fields.sub(" ", claim_text.lower())  # "caters to families", "hot dogs"
    return text, re.findall(r"[a-z]+", text), frozenset(re.findall(r"[a-z]+", claim_text.lower()))


def other_value(claim: ClaimRecord, p: Passage, lex: VerdictLexicon) -> str | None:
    """The phrase of the claim that states another value of the field of a record's line ("full
    bar" against "attributes alcohol: beer and wine."; ``models/records.json`` value denies), or
    None."""
    key, _, value = p.f["text"].partition(":")
    words = re.findall(r"[a-z]+", key.lower())
    field = words[-1] if words and words[0] == "attributes" else None
    denies = lex.value_denies.get(field or "", {}).get(value.strip(" .").lower(), ())
    text = claim["text"].lower()
    return next((x for x in denies if re.search(rf"\b{re.escape(x)}\b", text)), None)


def record_words(key: str, index: PassageIndex) -> list[str] | None:
    """The words of a name's key as one field line of a record holds them all ("free wi fi"
    -> ``["free", "wifi"]`` for "attributes wifi: free.": two words may be one of the line's);
    None when no line holds them all. A review's text is no field line: the names in it are
    names ("a walk to the French Quarter")."""
    words = key.split()

    def held(p: Passage) -> list[str] | None:
        out: list[str] = []
        i = 0
        while i < len(words):
            if words[i] in p.joined or words[i] in p.lemmas:
                out.append(words[i])
                i += 1
            elif i + 1 < len(words) and (words[i] + words[i + 1] in p.joined or words[i] + words[i + 1] in p.lemmas):
                out.append(words[i] + words[i + 1])
                i += 2
            else:
                return None
        return out

    return next(
        (got for p in index.passages if p.structured and p.text_of is None and (got := held(p)) is not None), None
    )


def denied_part(
    ctx: ClaimContext, chosen: list[int], held: set[str], aligns: list[Alignment]
) -> tuple[int, list[str]] | None:
    """A claim told across the lines of a record whose one part the record denies ("offers
    free Wi-Fi, catering and takeout, and it is dog-friendly" against "dogs allowed: False"):
    a false line holds a claim word that no chosen line holds.
    Only for a claim with no negation word at all, told from field lines alone: in a claim of
    both polarities ("accepts cards, does not require appointments") which part a denial covers
    is not read here, and a review's visit ("waited 50 minutes for a walk-in appointment") is
    not what a field ("by appointment only: False") states.
    Returns ``(line's passage id, the claim words it denies)``; None when no line denies a
    part. The claim is contradicted when the rest of it is stated (see
    :mod:`sourced_nlp.verdict.rules.fused`)."""
    claim, index, lex = ctx.claim, ctx.index, ctx.lex
    if lex.negation_word.search(claim["text"].lower()):
        return None
    if any(index.passages[pid].text_of is not None for pid in chosen):
        return None  # told from a review: a field's line speaks of the business, not of that visit
    for al in aligns:
        p = index.passages[al.pid]
        if al.pid in chosen or not (p.structured and p.value in lex.false_values):
            continue
        words = [
            x
            for x in dict.fromkeys(claim["lemmas"])
            if x not in held and x not in index.relation_words and lemma_in(x, p)
        ]
        if words and names_key(claim, p, index, lex):
            return al.pid, words
    return None
