"""Sources longer than one parse: cut into parts (``sourced_nlp.components.parts``), checked whole.

Where a part ends is a pure rule, tested on hand-written texts. The parts' passages go through
the real pipeline: a pipeline whose ``nlp.max_length`` is 2,000 characters parses a 20,000
character source in parts of at most 2,000, so the same code path as for a source over spaCy's
1,000,000 is exercised on a small one; one test checks a real source over 1,000,000 characters.
Evidence offsets must slice the source as given, wherever the part boundaries fall.
"""

from __future__ import annotations

import pytest

import sourced_nlp
from sourced_nlp.components.parts import MAX_SOURCE_CHARS, PART_CHARS, shift_passage, split_parts
from sourced_nlp.text.sources import normalize_sources

# ------------------------------------------------------------ where a part ends

CUTS = [
    # text, size, the parts
    ("Short text.", 20, ["Short text."]),
    ("Exactly ten", 11, ["Exactly ten"]),
    ("One two three.\n\nFour five. Six seven.", 24, ["One two three.\n\n", "Four five. Six seven."]),
    # a blank line in the window's second half wins over a later sentence end
    ("Aaaa bbbb cc.\n\nDd. Ee ff gg hh ii jj kk.", 26, ["Aaaa bbbb cc.\n\n", "Dd. Ee ff gg hh ii jj kk."]),
    # no blank line: a line that ends a sentence, before a line that only wraps one
    (
        "Alpha beta gamma delta.\nEpsilon zeta\neta theta iota kappa.",
        40,
        ["Alpha beta gamma delta.\n", "Epsilon zeta\neta theta iota kappa."],
    ),
    # any line break before a sentence end inside a line
    ("Alpha beta. Gamma delta\nepsilon zeta eta theta.", 28, ["Alpha beta. Gamma delta\n", "epsilon zeta eta theta."]),
    # a sentence end inside a line before a space between two words
    ("Alpha beta gamma. Delta epsilon zeta eta.", 26, ["Alpha beta gamma. ", "Delta epsilon zeta eta."]),
    # between two words, never inside one
    ("alpha beta gamma delta epsilon", 12, ["alpha beta ", "gamma delta ", "epsilon"]),
    # a run of letters longer than half a part: cut inside it, nothing lost
    ("x" * 25, 10, ["x" * 10, "x" * 10, "x" * 5]),
    # a paragraph break written with \r\n
    ("Alpha beta.\r\n\r\nGamma delta epsilon.", 22, ["Alpha beta.\r\n\r\n", "Gamma delta epsilon."]),
]


@pytest.mark.parametrize("text,size,parts", CUTS)
def test_split_parts_cuts_at_the_best_break(text, size, parts):
    got = split_parts(text, size)
    assert [p for _, p in got] == parts
    assert "".join(p for _, p in got) == text
    assert all(text[start : start + len(p)] == p and len(p) <= size for start, p in got)


def test_a_text_no_longer_than_a_part_is_one_part():
    text = "Contoso revenue rose 8% to $2.4 billion in 2023.\n\nNet income was $310 million."
    assert split_parts(text) == [(0, text)]
    assert split_parts(text, len(text)) == [(0, text)]
    assert PART_CHARS == 100_000


def test_split_parts_refuses_a_part_too_small():
    with pytest.raises(ValueError, match="too small"):
        split_parts("abc", 1)


def test_shift_passage_moves_every_offset_into_the_whole_text():
    rec = {
        "i": 0,
        "start": 5,
        "end": 30,
        "text": "x",
        "denied": [[2, 6]],
        "quantities": [{"low": 8.0}],
        "entities": [
            {"key": "monday", "start": 5, "end": 11, "also_at": [20], "inherited": False},
            {"key": "acme", "inherited": True},
        ],
    }
    out = shift_passage(rec, 1000, 7)
    assert (out["i"], out["start"], out["end"]) == (7, 1005, 1030)
    assert out["entities"][0] == {"key": "monday", "start": 1005, "end": 1011, "also_at": [1020], "inherited": False}
    assert out["entities"][1] == {"key": "acme", "inherited": True}
    assert out["denied"] == [[2, 6]] and out["quantities"] == [{"low": 8.0}]
    assert rec["start"] == 5 and rec["entities"][0]["start"] == 5 and rec["entities"][0]["also_at"] == [20]


