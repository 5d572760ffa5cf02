"""How ``sourced batch --dask`` cuts records into tasks (:func:`sourced_nlp.batch.dask.partitions`):
in order, none lost, and cut only where the sources change, so that one worker parses a source
set once instead of two workers each parsing it. Pure Python: no cluster, no model."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sourced_nlp.batch.dask import partitions


def _records(sources: str) -> list[dict]:
    """One record per letter, its sources named by the letter: "aab" is two records against
    source set a, then one against b."""
    return [{"id": f"r{i}", "output": "x", "sources": [f"source {s}"]} for i, s in enumerate(sources)]


def _shape(parts: list[list[dict]]) -> list[str]:
    return ["".join(r["sources"][0][-1] for r in part) for part in parts]


@pytest.mark.parametrize(
    "sources, size, expected",
    [
        ("abcdef", 2, ["ab", "cd", "ef"]),  # every record its own sources: plain runs of size
        ("abcdefg", 3, ["abc", "def", "g"]),  # the last partition holds what is left
        ("aaabbbccc", 2, ["aaa", "bbb", "ccc"]),  # a partition reaches size inside a run: the run stays whole
        ("aabbbbbbb", 2, ["aa", "bbbb", "bbb"]),  # one source set over 2 * size records is still cut
        ("aaaaaaa", 3, ["aaaaaa", "a"]),  # a batch against one document set: cut at 2 * size
        ("ab", 5, ["ab"]),
        ("a", 1, ["a"]),
        ("", 4, []),
    ],
)
def test_partitions_are_cut_where_the_sources_change(sources, size, expected):
    assert _shape(partitions(_records(sources), size)) == expected


def test_records_that_are_not_objects_travel_as_records_without_sources():
    # an invalid record still travels (its result is an error in its place); having no sources,
    # such records count as one source set, cut at 2 * size
    assert partitions([1, "x", None, 2, 3], 2) == [[1, "x", None, 2], [3]]
    a, b = _records("ab")
    assert partitions([a, None, None, b], 1) == [[a], [None, None], [b]]


@pytest.mark.parametrize("size", [0, -1])
def test_a_partition_size_below_one_is_an_error(size):
    with pytest.raises(ValueError, match="partition size must be >= 1"):
        partitions(_records("ab"), size)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(alphabet="abc", max_size=60), st.integers(min_value=1, max_value=8))
def test_partitions_keep_every_record_in_order_within_their_bounds(sources, size):
    records = _records(sources)
    parts = partitions(records, size)
    assert [r for part in parts for r in part] == records
    assert all(1 <= len(part) <= 2 * size for part in parts)
    assert all(len(part) >= size for part in parts[:-1])
    for part, following in zip(parts, parts[1:]):  # a cut inside one source set only at 2 * size
        assert part[-1]["sources"] != following[0]["sources"] or len(part) == 2 * size
