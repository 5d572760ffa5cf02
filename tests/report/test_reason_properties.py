"""Every reason a report gives says what is wrong in words the texts have (Hypothesis).

A claim and its source are built from the pieces a contradiction or a gap is made of: a subject,
a predicate and its antonym ("raised" / "lowered", "rose" / "fell"), a denial ("did not",
"never", "failed to", "no longer"), a hedge ("may"), a figure changed, a rate of another period
("$12 a month" / "$12 a year"), another subject, a sentence of another topic beside it. For every
claim of the report: the reason is not empty and not cut short, every word it quotes ('...') is
a word of the claim or of its evidence, and what differs names both sides or says which one
alone.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sourced_nlp
from sourced_nlp.report.marks import differs_text

PROPERTY = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

SUBJECTS = [
    "The central bank",
    "Contoso",
    "The company",
    "Exports",
    "The senator",
    "The union",
    "The museum",
    "The gene",
    "The bank",
    "The team",
]
#: (claim's form, source's antonym form, object)
PREDICATES = [
    ("raised", "lowered", "rates"),
    ("increased", "decreased", "the risk of diabetes"),
    ("rose", "fell", "after the announcement"),
    ("won", "lost", "the semifinal"),
    ("accepted", "rejected", "the offer"),
    ("supported", "opposed", "the bill"),
    ("hired", "fired", "200 staff"),
    ("expanded", "reduced", "its workforce"),
    ("confirmed", "denied", "the report"),
    ("approved", "blocked", "the merger"),
]
BASE = {
    "raised": "raise",
    "increased": "increase",
    "rose": "rise",
    "won": "win",
    "accepted": "accept",
    "supported": "support",
    "hired": "hire",
    "expanded": "expand",
    "confirmed": "confirm",
    "approved": "approve",
}
TAILS = ["", " in 2021", " in March", " by 8%", " by 12%", " on Monday"]
OTHER = ["The weather was mild.", "Its headquarters are in Oslo.", "The report was published in June."]


@st.composite
def pairs(draw) -> tuple[str, list[str]]:
    subj, (verb, anto, obj), tail = (
        draw(st.sampled_from(SUBJECTS)),
        draw(st.sampled_from(PREDICATES)),
        draw(st.sampled_from(TAILS)),
    )
    claim = f"{subj} {verb} {obj}{tail}."
    how = draw(
        st.sampled_from(
            [
                "same",
                "antonym",
                "not",
                "never",
                "failed",
                "no longer",
                "may",
                "figure",
                "rate",
                "subject",
                "claim denies",
                "claim hedges",
            ]
        )
    )
    base = BASE[verb]
    source = {
        "same": claim,
        "antonym": f"{subj} {anto} {obj}{tail}.",
        "not": f"{subj} did not {base} {obj}{tail}.",
        "never": f"{subj} has never {verb} {obj}{tail}.",
        "failed": f"{subj} failed to {base} {obj}{tail}.",
        "no longer": f"{subj} no longer {base}s {obj}{tail}.",
        "may": f"{subj} may {base} {obj}{tail}.",
        "figure": f"{subj} {verb} {obj}{tail.replace('8', '9').replace('12', '15').replace('2021', '2019')}.",
        "rate": f"{subj} charges $12 a year.",
        "subject": f"{draw(st.sampled_from([s for s in SUBJECTS if s != subj]))} {verb} {obj}{tail}.",
        "claim denies": claim,
        "claim hedges": claim,
    }[how]
    if how == "rate":
        claim = f"{subj} charges $12 a month."
    elif how == "claim denies":
        claim = f"{subj} did not {base} {obj}{tail}."
    elif how == "claim hedges":
        claim = f"{subj} may {base} {obj}{tail}."
    if draw(st.booleans()):
        source = f"{draw(st.sampled_from(OTHER))} {source}"
    return claim, [source]


QUOTED = re.compile(r"'([^']+)'")


@PROPERTY
@given(pairs())
def test_every_reason_says_what_is_wrong_in_words_the_texts_have(nlp, pair):
    answer, sources = pair
    report = sourced_nlp.check(answer, sources, nlp=nlp)
    for c in report.claims:
        reason = c.reason or ""
        assert reason.strip() and reason == reason.strip() and "  " not in reason, (c.rule, reason)
        assert not re.search(r"\b(another|the|a|of|says)$", reason), (c.rule, reason)
        texts = " ".join([c.text, *(e.text for e in c.evidence)]).lower()
        for quoted in QUOTED.findall(reason):
            for word in re.findall(r"\w+", quoted.lower()):
                assert word in texts, f"{c.rule}: {reason!r} quotes {word!r}, in neither {c.text!r} nor its evidence"
        for d in c.differs:
            shown = differs_text(d)
            assert "  " not in shown and not shown.endswith(" "), (c.rule, shown)


def test_what_differs_on_one_side_only_is_said_in_words():
    rows = [  # differs, with sides, without
        ({"claim": "12%", "source": "8%", "kind": "quantity"}, "claim 12% ≠ source 8%", "12% ≠ 8%"),
        ({"claim": "", "source": "may", "kind": "hedge"}, "only the source says may", "may, not in the claim"),
        ({"claim": "never", "source": "", "kind": "polarity"}, "only the claim says never", "never, not in the source"),
    ]
    for d, sides, bare in rows:
        assert (differs_text(d), differs_text(d, sides=False)) == (sides, bare)
