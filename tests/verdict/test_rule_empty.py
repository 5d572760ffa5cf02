"""``verdict/rules/empty.py``: nothing to check; the verdicts without sources or features."""

from tables import rec, table_test

from sourced_nlp.verdict.rules.empty import no_features, no_sources

ROWS = [
    ("only stop words", rec("It is.", []), [rec("It is so.", ["so"])], "unverified.nothing_to_check", "unverified"),
    ("a word to check", rec("It is so.", ["so"]), [rec("It is so.", ["so"])], "grounded.passage", "grounded"),
]


test_rows = table_test(ROWS)


def test_no_sources_and_no_features():
    assert no_sources() == {
        "verdict": "unverified",
        "reason": "no sources",
        "support": 0.0,
        "evidence": [],
        "differs": [],
        "rule": "unverified.no_sources",
    }
    assert no_features()["rule"] == "unverified.no_features"
