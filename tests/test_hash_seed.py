"""Verdicts must not depend on ``PYTHONHASHSEED``: the same RAGTruth train rows checked in
subprocesses under several hash seeds give byte-identical JSON.

The verdict code weighs words by IDF and sums those weights while it walks sets of strings (a
claim's lemmas, the words a passage adds, the words still missing); a plain ``sum`` in that
order would change the last bit of a score with the string hash seed, and a coverage on a
threshold or a tie between candidates would flip a verdict. Every such sum is ``math.fsum``
(exactly rounded, so independent of order) and ties are broken by passage position.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, SHARED

pytestmark = pytest.mark.process

RAGTRUTH = SHARED / "data" / "ragtruth"
if not (RAGTRUTH / "response.jsonl").is_file():
    pytest.skip(f"RAGTruth data not found under {RAGTRUTH}", allow_module_level=True)

N_RESPONSES = 60  # Summary and QA train responses: a few hundred claims

SCRIPT = f"""
import json, sys
from pathlib import Path
sys.path.insert(0, {str(ROOT / "bench")!r})
from ragtruth import build_items
import sourced_nlp
items = [it for it in build_items(Path({str(RAGTRUTH)!r}), "train", quick=False, limit=None)
         if it["task"] in ("Summary", "QA")][:{N_RESPONSES}]
from sourced_nlp.verdict import support
from sourced_nlp.verdict.alignment import Aligner
from sourced_nlp.verdict.index import PassageIndex

# every number behind a verdict, unrounded (a report rounds support to 4 places, which hides a
# last bit that would flip a verdict on another claim): the coverage of each passage, each
# shortlist of candidates and the support of each unverified claim
trace = []
def traced(fn):
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        trace.append(repr(out))
        return out
    return wrapper
Aligner.coverage = traced(Aligner.coverage)
PassageIndex.candidates = traced(PassageIndex.candidates)
support.novelty = traced(support.novelty)
support.spread = traced(support.spread)
nlp = sourced_nlp.load_pipeline()
for it in items:
    trace.clear()
    rep = sourced_nlp.check_many([(it["response"], it["src_ours"])], nlp=nlp, on_error="return")[0]
    claims = [] if isinstance(rep, Exception) else [[c.start, c.end, c.verdict, c.support] for c in rep.claims]
    print(json.dumps({{"id": it["id"], "claims": claims, "numbers": trace}}, sort_keys=True))
"""


@pytest.mark.slow  # the train rows checked in a fresh process under each of several hash seeds
def test_verdicts_do_not_depend_on_the_hash_seed():
    outs = []
    for seed in ("0", "1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, env=env, timeout=900, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr.decode()[-2000:]
        outs.append(proc.stdout)
    n_claims = sum(len(json.loads(line)["claims"]) for line in outs[0].decode().splitlines())
    assert n_claims >= 200
    for seed, out in zip("123", outs[1:]):
        assert out == outs[0], (
            f"PYTHONHASHSEED={seed} gives other verdicts (or numbers behind them) than PYTHONHASHSEED=0"
        )
