"""``sourced_verify`` and the public API: verdicts, evidence, the Doc API, errors, determinism."""

from __future__ import annotations

import pytest

import sourced_nlp
from sourced_nlp import NotGroundedError, SourceError
from sourced_nlp.components.extensions import CLAIMS_KEY

VERDICTS = ("grounded", "contradicted", "unverified")

# (name, answer, sources, expected verdict of the only claim)
VERDICT_TABLE = [
    (
        "a full name against the surname the passage uses",
        "James Holmes faces 24 counts of murder.",
        ["Holmes faces 24 counts of murder."],
        "grounded",
    ),
    (
        "the place a source is set in, named once",
        "Airstrikes in Yemen have killed 200 civilians.",
        [
            "In Yemen, airstrikes killed 150 civilians in March. Airstrikes have killed 200 civilians since, officials said."
        ],
        "grounded",
    ),
    (
        "a place the passage names otherwise stays missing",
        "Airstrikes in Yemen have killed 200 civilians.",
        ["The war in Yemen enters its third week. Airstrikes in Syria have killed 200 civilians."],
        "unverified",
    ),
    (
        "a value of another step is no conflict",
        "Remove the steak and let it rest for 10 minutes.",
        ["Remove the steak from the oven and roast the other steak for about 20 minutes."],
        "unverified",
    ),
    (
        "a value of the same verb (through a synonym) conflicts",
        "Acme's revenue grew 12% in 2023.",
        ["Acme's revenue rose 8% in 2023."],
        "contradicted",
    ),
    (
        "an instruction's 'make sure' is not a fact to find",
        "Make sure the toe points up.",
        ["Hold the club with the toe pointing up."],
        "grounded",
    ),
    (
        "an instruction's 'ensure' is not a fact to find",
        "Ensure the water is boiling.",
        ["The water must be boiling."],
        "grounded",
    ),
    (
        "'including' and a list's 'steps' frame the fact",
        "Repeat these steps until you reach the end of the braid, including the last section.",
        ["Repeat until you reach the end of the braid and the last section."],
        "grounded",
    ),
    (
        "a recipe's abbreviated measure is the same measure",
        "Add 2 cups of chicken stock and 1/4 teaspoon of black pepper.",
        ["SPICY RICE PILAF. 2 tsp. olive oil. 2 c. chicken stock. 1/4 tsp. black pepper."],
        "grounded",
    ),
    (
        "a measure of another ingredient of the list is no match",
        "Add 1 teaspoon ground cardamom.",
        ["SPICY RICE PILAF. 1 tsp. fennel seeds, crushed. 3/4 tsp. ground cardamom. 1/4 c. slivered almonds."],
        "contradicted",
    ),
    (
        "an approximate value overlapping an open bound is no conflict",
        "Lubitz had logged around 600 flight hours.",
        ["Lubitz had logged over 600 flight hours before the crash."],
        "unverified",
    ),
    (
        "affirmed claim, source denies another predicate",
        "The driver was arrested on Friday.",
        ["Police did not name the driver who was arrested on Friday."],
        "grounded",
    ),
    (
        "denied claim needs a denying source on its predicate",
        "Police did not arrest the driver on Friday.",
        ["Police did not name the driver who was arrested on Friday."],
        "unverified",
    ),
    (
        "the article as subject is a pointer, not the subject",
        "The article says the bridge was closed for repairs in March.",
        ["The bridge was closed for repairs in March."],
        "grounded",
    ),
    (
        "grounded verbatim",
        "Acme reported revenue of $4.2 billion in 2023.",
        ["Acme reported revenue of $4.2 billion in 2023."],
        "grounded",
    ),
    (
        "grounded among other sentences",
        "Woodgrove Bank cut 300 jobs in 2022.",
        ["Woodgrove Bank is based in Seattle. Woodgrove Bank cut 300 jobs in 2022. Its shares rose."],
        "grounded",
    ),
    (
        "grounded paraphrase with a synonym",
        "Acme acquired Contoso in 2021.",
        ["In 2021, Acme bought Contoso."],
        "grounded",
    ),
    (
        "contradicted number",
        "Acme's revenue rose 40% in 2023.",
        ["Acme's revenue rose 8% in 2023."],
        "contradicted",
    ),
    (
        "contradicted year",
        "Acme opened its Lisbon office in 2019.",
        ["Acme opened its Lisbon office in 2021."],
        "contradicted",
    ),
    (
        "contradicted negation",
        "Acme did not pay a dividend in 2023.",
        ["Acme paid a dividend in 2023."],
        "contradicted",
    ),
    (
        "contradicted negation, the other way",
        "Acme paid a dividend in 2023.",
        ["Acme did not pay a dividend in 2023."],
        "contradicted",
    ),
    (
        "contradicted antonym",
        "Acme's sales rose in 2023.",
        ["Acme's sales fell in 2023."],
        "contradicted",
    ),
    (
        "no value conflict with a passage that shares no name and no other value",
        "Stir in the cream and bake for 25 minutes.",
        ["Stir in the cheese and bake for 40 minutes."],
        "unverified",
    ),
    (
        "a value conflict where the passage shares another value",
        "In 2023, the plant produced 400 cars a day.",
        ["In 2023, the plant produced 300 cars a day."],
        "contradicted",
    ),
    (
        "no antonym when the passage says both, of two things",
        "The company is increasing its dividend to $0.13 per share and reducing net debt below $25 billion.",
        [
            "As we expect net debt to fall below $25 billion, our focus has expanded to returning capital to "
            "shareholders, beginning with the increase in our dividend to $0.13 per share."
        ],
        "unverified",  # not contradicted: "fall" is said of the debt; "the company" is not named
    ),
    (
        "unverified unrelated",
        "The museum opened a new wing in Paris.",
        ["Acme's sales fell in 2023."],
        "unverified",
    ),
    (
        "hedged claim, unhedged source",
        "Acme may cut 200 jobs in 2024.",
        ["Acme will cut 200 jobs in 2024."],
        "unverified",
    ),
    (
        "a number found elsewhere grounds nothing",
        "Acme hired 500 engineers in 2023.",
        ["Acme opened a new office in Boston in 2023. The city has 500 parks."],
        "unverified",
    ),
    (
        "another name is no swap where the passage lacks the claim's values",
        "Donald Trump served one term from 2017 to 2021.",
        ["Only one U.S. president, Grover Cleveland, has served nonconsecutive terms as president."],
        "unverified",
    ),
    (
        "another name is no swap on one shared word",
        "More was written by Matthew West.",
        ["More is a pop song that was written by Riz Ortolani."],
        "unverified",
    ),
    (
        "another name with the claim's other names and values is a swap",
        "Google acquired GitHub in 2018.",
        ["Microsoft acquired GitHub in 2018."],
        "contradicted",
    ),
    (
        "two dates said of two events are no conflict",
        "The band released the album Square One in 2016.",
        ["The band recorded the album Square One in 2005."],
        "unverified",
    ),
    (
        "a fabricated quote",
        'The CEO called the merger "a historic turning point" in 2023.',
        ['The CEO called the merger "a sensible step" in 2023.'],
        "unverified",
    ),
]


