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


def pytest_addoption(parser):
    parser.addoption("--network", action="store_true", default=False,
                     help="also run the tests marked network (a real service, a paid API)")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``network`` are skipped unless ``--network`` is given."""
    if config.getoption("--network"):
        return
    skip = pytest.mark.skip(reason="needs the network and a paid API: run with --network")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip)
