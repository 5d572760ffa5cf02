"""The single-threaded checking child (:mod:`sourced_nlp.batch.child`): the same results as
the entry point, a child that dies is replaced, an error in the child is raised in the host, and
a child exits when its host closes the pipe."""

from __future__ import annotations

import os
import signal

import pytest

from sourced_nlp.batch import child as checker_process
from sourced_nlp.batch.child import CheckerProcess, CheckerProcessError
from sourced_nlp.batch.results import results

pytestmark = pytest.mark.process

RECORDS = [
    {"id": "up", "output": "Revenue grew 3% in 2023.", "sources": ["Revenue grew 3% in 2023."]},
    {"id": "off", "output": "Revenue grew 5% in 2023.", "sources": ["Revenue grew 3% in 2023."]},
    {"id": "bad", "output": "x", "sources": None},
]


@pytest.fixture
def child():
    """A child of the test's own (the test ends it)."""
    proc = CheckerProcess()
    yield proc
    proc.close()


@pytest.fixture(scope="module")
def shared_child():
    """One child for the tests that leave it alive (each starts spaCy in a fresh process): they
    check only records of the one source of RECORDS, so its source cache holds that one whatever
    ran before."""
    proc = CheckerProcess()
    yield proc
    proc.close()


def test_the_child_gives_the_entry_points_results_and_keeps_its_source_cache(nlp, shared_child):
    child = shared_child
    expected = list(results(RECORDS, nlp=nlp))
    assert expected[0]["report"]["counts"]["grounded"] == 1 and expected[1]["report"]["counts"]["contradicted"] == 1
    assert expected[2] == {"id": "bad", "error": "missing 'sources'"}
    assert child.check(RECORDS) == expected
    assert child.check(RECORDS[:1]) == expected[:1]
    assert child.cached_sources() == 1  # one distinct source, parsed once


def test_a_dead_child_is_an_error_naming_its_exit_and_check_starts_another(nlp):
    first = checker_process.process()
    os.kill(first._proc.pid, signal.SIGKILL)
    first._proc.wait()
    with pytest.raises(CheckerProcessError, match=f"exited with code {-signal.SIGKILL}"):
        first.check(RECORDS)
    assert checker_process.check(RECORDS) == list(results(RECORDS, nlp=nlp))
    assert checker_process.process() is not first and checker_process.process().alive()


def test_an_error_loading_the_pipeline_in_the_child_is_raised_in_the_host():
    with pytest.raises(ValueError, match="not_a_key"):
        CheckerProcess(config={"not_a_key": 1})


def test_the_child_exits_when_the_host_closes_the_pipe(child):
    child.close()
    assert child._proc.returncode == 0 and not child.alive()


class Passage:
    """A document object of the caller's own (Haystack-like: ``content`` and ``id``), of a class
    the child process cannot import."""

    def __init__(self, content: str, id: str):
        self.content = content
        self.id = id


def test_sources_of_a_class_the_child_cannot_import_are_checked(nlp):
    records = [
        {"id": "doc", "output": "Revenue grew 3% in 2023.", "sources": [Passage("Revenue grew 3% in 2023.", "p1")]},
        *RECORDS,
    ]
    expected = list(results(records, nlp=nlp))
    assert expected[0]["report"]["counts"]["grounded"] == 1
    assert checker_process.check(records) == expected


def test_a_request_that_fails_in_the_child_is_raised_in_the_host_and_the_child_lives_on(shared_child):
    child = shared_child
    with pytest.raises(ValueError, match="not_a_key"):
        child._call(("load", None, {"not_a_key": 1}))
    assert child.alive() and child.check(RECORDS[:1])[0]["report"]["counts"]["grounded"] == 1


def test_ctrl_c_to_the_process_group_does_not_kill_the_child(shared_child):
    child = shared_child
    os.kill(child._proc.pid, signal.SIGINT)
    assert child.check(RECORDS[:1])[0]["report"]["counts"]["grounded"] == 1
