"""``sourced serve``: a local web page to check an answer against its sources, and a JSON API
beside it (the app: :mod:`.web`; the checking workers: :mod:`.pool`).

Needs the ``serve`` extra (Starlette, uvicorn, python-multipart), imported inside the command
so that ``sourced --help`` and ``--version`` stay off them, as off spaCy. Without it the command
exits 2 with one line naming the extra. The socket is bound here (so that a port in use is one
line and exit 2, and ``--port 0`` gets a free port); then every worker loads its pipeline, and
only then does one line say the URL the page is at: the line a script waits for.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from typing import Optional

import typer

from ..errors import SourceError
from . import judge as judging
from ._util import app
from .strict import STRICT, STRICT_LEVEL, strict_config, strict_level

#: What the server needs beyond the package's own dependencies (the ``serve`` extra).
NEEDS = ("starlette", "uvicorn", "multipart")
EXTRA_MISSING = "sourced serve needs the serve extra: pip install 'sourced-nlp[serve]'"


def _have_extra() -> bool:
    import importlib.util

    try:
        return all(importlib.util.find_spec(name) is not None for name in NEEDS)
    except (ImportError, ValueError):  # a finder that refuses the name, a module without a spec
        return False


def is_local(host: str) -> bool:
    """Whether ``host`` names this machine only (a loopback address, or ``localhost``)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: local only if every address it resolves to is
        try:
            infos = socket.getaddrinfo(host, None)
        except OSError:
            return False
        return bool(infos) and all(ipaddress.ip_address(i[4][0].split("%")[0]).is_loopback for i in infos)


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: a free port).

    Raises:
        SourceError: the address cannot be resolved or bound (in use, not this machine's),
            naming it and the system's reason.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except OSError as err:
        raise SourceError(f"cannot listen on {host}:{port}: {err.strerror or err}") from err
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise SourceError(f"cannot listen on {host}:{port}: {err.strerror or err}") from err
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's URL on the bound ``sock`` (an IPv6 address in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _run(sock: socket.socket, pool, judge: str = "") -> int:
    """Start the workers of ``pool``, then serve the app over it on ``sock`` until interrupted;
    the ready line once it listens. Returns the exit code: 128 + the signal that stopped it (130
    for Ctrl-C). uvicorn raises a signal it caught again once it has shut down (and the workers
    are stopped), which ends the command as every command ends on it; a process that inherited
    the signal as ignored (a child of a test runner's worker) gets the same code from here.

    Raises:
        ValueError: a worker could not load the pipeline.
    """
    import asyncio

    import uvicorn

    from .web import make_app

    class _Server(uvicorn.Server):
        received = 0

        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                typer.echo(f"sourced serve: ready at {url_of(sock)} (Ctrl-C to stop)")
                sys.stdout.flush()

        def handle_exit(self, sig, frame) -> None:
            self.received = sig
            super().handle_exit(sig, frame)

    config = uvicorn.Config(make_app(pool, judge), lifespan="off", log_level="warning", access_log=False)
    server = _Server(config)

    async def serve_with_workers() -> None:
        try:
            await pool.start()
            await server.serve(sockets=[sock])
        finally:
            await pool.close()

    asyncio.run(serve_with_workers())
    return 128 + server.received if server.received else 0


def _tiers(
    judge: Optional[str],
    model: Optional[str],
    concurrency: int,
    file: Optional[str],
    base_url: Optional[str],
    scope: str,
    level: Optional[float],
) -> dict:
    """The ``sourced_verify`` config overrides of the judge options and the strict level.

    Raises:
        ValueError: as :func:`.judge.judge_config` (checked before any worker starts), or a judge
            option without ``--judge``.
    """
    if judge is None:
        if file is not None:
            raise ValueError("--judge-file needs --judge NAME")
        if base_url is not None:
            raise ValueError("--judge-base-url needs --judge NAME")
        if scope != "unverified":
            raise ValueError("--judge-scope all needs --judge NAME")
        return strict_config(level)
    return {
        "judge": judging.judge_config(judge, model, concurrency, file, None, base_url, scope),
        **strict_config(level),
    }


@app.command()
def serve(
    port: int = typer.Option(
        8000,
        "--port",
        "-p",
        min=0,
        max=65535,
        metavar="PORT",
        help="The port to listen on (0: any free port; the ready line says which).",
    ),
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        metavar="HOST",
        help="The address to listen on. The default is this machine only; any other "
        "address lets whoever reaches it use the page (there is no log-in).",
    ),
    workers: Optional[int] = typer.Option(
        None,
        "--workers",
        "-w",
        min=1,
        metavar="N",
        help="Checking processes, each with its own pipeline (about 200 MB), "
        "each checking one request at a time [default: the cores, at most 8].",
    ),
    timeout: float = typer.Option(
        60.0,
        "--timeout",
        min=0.001,
        metavar="SECONDS",
        help="A request not answered this long after its input was read (waiting for a worker, or "
        "checked) gets 503; a check still running is stopped and its worker replaced.",
    ),
    queue: int = typer.Option(
        16,
        "--queue",
        min=0,
        metavar="N",
        help="Requests that may wait for a busy worker; one more gets 429 with Retry-After.",
    ),
    strict: bool = STRICT,
    strict_level_: Optional[float] = STRICT_LEVEL,
    judge: Optional[str] = judging.JUDGE,
    judge_model: Optional[str] = judging.JUDGE_MODEL,
    judge_concurrency: int = judging.JUDGE_CONCURRENCY,
    judge_file: Optional[str] = judging.JUDGE_FILE,
    judge_base_url: Optional[str] = judging.JUDGE_BASE_URL,
    judge_scope: judging.JudgeScope = judging.JUDGE_SCOPE,
) -> int:
    """Serve a local web page where a person pastes an answer, adds sources (pasted, or .txt,
    .md and .json files) and sees the HTML report; beside it a JSON API, POST /check and POST
    /cite, giving the report of 'sourced check --format json', and GET /healthz.

    Checks run in --workers processes, each loading the pipeline once, before the ready line
    (with --strict, the strict one; with --judge, one that asks the judge: its key only from the
    environment, as for check). Input limits are the command line's: a text too long is HTTP
    413, any other input that cannot be used 400; a full queue 429; past --timeout 503; each
    with one message. Needs the serve extra: pip install 'sourced-nlp[serve]'. Exit 2 without
    it, when the address cannot be listened on, or when the pipeline cannot be loaded.
    """
    level = strict_level(strict, strict_level_)
    if not _have_extra():
        typer.echo(f"error: {EXTRA_MISSING}", err=True)
        return 2
    from .pool import Pool, default_workers

    config = _tiers(judge, judge_model, judge_concurrency, judge_file, judge_base_url, judge_scope.value, level)
    local = is_local(host)
    sock = bind(host, port)
    if not local:
        typer.echo(
            f"warning: listening on {host}, not only this machine: anyone who can reach it can use the "
            "page and the API (there is no log-in); --host 127.0.0.1 keeps it local",
            err=True,
        )
    count = workers or default_workers()
    typer.echo(
        f"sourced serve: starting {count} checking worker{'s' if count != 1 else ''}, each loading the pipeline ...",
        err=True,
    )
    try:
        return _run(sock, Pool(count, timeout, queue, config), judge or "")
    finally:
        sock.close()
