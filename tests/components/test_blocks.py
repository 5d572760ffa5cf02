"""A large source read cheaply first (``sourced_nlp.components.blocks``), parsed where the claims need it.

The cheap index and the block selection are pure rules, tested on hand-written texts and claim
records. The lazy parse goes through the real pipeline: a prose source longer than
``lazy_parse_chars`` must give the verdicts, evidence offsets and contradictions a whole parse
gives, parse only some of its blocks, and parse each block once.
"""

from __future__ import annotations

import pytest

import sourced_nlp
from sourced_nlp.components.blocks import BLOCK_CHARS, BlockIndex, cut_blocks, terms, values

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


VALUES = [
    # one value however it is written: scale words, separators, trailing zeros
    ("$3.2 million", ["=3200000"]),
    ("$3,200,000", ["=3200000"]),
    ("3.2m and 3.20 million", ["=3200000", "=3200000"]),
    ("$0.5 billion or $500 million", ["=500000000", "=500000000"]),
    ("1.5bn dollars, $1,500,000,000", ["=1500000000", "=1500000000"]),
    ("12k runners, 40% in 2019", ["=12000", "=40", "=2019"]),
    ("3 meters", ["=3"]),  # "m" of a word is no scale
    ("no numbers", []),
]


@pytest.mark.parametrize("text,expected", VALUES)
def test_values(text, expected):
    assert values(text) == expected


# ------------------------------------------------------------ where blocks are cut

LONG_SENTENCE = "The council " + "and the board " * 30 + "agreed on the plan."  # about 440 characters


@pytest.mark.parametrize(
    "text,size,expected",
    [
        ("One. Two. Three.", 600, ["One. Two. Three."]),
        ("Aa bb. Cc dd. Ee ff.", 10, ["Aa bb. ", "Cc dd. ", "Ee ff."]),
        ("Aa.\nBb cc dd.\n\nEe.", 16, ["Aa.\nBb cc dd.\n\n", "Ee."]),
        # a sentence is never cut when it fits three blocks: it makes a block of its own
        ("Short one. " + "word " * 30 + "end. Tail.", 60, ["Short one. ", "word " * 30 + "end. ", "Tail."]),
        # a run without a sentence end longer than three blocks is cut after spaces
        ("word " * 40, 40, ["word " * 8] * 5),
    ],
)
def test_cut_blocks(text, size, expected):
    got = cut_blocks(text, size)
    assert [b for _, b in got] == expected
    assert all(text[start : start + len(b)] == b for start, b in got)


def test_a_long_sentence_after_short_ones_is_not_cut():
    text = "\n\n".join(
        [
            "Tea is grown on the hills. It is picked by hand. It is dried in the sun. It is sold in town. "
            + LONG_SENTENCE
        ]
        * 50
    )
    index = BlockIndex(text)
    assert all(LONG_SENTENCE in b or "agreed" not in b for _, b in index.blocks)
    assert index.soft == set()


def test_blocks_cut_inside_a_sentence_are_parsed_together_when_both_are_needed():
    text = "; ".join(f"in {1900 + i} Contoso sold {100 + i} tons" for i in range(400)) + "."
    index = BlockIndex(text)
    assert len(index.soft) == len(index.blocks) - 1  # every cut falls inside the one sentence
    assert index.units([3, 4, 9]) == [(3, 4), (9, 9)]
    prose = BlockIndex(lines_source())
    assert prose.units([3, 4]) == [(3, 3), (4, 4)]  # blocks that end at a sentence end: each on its own


# ------------------------------------------------------------ which blocks a claim needs

LINES = [
    f"In {2000 + i} the company had {1_000 + 37 * i:,} stores and {200 + i} warehouses across the region."
    for i in range(40)
]
FILLER = (
    "The river runs past the old mill and the market square, where farmers sell apples, "
    "cheese and bread every Saturday morning in the summer months. "
)


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
    assert all(text[start : start + len(b)] == b and len(b) <= BLOCK_CHARS for start, b in index.blocks)
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
    chosen = index.select(
        [claim("In 2010 the company had 98,765 stores and 210 warehouses across the region.")], per_claim=1
    )
    assert holder in chosen