@pytest.mark.parametrize("name,answer,sources,expected", VERDICT_TABLE, ids=[r[0] for r in VERDICT_TABLE])
def test_verdict(nlp, name, answer, sources, expected):
    report = sourced_nlp.check(answer, sources, nlp=nlp)
    assert len(report.claims) == 1, [c.text for c in report.claims]
    claim = report.claims[0]
    assert claim.verdict == expected, claim.reason
    assert claim.reason
    assert 0.0 <= claim.support <= 1.0
    if expected in ("grounded", "contradicted"):
        assert claim.evidence, "a grounded or contradicted claim carries its evidence"
    assert report.counts[expected] == 1


def test_contradiction_names_what_differs(nlp):
    report = sourced_nlp.check("Acme's revenue rose 40% in 2023.", ["Acme's revenue rose 8% in 2023."], nlp=nlp)
    (claim,) = report.claims
    assert claim.verdict == "contradicted"
    assert {"claim": "40%", "source": "8%", "kind": "quantity"} in claim.differs


def test_unverified_reason_for_no_sources_about_it(nlp):
    report = sourced_nlp.check("The museum opened a new wing in Paris.", ["Acme's sales fell in 2023."], nlp=nlp)
    assert report.claims[0].verdict == "unverified"
    assert "no source passage" in report.claims[0].reason


def test_support_drops_for_what_no_source_holds(nlp):
    """Among unverified claims, words and names that no source holds anywhere lower the support
    to the bottom of the unverified band (0.15-0.65)."""
    sources = ["Acme opened a new office in Boston in 2023. Jane Doe leads the sales team at Acme."]
    known, unknown_name, unknown_words = (
        sourced_nlp.check(answer, sources, nlp=nlp).claims[0]
        for answer in (
            "The Boston office is run by Jane Doe.",
            "The Boston office is run by John Smith.",
            "The Boston office was opened to serve nearby zeppelin hangars.",
        )
    )
    assert {known.verdict, unknown_name.verdict, unknown_words.verdict} == {"unverified"}
    assert unknown_name.support < known.support
    assert 0.15 <= unknown_words.support <= 0.2 < known.support


