"""``sourced batch --dask``: a real ``LocalCluster`` of worker processes writes the same output file,
byte for byte, as the single-process run, even when a worker process is killed part-way.

Records are real RAGTruth train rows (each source is answered by several models, so sources
repeat across records, as in use), read from /work/shared/data; the tests skip when that folder
or dask is absent. Every run sets ``PYTHONHASHSEED=0``, so that a difference can only come from
the engine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SHARED

RAGTRUTH = SHARED / "data" / "ragtruth"
ENV = dict(os.environ, NO_COLOR="1", PYTHONHASHSEED="0")
N_RECORDS = 200
N_KILL = 64

pytestmark = [
    pytest.mark.slow,
    pytest.mark.process,
    pytest.mark.skipif(not (RAGTRUTH / "response.jsonl").is_file(), reason=f"RAGTruth data not found in {RAGTRUTH}"),
]
distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed (the dask extra)")


def _sources(info) -> list:
    if isinstance(info, dict) and "passages" in info:
        return [info["passages"]]
    return [info]


def ragtruth_records(n: int) -> list[dict]:
    """The first ``n`` RAGTruth train responses as batch records, with one malformed record at 7."""
    sources = {}
    with open(RAGTRUTH / "source_info.jsonl", encoding="utf-8") as fh:
        for line in fh:
            s = json.loads(line)
            sources[str(s["source_id"])] = s["source_info"]
    out = []
    with open(RAGTRUTH / "response.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r.get("split") == "train" and r["response"].strip():
                out.append(
                    {"id": str(r["id"]), "output": r["response"], "sources": _sources(sources[str(r["source_id"])])}
                )
            if len(out) == n:
                break
    out[7] = {"id": out[7]["id"], "output": out[7]["output"], "sources": []}  # an error result in its place
    return out


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _batch(*args, **kw) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "sourced_nlp.cli", "batch", *map(str, args)]
    return subprocess.run(cmd, env=ENV, capture_output=True, timeout=900, **kw)


@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    return _write(tmp_path_factory.mktemp("dask") / "records.jsonl", ragtruth_records(N_RECORDS))


@pytest.fixture(scope="module")
def single(records_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("single") / "results.jsonl"
    proc = _batch(records_file, "-o", out)
    assert proc.returncode == 2, proc.stderr  # the record with no sources
    return out.read_bytes()


def test_local_cluster_output_is_byte_identical(records_file, single, tmp_path):
    out = tmp_path / "results.jsonl"
    proc = _batch(records_file, "-o", out, "--dask", "local:2", "--partition-size", "8")
    assert proc.returncode == 2, proc.stderr
    assert out.read_bytes() == single
    rows = [json.loads(line) for line in single.decode().splitlines()]
    assert len(rows) == N_RECORDS and [r["line"] for r in rows] == list(range(1, N_RECORDS + 1))
    assert rows[7]["error"].startswith("no sources given") and sum("error" in r for r in rows) == 1
    assert f"{N_RECORDS} records: {N_RECORDS - 1} checked" in proc.stderr.decode()


def test_resume_on_dask_completes_a_cut_output(records_file, single, tmp_path):
    out = tmp_path / "results.jsonl"
    cut = single[: single.index(b"\n", len(single) // 3) + 1] + b'{"line": 7'  # whole lines, then a torn one
    out.write_bytes(cut)
    proc = _batch(records_file, "-o", out, "--resume", "--dask", "local:1", "--partition-size", "16")
    assert proc.returncode == 2, proc.stderr
    assert out.read_bytes() == single


def _kill_worker_part_way(records_file: Path, out: Path) -> None:
    """Run ``batch --dask`` against a scheduler of this test's own, kill one worker process
    (SIGKILL) once some results are written, and wait for the run to finish."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        client.run(lambda: __import__("sourced_nlp").load_pipeline() and None)  # both workers ready
        pids = client.run(os.getpid)
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sourced_nlp.cli",
                "batch",
                str(records_file),
                "-o",
                str(out),
                "--dask",
                cluster.scheduler_address,
                "--partition-size",
                "4",
            ],
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 600
        while (not out.exists() or out.read_bytes().count(b"\n") < 8) and proc.poll() is None:
            assert time.monotonic() < deadline, "no results written"
            time.sleep(0.1)
        assert proc.poll() is None and out.read_bytes().count(b"\n") < N_KILL, "the run ended before the kill"
        killed = next(iter(pids.values()))
        os.kill(killed, signal.SIGKILL)
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 2, err
        assert killed not in client.run(os.getpid).values()  # the worker was indeed killed (and replaced)


