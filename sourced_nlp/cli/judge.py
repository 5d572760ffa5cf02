"""The judge's part of the command line: the ``--judge*`` options of ``check``, ``cite`` and
``batch`` and the pipeline they select (``sourced calibrate`` is :mod:`.calibrate`).

Nothing here touches the network unless ``--judge anthropic`` or ``--judge openai`` is given; with
it and no credentials (or, for ``openai``, a server that cannot be reached), the command stops
(exit 2, one line) before reading any input.
"""

from __future__ import annotations

import inspect
from enum import Enum
from typing import Any, Optional

import typer

from ..judges.backends import BACKENDS, names_text
from ..judges.backends.spec import OPTIONS, SCOPES, takes


class JudgeScope(str, Enum):
    unverified = "unverified"
    all = "all"


JUDGE = typer.Option(
    None, "--judge", metavar="NAME", help=f"Ask a judge about the claims the rules leave unverified: {names_text()}."
)
JUDGE_MODEL = typer.Option(
    None,
    "--judge-model",
    metavar="MODEL",
    help="The judge model (anthropic, openai: on Azure the deployment's name); for callable, the function: MODULE:FUNCTION (a module importable "
    "from the working directory) or path/to/file.py:FUNCTION.",
)
JUDGE_CONCURRENCY = typer.Option(4, "--judge-concurrency", metavar="N", help="Judge requests in flight at once.")
JUDGE_FILE = typer.Option(None, "--judge-file", metavar="FILE", help="Recorded answers (JSONL) for --judge replay.")
JUDGE_RECORD = typer.Option(
    None, "--judge-record", metavar="FILE", help="Append the judge's answers here, in the --judge-file format."
)
JUDGE_BASE_URL = typer.Option(
    None,
    "--judge-base-url",
    metavar="URL",
    help=f"The server of --judge {takes('base_url')}: any OpenAI-compatible chat-completions "
    "endpoint (http://localhost:11434/v1 for Ollama); default OPENAI_BASE_URL, else OpenAI's.",
)
JUDGE_SCOPE = typer.Option(
    JudgeScope.unverified,
    "--judge-scope",
    help="What the judge is asked about: the claims the rules leave unverified, or all: those "
    "and the claims they ground (the judge may then take a grounded claim down to "
    "unverified or contradicted, never up).",
)


def judge_config(
    name: str,
    model: Optional[str] = None,
    concurrency: int = 4,
    file: Optional[str] = None,
    record: Optional[str] = None,
    base_url: Optional[str] = None,
    scope: str = "unverified",
) -> dict:
    """The ``sourced_verify`` ``judge`` config entry (``{"@misc": "sourced.judge.NAME.v1", ...}``)
    for the options, checked first (see :func:`check_options`). ``scope`` ``all`` is the entry's
    ``scope`` key (absent for the default, ``unverified``)."""
    scope = getattr(scope, "value", scope)
    check_options(name, model, concurrency, file, base_url, scope)
    backend = BACKENDS[name]
    cfg: dict[str, Any] = {
        "@misc": backend.registry_name,
        **backend.config(model, concurrency, file, **_declared(backend, base_url=base_url)),
    }
    if record:
        cfg["record"] = record
    if scope != "unverified":
        cfg["scope"] = scope
    return cfg


def _declared(backend: Any, **given: Optional[str]) -> dict:
    """The options of ``given`` that ``backend`` declares (:attr:`~sourced_nlp.judges.backends.spec.Backend.options`)."""
    return {k: v for k, v in given.items() if k in backend.options}


def check_options(
    name: str,
    model: Optional[str],
    concurrency: int,
    file: Optional[str],
    base_url: Optional[str] = None,
    scope: str = "unverified",
) -> None:
    """Refuse judge options that cannot work, before any work.

    Raises:
        ValueError: an unknown backend; replay without a readable ``--judge-file``; callable
            without a function; a concurrency below 1; anthropic without its SDK or credentials;
            openai without its SDK, its key or a reachable server; an option the backend does
            not take (``--judge-base-url``; ``--judge-scope all`` for a factory without ``scope``).
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown judge {name!r}: choose one of {', '.join(BACKENDS)}")
    if concurrency < 1:
        raise ValueError(f"--judge-concurrency must be at least 1, got {concurrency}")
    backend = BACKENDS[name]
    for key, value in {"base_url": base_url}.items():
        if value is not None and key not in backend.options:
            raise ValueError(f"{OPTIONS[key]} is for --judge {takes(key)}, not --judge {name}")
    if scope not in SCOPES:
        raise ValueError(f"--judge-scope must be one of {', '.join(SCOPES)}, got {scope!r}")
    if scope != "unverified" and "scope" not in inspect.signature(backend.factory).parameters:
        raise ValueError(f"--judge-scope {scope}: the {name} judge's factory takes no scope")
    backend.check(model, concurrency, file, **_declared(backend, base_url=base_url))


def pipeline(
    name: Optional[str],
    model: Optional[str] = None,
    concurrency: int = 4,
    file: Optional[str] = None,
    record: Optional[str] = None,
    meaning: bool = True,
    base_url: Optional[str] = None,
    scope: str = "unverified",
    strict: Optional[float] = None,
) -> Any:
    """The pipeline for ``--judge NAME``, ``--meaning/--no-meaning`` and the strict level
    (``strict``, :mod:`.strict`; None: off). None without a judge, with the meaning tier and
    without strict: the default pipeline applies.

    Raises:
        ValueError: as :func:`check_options`, or a judge config the backend refuses.
    """
    from .meaning import meaning_config
    from .strict import strict_config

    if name is None:
        if file or record:
            raise ValueError("--judge-file and --judge-record need --judge NAME")
        if base_url is not None:
            raise ValueError("--judge-base-url needs --judge NAME")
        if getattr(scope, "value", scope) != "unverified":
            raise ValueError("--judge-scope all needs --judge NAME")
        if meaning and strict is None:
            return None
    from .. import api

    judged = (
        {"judge": judge_config(name, model, concurrency, file, record, base_url, scope)} if name is not None else {}
    )
    return api.load_pipeline(config={**judged, **meaning_config(meaning), **strict_config(strict)})
