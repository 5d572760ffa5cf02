"""The ``anthropic`` judge against the real service: skipped unless ``pytest --network``, the
``judge`` extra and ``ANTHROPIC_API_KEY`` are all there."""

from __future__ import annotations

import os

import pytest

import sourced_nlp

pytestmark = pytest.mark.network


def test_a_real_claude_judges_a_paraphrase(tmp_path):
    pytest.importorskip("anthropic", reason="the judge extra is not installed: pip install 'sourced-nlp[judge]'")
    if not os.environ.get("ANTHROPIC_API_KEY"):
        pytest.skip("ANTHROPIC_API_KEY is not set")
    nlp = sourced_nlp.load_pipeline(
        config={
            "judge": {
                "@misc": "sourced.judge.anthropic.v1",
                "model": os.environ.get("SOURCED_JUDGE_MODEL", "claude-sonnet-4-5"),
                "cache_dir": str(tmp_path),
            }
        }
    )
    source = "Contoso opened offices in Lisbon and Oslo in March."
    report = sourced_nlp.check("Contoso expanded into two European capitals.", [{"id": "s", "text": source}], nlp=nlp)
    (claim,) = report.claims
    assert claim.judge is not None and claim.judge["backend"] == "anthropic"
    if claim.verdict == "grounded":
        assert source[claim.judge["start"] : claim.judge["end"]] == claim.judge["quote"]
