"""The offline judge backends: ``replay`` (answers recorded in a file) and ``callable`` (any
Python function), with their ``spacy.registry.misc`` entries, and the writing of recordings.

Recorded answers are JSONL, one object per claim, keyed by the claim text (whitespace
collapsed); the other keys say what the judge answered:

- ``{"claim", "verdict", "source", "quote", "reason"}``: a judgment;
- ``{"claim", "reply": "<raw text>"}``: a raw reply, read as a model's reply is
  (:func:`sourced_nlp.judges.prompt.parse_reply`), so malformed JSON stays malformed;
- ``{"claim", "refusal": "<text>"}``: the judge refused;
- ``{"claim", "error": "timeout" | "<text>"}``: no answer came.

A line may also carry ``model`` and ``prompt_version`` (a recording names what answered).
"""

from __future__ import annotations

import importlib
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence, Union

import spacy

from ..base import JudgeInput, Judgment
from ..cache import JudgmentCache
from ..prompt import DEFAULT_PROMPT, judgment_of, load_prompt, parse_reply


def _key(claim: str) -> str:
    return " ".join(claim.split())


def replayed(entry: Mapping, index: int) -> Judgment:
    """The judgment a recorded line stands for (see the module docstring)."""
    if "error" in entry:
        error = str(entry["error"])
        return Judgment.failed("the judge timed out" if error == "timeout" else error)
    if "refusal" in entry:
        return Judgment.failed(f"the judge refused: {entry['refusal']}")
    if "reply" in entry:
        return parse_reply(str(entry["reply"]), [index])[index]
    return judgment_of(dict(entry))


def read_recording(path: str | Path) -> list[dict]:
    """The lines of a recorded answers file.

    Raises:
        ValueError: no such file, not UTF-8, or a line that is not a JSON object with a
            ``"claim"`` string (the message names the file and line).
    """
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"judge answers file {path}: cannot read it ({err.__class__.__name__})") from None
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise ValueError(f"judge answers file {path}: line {n} is not JSON") from None
        if not isinstance(row, dict) or not isinstance(row.get("claim"), str):
            raise ValueError(f'judge answers file {path}: line {n} is not an object with a "claim" string')
        rows.append(row)
    return rows


class ReplayJudge:
    """Answers from a recorded file: no network, no key, the same answers every run."""

    backend = "replay"

    def __init__(self, path: str | Path, cache: Optional[JudgmentCache] = None) -> None:
        rows = read_recording(path)
        self.path = str(path)
        self.answers = {_key(r["claim"]): r for r in rows}
        first = rows[0] if rows else {}
        self.model = str(first.get("model") or "recorded")
        self.prompt_version = str(first.get("prompt_version") or DEFAULT_PROMPT)
        self.cache = cache

    def judge(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> list[Judgment]:
        """The recorded answer of each claim; a claim not in the file fails with that reason."""
        out = []
        for inp in inputs:
            entry = self.answers.get(_key(inp.claim))
            out.append(replayed(entry, inp.index) if entry is not None
                       else Judgment.failed(f"no recorded answer for this claim in {self.path}"))
        return out


JudgeFunction = Callable[[JudgeInput], Union[str, Judgment, Mapping]]


class CallableJudge:
    """Any function ``(JudgeInput) -> str | Judgment | dict`` as a judge: a string is read as
    a model's reply, a dict as one judgment object. Claims are judged ``concurrency`` at a time
    (threads); an exception of the function fails that claim with its message."""

    backend = "callable"

    def __init__(self, function: JudgeFunction, model: str = "callable", prompt: str = DEFAULT_PROMPT,
                 concurrency: int = 4, cache: Optional[JudgmentCache] = None) -> None:
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


def record_answers(path: str | Path, inputs: Sequence[JudgeInput], judgments: Sequence[Judgment],
                   model: str, prompt_version: str) -> None:
    """Append one replay line per claim to ``path`` (the format of the module docstring)."""
    with open(path, "a", encoding="utf8") as fh:
        for inp, j in zip(inputs, judgments):
            row: dict = {"claim": inp.claim, "model": model, "prompt_version": prompt_version}
            row.update({"error": j.error} if j.error is not None else
                       {"verdict": j.verdict, "source": j.source, "quote": j.quote, "reason": j.reason})
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def import_function(ref: str) -> JudgeFunction:
    """``"package.module:attribute"`` imported.

    Raises:
        ValueError: not of that form, or nothing callable there.
    """
    module, _, attr = ref.partition(":")
    if not module or not attr:
        raise ValueError(f'judge function must be "package.module:function", got {ref!r}')
    try:
        fn = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"judge function {ref!r} cannot be imported: {err}") from None
    if not callable(fn):
        raise ValueError(f"judge function {ref!r} is not callable")
    return fn


def _recording(judge: Any, record: Optional[str]) -> Any:
    """``judge`` with ``judge.record`` set: the tier appends its answers there."""
    judge.record = record or None
    return judge


def _cache(cache_dir: Optional[str]) -> Optional[JudgmentCache]:
    return JudgmentCache(cache_dir) if cache_dir else None


@spacy.registry.misc("sourced.judge.replay.v1")
def make_replay_judge(path: str, cache_dir: Optional[str] = None, record: Optional[str] = None) -> ReplayJudge:
    """The ``replay`` backend: recorded answers from ``path`` (JSONL; module docstring)."""
    return _recording(ReplayJudge(path, cache=_cache(cache_dir)), record)


@spacy.registry.misc("sourced.judge.callable.v1")
def make_callable_judge(function: str, model: str = "callable", prompt: str = DEFAULT_PROMPT,
                        concurrency: int = 4, cache_dir: Optional[str] = None,
                        record: Optional[str] = None) -> CallableJudge:
    """The ``callable`` backend: the function at ``"package.module:function"``."""
    return _recording(CallableJudge(import_function(function), model=model, prompt=prompt,
                                    concurrency=concurrency, cache=_cache(cache_dir)), record)
