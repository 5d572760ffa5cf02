"""The ``replay`` judge backend: answers recorded in a file, offline and the same every run; and
the writing of recordings (``--judge-record``) in its format.

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

import json
from pathlib import Path
from typing import Mapping, Optional, Sequence

from ..base import JudgeInput, Judgment
from ..cache import JudgmentCache
from ..prompt import DEFAULT_PROMPT, judgment_of, parse_reply
from .spec import backend, cache, recording


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
            out.append(
                replayed(entry, inp.index)
                if entry is not None
                else Judgment.failed(f"no recorded answer for this claim in {self.path}")
            )
        return out


def record_answers(
    path: str | Path, inputs: Sequence[JudgeInput], judgments: Sequence[Judgment], model: str, prompt_version: str
) -> None:
    """Append one replay line per claim to ``path`` (the format of the module docstring)."""
    with open(path, "a", encoding="utf8") as fh:
        for inp, j in zip(inputs, judgments):
            row: dict = {"claim": inp.claim, "model": model, "prompt_version": prompt_version}
            row.update(
                {"error": j.error}
                if j.error is not None
                else {"verdict": j.verdict, "source": j.source, "quote": j.quote, "reason": j.reason}
            )
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def make_replay_judge(
    path: str, cache_dir: Optional[str] = None, record: Optional[str] = None, scope: str = "unverified"
) -> ReplayJudge:
    """The ``replay`` backend: recorded answers from ``path`` (JSONL; module docstring)."""
    return recording(ReplayJudge(path, cache=cache(cache_dir)), record, scope)


def _options(model: Optional[str], concurrency: int, file: Optional[str]) -> dict:
    return {"path": file}


def _check(model: Optional[str], concurrency: int, file: Optional[str]) -> None:
    if not file or not Path(file).is_file():
        raise ValueError(
            "--judge replay needs --judge-file FILE, an existing recorded answers file"
            + (f" (no such file: {file})" if file else "")
        )


BACKEND = backend("replay", make_replay_judge, _options, _check)
