"""Every figure of a claim is read, or the claim is not grounded: the forms answers write a
figure in (escapes, full-width and invisible characters, glued citation marks, decimal commas),
and the veto of a figure that could not be read."""

from __future__ import annotations

import pytest

import sourced_nlp
from sourced_nlp.text.figures import clean_figure
from sourced_nlp.text.quantity import parse_quantity

# (form, text as written, (kind, low) it reads as)
READ_FORMS = [
    ("a plus sign", "+7%", ("percent", 7.0)),
    ("a LaTeX escape", "31\\%", ("percent", 31.0)),
    ("LaTeX math", "$31\\%$", ("percent", 31.0)),
    ("a superscript footnote mark", "64%\u00b2", ("percent", 64.0)),
    ("an HTML entity", "19&#37;", ("percent", 19.0)),
    ("an HTML entity with its semicolon", "19&#37;", ("percent", 19.0)),
    ("full-width digits and sign", "\uff14\uff10\uff05", ("percent", 40.0)),
    ("a zero-width space inside", "3\u200b5%", ("percent", 35.0)),
    ("a decimal comma before a scale word", "\u20ac3,7 million", ("money", 3_700_000.0)),
    ("a decimal comma after a currency sign", "\u20ac4,25", ("money", 4.25)),
    ("a bracket marker glued", "$610 million[3", ("money", 610_000_000.0)),
    ("a footnote reference glued", "14%[^2]", ("percent", 14.0)),
    ("a lenticular marker glued", "14%\u30102\u3011", ("percent", 14.0)),
    ("a caret footnote mark glued", "18%^3", ("percent", 18.0)),
    ("a bracketed footnote number glued", "18%(3)", ("percent", 18.0)),
    ("thousands grouped by a space", "3 450", ("number", 3450.0)),
    ("thousands grouped by a no-break space", "2\u00a0075\u00a0000", ("number", 2_075_000.0)),
    ("a scale word hyphenated to the figure", "$7.1-billion", ("money", 7_100_000_000.0)),
]


@pytest.mark.parametrize("form, text, expected", READ_FORMS, ids=[r[0] for r in READ_FORMS])
def test_forms_are_read(form, text, expected):
    q = parse_quantity(text)
    assert q is not None, form
    assert (q.kind, q.low) == pytest.approx(expected)


# (what must stay as written, text)
KEPT = [
    ("a unit's exponent", "25 m\u00b2"),
    ("a thousands separator", "2,500"),
    ("a list of numbers", "pages 4,5"),
    ("a year and a count", "in 2019 250 people"),
    ("two figures with a decimal", "4.5 100"),
    ("a power of ten", "10^9"),
]


@pytest.mark.parametrize("what, text", KEPT, ids=[r[0] for r in KEPT])
def test_clean_figure_keeps(what, text):
    assert clean_figure(text) == text


