"""Shared fixtures: the real pipeline, loaded once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def nlp():
    """The default pipeline (en_core_web_sm 3.8 + every sourced component)."""
    import sourced_nlp

    return sourced_nlp.load_pipeline()
