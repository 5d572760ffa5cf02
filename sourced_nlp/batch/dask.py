"""Batch checking on a Dask cluster: a thin layer over :func:`sourced_nlp.batch.results.results`.

Needs the ``dask`` extra (``pip install 'sourced-nlp[dask]'``: ``dask[distributed]``). Each
task checks one partition of records in a worker process; the worker loads the pipeline
once, on its first task, from the package and model installed in its own environment (nothing
is downloaded, and no pipeline or ``Doc`` is pickled: only records and results travel), and
keeps it, with its source cache, for every later task. By default a worker checks in a
single-threaded child process of its own (:mod:`sourced_nlp.batch.child`), which a check
in the worker's task thread is about 10% slower than (``bench/RESULTS.md``, "Dask"). A worker
that dies mid-task loses nothing: the scheduler runs the task again on another worker, and its
results are taken once.

    >>> import dask.bag as db
    >>> from sourced_nlp.batch.dask import check_bag
    >>> results = check_bag(db.read_text("records.jsonl").map(json.loads)).compute()
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator, Optional, Sequence

from ..text.sources import SourceError

__all__ = ["check_partition", "check_bag", "check_frame", "connect", "parse_address", "partitions", "stream"]

#: Seconds to wait for a scheduler given by address before giving up.
CONNECT_TIMEOUT = 20


def check_partition(
    records: Sequence[Any],
    model: Optional[str] = None,
    config: Optional[dict] = None,
    validated: bool = False,
    isolated: bool = True,
) -> list[dict]:
    """The results of one partition of records, in order (see :func:`sourced_nlp.batch.results.results`).

    With ``isolated`` (the default) they are checked in this process's single-threaded
    :class:`sourced_nlp.batch.child.CheckerProcess`, started on the first call; without it,
    in the calling thread.

    Raises:
        sourced_nlp.batch.child.CheckerProcessError: the child process died on these
            records twice (:func:`stream` then gives each of them an ``error`` result).
    """
    if isolated:
        from .child import check

        return check(records, model=model, config=config, validated=validated)
    from .results import results

    return list(results(records, model=model, config=config, validated=validated))


def check_bag(bag: Any, model: Optional[str] = None, config: Optional[dict] = None, isolated: bool = True) -> Any:
    """A Dask Bag of records mapped, partition-wise, to a Bag of their results (same order)."""
    return bag.map_partitions(check_partition, model=model, config=config, isolated=isolated)


def _frame_partition(frame: Any, model: Optional[str], config: Optional[dict], isolated: bool) -> Any:
    import pandas as pd

    rows = [{k: v for k, v in row.items() if not (k == "id" and v is None)} for row in frame.to_dict("records")]
    done = check_partition(rows, model, config, isolated=isolated)
    return pd.DataFrame(
        {
            "id": [r["id"] for r in done],
            "report": [r.get("report") for r in done],
            "error": [r.get("error") for r in done],
        },
        index=frame.index,
    )


def check_frame(frame: Any, model: Optional[str] = None, config: Optional[dict] = None, isolated: bool = True) -> Any:
    """A Dask DataFrame with ``output`` (or ``answer``), ``sources`` and optional ``id`` columns
    mapped, partition-wise, to one with ``id``, ``report`` (a dict, or None) and ``error`` (a
    str, or None) columns, on the same index."""
    import pandas as pd

    meta = pd.DataFrame(
        {"id": pd.Series(dtype=object), "report": pd.Series(dtype=object), "error": pd.Series(dtype=object)}
    )
    return frame.map_partitions(_frame_partition, model, config, isolated, meta=meta)


def parse_address(address: str) -> tuple[str, Optional[int]]:
    """``"local:N"`` as ``("local", N)``; a scheduler address as ``(address, None)``.

    Raises:
        SourceError: ``local:`` with no whole number >= 1 after it, or an empty address.
    """
    if address.startswith("local:") or address == "local":
        n = address.partition(":")[2]
        if not n.isdigit() or int(n) < 1:
            raise SourceError(f"--dask {address}: local:N needs a number of worker processes N >= 1")
        return "local", int(n)
    if not address.strip():
        raise SourceError("--dask: give a scheduler address (tcp://host:8786) or local:N")
    return address, None


@contextlib.contextmanager
def connect(address: str) -> Iterator[Any]:
    """A ``distributed.Client`` for ``--dask ADDRESS``, closed on exit: a running scheduler, or
    for ``local:N`` a ``LocalCluster`` of N worker processes with one thread each. This
    process's own environment is left as it was (a nanny writes its workers' variables into
    ``os.environ`` before it spawns them, and leaves them there).

    Raises:
        SourceError: the scheduler cannot be reached (named, with the reason).
    """
    import logging

    from distributed import Client, LocalCluster

    where, n = parse_address(address)
    with contextlib.ExitStack() as stack:
        if n is not None:
            stack.callback(_restore_environ, dict(os.environ))
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=n,
                    processes=True,
                    threads_per_worker=1,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(where, timeout=CONNECT_TIMEOUT))
            except (OSError, TimeoutError, ValueError) as err:
                raise SourceError(f"cannot reach the Dask scheduler at {where}: {' '.join(str(err).split())}") from None
        yield client


def _restore_environ(saved: dict) -> None:
    for key in set(os.environ) - set(saved):
        del os.environ[key]
    os.environ.update(saved)


def partitions(records: Sequence[Any], size: int) -> list[list[Any]]:
    """``records`` cut into consecutive partitions of ``size`` records or more, in order.

    A partition is cut only where the next record's sources differ from the last one's, so
    that the records of one source set (adjacent in a batch file in source order, as answers
    to one question are) go to one worker, which parses those sources once; without this, two
    workers met 99 of the same 123 sources in 240 RAGTruth records (``bench/dask_speed.py``).
    A run of records with the same sources is still cut at ``2 * size``, so that a batch
    against one document set keeps every worker busy.

    Raises:
        ValueError: ``size`` < 1.
    """
    if size < 1:
        raise ValueError(f"partition size must be >= 1, got {size}")
    parts: list[list[Any]] = []
    part: list[Any] = []
    for record in records:
        if part and (len(part) >= 2 * size or (len(part) >= size and _sources_of(record) != _sources_of(part[-1]))):
            parts.append(part)
            part = []
        part.append(record)
    if part:
        parts.append(part)
    return parts


def _sources_of(record: Any) -> Any:
    return record.get("sources") if isinstance(record, dict) else None


def stream(
    client: Any,
    records: Sequence[Any],
    partition_size: int = 32,
    model: Optional[str] = None,
    config: Optional[dict] = None,
    validated: bool = False,
    window: Optional[int] = None,
    isolated: bool = True,
) -> Iterator[dict]:
    """The results of ``records``, in input order, as their :func:`partitions` of
    ``partition_size`` records or more come back from ``client``'s workers (a reorder buffer
    holds those done ahead of their turn).

    At most ``window`` partitions (default: 4 per worker thread, at least 4) are submitted ahead of
    the next one due, so memory stays bounded on a long run. A partition whose task fails for
    good (a worker killed more often than the scheduler's ``allowed-failures``) gives an
    ``error`` result for each of its records, so that the output is still whole. ``isolated``:
    as for :func:`check_partition`.
    """
    from distributed import as_completed

    parts = partitions(records, partition_size)
    if window is None:
        window = max(4, 4 * sum(client.nthreads().values()))
    pending = as_completed()
    index: dict[str, int] = {}
    ready: dict[int, list[dict]] = {}
    sent = due = 0
    while due < len(parts):
        while sent < len(parts) and sent - due < window:
            fut = client.submit(check_partition, parts[sent], model, config, validated, isolated, pure=False)
            index[fut.key] = sent
            pending.add(fut)
            sent += 1
        fut = next(pending)
        i = index.pop(fut.key)
        ready[i] = _partition_results(fut, parts[i])
        fut.release()
        while due in ready:
            yield from ready.pop(due)
            due += 1


def _partition_results(fut: Any, part: list[Any]) -> list[dict]:
    try:
        return fut.result()
    except Exception as err:  # noqa: BLE001 -- the task failed for good: each record says so
        return [
            {
                "id": r.get("id") if isinstance(r, dict) else None,
                "error": f"internal error: the Dask task failed: {type(err).__name__}: {' '.join(str(err).split())}",
            }
            for r in part
        ]
