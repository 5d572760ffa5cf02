"""``sourced_verify``'s pluggable parts: the rule list, the word matcher and the lexicons, through
the config and spaCy's registry, and the lexicons written by ``to_disk``."""

from __future__ import annotations

import json

import pytest
import spacy
from spacy.util import registry

import sourced_nlp
from sourced_nlp.components.verify import make_rules
from sourced_nlp.text.lexicons import load_lexicon
from sourced_nlp.verdict import DEFAULT_RULES

ANSWER = "The Eiffel Tower is 330 metres tall and opened in 1889."
SOURCES = ["The Eiffel Tower, opened in 1889, is 330 metres tall."]
RECORD = {"name": "Finch & Fork", "city": "Philadelphia", "categories": "Mexican, Restaurants", "business_stars": 3.0}


@registry.misc("tests.no_word_matcher.v1")
def make_no_word_matcher():
    """A word matcher that holds no word: coverage is 0 wherever a claim has words."""
    return lambda lemma, p, index: False


def test_every_claim_names_its_rule_last(nlp):
    doc = nlp.make_doc(ANSWER)
    doc._.sources = SOURCES
    claims = nlp(doc)._.report["claims"]
    assert claims and all(list(c)[-1] == "rule" for c in claims)
    assert [c["rule"] for c in claims] == ["grounded.passage"]


def test_no_sources_rule(nlp):
    doc = nlp.make_doc(ANSWER)
    doc._.sources = []
    assert [c["rule"] for c in nlp(doc)._.report["claims"]] == ["unverified.no_sources"]


def test_the_word_matcher_comes_from_the_registry():
    plain = sourced_nlp.check(ANSWER, SOURCES)
    none = sourced_nlp.check(
        ANSWER, SOURCES, nlp=sourced_nlp.load_pipeline(config={"word_matcher": {"@misc": "tests.no_word_matcher.v1"}})
    )
    assert [c.verdict for c in plain.claims] == ["grounded"]
    assert [c.verdict for c in none.claims] != ["grounded"]


def test_the_rule_list_comes_from_the_registry():
    assert make_rules() == DEFAULT_RULES
    assert [r.__name__ for r in make_rules(exclude=["spread", "cited"])] == [
        r.__name__ for r in DEFAULT_RULES if r.__name__ not in ("spread", "cited")
    ]
    with pytest.raises(ValueError, match="cannot exclude"):
        make_rules(exclude=["unverified"])
    with pytest.raises(ValueError, match="cannot exclude"):
        make_rules(exclude=["no_such_rule"])
    nlp = sourced_nlp.load_pipeline(config={"rules": {"@misc": "sourced.rules.v1", "exclude": ["grounded_passage"]}})
    assert "grounded_passage" not in [r.__name__ for r in nlp.get_pipe("sourced_verify").verifier.rules]
    doc = nlp.make_doc(ANSWER)
    doc._.sources = SOURCES
    rules = [c["rule"] for c in nlp(doc)._.report["claims"]]
    assert rules and "grounded.passage" not in rules


def test_records_lexicon_from_a_path_is_written_by_to_disk(tmp_path):
    """A records lexicon whose "highly rated" starts at 2.5 stars: a 3-star record is then highly
    rated; the pipeline saved with ``to_disk`` keeps that lexicon after the file is gone."""
    bundled = load_lexicon("records")
    mine = tmp_path / "my_records.json"
    mine.write_text(json.dumps({**bundled, "highly_rated_stars": 2.5}))
    answer = "Finch & Fork is a highly rated Mexican restaurant."
    default = sourced_nlp.check(answer, [RECORD])
    assert [c.verdict for c in default.claims] == ["contradicted"]
    nlp = sourced_nlp.load_pipeline(config={"records": str(mine)})
    assert [c.verdict for c in sourced_nlp.check(answer, [RECORD], nlp=nlp).claims] != ["contradicted"]
    nlp.to_disk(tmp_path / "pipeline")
    assert (
        json.loads((tmp_path / "pipeline" / "sourced_verify" / "records.json").read_text())["highly_rated_stars"] == 2.5
    )
    mine.unlink()
    loaded = spacy.load(tmp_path / "pipeline")
    assert [c.verdict for c in sourced_nlp.check(answer, [RECORD], nlp=loaded).claims] != ["contradicted"]
