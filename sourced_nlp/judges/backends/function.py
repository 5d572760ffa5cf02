"""The ``callable`` judge backend: any Python function ``(JudgeInput) -> str | Judgment | dict``
as the judge, named ``"package.module:function"`` (``--judge-model``)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from ..base import JudgeInput, Judgment
from ..cache import JudgmentCache
from ..prompt import DEFAULT_PROMPT, judgment_of, load_prompt, parse_reply
from .spec import backend, cache, recording

JudgeFunction = Callable[[JudgeInput], Union[str, Judgment, Mapping]]


class CallableJudge:
    """Any function ``(JudgeInput) -> str | Judgment | dict`` as a judge: a string is read as
    a model's reply, a dict as one judgment object. Claims are judged ``concurrency`` at a time
    (threads); an exception of the function fails that claim with its message."""

    backend = "callable"

    def __init__(
        self,
        function: JudgeFunction,
        model: str = "callable",
        prompt: str = DEFAULT_PROMPT,
        concurrency: int = 4,
        cache: Optional[JudgmentCache] = None,
    ) -> None:
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ValueError(f"judge concurrency must be an integer >= 1, got {concurrency!r}")
        self.function = function
        self.model = model
        self.prompt_version, self.prompt = load_prompt(prompt)
        self.concurrency = concurrency
        self.cache = cache

    def _one(self, inp: JudgeInput) -> Judgment:
        try:
            answer: Any = self.function(inp)
        except TimeoutError:
            return Judgment.failed("the judge timed out")
        except Exception as err:  # the caller's function: any failure leaves the claim unverified
            return Judgment.failed(f"the judge function raised {type(err).__name__}: {err}")
        if isinstance(answer, Judgment):
            return answer
        if isinstance(answer, str):
            return parse_reply(answer, [inp.index])[inp.index]
        if isinstance(answer, Mapping):
            return judgment_of(dict(answer))
        return Judgment.failed(f"the judge function returned a {type(answer).__name__}, not a str, dict or Judgment")

    def judge(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> list[Judgment]:
        """One call of the function per claim, ``concurrency`` at a time, answers in order."""
        if self.concurrency == 1 or len(inputs) <= 1:
            return [self._one(inp) for inp in inputs]
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            return list(pool.map(self._one, inputs))


def import_function(ref: str) -> JudgeFunction:
    """The function ``"MODULE:FUNCTION"``: ``MODULE`` a dotted module importable from the
    working directory (``myjudge``, ``package.module``), or a path to a ``.py`` file
    (``./myjudge.py``, ``judges/mine.py``), as ``sourced eval run --target`` takes it;
    ``FUNCTION`` may be dotted (``module:Judge.ask``).

    Raises:
        ValueError: not of that form, a module that cannot be found or imported (whatever its
            code raised: the message says it), or nothing callable there; one line.
    """
    from ...usercode import import_user_module

    module, _, attr = ref.partition(":")
    if not module or not attr:
        raise ValueError(
            f'judge function must be "MODULE:FUNCTION" (a module importable from the working '
            f"directory, or a path to a .py file), got {ref!r}"
        )
    try:
        obj: Any = import_user_module(module, "judge function module")
    except ValueError as err:  # SourceError: the file is not there
        raise ValueError(f"judge function {ref!r} cannot be imported: {err}") from None
    except Exception as err:  # the user's module failed to import: say how, in one line
        raise ValueError(f"judge function {ref!r} cannot be imported: {type(err).__name__}: {err}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"judge function {ref!r} cannot be imported: {module} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"judge function {ref!r} is not callable")
    return obj


def make_callable_judge(
    function: str,
    model: str = "callable",
    prompt: str = DEFAULT_PROMPT,
    concurrency: int = 4,
    cache_dir: Optional[str] = None,
    record: Optional[str] = None,
    scope: str = "unverified",
) -> CallableJudge:
    """The ``callable`` backend: the function at ``"package.module:function"``."""
    return recording(
        CallableJudge(
            import_function(function), model=model, prompt=prompt, concurrency=concurrency, cache=cache(cache_dir)
        ),
        record,
        scope,
    )


def _options(model: Optional[str], concurrency: int, file: Optional[str]) -> dict:
    return {"function": model, "concurrency": concurrency}


def _check(model: Optional[str], concurrency: int, file: Optional[str]) -> None:
    if not model:
        raise ValueError(
            '--judge callable needs --judge-model "MODULE:FUNCTION" (a module importable from the '
            "working directory, or a path to a .py file)"
        )
    try:
        import_function(model)  # before any input is read: a bad one is one line, exit 2
    except ValueError as err:
        raise ValueError(f"--judge-model: {err}") from None


BACKEND = backend("callable", make_callable_judge, _options, _check)
