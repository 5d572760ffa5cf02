"""The checking workers of ``sourced serve`` (:class:`sourced_nlp.cli.pool.Pool`), in an event loop
of the test's own over real worker processes: a full queue is refused (429, with the seconds to
wait), a request past the time limit is refused (503) whether it waited or was being checked, a
worker stopped in a check is killed and another started in its place, a request whose worker
dies in its check is refused (500) and the worker replaced, a worker that cannot load its
pipeline stops the start, closing the pool ends every worker, and the judge options of the
command reach the workers. ``sourced serve`` under load, end to end: ``test_serve_load.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

import pytest

from serve_inputs import SMALL_ANSWER, SMALL_SOURCE, large_answer, large_source
from sourced_nlp.cli import serve as serve_cmd
from sourced_nlp.cli.pool import Pool, Refused
from sourced_nlp.text.sources import normalize_sources

pytestmark = pytest.mark.process

SMALL = ("check", SMALL_ANSWER, normalize_sources([SMALL_SOURCE]), "json")
LARGE = ("check", large_answer(), normalize_sources([large_source()]), "json")
START = 240.0  # seconds a worker may take to load its pipeline, on loaded cores


async def until(test, seconds: float = START) -> None:
    """Wait (bounded) until ``test()`` holds."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.01)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.process(seconds=12)  # three pipelines load one after another, a 2 s limit runs out (for the file order)
def test_a_full_queue_the_time_limit_and_a_dead_worker():
    async def scenario():
        pool = Pool(1, timeout=2.0, queue=1)
        await pool.start()
        try:
            [first] = pool.pids()
            assert pool.health() == {
                "ready": True,
                "workers": 1,
                "busy": 0,
                "free": 1,
                "starting": 0,
                "queued": 0,
                "queue_limit": 1,
                "timeout_s": 2.0,
                "replaced": 0,
            }
            came = time.monotonic()
            large = asyncio.ensure_future(pool.check(*LARGE))
            await until(lambda: pool.health()["busy"] == 1)
            waiting = asyncio.ensure_future(pool.check(*SMALL))
            await until(lambda: pool.health()["queued"] == 1)
            with pytest.raises(Refused) as full:
                await pool.check(*SMALL)
            assert full.value.status == 429 and "sourced serve --queue" in full.value.message
            assert 1 <= full.value.retry_after <= 2
            stopped, late = await asyncio.gather(large, waiting, return_exceptions=True)
            took = time.monotonic() - came
            assert isinstance(stopped, Refused) and stopped.status == 503, stopped
            assert stopped.message == (
                "the check took longer than the 2 s limit of this server (sourced serve --timeout): it was stopped"
            )
            assert isinstance(late, Refused) and late.status == 503 and late.retry_after is not None, late
            assert late.message.startswith("no checking worker became free within the 2 s limit")
            assert 2.0 <= took < 4.0, took  # at the limit, not at the end of the large check

            await until(lambda: pool.health()["free"] == 1)
            assert gone(first) and pool.pids() != [first]
            assert pool.health()["replaced"] == 1
            status, text = await pool.check(*SMALL)
            assert status == 200 and json.loads(text)["counts"]["contradicted"] == 1

            [second] = pool.pids()
            dying = asyncio.ensure_future(pool.check(*LARGE))
            await until(lambda: pool.health()["busy"] == 1)
            os.kill(second, signal.SIGKILL)
            with pytest.raises(Refused) as died:
                await dying
            assert died.value.status == 500
            assert died.value.message.startswith(f"the checking process exited with code {-signal.SIGKILL}")
            assert pool.health()["starting"] == 1 and pool.pids() == [] and gone(second)
        finally:
            await pool.close()  # stops the one starting too
        assert pool.pids() == [] and not pool.health()["ready"] and pool.health()["starting"] == 0

    asyncio.run(scenario())


def test_a_worker_that_cannot_load_its_pipeline_stops_the_start():
    async def scenario():
        pool = Pool(1, timeout=2.0, queue=1, config={"word_matcher": {"@misc": "sourced.no_such_part.v1"}})
        with pytest.raises(ValueError, match="a checking worker could not load the pipeline: .*no_such_part"):
            await pool.start()
        assert pool.pids() == []

    asyncio.run(scenario())


def test_the_judge_options_reach_every_worker(tmp_path):
    """``sourced serve --judge replay --judge-file FILE``: the config the command builds, loaded in
    a worker, asks the judge about a claim the rules leave unverified."""
    claim, source = (
        "The company expects strong demand next year.",
        "Management anticipates robust demand in the coming year.",
    )
    (tmp_path / "answers.jsonl").write_text(
        json.dumps({"claim": claim, "verdict": "grounded", "source": "0", "quote": source, "reason": "paraphrase"})
        + "\n",
        encoding="utf-8",
    )
    config = serve_cmd._tiers("replay", None, 4, str(tmp_path / "answers.jsonl"), None, "unverified", None)

    async def scenario():
        pool = Pool(1, timeout=60.0, queue=0, config=config)
        await pool.start()
        try:
            return await pool.check("check", claim, normalize_sources([source]), "json")
        finally:
            await pool.close()

    status, text = asyncio.run(scenario())
    [judged] = json.loads(text)["claims"]
    assert status == 200 and (judged["verdict"], judged["rule"]) == ("grounded", "grounded.judge")
    assert judged["judge"]["backend"] == "replay"
