"""Paraphrases of words, through the real pipeline: a relational adjective and its noun
(``models/lexical.json`` pertainyms), a converse relation with its two ends swapped
(:mod:`sourced_nlp.verdict.converse`), verbs of one event (synonym groups of
``models/lexical.json``), an attribution to a definite source, a denial of every member for the
antonym affirmed of all ("none failed" / "all passed"). Each kind has rows that must
ground and rows of the same words that must not: the arguments in the same places, another
relation, a claim that says more than the source.
"""

from __future__ import annotations

import pytest

import sourced_nlp
from sourced_nlp.text.lexicons import load_lexicon
from sourced_nlp.verdict.converse import arguments, converse
from sourced_nlp.verdict.guard import default_guard_lexicon
from sourced_nlp.verdict.tree import tokens

# name, answer, source, verdict, rule (None: any rule of that verdict)
ROWS = [
    # relational adjectives and their nouns
    (
        "pertainym: lung",
        "The trial enrolled 40 adults with pulmonary fibrosis.",
        "The trial enrolled 40 adults with lung fibrosis.",
        "grounded",
        None,
    ),
    (
        "pertainym: stomach, noun in the claim",
        "Doctors removed a stomach tumour in March.",
        "Doctors removed a gastric tumour in March.",
        "grounded",
        None,
    ),
    (
        "pertainym: moon",
        "The probe photographed the lunar surface in 2019.",
        "The probe photographed the surface of the moon in 2019.",
        "grounded",
        None,
    ),
    (
        "pertainym: governor",
        "Reyes lost the gubernatorial race in 2018.",
        "Reyes lost the race for governor in 2018.",
        "grounded",
        None,
    ),
    # converse relations: the two ends swapped ground; in their places they do not
    (
        "converse comparative",
        "The blue whale is heavier than the elephant.",
        "The elephant is lighter than the blue whale.",
        "grounded",
        None,
    ),
    (
        "converse comparative, ends in place",
        "The blue whale is lighter than the elephant.",
        "The blue whale is heavier than the elephant.",
        "contradicted",
        "contradicted.antonym",
    ),
    (
        "converse verbs of a loan",
        "Halden borrowed the paintings from Ostrava.",
        "Ostrava lent the paintings to Halden.",
        "grounded",
        None,
    ),
    (
        "converse verbs of a loan, ends in place",
        "Ostrava borrowed the paintings from Halden.",
        "Ostrava lent the paintings to Halden.",
        "contradicted",
        None,
    ),
    (
        "converse verbs of order",
        "The referendum followed the election.",
        "The election preceded the referendum.",
        "grounded",
        None,
    ),
    (
        "converse verbs of order, ends in place",
        "The election followed the referendum.",
        "The election preceded the referendum.",
        "contradicted",
        "contradicted.antonym",
    ),
    (
        "converse prepositions",
        "The vaccination came before the outbreak.",
        "The outbreak came after the vaccination.",
        "grounded",
        None,
    ),
    (
        "converse nouns of a role",
        "Priya Nair is the employee of Dana Wills.",
        "Dana Wills is the employer of Priya Nair.",
        "grounded",
        None,
    ),
    ("converse compass points", "Helsinki lies north of Tallinn.", "Tallinn lies south of Helsinki.", "grounded", None),
    (
        "converse compass points, ends in place",
        "Tallinn lies north of Helsinki.",
        "Tallinn lies south of Helsinki.",
        "contradicted",
        None,
    ),
    (
        "converse standings",
        "The Foxes trail the Owls by two points.",
        "The Owls lead the Foxes by two points.",
        "grounded",
        None,
    ),
    (
        "converse standings, ends in place",
        "The Owls trail the Foxes by two points.",
        "The Owls lead the Foxes by two points.",
        "unverified",
        None,
    ),
    # verbs of one event
    (
        "one event: stopped / suspended",
        "The mine stopped operations after the flood.",
        "The mine suspended operations after the flood.",
        "grounded",
        None,
    ),
    (
        "one event: deferred / postponed",
        "The board deferred the decision to October.",
        "The board postponed the decision to October.",
        "grounded",
        None,
    ),
    (
        "one event: called off / cancelled",
        "Organisers called off the parade because of the storm.",
        "Organisers cancelled the parade because of the storm.",
        "grounded",
        None,
    ),
    (
        "another event: cancelled / postponed",
        "The board cancelled the decision.",
        "The board postponed the decision.",
        "unverified",
        None,
    ),
    # attribution to a named authority
    (
        "a document of a definite source",
        "Median rent rose 6% in 2022.",
        "Median rent rose 6% in 2022, according to data from the Census Bureau.",
        "grounded",
        None,
    ),
    (
        "a statement of a definite office",
        "The bridge will close for two weeks.",
        "The bridge will close for two weeks, according to a statement from the mayor's office.",
        "grounded",
        None,
    ),
    (
        "a study by a vague source",
        "Median rent rose 6% in 2022.",
        "Median rent rose 6% in 2022, according to a study by economists.",
        "unverified",
        "unverified.hedged",
    ),
    (
        "a claim beyond doubt of an attributed fact",
        "The flood undoubtedly destroyed 30 homes.",
        "The flood destroyed 30 homes, according to the county sheriff.",
        "unverified",
        "unverified.hedged",
    ),
    # a denial of every member and the antonym affirmed of all
    (
        "complement: none denied, all affirmed",
        "All the valves passed the pressure test.",
        "None of the valves failed the pressure test.",
        "grounded",
        None,
    ),
    (
        "complement: all affirmed, none denied",
        "None of the valves failed the pressure test.",
        "All the valves passed the pressure test.",
        "grounded",
        None,
    ),
    (
        "complement: the same word, not its antonym",
        "All the valves failed the pressure test.",
        "None of the valves failed the pressure test.",
        "unverified",
        None,
    ),
    (
        "complement: not all",
        "Not all the valves passed the pressure test.",
        "None of the valves failed the pressure test.",
        "unverified",
        None,
    ),
    (
        "complement: some, not all",
        "Some valves passed the pressure test.",
        "None of the valves failed the pressure test.",
        "unverified",
        None,
    ),
]


