"""The hand-written acceptance cases of ``../shared/cases/acceptance.jsonl``, one test each.

Each case lists the sentences of an answer and the verdict a careful reader gives each
(``not_a_claim`` for a segment that must be skipped). A sentence is matched to the claim or
skipped segment that overlaps it most.
"""

from __future__ import annotations

import json

import pytest

import sourced_nlp
from conftest import SHARED

CASES_FILE = SHARED / "cases" / "acceptance.jsonl"
if not CASES_FILE.exists():
    pytest.skip(f"no acceptance cases at {CASES_FILE} (../shared beside the repository)", allow_module_level=True)
CASES = [json.loads(line) for line in CASES_FILE.read_text(encoding="utf8").splitlines() if line.strip()]

# Cases that do not pass yet, each with what it needs (strict: a pass turns the suite red).
XFAIL: dict[str, str] = {}


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def outcomes(case: dict, nlp) -> list[tuple[str, str, str]]:
    """``(sentence, expected, got)`` for every expected sentence of a case."""
    report = sourced_nlp.check(case["answer"], case["sources"], nlp=nlp)
    segments = [((c.start, c.end), c.verdict) for c in report.claims]
    segments += [((s.start, s.end), "not_a_claim") for s in report.skipped]
    out = []
    cursor = 0
    for exp in case["expected"]:
        start = case["answer"].find(exp["sentence"], cursor)
        assert start >= 0, f"expected sentence not in answer: {exp['sentence']!r}"
        cursor = start + len(exp["sentence"])
        span = (start, cursor)
        best = max(segments, key=lambda s: _overlap(s[0], span), default=None)
        got = best[1] if best and _overlap(best[0], span) > 0 else "missing"
        out.append((exp["sentence"], exp["verdict"], got))
    return out


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c, id=c["id"], marks=[pytest.mark.xfail(strict=True, reason=XFAIL[c["id"]])] if c["id"] in XFAIL else []
        )
        for c in CASES
    ],
)
def test_acceptance_case(case, nlp):
    wrong = [(s, e, g) for s, e, g in outcomes(case, nlp) if e != g]
    assert not wrong, f"{case['id']} ({case['topic']}): " + "; ".join(
        f"{s!r}: expected {e}, got {g}" for s, e, g in wrong
    )


def test_case_file_has_25_cases():
    assert len(CASES) == 25