def test_a_block_naming_a_claims_entity_is_chosen():
    text = lines_source() + "\n\nMargarethe Lindqvist visited once."
    index = BlockIndex(text)
    holder = block_of(index, "Lindqvist")
    anchor = {
        "key": "margarethe lindqvist",
        "aliases": ["lindqvist"],
        "label": "PERSON",
        "role": "subj",
        "text": "Margarethe Lindqvist",
    }
    chosen = index.select([claim("The company had 1,000 stores, said Lindqvist.", entities=[anchor])], per_claim=1)
    assert holder in chosen


@pytest.mark.parametrize("written", ["$3,200,000", "3.2m", "$3.20 million"])
def test_a_claims_value_written_otherwise_in_the_source_finds_its_block(written):
    stores = [f"Acme Corp reported revenue of ${10 + i % 80} million." for i in range(400)]
    text = "\n\n".join([*stores[:200], f"A note. Acme Corp reported revenue of {written}.", *stores[200:]])
    index = BlockIndex(text)
    holder = block_of(index, written)
    q = {"kind": "money", "low": 3_200_000.0, "high": 3_200_000.0, "text": "$3.2 million"}
    chosen = index.select([claim("Acme Corp reported revenue of $3.2 million.", quantities=[q])], per_claim=1)
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
        assert ev.source == "big" and text[ev.start : ev.end] == ev.text
    assert report.claims[0].evidence[0].text == NEEDLE.replace("Fabrikam", "Northwind")
    assert report.claims[1].evidence[0].text == LAST
    blocks = BlockIndex(text)
    parsed, ids = verify.indexer.needed_passages(
        text, [{"text": c.text, "lemmas": [], "entities": [], "quantities": []} for c in report.claims]
    )
    assert 0 < len(ids) < len(blocks.blocks) // 2  # most blocks never parsed
    assert all(text[p["start"] : p["end"]] == p["text"] for p in parsed)


def test_the_lazy_parse_gives_the_verdicts_of_the_whole_parse(nlp, verify):
    text = long_source().replace("Fabrikam", "Litware")
    answer = ANSWER.replace("Fabrikam", "Litware")
    lazy = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    verify.lazy_parse_chars = None
    whole = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    assert [(c["verdict"], c["evidence"]) for c in lazy["claims"]] == [
        (c["verdict"], c["evidence"]) for c in whole["claims"]
    ]


def test_a_block_is_parsed_once(nlp, verify, monkeypatch):
    text = long_source().replace("Fabrikam", "Proseware")
    answer = ANSWER.replace("Fabrikam", "Proseware")
    first = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    parsed: list[str] = []
    real = verify.indexer._parse_passages
    monkeypatch.setattr(verify.indexer, "_parse_passages", lambda t: parsed.append(t) or real(t))
    again = sourced_nlp.check(answer, [text], nlp=nlp).to_dict()
    other = sourced_nlp.check("Proseware opened 42 stores in Norway in 2019.", [text], nlp=nlp).to_dict()
    assert again == first and parsed == []  # the re-check parses no block of the source again
    assert other["claims"][0]["verdict"] == "grounded" and parsed == []  # its blocks were parsed for the first answer


def test_a_value_written_otherwise_in_a_long_source_grounds_the_claim(nlp):
    stores = " ".join(f"Acme Corp reported revenue of ${10 + i % 80} million." for i in range(4))
    text = "\n\n".join(
        [stores] * 100 + ["The weather was mild. Acme Corp reported revenue of $3,200,000."] + [stores] * 100
    )
    assert len(text) > 20_000
    report = sourced_nlp.check("Acme Corp reported revenue of $3.2 million.", [text], nlp=nlp)
    assert report.claims[0].verdict == "grounded"
    assert report.claims[0].evidence[0].text == "Acme Corp reported revenue of $3,200,000."


