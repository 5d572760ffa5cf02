"""``sourced_negation``: is the main predicate of a claim negated, and by which cue."""

from __future__ import annotations

import pytest

import sourced_nlp
from sourced_nlp.components.extensions import CLAIMS_KEY

# (sentence, negated, cue as written, lower-cased; None when not negated)
NEGATION = [
    ("The new policy did not reduce costs.", True, "not"),
    ("The company has never reported a loss.", True, "never"),
    ("The bank no longer offers free accounts.", True, "no longer"),
    ("Nothing was found in the warehouse.", True, "nothing"),
    ("The team failed to reach the summit.", True, "failed"),
    ("The clinic operated without a license.", True, "without"),
    ("The clinic lacks a license.", True, "lacks"),
    ("The firm didn't pay the fine.", True, "n't"),
    ("No employee was injured in the fire.", True, "no"),
    ("The board refused to approve the merger.", True, "refused"),
    # pseudo-negations
    ("The project was not only late but also over budget.", False, None),
    ("Officials could not rule out a delay.", False, None),
    ("There is no doubt that sales grew in 2023.", False, None),
    ("The plant produced no less than 400 cars a day.", False, None),
    # affirmative sentences
    ("The new policy reduced costs.", False, None),
    ("The company reported a loss in 2023.", False, None),
    ("The bank offers free accounts.", False, None),
    ("The team reached the summit.", False, None),
    ("The clinic has a license.", False, None),
    # a negation inside a relative clause does not negate the main predicate
    ("The manager who did not attend the meeting resigned on Friday.", False, None),
    # a condition does not either; a "that" clause a copula or a wrapper states does
    ("If you do not file a return, keep your records.", False, None),
    ("The difference is that gravy is not usually used in cooking.", True, "not"),
    ("It is important to note that award tickets are not free.", True, "not"),
    # the typographic apostrophe
    ("You don\u2019t need to swap your SIM card.", True, "n\u2019t"),
    # idioms with "no"
    ("It is no wonder that the company closed its stores.", False, None),
]


@pytest.mark.parametrize("text,negated,cue", NEGATION)
def test_negation(nlp, text, negated, cue):
    doc = nlp(text)
    spans = list(doc.spans[CLAIMS_KEY])
    assert len(spans) == 1
    span = spans[0]
    assert span._.negated is negated
    if negated:
        assert span._.negation_cue is not None
        assert span._.negation_cue.lower() == cue
        assert span._.negation_cue in span.text
        start, end = span._.negation_scope
        assert span.start_char <= start < end <= span.end_char
    else:
        assert span._.negation_cue is None
        assert span._.negation_scope is None


def test_negation_is_per_claim(nlp):
    doc = nlp("Acme did not raise prices in 2022. Acme raised prices in 2023.")
    assert [s._.negated for s in doc.spans[CLAIMS_KEY]] == [True, False]


def test_negation_reaches_the_passage_record(nlp):
    doc = nlp("The bank no longer offers free accounts.")
    (rec,) = doc._.passages
    assert rec["negated"] is True
    assert rec["cue"].lower() == "no longer"


@pytest.mark.parametrize(
    "text,denied",
    [
        # a cue on a verb denies up to the verbs coordinated with it
        (
            "It accepts credit cards, does not require appointments, has a parking lot and is wheelchair accessible.",
            ["not require appointments"],
        ),
        (
            "It is cheap, does not serve alcohol, and does not accept reservations.",
            ["not serve alcohol", "not accept reservations"],
        ),
        # the subject of the denied verb is what is denied
        ("It offers takeout, though delivery is not available.", ["delivery is not available"]),
        # before "or" the cue denies every verb
        ("It does not offer delivery or take reservations.", ["not offer delivery or take reservations"]),
        # a determiner or preposition cue denies its whole phrase, coordinated nouns included
        ("It offers takeout but no outdoor seating or delivery.", ["no outdoor seating or delivery"]),
        ("The clinic operated without a license.", ["without a license"]),
        ("The new policy reduced costs.", []),
    ],
)
def test_denied_clauses(nlp, text, denied):
    doc = nlp(text)
    (span,) = doc.spans[CLAIMS_KEY]
    assert [doc.text[a:b] for a, b in span._.denied_clauses] == denied
    (rec,) = doc._.passages
    assert [rec["text"][a:b] for a, b in rec["denied"]] == denied


@pytest.mark.parametrize(
    "claim,source,expected",
    [
        # "failed to reduce" denies "reduce", not "fail"
        ("The drug reduced mortality.", "The drug failed to reduce mortality.", "contradicted"),
        ("The drug failed to reduce mortality.", "The drug did not reduce mortality.", "grounded"),
        ("The board refused to approve the merger.", "The board approved the merger.", "contradicted"),
    ],
)
def test_verb_cue_denies_its_complement(nlp, claim, source, expected):
    doc = nlp(source)
    (rec,) = doc._.passages
    if "fail" in source:
        assert rec["negated_predicate"] == "reduce"
    assert sourced_nlp.check(claim, [source], nlp=nlp).claims[0].verdict == expected