# (form, answer, source, verdict, rule): a wrong figure in any form is never grounded
VERDICTS = [
    (
        "plus sign, wrong figure",
        "Subscriptions grew +14% this year.",
        "Subscriptions grew 41% this year.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "LaTeX percent, wrong figure",
        "Subscriptions grew 14\\% this year.",
        "Subscriptions grew 41% this year.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "LaTeX math, wrong figure",
        "Subscriptions grew $14\\%$ this year.",
        "Subscriptions grew 41% this year.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "superscript mark, wrong figure",
        "Subscriptions grew 14%\u00b9 this year.",
        "Subscriptions grew 41% this year.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "HTML entity, wrong figure",
        "Subscriptions grew 14&#37; this year.",
        "Subscriptions grew 41% this year.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "full-width, wrong figure",
        "Subscriptions grew 14\uff05 this year.",
        "Subscriptions grew 41% this year.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "zero-width, wrong figure",
        "Subscriptions grew 1\u200b4% this year.",
        "Subscriptions grew 41% this year.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "decimal comma, wrong figure",
        "Exports reached \u20ac5,1 billion in 2022.",
        "Exports reached \u20ac5,7 billion in 2022.",
        "contradicted",
        "contradicted.value",
    ),
    (
        "decimal comma, right figure",
        "Exports reached \u20ac5,7 billion in 2022.",
        "Exports reached \u20ac5.7 billion in 2022.",
        "grounded",
        None,
    ),
    (
        "marker glued to a scale word",
        "Net income rose 6% to $910 million[1].",
        "Net income rose 6% to $910 million in the year.",
        "grounded",
        None,
    ),
    (
        "marker glued to a percent",
        "Net income rose 6%[1] to $910 million.",
        "Net income rose 6% to $910 million in the year.",
        "grounded",
        None,
    ),
    (
        "marker glued, wrong figure",
        "Net income rose 9%[1] to $910 million.",
        "Net income rose 6% to $910 million in the year.",
        "contradicted",
        None,
    ),
    (
        "a figure not read",
        "Ridership grew 14\u2030 this year.",
        "Ridership grew 41\u2030 this year.",
        "unverified",
        "unverified.unread_figure",
    ),
    (
        "a doubled percent sign",
        "Ridership grew 14%% this year.",
        "Ridership grew 14% this year.",
        "unverified",
        "unverified.unread_figure",
    ),
]


@pytest.mark.parametrize("form, answer, source, verdict, rule", VERDICTS, ids=[r[0] for r in VERDICTS])
def test_wrong_figures_are_never_grounded(nlp, form, answer, source, verdict, rule):
    claims = sourced_nlp.check(answer, [source], nlp=nlp).to_dict()["claims"]
    assert len(claims) == 1
    assert claims[0]["verdict"] == verdict, claims[0]["reason"]
    if rule:
        assert claims[0]["rule"] == rule
    if rule == "unverified.unread_figure":
        assert claims[0]["reason"].startswith("a figure that could not be read: ")


def test_citation_markers_are_not_missing_words(nlp):
    """A cited grounded claim lists no marker token among the words the evidence lacks."""
    claim = sourced_nlp.check(
        "Net income rose 6% to $910 million [1].", ["Net income rose 6% to $910 million in the year."], nlp=nlp
    ).to_dict()["claims"][0]
    assert claim["verdict"] == "grounded"
    assert not [w["word"] for w in claim.get("alignment") or () if w["how"] == "unaligned"]


# (form, answer, source, verdict): scores of a match and figures restated in digits are one value
ONE_VALUE = [
    (
        "a score glued to a name, wrong",
        "Ajax beat Feyenoord 3-0 at home.",
        "Ajax beat Feyenoord 4-0 at home.",
        "contradicted",
    ),
    (
        "a score glued to a name, right",
        "Ajax beat Feyenoord 4-0 at home.",
        "Ajax beat Feyenoord 4-0 at home.",
        "grounded",
    ),
    (
        "a score with an en dash, after extra time",
        "Porto won 2\u20131 a.e.t. in the cup final.",
        "Porto won the cup final 2-1 after extra time.",
        "grounded",
    ),
    (
        "a score with an en dash, wrong",
        "Porto won 2\u20131 a.e.t. in the cup final.",
        "Porto won the cup final 3-1 after extra time.",
        "contradicted",
    ),
    (
        "a basketball score",
        "The Bulls defeated the Knicks 98-91.",
        "The Bulls defeated the Knicks 98-93 on Monday.",
        "contradicted",
    ),
    (
        "words restated in digits, another figure",
        "The buyer has 45 days to object.",
        "The buyer has thirty (30) days to object.",
        "contradicted",
    ),
    (
        "words restated in digits, the same figure",
        "The buyer has 30 days to object.",
        "The buyer has thirty (30) days to object.",
        "grounded",
    ),
    (
        "a percent restated in digits, another figure",
        "The deposit is 15 percent of the price.",
        "The deposit is five (5) percent of the price.",
        "contradicted",
    ),
    (
        "words and digits that disagree, the digits' figure",
        "Tenants must give 14 days' notice.",
        "Tenants must give seven (14) days' notice.",
        "unverified",
    ),
    (
        "words and digits that disagree, the words' figure",
        "Tenants must give 7 days' notice.",
        "Tenants must give seven (14) days' notice.",
        "unverified",
    ),
    (
        "words and digits that disagree, a third figure",
        "Tenants must give 30 days' notice.",
        "Tenants must give seven (14) days' notice.",
        "contradicted",
    ),
]


