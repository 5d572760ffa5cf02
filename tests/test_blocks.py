"""A large source read cheaply first (``sourced_nlp.blocks``), parsed where the claims need it.

The cheap index and the block selection are pure rules, tested on hand-written texts and claim
records. The lazy parse goes through the real pipeline: a prose source longer than
``lazy_parse_chars`` must give the verdicts, evidence offsets and contradictions a whole parse
gives, parse only some of its blocks, and parse each block once.
"""

from __future__ import annotations

import pytest

import sourced_nlp
from sourced_nlp.blocks import BLOCK_CHARS, BlockIndex, terms

# ------------------------------------------------------------ the index terms

TERMS = [
    ("Revenue rose to $1,234.5 million in 2023.", ["revenu", "rose", "1234.5", "millio", "2023"]),
    ("The company reported; reporting continues.", ["compan", "report", "report", "contin"]),
    ("It was not of the essence.", ["essenc"]),  # stop words left out, "not" among them
    ("Zürich's café", ["zürich", "s", "café"]),  # letters of any script
    ("3,000 or 3000", ["3000", "3000"]),  # thousands separators dropped
    ("", []),
]


@pytest.mark.parametrize("text,expected", TERMS)
def test_terms(text, expected):
    assert terms(text) == expected


# ------------------------------------------------------------ which blocks a claim needs

LINES = [f"In {2000 + i} the company had {1_000 + 37 * i:,} stores and {200 + i} warehouses across the region." for i in range(40)]
FILLER = ("The river runs past the old mill and the market square, where farmers sell apples, "
          "cheese and bread every Saturday morning in the summer months. ")


def claim(text: str, **extra) -> dict:
    return {"text": text, "lemmas": [], "entities": [], "quantities": [], **extra}


def lines_source() -> str:
    return "\n\n".join(FILLER * 3 + line for line in LINES)


def block_of(index: BlockIndex, needle: str) -> int:
    return next(bid for bid, (_, text) in enumerate(index.blocks) if needle in text)


def test_blocks_cover_the_source_and_respect_their_size():
    text = lines_source()
    index = BlockIndex(text)
    assert "".join(b for _, b in index.blocks) == text
    assert all(text[start:start + len(b)] == b and len(b) <= BLOCK_CHARS for start, b in index.blocks)
    assert len(index.blocks) >= 40


@pytest.mark.parametrize("i", [0, 17, 39])
def test_a_claim_copied_from_one_of_many_similar_lines_finds_that_line(i):
    text = lines_source()
    index = BlockIndex(text)
    wanted = block_of(index, LINES[i])
    chosen = index.select([claim(LINES[i])], per_claim=1)
    assert wanted in chosen
    # the best block, not one of the 39 lines that share every word but the values
    score = index.scores(terms(LINES[i]))
    assert index.rank(score, terms(LINES[i]), 1) == [wanted]


def test_the_best_blocks_neighbours_are_chosen_for_a_claim_spread_over_sentences():
    index = BlockIndex(lines_source())
    wanted = block_of(index, LINES[20])
    chosen = index.select([claim(LINES[20])], per_claim=1)
    assert {wanted - 1, wanted, wanted + 1} <= set(chosen)


def test_a_block_holding_a_claims_number_is_chosen_whatever_its_words():
    text = lines_source() + "\n\nA single unrelated note mentions 98,765 visitors."
    index = BlockIndex(text)
    holder = block_of(index, "98,765")
    # a claim whose words point at the store lines, and whose figure only the last block holds
    chosen = index.select([claim("In 2010 the company had 98,765 stores and 210 warehouses across the region.")], per_claim=1)
    assert holder in chosen


def test_a_block_naming_a_claims_entity_is_chosen():
    text = lines_source() + "\n\nMargarethe Lindqvist visited once."
    index = BlockIndex(text)
    holder = block_of(index, "Lindqvist")
    anchor = {"key": "margarethe lindqvist", "aliases": ["lindqvist"], "label": "PERSON", "role": "subj", "text": "Margarethe Lindqvist"}
    chosen = index.select([claim("The company had 1,000 stores, said Lindqvist.", entities=[anchor])], per_claim=1)
    assert holder in chosen


def test_a_claim_sharing_nothing_with_the_source_needs_no_block():
    index = BlockIndex(lines_source())
    assert index.select([claim("Zebras gallop.")]) == []


# ------------------------------------------------------------ the lazy parse, through the real pipeline