SOURCES = [
    {"id": "intro", "text": "Acme is a bakery chain based in Lisbon.\nIt was founded in 1990."},
    {
        "id": "results",
        "text": "Annual results were published in March.\n\nAcme's revenue rose 8% in 2023. "
        "Acme opened 12 new stores in 2023.",
    },
]
EVIDENCE_ANSWERS = [
    "Acme's revenue rose 8% in 2023.",
    "Acme's revenue rose 40% in 2023.",
    "Acme opened 12 new stores in 2023.",
    "Acme was founded in 1990.",
    "Acme was founded in 1985.",
]


@pytest.mark.parametrize("answer", EVIDENCE_ANSWERS)
def test_evidence_offsets(nlp, answer):
    texts = {s["id"]: s["text"] for s in SOURCES}
    report = sourced_nlp.check(answer, SOURCES, nlp=nlp)
    (claim,) = report.claims
    assert claim.verdict in ("grounded", "contradicted"), claim.reason
    assert claim.evidence
    for e in claim.evidence:
        assert e.source in texts
        assert texts[e.source][e.start : e.end] == e.text
        assert e.text.strip()


def _doc(nlp, answer, sources):
    doc = nlp.make_doc(answer)
    doc._.sources = sources
    return doc


DOC_INPUTS = [
    ("Acme's revenue rose 8% in 2023. Acme's profit fell 40% in 2023.", SOURCES, ["grounded", "unverified"]),
    ("Acme's revenue rose 40% in 2023. Acme was founded in 1990.", SOURCES, ["contradicted", "grounded"]),
    ("Acme's revenue rose 8% in 2023.", ["Acme's revenue rose 8% in 2023."], ["grounded"]),
]


def _check_doc(doc, expected):
    spans = list(doc.spans[CLAIMS_KEY])
    assert [s._.verdict for s in spans] == expected
    for s, c in zip(spans, doc._.report["claims"]):
        assert s.label_ == s._.verdict
        assert isinstance(s._.reason, str) and s._.reason
        assert isinstance(s._.evidence, list)
        assert (s.start_char, s.end_char, s._.verdict) == (c["start"], c["end"], c["verdict"])
        assert s._.evidence == c["evidence"]


@pytest.mark.parametrize("answer,sources,expected", DOC_INPUTS)
def test_doc_api(nlp, answer, sources, expected):
    doc = nlp(_doc(nlp, answer, sources))
    _check_doc(doc, expected)
    assert doc._.report["schema"] == "sourced.report/1"


def test_doc_api_pipe(nlp):
    docs = [_doc(nlp, a, s) for a, s, _ in DOC_INPUTS]
    out = list(nlp.pipe(docs))
    assert len(out) == len(DOC_INPUTS)
    for doc, (answer, _, expected) in zip(out, DOC_INPUTS):
        assert doc.text == answer
        _check_doc(doc, expected)


def test_doc_without_sources(nlp):
    doc = nlp("Acme's revenue rose 8% in 2023. Acme opened 12 new stores.")
    spans = list(doc.spans[CLAIMS_KEY])
    assert len(spans) == 2
    for s in spans:
        assert s._.verdict == "unverified"
        assert "source" in s._.reason
    assert doc._.report["counts"] == {"grounded": 0, "contradicted": 0, "unverified": 2}


def test_assert_grounded_raises_listing_the_claim(nlp):
    answer = "Acme's revenue rose 40% in 2023."
    with pytest.raises(NotGroundedError) as info:
        sourced_nlp.assert_grounded(answer, ["Acme's revenue rose 8% in 2023."], nlp=nlp)
    assert answer in str(info.value)
    assert "contradicted" in str(info.value)
    assert info.value.report.counts["contradicted"] == 1
    assert isinstance(info.value, AssertionError)


def test_assert_grounded_passes_and_strict_mode(nlp):
    source = ["Acme's revenue rose 8% in 2023."]
    report = sourced_nlp.assert_grounded("Acme's revenue rose 8% in 2023.", source, nlp=nlp)
    assert report.counts["grounded"] == 1
    unrelated = "The museum opened a new wing in Paris."
    sourced_nlp.assert_grounded(unrelated, source, nlp=nlp)  # unverified is allowed by default
    with pytest.raises(NotGroundedError) as info:
        sourced_nlp.assert_grounded(unrelated, source, allow_unverified=False, nlp=nlp)
    assert unrelated in str(info.value)


