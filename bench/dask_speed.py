"""Records/s of the batch entry point on one machine and on a Dask ``LocalCluster``, in one run.

The same records (the RAGTruth test subset in file order, ``--limit N`` for its first N) go
through :func:`sourced_nlp.batch.results.results`:

1. single: in a fresh child process (the pipeline loaded first), and again in another with a
   second thread alive (idle, waiting on an event) beside the check: a worker process of any
   engine has other threads (Dask's event loop, its profiler), and glibc takes its locks the
   atomic way once a process has had two threads. spaCy's parser takes and releases the GIL
   in its inner loop (Cython ``nogil`` functions that check for errors), so its cost depends
   on it: this row is the floor a worker process starts from. Each engine starts in a fresh
   process, so that none finds another's caches warm;
2. Dask, 1 worker process and 2 worker processes (``threads_per_worker=1``), started as
   ``sourced batch --dask local:N`` starts them (:func:`sourced_nlp.batch.dask.connect`), through
   :func:`sourced_nlp.batch.dask.stream` with ``--partition-size`` records per task, each worker
   checking in its single-threaded child process (:mod:`sourced_nlp.batch.child`); and 1
   worker checking in its task thread (``isolated=False``, with Dask's worker environment,
   ``MALLOC_TRIM_THRESHOLD_`` set by the nanny), beside it. A nanny writes its workers'
   variables into this process's ``os.environ`` and leaves them there, so every cluster here is
   started from the environment this script began with.

For each it reports the start-up (cluster start, then the pipeline loaded on every worker),
the checking time and records/s (start-up excluded, and included), and per worker how many
distinct sources it parsed (the size of its ``sourced_verify`` source cache) against how many
records it checked: the rest were source-cache hits. Ratios: 2 workers / 1 worker, and the
Dask path at 1 worker against the single path (its per-record overhead).

Every process checks on one thread, BLAS included: the Dask nanny starts its workers with
``OMP_NUM_THREADS=1``, ``OPENBLAS_NUM_THREADS=1`` and ``MKL_NUM_THREADS=1``, and this script sets
the same before numpy is imported, so that the single path is not given a second core the
workers do not have. ``transfer`` is what the Dask path adds per record in the client: the
pickled size of the records and their results, and the time to pickle and unpickle both once.

Usage::

    python bench/dask_speed.py --limit 120
    python bench/dask_speed.py --limit 120 --json bench/out/dask-speed.json
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pickle
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import RAGTRUTH, dump_json, load_ragtruth, log, machine, sources_for, subsample  # noqa: E402


def records(limit: int | None) -> list[dict]:
    responses, sources = load_ragtruth(RAGTRUTH, "test")
    return [
        {"id": str(r["id"]), "output": r["response"], "sources": sources_for(sources[r["source_id"]])[0]}
        for r in subsample(responses, None, limit)
    ]


def _cache_size(isolated: bool = False) -> int:
    import sourced_nlp

    if isolated:
        from sourced_nlp.batch.child import process

        return process().cached_sources()
    cache = getattr(getattr(sourced_nlp.load_pipeline().get_pipe("sourced_verify"), "indexer", None), "_cache", None)
    return len(cache) if cache is not None else -1


def run_single(recs: list[dict], threaded: bool = False) -> dict:
    """The records through :func:`sourced_nlp.batch.results.results` in this process; with
    ``threaded``, while a second thread waits on an event (it takes no CPU). Call it in a
    process that has had no other thread (:func:`run_single_child`)."""
    import threading

    import sourced_nlp
    from sourced_nlp.batch.results import results

    t0 = time.perf_counter()
    nlp = sourced_nlp.load_pipeline()
    start = time.perf_counter() - t0
    nlp.get_pipe("sourced_verify").indexer._cache.clear()
    done = threading.Event()
    if threaded:
        threading.Thread(target=done.wait, daemon=True).start()
    t0 = time.perf_counter()
    out = list(results(recs, nlp=nlp))
    secs = time.perf_counter() - t0
    done.set()
    return {
        "engine": "single, a second thread alive" if threaded else "single",
        "workers": 1,
        "startup_s": round(start, 2),
        "check_s": round(secs, 2),
        "parsed_sources": [_cache_size()],
        "results": out,
    }


def run_single_child(limit: int, threaded: bool) -> dict:
    """:func:`run_single` in a fresh child process (``--single plain|threaded``), read back."""
    import json
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "single.json"
        subprocess.run(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--limit",
                str(limit),
                "--single",
                "threaded" if threaded else "plain",
                "--single-out",
                str(out),
            ],
            check=True,
        )
        return json.loads(out.read_text(encoding="utf8"))


def _load(isolated: bool) -> None:
    if isolated:
        from sourced_nlp.batch.child import process

        process()
    else:
        __import__("sourced_nlp").load_pipeline()


def run_dask(recs: list[dict], workers: int, partition_size: int, isolated: bool = True) -> dict:
    """The records through :func:`sourced_nlp.batch.dask.stream` on a cluster started as
    ``--dask local:N`` starts it (:func:`sourced_nlp.batch.dask.connect`), checked in each
    worker's child process, or without ``isolated`` in its task thread."""
    from distributed import get_task_stream

    from sourced_nlp.batch.dask import connect, stream

    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        stack.callback(_restore_environ, dict(os.environ))
        client = stack.enter_context(connect(f"local:{workers}"))
        client.run(_load, isolated)
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        with get_task_stream(client) as tasks:
            out = list(stream(client, recs, partition_size=partition_size, isolated=isolated))
        secs = time.perf_counter() - t0
        parsed = list(client.run(_cache_size, isolated).values())
    # the time the workers spent inside the tasks (checking), against the wall time of the run
    compute = sum(s["stop"] - s["start"] for t in tasks.data for s in t["startstops"] if s["action"] == "compute")
    return {
        "engine": "dask" if isolated else "dask, in the task thread",
        "workers": workers,
        "startup_s": round(start, 2),
        "check_s": round(secs, 2),
        "task_compute_s": round(compute, 2),
        "parsed_sources": parsed,
        "results": out,
    }