@pytest.mark.parametrize("form, answer, source, verdict", ONE_VALUE, ids=[r[0] for r in ONE_VALUE])
def test_one_value(nlp, form, answer, source, verdict):
    claims = sourced_nlp.check(answer, [source], nlp=nlp).to_dict()["claims"]
    assert [c["verdict"] for c in claims] == [verdict], claims[0]["reason"]


def test_words_and_digits_that_disagree_are_named_in_the_reason(nlp):
    claim = sourced_nlp.check(
        "The warranty lasts 24 months.", ["The warranty lasts twelve (24) months from delivery."], nlp=nlp
    ).to_dict()["claims"][0]
    assert claim["verdict"] == "unverified"
    assert "the source says twelve (24) months: its words and digits disagree" in claim["reason"]


def test_markdown_footnotes(nlp):
    """A footnote reference ends nothing and is a citation; a definition line is skipped."""
    answer = (
        "Churn fell to 3%[^a] in spring. Support tickets rose 9%.[^b]\n\n"
        "[^a]: Customer report, April\n[^b]: Helpdesk export"
    )
    report = sourced_nlp.check(
        answer, ["Churn fell to 3% in spring. Support tickets rose 9% as well."], nlp=nlp
    ).to_dict()
    assert [c["text"] for c in report["claims"]] == ["Churn fell to 3%[^a] in spring.", "Support tickets rose 9%.[^b]"]
    assert [c["verdict"] for c in report["claims"]] == ["grounded", "grounded"]


def test_a_footnote_cites_the_source_its_definition_names(nlp):
    """``cite``: a footnote whose definition line names a source cites that source, not the
    source at the footnote's number; one whose definition names none keeps its number."""
    answer = (
        "Churn fell to 3% in spring.[^1] Support tickets rose 9%.[^2]\n\n"
        "[^1]: Source 2\n[^2]: the helpdesk export, May\n"
    )
    sources = [
        {"id": "helpdesk", "text": "Support tickets rose 9% in May."},
        {"id": "crm", "text": "Churn fell to 3% in spring."},
    ]
    claims = sourced_nlp.cite(answer, sources, nlp=nlp).to_dict()["claims"]
    assert [c["text"] for c in claims] == ["Churn fell to 3% in spring.[^1]", "Support tickets rose 9%.[^2]"]
    assert [c["citations"][0]["targets"] for c in claims] == [["2"], ["2"]]
    assert [c["verdict"] for c in claims] == ["grounded", "grounded"]
    assert [c["citation_status"] for c in claims] == ["supported", "elsewhere"]  # [^2] keeps its number: source 2


# (claim, source, compare): a converted value rounds at the claim's last non-zero digit, by at most 5%
CONVERTED = [
    ("1,400 kg", "3,000 lb", "match"),  # 1,360.8 kg: the claim's hundreds, within 5%
    ("1,360.8 kg", "3,000 lb", "match"),
    ("1,300 kg", "3,000 lb", "conflict"),
    ("1,361.5 kg", "3,000 lb", "conflict"),  # a written decimal keeps its own precision
    ("380 L", "100 gallons", "match"),  # 378.5 L
    ("360 L", "100 gallons", "conflict"),
    ("16 km", "10 miles", "match"),  # 16.09 km
    ("2,500 mg", "2.5 grams", "match"),
    ("600 m", "620 m", "conflict"),  # one unit: no rounding beyond the last digit
    ("600 metres", "620 m", "conflict"),  # one unit, two spellings
]


