"""The on-disk cache of judgments, so that re-checking the same claims costs nothing.

Key: SHA-256 of ``(backend, model, prompt version, claim text, the SHA-1 of each candidate
passage with its source id and offsets, the SHA-1 of each source text)``; a change of any of
them is a miss. Value: the judgment as JSON, one file per key
(``<dir>/<key[:2]>/<key>.json``). Only answers are kept: a failure (timeout, refusal,
unparsable reply) is asked again next time. Quotes are checked again on every read.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Mapping

from .base import JudgeInput, Judgment


def default_dir() -> Path:
    """``$XDG_CACHE_HOME/sourced-nlp/judge`` (``~/.cache/sourced-nlp/judge`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sourced-nlp" / "judge"


def _sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf8")).hexdigest()


def cache_key(backend: str, model: str, prompt_version: str, inp: JudgeInput, sources: Mapping[str, str]) -> str:
    """The key of one claim's judgment (hex SHA-256; see the module docstring)."""
    passages = sorted(f"{c.source}:{c.start}:{c.end}:{_sha1(c.text)}" for c in inp.candidates)
    texts = sorted(f"{sid}:{_sha1(text)}" for sid, text in sources.items())
    blob = json.dumps([backend, model, prompt_version, inp.claim, passages, texts], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf8")).hexdigest()


class JudgmentCache:
    """Judgments on disk under ``folder`` (created on the first write)."""

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> Judgment | None:
        """The cached judgment, or None (absent, or a file that does not read back)."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf8"))
            return Judgment(**{k: data[k] for k in ("verdict", "source", "quote", "reason")})
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, judgment: Judgment) -> None:
        """Store an answer (a failed judgment is not stored); written atomically."""
        if judgment.error is not None:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")  # one per writer
        tmp.write_text(json.dumps(judgment.to_dict(), ensure_ascii=False), encoding="utf8")
        os.replace(tmp, path)
