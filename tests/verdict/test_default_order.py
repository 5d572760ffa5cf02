"""Every rule of the default order has rows in the tables, and every row names a rule some module decides."""

import importlib
from pathlib import Path

from sourced_nlp.verdict import DEFAULT_RULES

HERE = Path(__file__).parent


def _rows() -> list[tuple]:
    rows = []
    for path in sorted(HERE.glob("test_rule_*.py")):
        rows.extend(importlib.import_module(path.stem).ROWS)
    return rows


def test_every_rule_has_a_row():
    named = {row[3] for row in _rows()}
    for rule in DEFAULT_RULES:
        decides = importlib.import_module(rule.__module__).DECIDES
        assert named & set(decides), f"no table row for {rule.__module__}.{rule.__name__} ({decides})"


def test_every_row_names_a_known_rule():
    known = {name for rule in DEFAULT_RULES for name in importlib.import_module(rule.__module__).DECIDES}
    known |= set(importlib.import_module("sourced_nlp.verdict.records.fields").DECIDES)
    known |= set(importlib.import_module("sourced_nlp.verdict.rules.meaning").DECIDES)  # the tier, not a default rule
    assert {row[3] for row in _rows()} <= known


def test_one_table_per_rule_module():
    modules = {rule.__module__.rsplit(".", 1)[1] for rule in DEFAULT_RULES} | {"fields"}
    assert modules <= {p.stem.removeprefix("test_rule_") for p in HERE.glob("test_rule_*.py")}
