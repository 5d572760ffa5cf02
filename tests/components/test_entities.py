"""``sourced_entities``: canonical keys, aliases, inheritance by position, citation markers."""

from __future__ import annotations

import pytest

from sourced_nlp.components.entities import EntityKeys
from sourced_nlp.components.extensions import CLAIMS_KEY


@pytest.fixture(scope="module")
def keys():
    return EntityKeys()


def anchors(doc, i=0) -> list[dict]:
    return list(doc.spans[CLAIMS_KEY][i]._.anchors or [])


# (name as written, canonical key)
KEYS = [
    ("The U.S.'s", "us"),
    ("U.S.", "us"),
    ("Acme Corp.", "acme"),
    ("Acme Inc", "acme"),
    ("Woodgrove Bank's", "woodgrove bank"),
    ("Woodgrove Bank\u2019s", "woodgrove bank"),
    ("Dr. Jane Smith", "jane smith"),
    ("the World Health Organization", "world health organization"),
]


@pytest.mark.parametrize("text,expected", KEYS)
def test_key(keys, text, expected):
    assert keys.key(text) == expected


# (key, an alias it must have)
ALIASES = [
    ("us", "united states"),
    ("united states", "us"),
    ("world health organization", "who"),
    ("uk", "united kingdom"),
    ("international monetary fund", "imf"),  # acronym of a multi-word name
]


@pytest.mark.parametrize("key,alias", ALIASES)
def test_alias(keys, key, alias):
    assert alias in keys.aliases(key)
    assert key not in keys.aliases(key)


# (sentence, an anchor key the claim must have, an alias that anchor must carry or None)
ANCHORS = [
    ("The U.S.'s economy grew 3% in 2023.", "us", "united states"),
    ("Acme Corp. reported revenue of $4 billion in 2023.", "acme", None),
    ("Woodgrove Bank's profit rose 12% in 2022.", "woodgrove bank", None),
    ("The World Health Organization issued a warning on Monday.", "world health organization", "who"),
    ("Officials in the U.S. approved the plan in May.", "us", "united states"),
    # the small model's NER takes in the preposition after a street name; the key ends at the name
    ("Treasure Valley Family Dental is located at 1420 W Idaho St in Boise, Idaho.", "w idaho st", None),
    # a place with its state or country goes by the place alone too
    ("Two shootings occurred in Washington, DC on Thursday.", "washington dc", "washington"),
]


@pytest.mark.parametrize("text,key,alias", ANCHORS)
def test_anchor_keys_in_pipeline(nlp, text, key, alias):
    doc = nlp(text)
    found = {a["key"]: a for a in anchors(doc)}
    assert key in found, list(found)
    a = found[key]
    assert a["inherited"] is False
    assert doc.text[a["start"] : a["end"]] == a["text"]
    if alias is not None:
        assert alias in a["aliases"]


# (answer, index of the claim, key that claim inherits)
INHERITED = [
    ("Microsoft reported revenue of $10 billion. It grew 8% in 2023.", 1, "microsoft"),
    ("Microsoft reported higher revenue in 2023. Its margin rose to 42%.", 1, "microsoft"),
    ("Microsoft reported higher revenue in 2023. The company said demand was strong.", 1, "microsoft"),
    ("Woodgrove Bank cut 300 jobs in 2022. It also closed 12 branches.", 1, "woodgrove bank"),
]


@pytest.mark.parametrize("text,i,key", INHERITED)
def test_inherited_anchor(nlp, text, i, key):
    doc = nlp(text)
    assert len(doc.spans[CLAIMS_KEY]) == i + 1
    got = {a["key"]: a for a in anchors(doc, i)}
    assert key in got, list(got)
    assert got[key]["inherited"] is True
    # an inherited anchor points at its first mention
    first = got[key]
    assert doc.text[first["start"] : first["end"]] == first["text"]
    assert first["end"] <= doc.spans[CLAIMS_KEY][0].end_char


# (answer, index of the claim, key it must NOT inherit)
NOT_INHERITED = [
    ("Microsoft reported revenue of $10 billion. Google cut 200 jobs in 2023.", 1, "microsoft"),
    ("Acme opened a plant in Ohio. Woodgrove Bank lent it $5 million.", 1, "acme"),
]


@pytest.mark.parametrize("text,i,key", NOT_INHERITED)
def test_own_subject_does_not_inherit(nlp, text, i, key):
    doc = nlp(text)
    got = anchors(doc, i)
    assert key not in {a["key"] for a in got if a["inherited"]}


def test_first_claim_never_inherits(nlp):
    doc = nlp("It grew 8% in 2023. Microsoft reported revenue of $10 billion.")
    assert not any(a["inherited"] for a in anchors(doc, 0))


CITED = [
    "Revenue at Acme rose 8% in 2023 [S2].",
    "Acme cut 300 jobs [1] and closed 12 branches (Passage 2).",
    "Woodgrove Bank raised its dividend [Source 3].",
    "Acme hired 200 engineers (Passage 1) in Lisbon [2][3].",
]


@pytest.mark.parametrize("text", CITED)
def test_anchors_exclude_citation_markers(nlp, text):
    doc = nlp(text)
    span = doc.spans[CLAIMS_KEY][0]
    cits = span._.citations
    assert cits, "the markers must be found"
    for a in anchors(doc):
        for c in cits:
            assert a["end"] <= c["start"] or a["start"] >= c["end"], (a, c)
        assert "passage" not in a["key"] and "source" not in a["key"]
        assert a["key"] not in {t.lower() for c in cits for t in c["targets"]}
    assert any(a["key"] in ("acme", "woodgrove bank") for a in anchors(doc))


@pytest.mark.parametrize(
    "text,kept",
    [
        # a numbered list label and the capitalised verb after it are no names
        ("Step 1: Boil tamarind until it shows cracks, then remove the shells and strain the juice.", set()),
        ("Tip 3: Store the Basil in a glass of water.", {"basil"}),
        # a reference to the sources in the sentence is no name either
        ("According to Passage 1, honey can kill bacteria.", set()),
        ("Similar to Passages 2, Acme cut 300 jobs.", {"acme"}),
        # a label that names a thing stays a name
        ("SlimFast Diet: A low-calorie diet built on meal shakes.", {"slimfast diet"}),
    ],
)
def test_list_labels_and_source_references_are_not_anchors(nlp, text, kept):
    doc = nlp(text)
    assert {a["key"] for a in anchors(doc)} == kept
