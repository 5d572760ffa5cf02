"""Admission by measured precision: a ``contradicted`` of a rule, or of a finding of the guard,
that the precision table demotes is given as ``unverified.possible``, what it found kept.

The real pipeline; the tables are built here so that each row holds whatever the shipped
table's figures are. Each row is first checked with a table that demotes nothing, so a row whose
claim is not contradicted at all cannot pass by accident.
"""

from __future__ import annotations

import re

import pytest

import sourced_nlp
from sourced_nlp.verdict.precision import PrecisionTable, default_precision, load_precision, possible

NONE_DEMOTED = {"rules": {}, "admission": {"rules": {"demote": []}, "guard": {"demote": []}}}

ROWS = [
    # answer, source, the rule that contradicts it, found by the guard
    ("The plant employs 450 workers.", "The plant employs 380 workers, the company said.", "contradicted.value", False),
    (
        "The bridge was not repaired in the spring.",
        "The bridge was repaired in the spring.",
        "contradicted.polarity",
        False,
    ),
    ("The index fell sharply on Monday.", "The index rose sharply on Monday.", "contradicted.antonym", False),
]


def _use(nlp, table: PrecisionTable) -> None:
    nlp.get_pipe("sourced_verify").precision = table


@pytest.fixture()
def pipeline(nlp):
    yield nlp
    _use(nlp, default_precision())


@pytest.mark.parametrize("answer,source,rule,by_guard", ROWS)
def test_a_demoted_rule_gives_possible(pipeline, answer, source, rule, by_guard):
    _use(pipeline, load_precision(NONE_DEMOTED))
    before = sourced_nlp.check(answer, [source], nlp=pipeline).claims[0]
    assert (before.verdict, before.rule) == ("contradicted", rule)

    key = "guard" if by_guard else "rules"
    demoting = {
        "rules": {
            rule: {"verdict": "contradicted", "fired": 40, "right": 10, "precision": 0.25, "low": 0.14, "high": 0.4}
        },
        "admission": {"rules": {"demote": []}, "guard": {"demote": []}, key: {"demote": [rule]}},
    }
    _use(pipeline, load_precision(demoting))
    after = sourced_nlp.check(answer, [source], nlp=pipeline).claims[0]
    assert (after.verdict, after.rule) == ("unverified", "unverified.possible")
    assert after.reason == possible(before.reason, rule, 0.25)
    assert [e.text for e in after.evidence] == [e.text for e in before.evidence]
    assert after.differs == before.differs


@pytest.mark.parametrize(
    "table,rule,guard,expected",
    [
        ({}, "contradicted.value", False, True),  # no admission: none demoted
        ({"admission": {"rules": {"demote": ["contradicted.value"]}}}, "contradicted.value", False, False),
        (
            {"admission": {"rules": {"demote": ["contradicted.value"]}}},
            "contradicted.value",
            True,
            True,
        ),  # the guard's is its own
        ({"admission": {"guard": {"demote": ["contradicted.roles"]}}}, "contradicted.roles", True, False),
    ],
)
def test_contradicts(table, rule, guard, expected):
    assert load_precision(table).contradicts(rule, guard=guard) is expected


def test_shipped_table_says_where_it_came_from():
    data = default_precision().data
    assert data["commit"] and data["sets"] and "admission" in data
    for name, row in data["rules"].items():
        assert 0 <= row["low"] <= row["precision"] <= row["high"] <= 1, name
    # every demoted rule is demoted by the criterion the table states
    for name in data["admission"]["rules"]["demote"]:
        row = data["rules"][name]
        assert row["low"] < 0.5 and not (row["fired"] < 10 and row["right"] == row["fired"]), name


def test_band_of_support():
    table = load_precision(
        {
            "bands": [0.0, 0.9],
            "rules": {
                "grounded.passage": {
                    "fired": 10,
                    "precision": 0.8,
                    "bands": {"0": {"fired": 4, "precision": 0.5}, "0.9": {"fired": 6, "precision": 1.0}},
                }
            },
        }
    )
    assert table.of("grounded.passage", 0.95) == 1.0
    assert table.of("grounded.passage", 0.5) == 0.5
    assert table.of("grounded.passage") == 0.8
    assert table.of("grounded.spread") is None


@pytest.mark.parametrize(
    "content,message",
    [
        ("{bad", "precision table"),
        ("[1]", "JSON object"),
        ("{}", "no 'rules'"),
        ('{"rules": []}', "'rules' must map"),
        ('{"rules": {"grounded.passage": "0.9"}}', "must be an object"),
        ('{"rules": {"grounded.passage": {"fired": 3}}}', "precision in [0, 1]"),
        ('{"rules": {"grounded.passage": {"fired": 3, "precision": 1.7}}}', "precision in [0, 1]"),
        ('{"rules": {}, "bands": ["x"]}', "'bands' must be"),
    ],
)
def test_a_file_that_is_no_precision_table_is_refused(tmp_path, content, message):
    path = tmp_path / "mine.json"
    path.write_text(content, encoding="utf8")
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        load_precision(str(path))
    assert str(path) in str(err.value)


def test_a_missing_table_is_named_a_precision_table():
    with pytest.raises(FileNotFoundError, match="no precision table"):
        load_precision("/nonexistent/precision.json")


def test_a_support_on_a_band_edge_reads_that_band():
    """A JSON reader gives 0.95 as 0.9500000000000001: a support of exactly 0.95 is still in the
    band that starts at 0.95."""
    table = load_precision(
        {
            "bands": [0.0, 0.9500000000000001],
            "rules": {
                "grounded.passage": {
                    "fired": 10,
                    "precision": 0.8,
                    "bands": {"0": {"fired": 4, "precision": 0.5}, "0.95": {"fired": 6, "precision": 1.0}},
                }
            },
        }
    )
    assert table.of("grounded.passage", 0.95) == 1.0
    assert table.of("grounded.passage", 0.9499) == 0.5


def test_a_strict_level_read_back_through_json_is_the_level_given():
    from sourced_nlp.verdict.precision import check_strict

    assert check_strict(0.9500000000000001) == 0.95