def test_a_copied_stretch_of_a_source_without_sentence_ends_is_grounded(nlp):
    text = (
        "; ".join(
            f"in {1900 + i % 120} Contoso sold {100 + i} tons at its {('north', 'south', 'east')[i % 3]} plant"
            for i in range(700)
        )
        + "."
    )
    index = BlockIndex(text)
    start = index.blocks[5][0] - 60  # a stretch across the cut between blocks 4 and 5
    stretch = text[text.index("in ", start) : text.index(";", index.blocks[5][0] + 20)]
    report = sourced_nlp.check(stretch[0].upper() + stretch[1:] + ".", [text], nlp=nlp)
    assert [c.verdict for c in report.claims] == ["grounded"]


def test_a_claims_verdict_does_not_depend_on_the_other_claims(nlp):
    text = long_source().replace("Fabrikam", "Adatum")
    sentences = [
        NEEDLE.replace("Fabrikam", "Adatum"),
        "The Tailspin bridge cost $95 million to build.",
        "The library extended its opening hours during the exam season.",
        "A local bakery won a national prize.",
    ]
    together = sourced_nlp.check(" ".join(sentences), [text], nlp=nlp).to_dict()["claims"]
    assert len(together) == len(sentences)
    for sentence, claim in zip(sentences, together):
        alone = sourced_nlp.check(sentence, [text], nlp=nlp).to_dict()["claims"][0]
        keep = ("verdict", "reason", "support", "evidence", "differs", "rule")
        assert {k: alone[k] for k in keep} == {k: claim[k] for k in keep}, sentence


def test_a_denial_among_many_blocks_that_repeat_the_claims_words_is_found(nlp):
    """Blocks that say "parking", "committee", "plan" and "approved" more often, apart, must not
    bury the one that says the claim's words next to each other, with a "not"."""
    repeats = (
        "Parking, parking and more parking: the committee heard it all. The plan to repaint was approved. "
        "Committee minutes were filed. Approved: parking signs. Plan B was kept in reserve by the committee."
    )
    paras = [f"Day {i} of the session was quiet and the weather stayed mild." if i % 3 else repeats for i in range(300)]
    paras[151] = (
        "Residents objected to the proposal. The committee did not approve the parking plan. The vote was seven to two."
    )
    report = sourced_nlp.check("The committee approved the parking plan.", ["\n\n".join(paras)], nlp=nlp)
    assert report.claims[0].verdict == "contradicted"
    assert report.claims[0].evidence[0].text == "The committee did not approve the parking plan."


def test_a_synonym_groups_words_count_in_its_weight():
    """A claim's "little" reads as its group's word ("small"): its frequency counts the source's
    "little" and "small" alike, not as a word the source never uses."""
    index = BlockIndex("\n\n".join(["A little rain fell. Small boats stayed in port. The tide rose."] * 60))
    assert index.frequency("small") == 60.0
    assert index.frequency("small", ["little", "tiny"]) == 120.0
    assert index.frequency("enormous") == 0.0


def test_a_short_source_is_parsed_whole(nlp, verify, monkeypatch):
    text = "\n\n".join(PROSE) + "\n\n" + NEEDLE
    assert len(text) <= verify.lazy_parse_chars
    called = []
    monkeypatch.setattr(verify.indexer, "needed_passages", lambda *a: called.append(a))
    report = sourced_nlp.check(NEEDLE, [text], nlp=nlp)
    assert report.claims[0].verdict == "grounded" and called == []


@pytest.mark.parametrize("value", [0, -5, 2.5, "many", True])
def test_lazy_parse_chars_must_be_a_count_or_null(value):
    with pytest.raises(ValueError, match="lazy_parse_chars"):
        sourced_nlp.load_pipeline(config={"lazy_parse_chars": value})


def test_lazy_parse_chars_null_parses_every_source_whole():
    nlp = sourced_nlp.load_pipeline(config={"lazy_parse_chars": None})
    assert nlp.get_pipe("sourced_verify").lazy_parse_chars is None