def _restore_environ(saved: dict) -> None:
    for key in set(os.environ) - set(saved):
        del os.environ[key]
    os.environ.update(saved)


def transfer(recs: list[dict], results: list[dict]) -> dict:
    """Pickled bytes per record (records and results) and ms per record to pickle and unpickle them."""
    t0 = time.perf_counter()
    blobs = [pickle.dumps(recs), pickle.dumps(results)]
    for b in blobs:
        pickle.loads(b)
    ms = 1000 * (time.perf_counter() - t0) / len(recs)
    return {
        "record_kb": round(len(blobs[0]) / len(recs) / 1024, 1),
        "result_kb": round(len(blobs[1]) / len(recs) / 1024, 1),
        "pickle_ms_per_record": round(ms, 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=120, help="the first N test records (default 120)")
    ap.add_argument("--partition-size", type=int, default=8)
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--single", choices=("plain", "threaded"), help=argparse.SUPPRESS)
    ap.add_argument("--single-out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    recs = records(args.limit)
    if args.single:
        dump_json(args.single_out, run_single(recs, threaded=args.single == "threaded"))
        return 0
    distinct = len({repr(r["sources"]) for r in recs})
    log(f"{len(recs)} records, {distinct} distinct source sets")
    runs = [run_single_child(args.limit, threaded=False), run_single_child(args.limit, threaded=True)]
    log("dask, 1 worker, checking in its task thread")
    runs.append(run_dask(recs, 1, args.partition_size, isolated=False))
    for w in (1, 2):
        log(f"dask, {w} worker(s)")
        runs.append(run_dask(recs, w, args.partition_size))
    same = all(r["results"] == runs[0]["results"] for r in runs)
    print(
        f"records: {len(recs)} (RAGTruth test, first {args.limit}); distinct source sets: {distinct}; "
        f"partition size {args.partition_size}; results identical on every engine: {same}"
    )
    print(f"machine: {machine()}; os.cpu_count()={os.cpu_count()}")
    print(
        "| engine | workers | start-up s | check s | records/s | records/s incl. start-up | sources parsed per worker |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in runs:
        r["rps"] = len(recs) / r["check_s"]
        r["rps_total"] = len(recs) / (r["check_s"] + r["startup_s"])
        print(
            f"| {r['engine']} | {r['workers']} | {r['startup_s']} | {r['check_s']} | {r['rps']:.2f} | "
            f"{r['rps_total']:.2f} | {r['parsed_sources']} |"
        )
    single, threaded, in_thread, one, two = runs
    print(
        f"2 workers / 1 worker: {two['rps'] / one['rps']:.2f}x records/s (start-up excluded), "
        f"{two['rps_total'] / one['rps_total']:.2f}x (included)"
    )
    print(
        f"Dask at 1 worker over single, per record: {one['check_s'] / single['check_s'] - 1:+.1%} "
        f"(checking in the task thread: {in_thread['check_s'] / single['check_s'] - 1:+.1%}; "
        f"single with a second thread alive: {threaded['check_s'] / single['check_s'] - 1:+.1%})"
    )
    print(
        f"inside the tasks (compute, summed over the workers): 1 worker {one['task_compute_s']} s, "
        f"2 workers {two['task_compute_s']} s, against {single['check_s']} s for the single path: "
        f"{one['task_compute_s'] / single['check_s'] - 1:+.1%} at 1 worker; the rest of the Dask wall time is "
        f"scheduling and transfer ({one['check_s'] - one['task_compute_s']:.2f} s at 1 worker)"
    )
    print(
        f"per record: single {1000 * single['check_s'] / len(recs):.0f} ms, "
        f"1 worker {1000 * one['check_s'] / len(recs):.0f} ms, 2 workers {1000 * two['check_s'] / len(recs):.0f} ms"
    )
    moved = transfer(recs, one["results"])
    print(
        f"transfer per record: record {moved['record_kb']} KB, result {moved['result_kb']} KB pickled; "
        f"pickle + unpickle both {moved['pickle_ms_per_record']} ms"
    )
    if args.json:
        dump_json(
            args.json,
            {
                "records": len(recs),
                "distinct_sources": distinct,
                "identical": same,
                "transfer": moved,
                "runs": [{k: v for k, v in r.items() if k != "results"} for r in runs],
            },
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
