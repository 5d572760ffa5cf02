"""Hand-written feature records and a checker for the rule tables of ``tests/verdict``.

No spaCy model: a record is built from its text and the features a row needs (lemmas, names,
values, negation), in the shape ``sourced_passages`` gives (:mod:`sourced_nlp.verdict.types`).
A table row is ``(row id, claim record, sources, expected rule, expected verdict)``; ``sources``
is a list of passages (one prose source ``s1``) or ``{source id: (structured, [passages])}``.
"""

from __future__ import annotations

import contextlib
import re

from sourced_nlp.verdict import CitedSources, PassageIndex, Thresholds, Verifier
from sourced_nlp.verdict.precision import load_precision

_STOP = frozenset("a an the is are was were it its of in on at to and by for with this that".split())
#: antonym pairs of the tables (the component reads ``models/lexical.json`` antonym groups)
ANTONYMS = frozenset({frozenset({"rise", "fall"}), frozenset({"open", "close"})})


def name(text: str, label: str = "PERSON", role: str = "subj", **extra) -> dict:
    """An entity anchor: key in ``norm`` form, no aliases unless given."""
    return {
        "text": text,
        "key": " ".join(re.findall(r"[\w&+-]+", text.lower().replace(".", ""))),
        "label": label,
        "aliases": list(extra.pop("aliases", ())),
        "role": role,
        "inherited": False,
        **extra,
    }


def value(text: str, kind: str, low: float, high: float | None = None, unit: str | None = None, **extra) -> dict:
    """A quantity dict (``Quantity.to_dict`` plus ``noun`` and ``head``)."""
    return {
        "kind": kind,
        "low": float(low),
        "high": float(low if high is None else high),
        "unit": unit,
        "dimension": unit,
        "precision": 0.0,
        "approx": None,
        "text": text,
        "noun": extra.pop("noun", None),
        "head": extra.pop("head", None),
        **extra,
    }


def rec(
    text: str,
    lemmas: list[str] | None = None,
    *,
    entities: list[dict] = (),
    quantities: list[dict] = (),
    predicates: list[str] = (),
    negated: bool = False,
    **extra,
) -> dict:
    """A feature record; ``lemmas`` default to the text's words that are no stop word, no word
    of a name and no number."""
    named = {w for a in entities for w in a["key"].split()}
    if lemmas is None:
        lemmas = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP and w not in named]
    out = {
        "start": 0,
        "end": len(text),
        "text": text,
        "kind": "claim",
        "lemmas": list(lemmas),
        "predicates": list(predicates),
        "subject": [],
        "one_subject": False,
        "entities": list(entities),
        "quantities": list(quantities),
        "negated": negated,
        "cue": None,
        "negated_predicate": None,
        "denied": [],
        "hedged": False,
        "contrast": False,
        "quotes": [],
        "norm": " " + " ".join(re.sub(r"[^\w\s&+-]", " ", text.lower().replace(".", "")).split()) + " ",
    }
    out.update(extra)
    return out


def _placed(passages: list[dict]) -> tuple[list[dict], str]:
    """The passages with offsets in one source text, and that text."""
    out, pos = [], 0
    for p in passages:
        out.append(dict(p, start=pos, end=pos + len(p["text"])))
        pos += len(p["text"]) + 1
    return out, " ".join(p["text"] for p in passages)


def _index(
    sources: dict[str, tuple[bool, list[dict]]], ids: list[str] | None = None
) -> tuple[PassageIndex, dict[str, str]]:
    chosen = [(sid, *_placed(ps), structured) for sid, (structured, ps) in sources.items() if ids is None or sid in ids]
    index = PassageIndex([(sid, ps, structured) for sid, ps, _, structured in chosen])
    return index, {sid: text for sid, _, text, _ in chosen}


def verifier(**thresholds) -> Verifier:
    """A verifier of the default rules, the table antonyms and a plain substring quote finder;
    its precision table demotes no rule, so a row reads the rule's own verdict (what the shipped
    table demotes is tested in ``test_admission.py``)."""
    return Verifier(
        Thresholds(**thresholds),
        lambda a, b: frozenset({a, b}) in ANTONYMS,
        lambda quote, text: quote.lower() in text.lower() or None,
        precision=load_precision({}),
    )


def check(claim: dict, sources, cited: list[str] | None = None, **thresholds) -> dict:
    """The verdict of ``claim`` against ``sources`` (a list of prose passages, or
    ``{source id: (structured, [passages])}``); ``cited``: the ids of the sources it cites."""
    if isinstance(sources, list):
        sources = {"s1": (False, sources)}
    v = verifier(**thresholds)
    index, texts = _index(sources)

    def against(ids: list[str]) -> dict:
        sub, sub_texts = _index(sources, ids)
        return v.verify(claim, sub, sub_texts)

    return v.verify(claim, index, texts, CitedSources(cited, against) if cited else None)


def run_row(row: tuple) -> None:
    """Check one table row: the rule and the verdict it names."""
    _, claim, sources, rule, verdict, *kw = row
    got = check(claim, sources, **(kw[0] if kw else {}))
    assert (got["rule"], got["verdict"]) == (rule, verdict), got


def ids(rows: list[tuple]) -> list[str]:
    """The row ids, for ``pytest.mark.parametrize``."""
    return [r[0] for r in rows]


def table_test(rows: list[tuple]):
    """A test function that runs every row of a table (one parametrized case per row)."""
    import pytest

    @pytest.mark.parametrize("row", rows, ids=ids(rows))
    def test_rows(row):
        run_row(row)

    return test_rows


# the records both meaning tiers are tried on (tests/verdict/test_rule_meaning.py, test_entailment.py)
ACME = name("Acme", "ORG")
# a paraphrase: the name is there, few of the words (too_little for the rules)
CLAIM = rec(
    "Acme expanded its workforce quickly.", ["expand", "workforce", "quickly"], entities=[ACME], predicates=["expand"]
)
PASSAGE = rec(
    "Acme hired many new staff members fast.",
    ["hire", "many", "new", "staff", "member", "fast"],
    entities=[ACME],
    predicates=["hire"],
)
WITH_BERLIN = rec(
    "Acme expanded its workforce in Berlin.",
    ["expand", "workforce"],
    entities=[ACME, name("Berlin", "GPE", "pobj")],
    predicates=["expand"],
)


@contextlib.contextmanager
def none_demoted(nlp):
    """``nlp`` with a precision table that demotes no rule or finding, for a mechanism's own
    verdicts (the shipped table's admission is tested in ``test_admission.py``); the table it had
    after."""
    verify = nlp.get_pipe("sourced_verify")
    shipped, verify.precision = verify.precision, load_precision({"rules": {}, "admission": {}})
    try:
        yield nlp
    finally:
        verify.precision = shipped