def test_a_killed_worker_loses_no_record(tmp_path):
    records = ragtruth_records(N_KILL)
    records_file = _write(tmp_path / "records.jsonl", records)
    expected = tmp_path / "single.jsonl"
    assert _batch(records_file, "-o", expected).returncode == 2
    out = tmp_path / "results.jsonl"
    _kill_worker_part_way(records_file, out)
    assert out.read_bytes() == expected.read_bytes()


def test_dask_without_the_extra_is_exit_2_naming_it(tmp_path):
    records_file = _write(tmp_path / "r.jsonl", [{"output": "It rained.", "sources": ["It rained."]}])
    code = "import sys; sys.modules['distributed'] = None\nfrom sourced_nlp.cli import main; main()"
    proc = subprocess.run(
        [sys.executable, "-c", code, "batch", str(records_file), "--dask", "local:2"],
        env=ENV,
        capture_output=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stderr.decode() == "error: --dask needs the dask extra: pip install 'sourced-nlp[dask]'\n"


@pytest.mark.parametrize(
    "address, message",
    [
        ("local:0", "error: --dask local:0: local:N needs a number of worker processes N >= 1\n"),
        ("local:x", "error: --dask local:x: local:N needs a number of worker processes N >= 1\n"),
    ],
)
def test_bad_local_address_is_exit_2(tmp_path, address, message):
    records_file = _write(tmp_path / "r.jsonl", [{"output": "It rained.", "sources": ["It rained."]}])
    proc = _batch(records_file, "--dask", address)
    assert proc.returncode == 2 and proc.stderr.decode() == message


def _child_environ() -> dict:
    from sourced_nlp.batch.child import process

    with open(f"/proc/{process()._proc.pid}/environ", "rb") as fh:
        return dict(item.decode().partition("=")[::2] for item in fh.read().split(b"\0") if item)


def test_workers_check_in_a_child_without_the_trim_threshold_and_this_environment_is_left_as_it_was(monkeypatch):
    from sourced_nlp.batch.child import UNSET_IN_CHILD
    from sourced_nlp.batch.dask import connect

    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    before = dict(os.environ)
    with connect("local:1") as client:
        (worker_env,) = client.run(lambda: dict(os.environ)).values()
        (child_env,) = client.run(_child_environ).values()
    assert dict(os.environ) == before  # the nanny wrote its workers' variables here; they are gone
    assert worker_env["MALLOC_TRIM_THRESHOLD_"] == "65536"  # Dask's worker environment ...
    assert UNSET_IN_CHILD == ("MALLOC_TRIM_THRESHOLD_",) and "MALLOC_TRIM_THRESHOLD_" not in child_env  # ... less that
    assert child_env["OMP_NUM_THREADS"] == "1"


def _small_records() -> list[dict]:
    return [
        {"id": f"q{i}", "output": f"Revenue grew {i}% in 2023.", "sources": ["Revenue grew 3% in 2023."]}
        for i in range(6)
    ] + [{"id": "bad", "output": "x", "sources": None}]


@pytest.mark.parametrize("isolated", [True, False], ids=["child-process", "task-thread"])
def test_bag_helper_gives_the_entry_points_results(nlp, isolated):
    import dask
    import dask.bag as db

    from sourced_nlp.batch.dask import check_bag
    from sourced_nlp.batch.results import results

    expected = list(results(_small_records(), nlp=nlp))
    assert expected[-1] == {"id": "bad", "error": "missing 'sources'"}
    assert expected[3]["report"]["counts"]["grounded"] == 1 and expected[2]["report"]["counts"]["contradicted"] == 1
    with dask.config.set(scheduler="synchronous"):
        assert check_bag(db.from_sequence(_small_records(), npartitions=3), isolated=isolated).compute() == expected


def test_frame_helper_gives_the_entry_points_results(nlp):
    dd = pytest.importorskip(
        "dask.dataframe", reason="dask.dataframe needs dask[dataframe] (pyarrow)", exc_type=ImportError
    )
    import dask
    import pandas as pd

    from sourced_nlp.batch.dask import check_frame
    from sourced_nlp.batch.results import results

    expected = list(results(_small_records(), nlp=nlp))
    with dask.config.set(scheduler="synchronous"):
        frame = check_frame(dd.from_pandas(pd.DataFrame(_small_records()), npartitions=2)).compute()
    assert list(frame["id"]) == [r["id"] for r in expected]
    assert list(frame["report"]) == [r.get("report") for r in expected]
    assert list(frame["error"]) == [r.get("error") for r in expected]


@pytest.mark.parametrize("engine", [[], ["--dask", "local:1"]], ids=["single", "dask"])
def test_progress_on_a_terminal_shows_records_rate_and_errors(tmp_path, engine):
    import pty

    records_file = _write(tmp_path / "r.jsonl", _small_records())
    main, side = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sourced_nlp.cli",
            "batch",
            str(records_file),
            "-o",
            str(tmp_path / "out.jsonl"),
            *engine,
        ],
        env=dict(ENV, COLUMNS="120"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=side,
    )
    os.close(side)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    assert proc.wait(timeout=300) == 2
    text = seen.decode("utf-8", "replace")
    assert "records/s" in text and "1 errors" in text, text
    assert "7/7 records" in text, text