@pytest.mark.parametrize("claim, source, expected", CONVERTED, ids=[f"{c} vs {s}" for c, s, _ in CONVERTED])
def test_converted_precision(claim, source, expected):
    from sourced_nlp.text.quantity import compare

    assert compare(parse_quantity(claim), parse_quantity(source)) == expected


@pytest.mark.parametrize(
    "text, low, high",
    [("about 20 \u00b0C", 291.15, 295.15), ("about 50 \u00b0F", 280.37, 285.93), ("about 5 km", 4500.0, 5500.0)],
)
def test_an_approximator_widens_the_value_on_its_own_scale(text, low, high):
    """ "About 20 °C" is 18-22 °C (in kelvin), not a tenth of 293 K either side."""
    q = parse_quantity(text)
    assert (q.low, q.high) == pytest.approx((low, high), abs=0.01)


def test_conversion_in_the_reason(nlp):
    claim = sourced_nlp.check(
        "The ferry carries 1,400 kg of freight.", ["The ferry carries 3,000 lb of freight."], nlp=nlp
    ).to_dict()["claims"][0]
    assert claim["verdict"] == "grounded"
    assert "3,000 lb = 1361 kg" in claim["reason"]


# (kind, answer, source, verdict): the paraphrases of a quantity ground; a real difference does not
PARAPHRASES = [
    (
        "a bound as a sign and a fraction",
        "Exports are now >1/4 of output.",
        "Exports are now more than a quarter of total output.",
        "grounded",
    ),
    (
        "a bound in percent for one in words",
        "Exports are now over 25% of output.",
        "Exports are now more than a quarter of total output.",
        "grounded",
    ),
    ("a fraction in words for a percent", "Two thirds of members voted yes.", "67% of members voted yes.", "grounded"),
    (
        "a fraction in words, another percent",
        "Two thirds of members voted yes.",
        "52% of members voted yes.",
        "contradicted",
    ),
    ("half the whole", "Half the orchards were replanted.", "50% of the orchards were replanted.", "grounded"),
    (
        "hours that divide a day, as times a day",
        "Give the drops twice daily.",
        "Give the drops every 12 hours.",
        "grounded",
    ),
    (
        "hours that divide a day, another rhythm",
        "Give the drops twice daily.",
        "Give the drops every 6 hours.",
        "contradicted",
    ),
    ("a duration with a half", "The hike takes two and a half hours.", "The hike takes 150 minutes.", "grounded"),
    (
        "a duration with a half, another length",
        "The hike takes an hour and a half.",
        "The hike takes 150 minutes.",
        "contradicted",
    ),
    ("a duration in other units", "The lease runs three years.", "The lease runs 36 months.", "grounded"),
    ("a mass across systems", "The crate weighs 450 kg.", "The crate weighs 1,000 lb.", "grounded"),
    ("a mass across systems, another figure", "The crate weighs 300 kg.", "The crate weighs 1,000 lb.", "contradicted"),
    ("a volume across systems", "The drum holds 76 litres.", "The drum holds 20 gallons.", "grounded"),
    ("a dose in other units", "Each capsule holds 0.5 g.", "Each capsule holds 500 mg.", "grounded"),
    (
        "a verb that doubles, against two levels",
        "Ridership doubled after the new line opened.",
        "Ridership went from 1.5 million to 3 million trips after the new line opened.",
        "grounded",
    ),
    (
        "a verb that doubles, against levels that triple",
        "Ridership doubled after the new line opened.",
        "Ridership went from 1 million to 3 million trips after the new line opened.",
        "contradicted",
    ),
    (
        "a verb that halves, against two levels",
        "The clinic halved its waiting list.",
        "The clinic cut its waiting list from 800 patients to 400 patients.",
        "grounded",
    ),
    (
        "a verb that halves, against a rise",
        "The clinic halved its waiting list.",
        "The clinic grew its waiting list from 400 patients to 800 patients.",
        "contradicted",
    ),
    (
        "a verb that triples, with the level it reached",
        "Enrolment tripled to 900 pupils.",
        "Enrolment rose from 300 pupils in 2015 to 900 pupils in 2020.",
        "grounded",
    ),
    (
        "a verb that doubles, against a level only",
        "Enrolment doubled.",
        "Enrolment reached 900 pupils in 2020.",
        "unverified",
    ),
    (
        "a share of a stated whole as a count",
        "A third of the 60 members resigned.",
        "20 of the 60 members resigned.",
        "grounded",
    ),
    (
        "a count of a stated whole as a share",
        "15 of the 60 members resigned.",
        "A quarter of the 60 members resigned.",
        "grounded",
    ),
    ("one in a count as a percent", "One in five drivers speeds.", "20% of drivers speed.", "grounded"),
    ("one in a count, another percent", "One in five drivers speeds.", "35% of drivers speed.", "unverified"),
    (
        "a share of an amount of money",
        "The grant is a third of a million euros.",
        "The grant is \u20ac333,000.",
        "grounded",
    ),
    (
        "a share of an amount of money, another amount",
        "The grant is a quarter of a million euros.",
        "The grant is \u20ac500,000.",
        "contradicted",
    ),
    (
        "two stated ranges with other ends",
        "Yields ranged from 4 to 9 tonnes.",
        "Yields ranged from 4 to 6 tonnes.",
        "contradicted",
    ),
    (
        "two stated ranges with the same ends",
        "Yields ranged from 4 to 9 tonnes.",
        "Yields ranged from 4 to 9 tonnes.",
        "grounded",
    ),
    ("a stated range and a value inside it", "Doses of 20-40 mg were used.", "Doses of 30 mg were used.", "grounded"),
    ("a count out of a count as a percent", "Nine out of ten members voted.", "90% of members voted.", "grounded"),
    (
        "a count out of a count, another percent",
        "Nine out of ten members voted.",
        "70% of members voted.",
        "unverified",
    ),
    (
        "a count out of a count as a fraction in words",
        "Three out of four members voted.",
        "Three quarters of members voted.",
        "grounded",
    ),
    (
        "a share of a stated whole, another count",
        "A third of the 60 members resigned.",
        "25 of the 60 members resigned.",
        "unverified",
    ),
    (
        "a temperature difference across scales",
        "Average temperatures rose by 1.5 \u00b0C.",
        "Average temperatures rose by 2.7 \u00b0F.",
        "grounded",
    ),
    (
        "a temperature difference, another amount",
        "Average temperatures rose by 1.5 \u00b0C.",
        "Average temperatures rose by 5.4 \u00b0F.",
        "contradicted",
    ),
    (
        "a temperature difference in a comparison",
        "The lake is 9 \u00b0F warmer than last summer.",
        "The lake is 5 \u00b0C warmer than last summer.",
        "grounded",
    ),
    ("periods counted in words", "The licence runs for two decades.", "The licence runs for 20 years.", "grounded"),
    (
        "periods counted in words, another length",
        "The licence runs for two decades.",
        "The licence runs for 25 years.",
        "contradicted",
    ),
    ("two weeks as a fortnight", "The exhibit closes in a fortnight.", "The exhibit closes in 14 days.", "grounded"),
    ("a dozen", "A dozen volunteers cleaned the beach.", "12 volunteers cleaned the beach.", "grounded"),
    (
        "times a day for a rhythm in hours",
        "Feed the kitten four times a day.",
        "Feed the kitten every six hours.",
        "grounded",
    ),
    (
        "times a year for a rhythm in months",
        "The boiler is serviced twice a year.",
        "The boiler is serviced every six months.",
        "grounded",
    ),
    (
        "times a year, another rhythm",
        "The boiler is serviced twice a year.",
        "The boiler is serviced every four months.",
        "contradicted",
    ),
    ("a minus sign for a verb of falling", "Output changed by -4% in May.", "Output dropped 4% in May.", "grounded"),
    ("a minus sign against a plain level", "Output changed by -4% in May.", "Output was 4% in May.", "unverified"),
    ("thousands grouped by a space", "The stadium seats 48 000 fans.", "The stadium seats 48,000 fans.", "grounded"),
    (
        "thousands grouped by a space, another figure",
        "The stadium seats 46 000 fans.",
        "The stadium seats 48,000 fans.",
        "contradicted",
    ),
    ("a hyphenated scale word", "The bond raised $3.5-billion.", "The bond raised $3.5 billion.", "grounded"),
    (
        "an ordinal before a period is no share",
        "Profit fell in the third quarter of 2021.",
        "Profit fell in the third quarter of 2021.",
        "grounded",
    ),
]


