"""The trap cases of ``../shared/cases/traps.jsonl``: meaning carried by one word.

Two tests a case. ``test_trap_never_falsely_grounded`` (no xfail allowed): no sentence that a
careful reader calls contradicted or unverified comes back ``grounded``. ``test_trap_exact``:
every sentence gets the verdict the case expects; the cases that do not yet are listed in
:data:`XFAIL` with what they need (strict: a case that starts passing turns the suite red, so the
list stays true). A sentence is matched to the claim that overlaps it most, as the acceptance
cases are (``../shared/tools/traps.py`` matches by text, and counts N3-49's table row as skipped).
"""

from __future__ import annotations

import json

import pytest

import sourced_nlp
from conftest import SHARED
from test_acceptance import outcomes

CASES_FILE = SHARED / "cases" / "traps.jsonl"
if not CASES_FILE.exists():
    pytest.skip(f"no trap cases at {CASES_FILE} (../shared beside the repository)", allow_module_level=True)
CASES = [
    c
    for c in (json.loads(line) for line in CASES_FILE.read_text(encoding="utf8").splitlines() if line.strip())
    if "answer" in c
]

XFAIL: dict[str, str] = {
    "N3-11": "killed/injured: no antonyms in WordNet; unverified (another verb in the slot), not contradicted: "
    "reading 'No deaths were reported' against 'killed' needs the entailment model",
    "N3-23": "raised/held rates: another verb in the slot gives unverified; contradicted needs the set of "
    "rate actions (raise, hold, cut), which no lexicon gives",
    "N3-39": "a German claim is unverified.language (the rules read English only), not contradicted",
}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_trap_never_falsely_grounded(case, nlp):
    wrong = [(s, e) for s, e, g in outcomes(case, nlp) if g == "grounded" and e in ("contradicted", "unverified")]
    assert not wrong, f"{case['id']} ({case['kind']}): falsely grounded: {wrong}"


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c, id=c["id"], marks=[pytest.mark.xfail(strict=True, reason=XFAIL[c["id"]])] if c["id"] in XFAIL else []
        )
        for c in CASES
    ],
)
def test_trap_exact(case, nlp):
    wrong = [(s, e, g) for s, e, g in outcomes(case, nlp) if e != g]
    assert not wrong, f"{case['id']} ({case['kind']}): " + "; ".join(
        f"{s!r}: expected {e}, got {g}" for s, e, g in wrong
    )


def test_the_traps_are_read():
    assert len(CASES) >= 20
    assert sourced_nlp.check(CASES[0]["answer"], CASES[0]["sources"]).claims