def test_a_signal_while_connecting_to_the_scheduler_is_an_interrupted_run_not_a_traceback(tmp_path):
    """SIGINT while ``batch --dask ADDRESS`` connects: the scheduler is a socket of this test's
    that accepts the connection and never answers, so the signal is sent once the command is
    connecting (the connection has arrived), however long its start-up took."""
    import socket

    records_file = _write(tmp_path / "r.jsonl", [{"output": "It rained.", "sources": ["It rained."]}])
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(1.0)
        port = server.getsockname()[1]
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sourced_nlp.cli",
                "batch",
                str(records_file),
                "-o",
                str(tmp_path / "out.jsonl"),
                "--dask",
                f"tcp://127.0.0.1:{port}",
            ],
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 600
        conn = None
        while conn is None:  # the ready sign: the command's connection to the "scheduler"
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the command never connected"
            try:
                conn, _ = server.accept()
            except socket.timeout:
                pass
        with conn:
            assert proc.poll() is None, proc.communicate()
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err.decode()
    assert err.decode().splitlines()[-1].startswith("interrupted by SIGINT: 0 of 1 records written")
    assert "Traceback" not in err.decode()


def test_a_record_whose_id_holds_an_unpaired_surrogate_on_dask(tmp_path):
    """The error result of a record refused for a surrogate in its id is written, and the next
    record is checked on the cluster (cli-trial N3-52)."""
    path = tmp_path / "sur.jsonl"
    path.write_text(
        '{"id": "\\ud800", "output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}\n'
        '{"id": "ok", "output": "Revenue rose 8%.", "sources": ["Revenue rose 8%."]}\n',
        encoding="utf-8",
    )
    proc = _batch(path, "-o", tmp_path / "out.jsonl", "--dask", "local:1")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "2 records: 1 checked, 0 failed the gate, 1 malformed" in err, err
    rows = [json.loads(ln) for ln in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["id"], "report" in r) for r in rows] == [("\\ud800", False), ("ok", True)]