@pytest.mark.parametrize("kind, answer, source, verdict", PARAPHRASES, ids=[r[0] for r in PARAPHRASES])
def test_paraphrases_of_quantities(nlp, kind, answer, source, verdict):
    claims = sourced_nlp.check(answer, [source], nlp=nlp).to_dict()["claims"]
    assert [c["verdict"] for c in claims] == [verdict], claims[0]["reason"]


# (form, answer, source, verdict): labelled bullets with a change over a period
BULLETS = [
    (
        "a wrong change in a labelled bullet",
        "- **Bookings:** $3.1B (+15% YoY)",
        "Bookings were $3.1 billion, up 6% year over year.",
        "contradicted",
    ),
    (
        "a right change in a labelled bullet",
        "- **Bookings:** $3.1B (+6% YoY)",
        "Bookings were $3.1 billion, up 6% year over year.",
        "grounded",
    ),
    ("another period of comparison", "Bookings rose 6% y/y.", "Bookings rose 6% quarter over quarter.", "unverified"),
    (
        "the abbreviation at the end of the text",
        "Bookings rose 6% QoQ",
        "Bookings rose 6% quarter-on-quarter.",
        "grounded",
    ),
]


@pytest.mark.parametrize("form, answer, source, verdict", BULLETS, ids=[r[0] for r in BULLETS])
def test_labelled_bullets(nlp, form, answer, source, verdict):
    claims = sourced_nlp.check(answer, [source], nlp=nlp).to_dict()["claims"]
    assert [c["verdict"] for c in claims] == [verdict], claims[0]["reason"]