BAD_SOURCES = [
    [],
    "Acme's revenue rose 8% in 2023.",
    {"text": "Acme's revenue rose 8% in 2023."},
    [""],
    ["   \n"],
    [None],
    [{"id": "a", "text": 5}],
    [{"id": "a", "text": "one"}, {"id": "a", "text": "two"}],
    None,
]


@pytest.mark.parametrize("sources", BAD_SOURCES)
def test_invalid_sources_raise(nlp, sources):
    with pytest.raises(SourceError):
        sourced_nlp.check("Acme's revenue rose 8% in 2023.", sources, nlp=nlp)


def test_structured_source(nlp):
    report = sourced_nlp.check(
        "Finch & Fork is located in Santa Barbara.",
        [{"name": "Finch & Fork", "city": "Santa Barbara", "state": "CA"}],
        nlp=nlp,
    )
    (claim,) = report.claims
    assert claim.verdict == "grounded", claim.reason
    assert claim.evidence[0].source == "0"


DETERMINISM = [
    ("Acme's revenue rose 40% in 2023. Acme was founded in 1990. The museum opened in Paris.", SOURCES),
    ("Here is the summary:\n1. Acme opened 12 new stores in 2023 [2].\n2. It did not pay a dividend.", SOURCES),
]


@pytest.mark.parametrize("answer,sources", DETERMINISM)
def test_determinism(nlp, answer, sources):
    first = sourced_nlp.check(answer, sources, nlp=nlp).to_json()
    second = sourced_nlp.check(answer, sources, nlp=nlp).to_json()
    assert first == second
    many = sourced_nlp.check_many([(answer, sources), (answer, sources)], nlp=nlp)
    assert [r.to_json() for r in many] == [first, first]


@pytest.mark.parametrize(
    "claim,source,expected",
    [
        # two long names with the same initials are not one name
        (
            "He attended the University of California Anschutz Medical Campus in Aurora.",
            "He attended the University of Colorado Anschutz Medical Campus in Aurora.",
            "unverified",
        ),
        # an acronym stands for its long name
        (
            "The WHO declared a pandemic in March.",
            "The World Health Organization declared a pandemic in March.",
            "grounded",
        ),
        # a claim that took its subject from the sentence before is not about another subject
        ("Acme opened a plant. It hired 300 workers.", "Acme opened a plant. Globex hired 300 workers.", "unverified"),
    ],
)
def test_name_matching(nlp, claim, source, expected):
    report = sourced_nlp.check(claim, [source], nlp=nlp)
    assert report.claims[-1].verdict == expected, report.claims[-1].reason


