"""``sourced_passages``: the feature record of every segment, in ``doc._.passages``."""

from __future__ import annotations

import pytest

RECORD_KEYS = {
    "i",
    "start",
    "end",
    "text",
    "kind",
    "lemmas",
    "predicates",
    "entities",
    "quantities",
    "negated",
    "cue",
    "hedged",
    "quotes",
    "norm",
}


def record(nlp, text: str) -> dict:
    doc = nlp(text)
    recs = doc._.passages
    assert len(recs) == 1, recs
    return recs[0]


# (sentence, a canonical lemma it must hold, a surface lemma it must not hold)
CANONICAL_LEMMAS = [
    ("Sales went down in the third quarter.", "fall", "go"),
    ("The reorganization was announced in March.", "restructuring", "reorganization"),
    ("The firm decided to reorganise its sales team.", "restructuring", "reorganise"),
    ("Acme acquired a rival bakery.", "buy", "acquire"),
    ("Prices increased across the region.", "rise", "increase"),
    ("The physician treated the patients.", "doctor", "physician"),
]


@pytest.mark.parametrize("text,lemma,absent", CANONICAL_LEMMAS)
def test_lemmas_canonical(nlp, text, lemma, absent):
    rec = record(nlp, text)
    assert lemma in rec["lemmas"]
    assert absent not in rec["lemmas"]


# (sentence, canonical predicates it must list)
PREDICATES = [
    ("Sales went down in the third quarter.", ["fall"]),
    ("Acme acquired a rival bakery.", ["buy"]),
    ("Prices increased sharply across the region.", ["rise"]),
    ("The company hired 40 engineers and fired 12 managers.", ["hire", "fire"]),
    ("Revenue declined in 2023.", ["fall"]),
]


@pytest.mark.parametrize("text,predicates", PREDICATES)
def test_predicates(nlp, text, predicates):
    rec = record(nlp, text)
    for p in predicates:
        assert p in rec["predicates"], rec["predicates"]


# (sentence, tokens of quantities that must not be lemmas)
QUANTITY_TOKENS = [
    ("Revenue rose 8% to $4.2 billion in 2023.", ["8", "%", "4.2", "billion", "$", "2023"]),
    ("The plant produced 400 cars a day.", ["400"]),
    ("The council spent £2.4m on the bridge.", ["2.4", "£2.4m", "2.4m"]),
]


@pytest.mark.parametrize("text,tokens", QUANTITY_TOKENS)
def test_quantity_tokens_not_lemmas(nlp, text, tokens):
    rec = record(nlp, text)
    assert rec["quantities"], "the quantity must be recorded"
    for tok in tokens:
        assert tok not in rec["lemmas"], rec["lemmas"]


def test_degree_words_and_entities_not_lemmas(nlp):
    rec = record(nlp, "Microsoft sharply increased its prices.")
    assert "sharply" not in rec["lemmas"]
    assert "microsoft" not in rec["lemmas"]
    assert "price" in rec["lemmas"]
    assert "microsoft" in {a["key"] for a in rec["entities"]}


def test_citation_markers_not_lemmas(nlp):
    rec = record(nlp, "Acme raised prices in Ohio [S2] (Passage 3).")
    for marker_word in ("s2", "passage", "3"):
        assert marker_word not in rec["lemmas"], rec["lemmas"]


# (sentence, hedged)
HEDGED = [
    ("Revenue may rise next year.", True),
    ("The CEO reportedly resigned in May.", True),
    ("The plant might close in 2025.", True),
    ("The fire was allegedly started by a worker.", True),
    ("Revenue rose last year.", False),
    ("The CEO resigned in May.", False),
]


@pytest.mark.parametrize("text,hedged", HEDGED)
def test_hedged(nlp, text, hedged):
    assert record(nlp, text)["hedged"] is hedged


def test_quotes(nlp):
    rec = record(nlp, 'The CEO called the plan "a clear success" on Monday.')
    assert rec["quotes"] == ["a clear success"]


def test_record_shape_and_offsets(nlp):
    text = "Here is the summary:\nAcme hired 40 engineers in 2022 [1]. It did not open a plant.\nWhy?"
    doc = nlp(text)
    recs = doc._.passages
    assert [r["i"] for r in recs] == list(range(len(recs)))
    assert [r["kind"] for r in recs] == ["preamble", "claim", "claim", "question"]
    for r in recs:
        assert set(r) >= RECORD_KEYS
        assert text[r["start"] : r["end"]] == r["text"]
        assert r["norm"].startswith(" ") and r["norm"].endswith(" ")
    assert recs[2]["negated"] is True
    assert recs[1]["negated"] is False
    assert " acme " in recs[1]["norm"]


@pytest.mark.parametrize(
    "text,one",
    [
        ("One reviewer waited 20 minutes for a table.", True),
        ("Another customer said everything arrived hot, though the biryani was bland.", True),
        ("One diner enjoyed the salad, and another said the soup was cold.", False),
        ("The falafel is crispy, and the hummus is smooth.", False),
        ("Reviewers praised the tacos.", False),
    ],
)
def test_one_subject(nlp, text, one):
    """One person or thing is the subject, and no clause joined to the main one has its own."""
    (rec,) = nlp(text)._.passages
    assert rec["one_subject"] is one