def test_emphasis_marks_are_not_missing_words(nlp):
    """ "**Label:**" leaves no "*" or ":*" among the words the evidence lacks."""
    claim = sourced_nlp.check("- **Bookings:** rose 6% in spring", ["Bookings rose 6% in spring."], nlp=nlp).to_dict()[
        "claims"
    ][0]
    assert claim["verdict"] == "grounded"
    assert not [w["word"] for w in claim.get("alignment") or () if w["how"] == "unaligned"]


def test_a_step_that_states_the_claims_measure_stands_against_another_step(nlp):
    """A passage that states the claim's measure of the claim's own verb keeps another step's
    measure from contradicting it, however few of the claim's other words it holds."""
    source = (
        "Spread the paste on the tiles and let it set for half an hour. 2  Finally, wipe the grout and polish the tiles "
        "as usual. 3  Brush a mixture of two cups of sealer and water on the tiles. 4  Let it set for 10 to 15 minutes."
    )
    claim = sourced_nlp.check(
        "Let it set for half an hour before wiping the grout and polishing the tiles as usual.", [source], nlp=nlp
    ).to_dict()["claims"][0]
    assert claim["verdict"] != "contradicted", claim["reason"]


def test_a_count_in_words_is_no_conversion(nlp):
    """ "two days" for "2 days" is one unit: the reason names no conversion."""
    claim = sourced_nlp.check("Delivery takes two days.", ["Delivery takes 2 days."], nlp=nlp).to_dict()["claims"][0]
    assert (claim["verdict"], claim["reason"]) == ("grounded", "stated in the source")