@pytest.mark.parametrize(
    "claim,source,expected",
    [
        # a value grounds only the subject it is stated of
        ("Costs rose 8%.", "Revenue rose 8%.", "unverified"),
        ("Revenue rose 8%.", "Revenue rose 8%.", "grounded"),
        # two denials: one wrapped in a light verb ("did not have the right to")
        (
            "Women did not have the right to vote or own property.",
            "Women were not allowed to vote or own property.",
            "grounded",
        ),
        # ... but two denials of different verbs deny different things
        ("Police did not arrest the driver.", "Police did not name the driver who was arrested.", "unverified"),
        # a denied argument ("no blackout dates") the claim carries too
        (
            "The program, with no blackout dates and cheap seats, is popular with members.",
            "The program has no blackout dates and cheap seats, and it is popular with members.",
            "grounded",
        ),
        (
            "The firm was incorporated in 1977 by Jobs, Wozniak and Wayne.",
            "The firm was incorporated in 1977 without Wayne.",
            "unverified",
        ),
        # a claim of words alone may name its subject with a word the passage does not use
        (
            "The dish is sprinkled with toasted coconut and served with hot rice.",
            "Sprinkle the stew with toasted coconut and serve with hot rice.",
            "grounded",
        ),
        # a denial through a copula ("is not profitable") and of a participle ("was not closed")
        ("The company is profitable.", "The company is not profitable.", "contradicted"),
        ("The bridge was not closed.", "The bridge was closed.", "contradicted"),
    ],
)
def test_subject_and_short_polarity(nlp, claim, source, expected):
    report = sourced_nlp.check(claim, [source], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason


def test_empty_answer_is_an_error(nlp):
    with pytest.raises(SourceError):
        sourced_nlp.check("  \n", ["Revenue rose 8%."], nlp=nlp)


def test_passage_index_is_built_once_per_list_of_sources(nlp):
    """Checking several answers against the same sources reuses one passage index; other
    sources (or the same text under another id) get their own, and the verdicts do not change."""
    verify = nlp.get_pipe("sourced_verify")
    sources = [{"id": "q3", "text": "Acme's revenue rose 8% in 2023."}]
    first = sourced_nlp.check("Acme's revenue rose 8% in 2023.", sources, nlp=nlp)
    index = verify.index_for(sources)
    second = sourced_nlp.check("Acme's revenue rose 9% in 2023.", sources, nlp=nlp)
    assert verify.index_for(sources) is index
    assert first.claims[0].verdict == "grounded" and second.claims[0].verdict == "contradicted"
    renamed = [{"id": "other", "text": sources[0]["text"]}]
    assert verify.index_for(renamed) is not index
    assert (
        sourced_nlp.check("Acme's revenue rose 8% in 2023.", renamed, nlp=nlp).claims[0].evidence[0].source == "other"
    )


@pytest.mark.parametrize(
    "claim,expected",
    [
        ("The island is only accessible by sea twice a year.", "unverified"),
        ("The island is only accessible by sea 60 days a year.", "grounded"),
    ],
)
def test_a_count_of_times_is_a_value(nlp, claim, expected):
    """'twice a year' is a count (2 times a year), not stated by '60 days a year'."""
    source = "The island is also only accessible by sea 60-days-a-year through a small port."
    report = sourced_nlp.check(claim, [source], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason


def test_a_count_of_times_compares_within_its_period(nlp):
    source = "Water established dahlias deeply once a week. Feed them two times a month."
    for claim, expected in (
        ("Water established dahlias deeply once a week.", "grounded"),
        ("Feed them twice a month.", "grounded"),
        ("Feed them three times a month.", "contradicted"),
    ):
        report = sourced_nlp.check(claim, [source], nlp=nlp)
        assert report.claims[0].verdict == expected, (claim, report.claims[0].reason)


SITE = "Water the dahlia plants deeply and often. Young shoots appear in May. Collect rainwater in a barrel."
SPREAD = "Water the young dahlia plants deeply with rainwater."


def test_a_claim_spread_over_passages_is_grounded_with_each(nlp):
    """Most of the claim in one passage, the rest in the passages beside it: grounded, and the
    evidence shows the passages that hold its parts."""
    claim = sourced_nlp.check(SPREAD, [SITE], nlp=nlp).claims[0]
    assert claim.verdict == "grounded", claim.reason
    assert [e.text for e in claim.evidence] == [
        "Water the dahlia plants deeply and often.",
        "Young shoots appear in May.",
        "Collect rainwater in a barrel.",
    ]
    assert 0.55 <= claim.support < 0.7  # ranked below a claim that one passage states


@pytest.mark.parametrize(
    "claim",
    [
        "Water the young dahlia plants deeply with tap water.",
        "Water the young dahlia plants deeply with rainwater from the roof.",
    ],
)
def test_a_spread_claim_with_a_word_no_passage_holds_is_unverified(nlp, claim):
    report = sourced_nlp.check(claim, [SITE], nlp=nlp)
    assert report.claims[0].verdict == "unverified", report.claims[0].reason


def test_spread_support_1_turns_the_spread_grounding_off():
    strict = sourced_nlp.load_pipeline(config={"spread_support": 1.0})
    report = sourced_nlp.check(SPREAD, [SITE], nlp=strict)
    assert report.claims[0].verdict == "unverified", report.claims[0].reason


# 70 similar lines, more than ``max_candidates`` (24) passages sharing every word and kind of value
SIMILAR_LINES = [f"In {1950 + i} the company had {1000 + 37 * i:,} stores." for i in range(70)]


@pytest.mark.parametrize(
    "claim, verdict",
    [
        (SIMILAR_LINES[50], "grounded"),  # "In 2000 the company had 2,850 stores." word for word
        ("In 2000 the company had 2,855 stores.", "contradicted"),  # line 50's year, another count
    ],
)
def test_claim_among_many_similar_lines(nlp, claim, verdict):
    """The line holding the claim's own values makes the candidate shortlist, however many lines
    share its words: found word for word, its evidence is that line, never the first similar one."""
    source = "\n".join(SIMILAR_LINES)
    report = sourced_nlp.check(claim, [source], nlp=nlp)
    (c,) = report.claims
    assert c.verdict == verdict, c.reason
    assert c.evidence and c.evidence[0].text == SIMILAR_LINES[50]
    start = source.index(SIMILAR_LINES[50])
    assert (c.evidence[0].start, c.evidence[0].end) == (start, start + len(SIMILAR_LINES[50]))