@pytest.mark.parametrize("name,answer,source,verdict,rule", ROWS, ids=[r[0] for r in ROWS])
def test_paraphrase(nlp, name, answer, source, verdict, rule):
    claims = sourced_nlp.check(answer, [source], nlp=nlp).claims
    assert len(claims) == 1
    got = claims[0]
    assert got.verdict == verdict, (got.rule, got.reason)
    if rule is not None:
        assert got.rule == rule, got.reason


def test_a_converse_counts_only_while_the_guard_reads_it():
    on = sourced_nlp.load_pipeline().get_pipe("sourced_verify")
    off = sourced_nlp.load_pipeline(config={"guard": None}).get_pipe("sourced_verify")
    assert on.verifier.aligner.converses is not None
    assert off.verifier.aligner.converses is None


def test_the_alignment_names_the_converse(nlp):
    claims = sourced_nlp.check(
        "The referendum followed the election.", ["The election preceded the referendum."], nlp=nlp
    ).claims
    hows = {w["word"]: w["how"] for w in claims[0].alignment}
    assert hows["followed"] == "converse"


def test_arguments_of_a_relation_word(nlp):
    doc = nlp("The museum lent Halden the paintings.")
    toks = tokens(doc._.passages[0]["tokens"])
    verb = next(k for k, t in enumerate(toks) if t.raw == "lend")
    subj, others = arguments(toks, verb)
    assert toks[subj].raw == "museum"
    assert sorted(toks[o].raw for o in others) == ["halden", "painting"]


def test_converse_needs_two_comparatives(nlp):
    lex = default_guard_lexicon()
    a = tokens(nlp("The river is wider than the canal.")._.passages[0]["tokens"])
    b = tokens(nlp("The canal is narrower than the river.")._.passages[0]["tokens"])
    c = tokens(nlp("The canal is narrow.")._.passages[0]["tokens"])
    wide = next(k for k, t in enumerate(a) if t.raw == "wide")
    narrow_b = next(k for k, t in enumerate(b) if t.raw == "narrow")
    narrow_c = next(k for k, t in enumerate(c) if t.raw == "narrow")
    assert converse(lex, a, wide, b, narrow_b)
    assert not converse(lex, a, wide, c, narrow_c)


def test_pertainyms_add_nothing_to_their_noun():
    table = load_lexicon("lexical")["pertainyms"]
    assert table["renal"] == "kidney" and table["pulmonary"] == "lung"
    # a prefix that negates, places or times the noun keeps the adjective out
    assert not {"afebrile", "precancerous", "subcutaneous", "intravenous", "prenuptial", "nonfinancial"} & set(table)
    assert "oral" not in table  # also "spoken"