PROSE = [
    "The committee met on Tuesday to review the budget for the coming year and the plans for new schools.",
    "Residents raised concerns about traffic near the harbour, where the new ferry terminal is being built.",
    "The library extended its opening hours during the exam season, and more students used the reading rooms.",
    "A local bakery won a regional prize for its rye bread, baked in a wood-fired oven since the 1950s.",
]
NEEDLE = "Fabrikam opened 42 stores in Norway in 2019."
LAST = "The Tailspin bridge cost $80 million to build."


def long_source(chars: int = 40_000) -> str:
    paras: list[str] = []
    while sum(len(p) + 2 for p in paras) < chars // 2:
        paras.append(PROSE[len(paras) % len(PROSE)] + f" It was item {len(paras)} of the agenda.")
    return "\n\n".join([*paras, NEEDLE, *paras, LAST])


@pytest.fixture()
def verify(nlp):
    """The shared pipeline's verifier; its ``lazy_parse_chars`` is put back after each test."""
    v = nlp.get_pipe("sourced_verify")
    before = v.lazy_parse_chars
    yield v
    v.lazy_parse_chars = before


ANSWER = f"{NEEDLE} The Tailspin bridge cost $95 million to build. The committee met on Tuesday to review the budget."


def test_a_long_source_is_parsed_only_where_its_claims_need(nlp, verify):
    text = long_source().replace("Fabrikam", "Northwind")
    assert len(text) > verify.lazy_parse_chars == 20_000
    report = sourced_nlp.check(ANSWER.replace("Fabrikam", "Northwind"), [{"id": "big", "text": text}], nlp=nlp)
    assert [c.verdict for c in report.claims] == ["grounded", "contradicted", "grounded"]
    for c in report.claims:
        ev = c.evidence[0]
        assert ev.source == "big" and text[ev.start:ev.end] == ev.text
    assert report.claims[0].evidence[0].text == NEEDLE.replace("Fabrikam", "Northwind")
    assert report.claims[1].evidence[0].text == LAST
    blocks = BlockIndex(text)
    parsed, ids = verify.needed_passages(text, [{"text": c.text, "lemmas": [], "entities": [], "quantities": []} for c in report.claims])
    assert 0 < len(ids) < len(blocks.blocks) // 2  # most blocks never parsed
    assert all(text[p["start"]:p["end"]] == p["text"] for p in parsed)


def test_the_lazy_parse_gives_the_verdicts_of_the_whole_parse(nlp, verify):
    text = long_source().replace("Fabrikam", "Litware")
    answer = ANSWER.replace("Fabrikam", "Litware")
    lazy = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    verify.lazy_parse_chars = None
    whole = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    assert [(c["verdict"], c["evidence"]) for c in lazy["claims"]] == [(c["verdict"], c["evidence"]) for c in whole["claims"]]


def test_a_block_is_parsed_once(nlp, verify, monkeypatch):
    text = long_source().replace("Fabrikam", "Proseware")
    answer = ANSWER.replace("Fabrikam", "Proseware")
    first = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    parsed: list[str] = []
    real = verify._parse_passages
    monkeypatch.setattr(verify, "_parse_passages", lambda t: parsed.append(t) or real(t))
    again = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    other = sourced_nlp.check("Proseware opened 42 stores in Norway in 2019.", [text], nlp=nlp).to_dict()
    assert again == first and parsed == []  # the re-check parses no block of the source again
    assert other["claims"][0]["verdict"] == "grounded" and parsed == []  # its blocks were parsed for the first answer


def test_a_short_source_is_parsed_whole(nlp, verify, monkeypatch):
    text = "\n\n".join(PROSE) + "\n\n" + NEEDLE
    assert len(text) <= verify.lazy_parse_chars
    called = []
    monkeypatch.setattr(verify, "needed_passages", lambda *a: called.append(a))
    report = sourced_nlp.check(NEEDLE, [text], nlp=nlp)
    assert report.claims[0].verdict == "grounded" and called == []


@pytest.mark.parametrize("value", [0, -5, 2.5, "many", True])
def test_lazy_parse_chars_must_be_a_count_or_null(value):
    with pytest.raises(ValueError, match="lazy_parse_chars"):
        sourced_nlp.load_pipeline(config={"lazy_parse_chars": value})


def test_lazy_parse_chars_null_parses_every_source_whole():
    nlp = sourced_nlp.load_pipeline(config={"lazy_parse_chars": None})
    assert nlp.get_pipe("sourced_verify").lazy_parse_chars is None
