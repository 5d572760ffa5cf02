"""``sourced serve`` under load, end to end, on 127.0.0.1: a real ``sourced serve --workers 2
--timeout 3 --queue 20`` process, one large request (far longer than the limit: see
``serve_inputs.py``) and, while it runs, 20 small ones sent at once. The small ones are all
answered, well within the limit; the large one gets 503 at the limit, another worker starts in
place of its own, and Ctrl-C stops the server and every worker, the one starting among them. Bounded: every wait has a limit, the requests are
counted, and the server is stopped at the end whatever happened.

The figures (the small requests' latencies, the large one's time to its 503, the memory of the
server and its workers) are printed on one line, ``serve load: ...``: ``bench/RESULTS.md``
("`sourced serve` under load") quotes them, from
``python -m pytest -q -s tests/cli/test_serve_load.py``.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from serve_inputs import SMALL_ANSWER, SMALL_SOURCE, large_answer, large_source

pytestmark = pytest.mark.process

pytest.importorskip("starlette", reason="starlette is in the serve and dev extras (pip install -e '.[serve]')")
pytest.importorskip("uvicorn", reason="uvicorn is in the serve and dev extras")

ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(r"ready at (http://\S+)")
START = 240.0  # seconds to the ready line: the pipelines load first, on loaded cores too
LIMIT, SMALL_COUNT = 3.0, 20


def post(url: str, doc: dict, timeout: float = 60.0) -> tuple[int, dict, float, dict]:
    """``(status, JSON body, seconds, headers)`` of one POST of ``doc``."""
    request = urllib.request.Request(url, json.dumps(doc).encode("utf-8"), {"content-type": "application/json"})
    began = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, json.loads(r.read()), time.monotonic() - began, dict(r.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), time.monotonic() - began, dict(err.headers)


def health(url: str) -> dict:
    try:
        with urllib.request.urlopen(url + "healthz", timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as err:
        return json.loads(err.read())


def read_lines(stream, into: queue.Queue) -> None:
    """Every line of ``stream``, then None at its end."""
    for line in stream:
        into.put(line)
    into.put(None)


def until(test, seconds: float = START) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


def memory_mb(pid: int, field: str) -> float:
    """``VmRSS`` (resident now) or ``VmHWM`` (the most it has been) of ``pid``, in MB."""
    with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
        kb = next(int(line.split()[1]) for line in fh if line.startswith(field + ":"))
    return kb / 1024


@pytest.mark.process(seconds=15)  # two pipelines load, a 3 s limit runs out, a third starts (for the file order)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes' memory from /proc")
def test_small_checks_are_answered_while_a_large_one_runs_to_its_limit(tmp_path):
    err = tmp_path / "stderr.txt"
    with open(err, "w", encoding="utf-8") as err_file:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sourced_nlp.cli",
                "serve",
                "--port",
                "0",
                "--workers",
                "2",
                "--timeout",
                str(LIMIT),
                "--queue",
                str(SMALL_COUNT),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=err_file,
            text=True,
            env=dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1"),
        )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=read_lines, args=(proc.stdout, lines), daemon=True).start()
    try:
        began = time.monotonic()
        line = lines.get(timeout=START)
        assert line is not None, f"sourced serve ended before it was ready: {err.read_text(encoding='utf-8')}"
        url = READY.search(line).group(1)
        ready_s = time.monotonic() - began
        assert health(url) == {
            "ready": True,
            "workers": 2,
            "busy": 0,
            "free": 2,
            "starting": 0,
            "queued": 0,
            "queue_limit": SMALL_COUNT,
            "timeout_s": LIMIT,
            "replaced": 0,
        }
        workers = children(proc.pid)
        assert len(workers) == 2

        large: list = []
        sender = threading.Thread(
            target=lambda: large.append(post(url + "check", {"answer": large_answer(), "sources": [large_source()]}))
        )
        sender.start()
        until(lambda: health(url)["busy"] == 1, 30)
        small: list = []
        senders = [
            threading.Thread(
                target=lambda: small.append(post(url + "check", {"answer": SMALL_ANSWER, "sources": [SMALL_SOURCE]}))
            )
            for _ in range(SMALL_COUNT)
        ]
        for thread in senders:
            thread.start()
        for thread in senders:
            thread.join(60)
        server_mb = memory_mb(proc.pid, "VmHWM")  # read while the large check runs, if it still does
        worker_mb = [memory_mb(pid, "VmHWM") for pid in children(proc.pid)]
        sender.join(60)

        assert len(small) == SMALL_COUNT and {s for s, *_ in small} == {200}, [r[:2] for r in small if r[0] != 200]
        assert all(body["counts"] == {"grounded": 0, "contradicted": 1, "unverified": 0} for _, body, *_ in small)
        latencies = sorted(seconds for _, _, seconds, _ in small)
        p50, p95 = latencies[len(latencies) // 2 - 1], latencies[int(0.95 * len(latencies)) - 1]
        assert p95 < LIMIT, latencies

        [(status, body, large_s, _)] = large
        assert status == 503 and body == {
            "error": f"the check took longer than the {LIMIT:g} s limit of this server "
            "(sourced serve --timeout): it was stopped"
        }
        assert LIMIT <= large_s < LIMIT + 3, large_s  # at the limit, not when the large check would end

        after = health(url)  # the stopped worker's successor, loading or loaded
        assert after["starting"] + after["replaced"] == 1 and after["free"] + after["starting"] == 2, after
        until(lambda: len(set(children(proc.pid)) - set(workers)) == 1, 30)  # started once the stopped one is reaped
        assert server_mb < 300 and all(mb < 600 for mb in worker_mb), (server_mb, worker_mb)
        print(
            f"\nserve load: ready in {ready_s:.1f} s; {SMALL_COUNT} small checks during a large one: "
            f"p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms; "
            f"the large one 503 after {large_s:.2f} s (limit {LIMIT:g} s); peak memory: server "
            f"{server_mb:.0f} MB, workers {' + '.join(f'{mb:.0f}' for mb in worker_mb)} MB"
        )

        workers = children(proc.pid)  # the successor among them, whether it has loaded or not
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        until(lambda: not any(os.path.exists(f"/proc/{pid}") for pid in workers), 10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in err.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")
