"""The checking workers of ``sourced serve`` (the command: :mod:`.serve`; the app: :mod:`.web`):
processes that each load the pipeline once, before the server says it is ready, and then check one
request at a time, so that a large check holds one worker and the others go on.

A :class:`Pool` lives in the server's event loop. A request takes a free worker, or waits in a
queue of at most ``queue`` requests (one more is refused: :class:`Refused` 429, with the seconds
after which to try again); a request still waiting, or still being checked, ``timeout`` seconds
after its input was read is refused (503), and a worker stopped in the middle of a check is killed and
another started in its place, never waited on. A worker that dies in a check (killed for
memory, say) is replaced too, and its request refused (500).

A worker is ``python -m sourced_nlp.cli.worker`` (:mod:`.worker`, which says what goes
through its pipes).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import pickle
import sys
from collections import deque
from typing import Any, Optional

from .worker import HEADER

__all__ = ["Pool", "Refused", "default_workers"]

#: Seconds a worker is given to exit once its pipe is closed, before it is killed.
_GRACE = 2.0
#: Seconds between two tries to start a worker in place of one that was stopped.
_RETRY = 5.0


def default_workers() -> int:
    """The default ``--workers``: the cores this process may run on, at most 8 (each worker holds
    its own pipeline, about 200 MB)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def _one_line(message: Any) -> str:
    return " ".join(str(message).split()) or "unknown error"


class Refused(Exception):
    """A request the pool did not check: ``status`` (429: the queue is full; 503: past the time
    limit, or the server is stopping; 500: the worker died in the check), a one-line
    ``message``, and ``retry_after``, the seconds after which to try again (or None)."""

    def __init__(self, status: int, message: str, retry_after: Optional[int] = None) -> None:
        super().__init__(message)
        self.status, self.message, self.retry_after = status, message, retry_after


