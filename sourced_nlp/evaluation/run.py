"""``sourced eval run``: call the system once per case and capture what it returned.

The target is ``MODULE:CALLABLE`` (a dotted module importable from the working directory, or a
path to a ``.py`` file) and is called as ``target(question, sources)`` (``sources`` the case's
``[{"id", "text"}]``), or ``target(question)`` when it takes a single argument. Each call is
captured as one line of the run file (``"schema": "sourced.run/1"``)::

    {"schema": "sourced.run/1", "target": "MODULE:CALLABLE", "case": {...the case...},
     "output": {"answer", "contexts", "citations", "usage", "latency_ms", "abstained"} | null,
     "error": "ExceptionType: message" | "timed out after S s" | null}

A call that raises, returns a shape the adapter cannot read, or runs past the timeout is an
error case, never a crash; a timed-out call is abandoned (its thread is left to finish on its
own, and the process does not wait for it). Nothing here touches the network: only the target
does, if it is written to.
"""

from __future__ import annotations

import inspect
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from ..text.sources import SourceError
from .adapter import normalize
from .cases import Case

__all__ = ["RUN_SCHEMA", "load_target", "run_case", "run_cases"]

RUN_SCHEMA = "sourced.run/1"


def _import_module(name: str):
    """The module ``name``: a path to a ``.py`` file, or a dotted name importable from the
    working directory (:func:`sourced_nlp.usercode.import_user_module`)."""
    from ..usercode import import_user_module

    return import_user_module(name, "target module")


def load_target(spec: str) -> Callable[..., Any]:
    """The callable named by ``MODULE:CALLABLE`` (``CALLABLE`` may be dotted: ``mod:System.answer``).

    Raises:
        SourceError: not of the form ``MODULE:CALLABLE``, the module cannot be imported (the
            message carries the import error), or the name is missing or not callable.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise SourceError(f"--target {spec!r}: expected MODULE:CALLABLE (e.g. examples.eval.system:answer)")
    try:
        obj: Any = _import_module(module_name)
    except SourceError:
        raise
    except Exception as err:  # an import error of any kind is the user's module, not ours
        raise SourceError(f"--target {spec}: cannot import {module_name}: {type(err).__name__}: {err}") from err
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise SourceError(f"--target {spec}: {module_name} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise SourceError(f"--target {spec}: {attr} is not callable")
    return obj


def _arity(target: Callable) -> int:
    """How many arguments to pass: 1 (question) or 2 (question, sources)."""
    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return 2
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == p.VAR_POSITIONAL for p in params) or len(positional) >= 2:
        return 2
    return 1


def _call(target: Callable, args: tuple, timeout: float | None) -> tuple[Any, BaseException | None, bool]:
    """``(value, exception, timed_out)`` of ``target(*args)``, in a daemon thread when a
    timeout is set (so that a call that never returns does not hold the process)."""
    if timeout is None:
        try:
            return target(*args), None, False
        except Exception as err:  # the target's failure is a result, not ours
            return None, err, False
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = target(*args)
        except BaseException as err:  # noqa: BLE001 (captured and reported as the case's error)
            box["error"] = err

    thread = threading.Thread(target=work, name="sourced-eval-target", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        return None, None, True
    return box.get("value"), box.get("error"), False


def run_case(target: Callable, case: Case, spec: str, timeout: float | None = None) -> dict:
    """Call ``target`` on one case; the run-file record of the module docstring.

    ``output.latency_ms`` is the target's own figure when it gives one, else the wall time of
    the call (``time.perf_counter``), in milliseconds.
    """
    args = (case.question, [dict(s) for s in case.sources])
    args = args[: _arity(target)]
    t0 = time.perf_counter()
    value, err, timed_out = _call(target, args, timeout)
    elapsed = (time.perf_counter() - t0) * 1000.0
    record: dict[str, Any] = {
        "schema": RUN_SCHEMA,
        "target": spec,
        "case": case.to_dict(),
        "output": None,
        "error": None,
    }
    if timed_out:
        record["error"] = f"timed out after {timeout:g} s"
    elif err is not None:
        record["error"] = f"{type(err).__name__}: {' '.join(str(err).split())}"
    else:
        try:
            record["output"] = normalize(value, elapsed).to_dict()
        except TypeError as terr:
            record["error"] = f"TypeError: {terr}"
    return record


def run_cases(
    target: Callable, cases: list[Case], spec: str, *, concurrency: int = 1, timeout: float | None = None
) -> list[dict]:
    """Every case through :func:`run_case`, ``concurrency`` calls at a time; records in case order.

    Raises:
        ValueError: ``concurrency`` is not an integer >= 1, or ``timeout`` is not > 0.
    """
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"--concurrency must be an integer >= 1, got {concurrency!r}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"--timeout must be a number of seconds > 0, got {timeout!r}")
    if concurrency == 1:
        return [run_case(target, c, spec, timeout) for c in cases]
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(lambda c: run_case(target, c, spec, timeout), cases))
