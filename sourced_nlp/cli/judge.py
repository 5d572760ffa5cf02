"""The judge's part of the command line: the ``--judge*`` options of ``check``, ``cite`` and
``batch`` and the pipeline they select (``sourced calibrate`` is :mod:`.calibrate`).

Nothing here touches the network unless ``--judge anthropic`` is given; with it and no
credentials, the command stops (exit 2, one line) before reading any input.
"""

from __future__ import annotations

from typing import Any, Optional

import typer

from ..judges.backends import BACKENDS, names_text

JUDGE = typer.Option(None, "--judge", metavar="NAME",
                     help=f"Ask a judge about the claims the rules leave unverified: {names_text()}.")
JUDGE_MODEL = typer.Option(None, "--judge-model", metavar="MODEL",
                           help="The judge model (anthropic); for callable, the function: MODULE:FUNCTION (a module importable "
                                "from the working directory) or path/to/file.py:FUNCTION.")
JUDGE_CONCURRENCY = typer.Option(4, "--judge-concurrency", metavar="N", help="Judge requests in flight at once.")
JUDGE_FILE = typer.Option(None, "--judge-file", metavar="FILE", help="Recorded answers (JSONL) for --judge replay.")
JUDGE_RECORD = typer.Option(None, "--judge-record", metavar="FILE",
                            help="Append the judge's answers here, in the --judge-file format.")


def judge_config(name: str, model: Optional[str] = None, concurrency: int = 4, file: Optional[str] = None,
                 record: Optional[str] = None) -> dict:
    """The ``sourced_verify`` ``judge`` config entry (``{"@misc": "sourced.judge.NAME.v1", ...}``)
    for the options, checked first (see :func:`check_options`)."""
    check_options(name, model, concurrency, file)
    backend = BACKENDS[name]
    cfg: dict[str, Any] = {"@misc": backend.registry_name, **backend.config(model, concurrency, file)}
    if record:
        cfg["record"] = record
    return cfg


def check_options(name: str, model: Optional[str], concurrency: int, file: Optional[str]) -> None:
    """Refuse judge options that cannot work, before any work.

    Raises:
        ValueError: an unknown backend; replay without a readable ``--judge-file``; callable
            without a function; a concurrency below 1; anthropic without its SDK or credentials.
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown judge {name!r}: choose one of {', '.join(BACKENDS)}")
    if concurrency < 1:
        raise ValueError(f"--judge-concurrency must be at least 1, got {concurrency}")
    BACKENDS[name].check(model, concurrency, file)


def pipeline(name: Optional[str], model: Optional[str] = None, concurrency: int = 4, file: Optional[str] = None,
             record: Optional[str] = None, meaning: bool = True) -> Any:
    """The pipeline for ``--judge NAME`` and ``--meaning/--no-meaning`` (None without a judge
    and with the meaning tier: the default pipeline applies).

    Raises:
        ValueError: as :func:`check_options`, or a judge config the backend refuses.
    """
    from .meaning import meaning_config

    if name is None:
        if file or record:
            raise ValueError("--judge-file and --judge-record need --judge NAME")
        if meaning:
            return None
    from .. import api

    judged = {"judge": judge_config(name, model, concurrency, file, record)} if name is not None else {}
    return api.load_pipeline(config={**judged, **meaning_config(meaning)})
