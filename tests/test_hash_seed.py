"""Verdicts must not depend on ``PYTHONHASHSEED``: the same RAGTruth train rows checked in
subprocesses under several hash seeds give byte-identical JSON.

Known to fail now (marked ``xfail``, not strict): the verdict code sums float weights while
iterating over sets of strings (``sourced_nlp/align.py``: ``PassageIndex.candidates`` adds IDF
weights per lemma of ``set(claim["lemmas"])``, ``Verifier.coverage`` sums ``total``/``found``
over ``set(lemmas)``, and the coverage of a spread claim sums ``weights[x]`` over
``l - have_l`` / ``have_l``), so the order of the additions -- and the last bit of a sum -- follows
the string hash seed; a coverage that lands on a threshold, or a candidate tie, then flips a
verdict between grounded and unverified.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SHARED

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
nlp = sourced_nlp.load_pipeline()
reports = sourced_nlp.check_many([(it["response"], it["src_ours"]) for it in items], nlp=nlp, on_error="return")
for it, rep in zip(items, reports):
    claims = [] if isinstance(rep, Exception) else [[c.start, c.end, c.verdict, c.support] for c in rep.claims]
    print(json.dumps({{"id": it["id"], "claims": claims}}, sort_keys=True))
"""


@pytest.mark.xfail(strict=False, reason="float sums over set iteration in sourced_nlp/align.py follow the hash seed "
                                        "(see the module docstring)")
def test_verdicts_do_not_depend_on_the_hash_seed():
    outs = []
    for seed in ("0", "1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, env=env, timeout=900, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr.decode()[-2000:]
        outs.append(proc.stdout)
    n_claims = sum(line.count("[") - 1 for line in outs[0].decode().splitlines())
    assert n_claims >= 200
    for seed, out in zip("123", outs[1:]):
        assert out == outs[0], f"PYTHONHASHSEED={seed} gives other verdicts than PYTHONHASHSEED=0"
