"""Mechanisms made precise on natural text: each row is a kind of wrong ``contradicted`` that the
rules' precision table (``bench/rule_precision.py``) found on natural summaries, in other words
than the summaries': the row's claim must not be contradicted, and must not be grounded by it
either where the source does not state it.

The real pipeline; a table that demotes nothing, so that a row reads the mechanism, not the
admission (``test_admission.py``).
"""

from __future__ import annotations

import pytest
from tables import none_demoted

import sourced_nlp

ROWS = [
    # name, answer, source, the verdict it gets
    # contradicted.polarity: the source denies the word where it states it, with a verb or a near-negative
    (
        "a denying verb over the word",
        "The club has not reached the final since 2010.",
        "The club has failed to reach the final since 2010.",
        "unverified",
    ),
    (
        "a denial the claim shares, outside the main clause",
        "Applicants not employed within three years should have their loans cancelled.",
        "Any applicant not employed within three years should have their loans cancelled.",
        "grounded",
    ),
    (
        "a near-negative",
        "We did not see any warming in that decade.",
        "There was little warming in that decade.",
        "unverified",
    ),
    # contradicted.entity: every word of the claim's name is in the passage
    (
        "a name with a middle name left out",
        "Albert Ruiz is a Spanish chef.",
        "Albert Manuel Ruiz is a Spanish chef.",
        "unverified",
    ),
    (
        "a name in other words",
        "She won gold at the Sydney Games.",
        "She won gold at the 2000 Games in Sydney.",
        "unverified",
    ),
    # contradicted.value: the claim's count is the total of the parts the passage lists
    (
        "a total of the parts a list gives",
        "The rower has won 19 medals at world championships.",
        "The rower has won 12 gold, four silver and three bronze medals at world championships.",
        "grounded",
    ),
    # contradicted.value: a date said of a verb the passage does not have is another event's date
    (
        "the date of another event",
        "The striker learned a lot from his injury in 2015 and returned to play two months later.",
        "But he returned to play two months later, before adding a league title in the 2018 season.",
        "unverified",
    ),
    # contradicted.value: a figure of the source glued to the next sentence is read
    (
        "a figure glued to the next sentence",
        "The Conservatives spent £2,980,815 on the campaign.",
        "Labour spent £2,956,737 on the campaign, while the Conservatives spent £2,980,815,The Greens spent £534,249 on theirs.",
        "grounded",
    ),
    # contradicted.qualifier: another qualifier of the claim's own, not a dropped one
    (
        "another qualifier in the status's place",
        "Their next stop is Lyon, and they plan to ride on to Turin.",
        "They crossed the Alps to reach their latest stop, Lyon, and they plan to ride on to Turin.",
        "unverified",
    ),
]


@pytest.mark.parametrize("name,answer,source,verdict", ROWS, ids=[r[0] for r in ROWS])
def test_not_contradicted(nlp, name, answer, source, verdict):
    with none_demoted(nlp):
        claims = sourced_nlp.check(answer, [source], nlp=nlp).claims
    assert len(claims) == 1
    assert claims[0].verdict == verdict, (claims[0].rule, claims[0].reason)