# ------------------------------------------------------------ the real pipeline, small parts

PROSE = [
    "The river town grew slowly along the old trade road. Farmers brought grain to the market "
    "every week, and the mill on the east bank ground it into flour for the bakeries.",
    "In the spring the water rose over the low fields. The council built a stone wall along the "
    "bank, and the families who lived near the bridge moved their animals to higher ground.",
    "The school opened a library in the hall behind the church. Children borrowed books on "
    "Saturdays, and the teachers read stories aloud to the younger classes after lunch.",
    "Travellers stayed at the inn near the square. The owner kept a garden behind the kitchen "
    "and served soup made from the vegetables she grew there through the summer.",
]
NEEDLE = "Fabrikam opened 42 stores in Norway in 2019."
LAST = "The Tailspin bridge cost $80 million to build."


def filler(chars: int) -> str:
    """Real prose paragraphs, repeated to at least ``chars`` characters."""
    out: list[str] = []
    while sum(len(p) + 2 for p in out) < chars:
        out.append(PROSE[len(out) % len(PROSE)])
    return "\n\n".join(out)


@pytest.fixture(scope="module")
def small():
    """A pipeline that reads at most 2,000 characters at once: longer sources go in parts. It
    parses every source whole (``lazy_parse_chars`` off), so the parts are what is tested."""
    nlp = sourced_nlp.load_pipeline()  # the shared, cached pipeline: its bounds are put back after
    verify = nlp.get_pipe("sourced_verify")
    before, lazy = nlp.max_length, verify.lazy_parse_chars
    nlp.max_length, verify.lazy_parse_chars = 2_000, None
    yield nlp
    nlp.max_length, verify.lazy_parse_chars = before, lazy


def boundary_source() -> tuple[str, list[tuple[int, str]]]:
    """A 20,000-character source with a distinctive sentence on each side of its first cut
    between parts, the needle in the middle and a figure in the last part."""
    head = (
        filler(1_700) + "\n\nNorthwind hired 310 engineers in Lisbon in 2021.\n\n"
        "Woodgrove Bank moved its offices to Oslo in 2018. " + PROSE[1] + " " + PROSE[2]
    )
    text = head + "\n\n" + filler(8_000) + "\n\n" + NEEDLE + "\n\n" + filler(8_000) + "\n\n" + LAST + "\n\n" + PROSE[0]
    return text, split_parts(text, 2_000)


def test_the_boundary_source_is_cut_between_the_two_sentences():
    text, parts = boundary_source()
    assert len(text) > 18_000 and len(parts) >= 10
    assert parts[0][1].endswith("Northwind hired 310 engineers in Lisbon in 2021.\n\n")
    assert parts[1][1].startswith("Woodgrove Bank moved its offices to Oslo in 2018. ")
    assert LAST in parts[-1][1]


def test_a_source_in_parts_is_checked_with_offsets_into_the_whole_text(small):
    text, parts = boundary_source()
    answer = (
        f"Northwind hired 310 engineers in Lisbon in 2021. Woodgrove Bank moved its offices to Oslo in 2018. "
        f"{NEEDLE} The Tailspin bridge cost $95 million to build."
    )
    report = sourced_nlp.check(answer, [{"id": "big", "text": text}], nlp=small)
    assert [c.verdict for c in report.claims] == ["grounded", "grounded", "grounded", "contradicted"]
    expected = [
        "Northwind hired 310 engineers in Lisbon in 2021.",
        "Woodgrove Bank moved its offices to Oslo in 2018.",
        NEEDLE,
        LAST,
    ]
    for claim, sentence in zip(report.claims, expected):
        ev = claim.evidence[0]
        assert ev.source == "big" and text[ev.start : ev.end] == ev.text == sentence
    assert report.claims[1].evidence[0].start == parts[1][0]  # the first sentence of the second part
    assert report.claims[3].evidence[0].start > parts[-1][0]  # in the last part


