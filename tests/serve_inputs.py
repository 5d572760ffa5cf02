"""Inputs for the tests of ``sourced serve``'s workers (``test_serve_pool.py``, ``test_serve_load.py``):
a small check, and a large one that takes far longer than their time limits, so that it is always
stopped at the limit (a 1 MB source and a 100-sentence answer: about 35 s on one core of the
machine that wrote this, against limits of 2 and 3 s)."""

from __future__ import annotations

SMALL_ANSWER, SMALL_SOURCE = "Revenue rose 12% to $2.4 billion.", "Revenue rose 8% to $2.4 billion."

_REGIONS = ("northern", "southern", "eastern", "western", "central")


def large_source(sentences: int = 13000) -> str:
    """Distinct sentences (each with a year, a count and a price), about 80 characters each."""
    return " ".join(
        f"In {1900 + i % 120}, the {_REGIONS[i % 5]} division of unit {i} sold {(i * 37) % 9000 + 100} "
        f"crates at {(i * 13) % 90 + 5} dollars each."
        for i in range(sentences)
    )


def large_answer(sentences: int = 100) -> str:
    """Claims near the source's sentences, so that each is searched for at length."""
    return " ".join(
        f"The {_REGIONS[(i + 1) % 5]} division of unit {i * 7} sold {(i * 41) % 9000 + 100} crates in "
        f"{1900 + (i * 3) % 120}."
        for i in range(sentences)
    )