class _Worker:
    """One worker process, spoken to through its pipes (see :mod:`.worker`)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, config: dict) -> "_Worker":
        """A worker with its pipeline loaded.

        Raises:
            ValueError: the worker could not load the pipeline (its message), or exited first.
        """
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "sourced_nlp.cli.worker",
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        worker = cls(proc)
        try:
            kind, value = await worker.call(("load", config))
        except BaseException as err:
            worker.kill()
            await proc.wait()
            if isinstance(err, (asyncio.IncompleteReadError, ConnectionError)):
                raise ValueError(
                    f"a checking worker exited with code {proc.returncode} while it loaded the pipeline"
                ) from None
            raise
        if kind != "ready":
            worker.kill()
            await proc.wait()
            raise ValueError(f"a checking worker could not load the pipeline: {value}")
        return worker

    async def call(self, request: tuple) -> Any:
        """Send ``request``, and the worker's reply.

        Raises:
            asyncio.IncompleteReadError, ConnectionError: the worker exited.
        """
        blob = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        self.proc.stdin.write(HEADER.pack(len(blob)) + blob)
        await self.proc.stdin.drain()
        size = HEADER.unpack(await self.proc.stdout.readexactly(HEADER.size))[0]
        return pickle.loads(await self.proc.stdout.readexactly(size))

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def close(self) -> None:
        """Close the pipe; kill the worker unless it exits within :data:`_GRACE` seconds."""
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), _GRACE)
        except asyncio.TimeoutError:
            self.kill()
            await self.proc.wait()


class Pool:
    """``workers`` checking processes, each over a pipeline with the ``sourced_verify`` config
    overrides ``config``; at most ``queue`` requests waiting for one; each request answered, or
    refused, within ``timeout`` seconds. :meth:`start` it in the event loop that serves, and
    :meth:`close` it there."""

    def __init__(self, workers: int, timeout: float, queue: int, config: Optional[dict] = None) -> None:
        self.size, self.timeout, self.queue_limit, self.config = workers, timeout, queue, config or {}
        self._free: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting = 0
        self._waiting: deque[asyncio.Future] = deque()
        self._tasks: set[asyncio.Task] = set()
        self._mean = 1.0  # seconds a check takes, a moving mean (for Retry-After)
        self.replaced = 0
        self.closed = False

    def _limit(self) -> str:
        return f"{self.timeout:g} s limit of this server (sourced serve --timeout)"

    async def start(self) -> None:
        """Start every worker, each loading its pipeline, at once.

        Raises:
            ValueError: a worker could not load the pipeline (the first one's message); none is left running.
        """
        started = await asyncio.gather(*(_Worker.start(self.config) for _ in range(self.size)), return_exceptions=True)
        workers = [w for w in started if isinstance(w, _Worker)]
        failed = [err for err in started if not isinstance(err, _Worker)]
        if failed:
            for worker in workers:
                await worker.close()
            raise failed[0]
        self._free = workers

    def health(self) -> dict:
        """``ready`` (a worker is up), the worker counts (``workers``, ``busy``, ``free``,
        ``starting``: in place of one stopped), ``queued`` and ``queue_limit``, ``timeout_s``,
        and ``replaced``: the workers started in place of one stopped, so far."""
        return {
            "ready": bool(self._free or self._busy) and not self.closed,
            "workers": self.size,
            "busy": len(self._busy),
            "free": len(self._free),
            "starting": self._starting,
            "queued": len(self._waiting),
            "queue_limit": self.queue_limit,
            "timeout_s": self.timeout,
            "replaced": self.replaced,
        }

    def pids(self) -> list[int]:
        """The process ids of the workers up (busy or free)."""
        return sorted(w.proc.pid for w in (*self._free, *self._busy))

    def retry_after(self) -> int:
        """Seconds after which a refused request may be tried again: the checks ahead of it at the
        mean time a check takes, shared among the workers; from 1 to the time limit."""
        ahead = (len(self._waiting) + len(self._busy) + 1) * self._mean / max(1, self.size)
        return max(1, min(math.ceil(self.timeout), math.ceil(ahead)))

    async def check(self, mode: str, answer: Any, sources: list, view: str) -> tuple[int, str]:
        """:func:`.worker.render`'s reply for the request, from the first free worker.

        Raises:
            Refused: the queue is full (429), the time limit passed waiting or checking (503: a
                worker in the middle of the check is replaced), the worker died (500).
        """
        loop = asyncio.get_running_loop()
        came = loop.time()
        worker = await self._acquire(came + self.timeout)
        try:
            reply = await asyncio.wait_for(
                worker.call((mode, answer, sources, view)), max(0.0, came + self.timeout - loop.time())
            )
        except asyncio.TimeoutError:
            self._note(loop.time() - came)
            self._replace(
                worker, f"a check passed the {self.timeout:g} s limit: its worker (pid {worker.proc.pid}) was stopped"
            )
            raise Refused(503, f"the check took longer than the {self._limit()}: it was stopped") from None
        except (asyncio.IncompleteReadError, ConnectionError):
            code = None
            try:
                code = await asyncio.wait_for(worker.proc.wait(), _GRACE)
            except asyncio.TimeoutError:  # its pipe closed, itself not (yet) gone
                pass
            finally:  # replaced even if this request is cancelled meanwhile
                self._replace(worker, f"a checking worker (pid {worker.proc.pid}) exited with code {code} in a check")
            raise Refused(
                500, f"the checking process exited with code {code} during the check; another is starting"
            ) from None
        except BaseException:  # cancelled: the reply is still to come, so the worker is no one's
            self._replace(worker)
            raise
        self._note(loop.time() - came)
        self._release(worker)
        return reply

    def _note(self, seconds: float) -> None:
        self._mean = 0.8 * self._mean + 0.2 * seconds

    async def _acquire(self, deadline: float) -> _Worker:
        if self.closed:
            raise Refused(503, "the server is stopping")
        if self._free and not self._waiting:
            worker = self._free.pop()
            self._busy.add(worker)
            return worker
        if len(self._waiting) >= self.queue_limit:
            raise Refused(
                429,
                f"every checking worker is busy and {len(self._waiting)} requests wait for one, "
                f"as many as this server queues (sourced serve --queue): try again later",
                self.retry_after(),
            )
        loop = asyncio.get_running_loop()
        turn = loop.create_future()
        self._waiting.append(turn)
        timer = loop.call_later(max(0.0, deadline - loop.time()), _expire, turn)
        try:
            return await turn
        except asyncio.TimeoutError:
            raise Refused(
                503, f"no checking worker became free within the {self._limit()}", self.retry_after()
            ) from None
        except BaseException:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                self._release(turn.result())  # handed a worker as it was cancelled
            raise
        finally:
            timer.cancel()
            with contextlib.suppress(ValueError):
                self._waiting.remove(turn)

    def _release(self, worker: _Worker) -> None:
        """``worker`` to the first request waiting, or back to the free ones."""
        self._busy.discard(worker)
        if self.closed:
            self._spawn(worker.close())
            return
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                self._busy.add(worker)
                turn.set_result(worker)
                return
        self._free.append(worker)

    def _replace(self, worker: _Worker, why: str = "") -> None:
        """Kill ``worker`` and start another in its place (:meth:`_restart`)."""
        self._busy.discard(worker)
        worker.kill()
        if why:
            sys.stderr.write(f"sourced serve: {why}; another is starting\n")
            sys.stderr.flush()
        self._starting += 1
        self._spawn(self._restart(worker))

    async def _restart(self, old: _Worker) -> None:
        try:
            await old.proc.wait()
            while not self.closed:
                try:
                    worker = await _Worker.start(self.config)
                except (ValueError, OSError) as err:
                    sys.stderr.write(f"sourced serve: {_one_line(err)}; trying again in {_RETRY:g} s\n")
                    await asyncio.sleep(_RETRY)
                    continue
                self.replaced += 1
                self._release(worker)
                return
        finally:
            self._starting -= 1

    def _spawn(self, job: Any) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop: refuse the requests waiting (503), stop starting workers, and end every worker
        (its pipe closed; killed if it has not exited within :data:`_GRACE` seconds)."""
        self.closed = True
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_exception(Refused(503, "the server is stopping"))
        for task in list(self._tasks):
            task.cancel()
        workers, self._free = self._free + list(self._busy), []
        self._busy.clear()
        await asyncio.gather(*(w.close() for w in workers), *self._tasks, return_exceptions=True)


def _expire(turn: asyncio.Future) -> None:
    if not turn.done():
        turn.set_exception(asyncio.TimeoutError())