def test_a_source_in_parts_gives_the_report_of_the_whole_source(nlp, small):
    """Paragraphs that do not refer to each other: the parts' passages are those of the whole."""
    text, _ = boundary_source()
    text = text.replace("Fabrikam", "Litware")  # a text of its own: no cached passages shared
    answer = "Litware opened 42 stores in Norway in 2019. The Tailspin bridge cost $95 million to build. The mill ground grain."
    whole = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    in_parts = sourced_nlp.check(answer, [text], nlp=small).to_dict()
    assert in_parts == whole
    verify_whole, verify_parts = nlp.get_pipe("sourced_verify"), small.get_pipe("sourced_verify")
    assert verify_parts.source_passages(text) == verify_whole.source_passages(text)


def test_a_source_in_parts_is_parsed_once(small):
    text, _ = boundary_source()
    text = text.replace("Fabrikam", "Proseware")
    verify = small.get_pipe("sourced_verify")
    first = sourced_nlp.check("Proseware opened 42 stores in Norway in 2019.", [text], nlp=small)
    passages = verify.source_passages(text)
    assert verify.source_passages(text) is passages  # the cached list, not a new parse
    again = sourced_nlp.check("Proseware opened 42 stores in Norway in 2019.", [text], nlp=small)
    assert again.to_dict() == first.to_dict() and first.claims[0].verdict == "grounded"


def test_a_structured_source_in_parts_keeps_its_lines(small):
    record = {
        "name": "Blue Door Cafe",
        "city": "Tucson",
        "reviews": [{"text": p, "stars": 4} for p in PROSE * 6]
        + [{"text": "The patio has heaters for winter evenings.", "stars": 5}],
    }
    report = sourced_nlp.check(
        "Blue Door Cafe is in Tucson. The patio has heaters for winter evenings.", [record], nlp=small
    )
    linear = normalize_sources([record])[0]["text"]
    assert len(split_parts(linear, 2_000)) > 1
    assert [c.verdict for c in report.claims] == ["grounded", "grounded"]
    for claim in report.claims:
        ev = claim.evidence[0]
        assert linear[ev.start : ev.end] == ev.text


def test_a_source_longer_than_a_source_may_have_is_refused(nlp):
    huge = "Contoso rose. " * (MAX_SOURCE_CHARS // 14 + 1)
    with pytest.raises(sourced_nlp.TextTooLongError) as info:
        sourced_nlp.check("Contoso rose.", ["Contoso rose.", huge], nlp=nlp)
    assert str(info.value) == f"source '1': {len(huge):,} characters, more than the 10,000,000 a source may have"
    assert info.value.index == 1 and info.value.limit == MAX_SOURCE_CHARS


# ------------------------------------------------------------ a real source over 1,000,000 characters


@pytest.mark.slow
def test_a_source_over_a_million_characters_is_checked(nlp):
    hidden = "The Adatum observatory recorded 1,284 meteors over Tromso in March 2022."
    body = filler(1_000_500)
    cut = body.rfind("\n\n", 0, len(body) - 3_000)
    text = body[:cut] + "\n\n" + hidden + body[cut:]
    assert len(text) > 1_000_000 >= nlp.max_length
    answer = "The Adatum observatory recorded 1,284 meteors over Tromso in March 2022. The Adatum observatory recorded 1,500 meteors over Tromso in March 2022."
    report = sourced_nlp.check(answer, [{"id": "big", "text": text}], nlp=nlp)
    assert [c.verdict for c in report.claims] == ["grounded", "contradicted"]
    for claim in report.claims:
        ev = claim.evidence[0]
        assert ev.source == "big" and text[ev.start : ev.end] == ev.text == hidden
        assert ev.start == cut + 2
