"""Judge prompts: versioned files under ``models/``, the messages built from them, and the
reading of a judge's reply.

A prompt is a file ``models/judge-vN.txt``; its version is the file's stem (``judge-v1``). A
change of wording is a new file, so that every judged verdict and every cache entry names the
exact prompt it came from.
"""

from __future__ import annotations

import importlib.resources
import json
import re
from pathlib import Path
from typing import Mapping, Sequence

from .base import VERDICTS, JudgeInput, Judgment

DEFAULT_PROMPT = "judge-v1"
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def load_prompt(ref: str = DEFAULT_PROMPT) -> tuple[str, str]:
    """``(version, text)`` of a prompt: a bundled version (``"judge-v1"``) or a file path.

    Raises:
        FileNotFoundError: neither a bundled prompt nor an existing file.
    """
    path = Path(ref)
    if path.suffix == ".txt" and path.is_file():
        return path.stem, path.read_text(encoding="utf8")
    bundled = importlib.resources.files("sourced_nlp.models") / f"{path.stem}.txt"
    if not bundled.is_file():
        raise FileNotFoundError(f"no judge prompt {ref!r}: not a bundled prompt (judge-v1) and no such .txt file")
    return path.stem, bundled.read_text(encoding="utf8")


def system_prompt(prompt: str, sources: Mapping[str, str]) -> str:
    """The system prompt: the instructions, then every source with its id. It is the same for
    every check against the same sources, so a provider's prompt cache can serve it."""
    parts = [prompt.rstrip(), "", "SOURCES"]
    for sid, text in sources.items():
        parts += [f'<source id="{sid}">', text, "</source>"]
    return "\n".join(parts)


def user_message(inputs: Sequence[JudgeInput]) -> str:
    """The claims to judge, as JSON: ``{"claims": [{"id", "text", "passages": [{"source",
    "start", "end", "text"}]}]}`` (the passages the rules found closest, best first)."""
    claims = [
        {
            "id": inp.index,
            "text": inp.claim,
            "passages": [{"source": c.source, "start": c.start, "end": c.end, "text": c.text} for c in inp.candidates],
        }
        for inp in inputs
    ]
    return "Judge these claims.\n" + json.dumps({"claims": claims}, ensure_ascii=False, indent=1)


def _entries(reply: str) -> list:
    """The judgment objects of a reply (``{"judgments": [...]}``, a bare list, or one object).

    Raises:
        ValueError: not JSON, or JSON of another shape.
    """
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except ValueError as err:
        raise ValueError(f"the reply is not JSON ({err.msg} at character {err.pos})") from None
    if isinstance(data, dict) and isinstance(data.get("judgments"), list):
        return data["judgments"]
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and "verdict" in data:
        return [data]
    raise ValueError('the reply is JSON but holds no "judgments" list')


def judgment_of(entry: object) -> Judgment:
    """One judgment object read into a :class:`Judgment`; a malformed one is a failed judgment."""
    if not isinstance(entry, dict):
        return Judgment.failed(f"a judgment is not a JSON object: {entry!r:.60}")
    verdict = entry.get("verdict")
    if verdict not in VERDICTS:
        return Judgment.failed(f"the reply gives no known verdict ({verdict!r:.40})")
    fields = {k: entry.get(k) for k in ("source", "quote", "reason")}
    if any(v is not None and not isinstance(v, str) for v in fields.values()):
        return Judgment.failed("the reply's source, quote and reason must be strings")
    return Judgment(verdict=verdict, **{k: v or "" for k, v in fields.items()})


def parse_reply(reply: str, indexes: Sequence[int]) -> dict[int, Judgment]:
    """Read a reply to :func:`user_message`: one judgment per claim id in ``indexes``.

    A reply that is not JSON, or JSON of another shape, fails every claim with the reason; a
    claim the reply does not answer fails with "the reply has no judgment for this claim". A
    reply of one object without a ``claim`` key answers the single claim asked.
    """
    try:
        entries = _entries(reply)
    except ValueError as err:
        return {i: Judgment.failed(f"unparsable reply: {err}") for i in indexes}
    out: dict[int, Judgment] = {}
    for entry in entries:
        key = entry.get("claim") if isinstance(entry, dict) else None
        if key is None and len(indexes) == 1:
            key = indexes[0]
        try:
            key = int(key)
        except (TypeError, ValueError):
            continue
        if key in indexes and key not in out:
            out[key] = judgment_of(entry)
    for i in indexes:
        out.setdefault(i, Judgment.failed("the reply has no judgment for this claim"))
    return out
