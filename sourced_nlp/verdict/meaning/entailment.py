"""The entailment model of the meaning tier's route 2 (:mod:`sourced_nlp.verdict.rules.entailment`):
a cross-encoder that reads a source passage (the premise) and a claim (the hypothesis) and gives
three probabilities, ``(p_entailed, p_contradicted, p_neutral)``.

The model is a directory (``models/entailment/``, shipped in the package) with

* ``model.onnx``: the network, inputs ``input_ids``/``attention_mask`` (and ``token_type_ids``
  when the graph has it) as int64 ``[batch, sequence]``, output ``logits`` ``[batch, 3]``;
* ``tokenizer.json``: the ``tokenizers`` tokenizer, with its truncation (128 word pieces,
  longest first) saved in it; a pair is encoded premise first, hypothesis second;
* ``model-card.json``: ``name``, ``labels`` (the logit order; ``entailed``, ``contradicted``,
  ``neutral`` in some order) and the checkpoint, whose step is the version when the card has no
  ``version``.

Runs on ``onnxruntime`` and ``tokenizers`` (the ``meaning`` extra); no torch. They are imported
when a model is loaded, never at import time; without them :meth:`EntailmentModel.load` raises
:class:`ImportError` naming the extra. One thread per session (intra- and inter-op, sequential),
so the processes of ``nlp.pipe(n_process=...)`` do not oversubscribe the cores.

Determinism: the shipped export is dynamically quantised to int8, whose activation scales are
computed over the whole input tensor, so a pair's probabilities shift (by up to 0.07 on the
export of step 2,426) with the other pairs of its batch. The score of a pair must not depend on what
else is checked, in which order or in which process, so :meth:`EntailmentModel.scores` runs
each pair alone by default (``batch_size=1``: no padding, no batch-mates); a larger batch (pairs
sorted by length, padded per batch, returned in input order) is for throughput where that
dependence is acceptable. Scores are cached by the SHA-1 of the pair's text.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import math
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: the shipped model's directory in the package ``sourced_nlp.models``
DEFAULT_DIR = "entailment"
#: the labels, in the order :meth:`EntailmentModel.scores` returns their probabilities
LABELS = ("entailed", "contradicted", "neutral")
EXTRA_HINT = 'pip install "sourced-nlp[meaning]"'

Scores = tuple[float, float, float]


def runtime() -> tuple[Any, Any]:
    """``(onnxruntime, tokenizers.Tokenizer)``, imported now.

    Raises:
        ImportError: either is not installed; the message names the extra that installs both.
    """
    try:
        import onnxruntime
        from tokenizers import Tokenizer
    except ImportError as err:
        raise ImportError(
            f"the entailment tier (sourced.meaning.v2) needs onnxruntime and tokenizers, "
            f"which are not installed ({err.name or err}): {EXTRA_HINT}"
        ) from None
    return onnxruntime, Tokenizer


def default_dir() -> Path:
    """The shipped model's directory (``models/entailment/``)."""
    return Path(str(importlib.resources.files("sourced_nlp.models") / DEFAULT_DIR))


def pair_key(premise: str, hypothesis: str) -> str:
    """The cache key of a pair: SHA-1 of both texts (a NUL between them)."""
    return hashlib.sha1(f"{premise}\0{hypothesis}".encode("utf8")).hexdigest()


def _softmax(z: Sequence[float]) -> list[float]:
    top = max(z)
    e = [math.exp(float(v) - top) for v in z]
    total = math.fsum(e)
    return [v / total for v in e]


class EntailmentModel:
    """A loaded model (module docstring); build it with :meth:`load`.

    Attributes:
        name, version: from the model card.
        path: the model's directory.
        batch_size: pairs per run of the network (1: each pair alone, see the module docstring).
        hits, misses: cache counts.
    """

    def __init__(
        self, session: Any, tokenizer: Any, card: dict, path: Path, *, batch_size: int = 1, cache_size: int = 4096
    ) -> None:
        labels = [str(x).lower() for x in card.get("labels", LABELS)]
        if sorted(labels) != sorted(LABELS):
            raise ValueError(f"entailment model {path}: labels {labels} are not {list(LABELS)} in some order")
        if batch_size < 1 or cache_size < 0:
            raise ValueError(
                f"entailment model: batch_size must be >= 1 and cache_size >= 0 ({batch_size}, {cache_size})"
            )
        self.session = session
        self.tokenizer = tokenizer
        self.order = tuple(labels.index(x) for x in LABELS)  # where each of LABELS is among the logits
        self.inputs = tuple(i.name for i in session.get_inputs())
        self.name = str(card.get("name") or path.name)
        ck = card.get("checkpoint") or {}
        self.version = str(card.get("version") or (f"step{ck['step']}" if "step" in ck else "0"))
        self.path = path
        self.batch_size = batch_size
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Scores] = OrderedDict()
        self.hits = 0
        self.misses = 0

    @classmethod
    def load(cls, path: str | Path | None = None, *, batch_size: int = 1, cache_size: int = 4096) -> "EntailmentModel":
        """Load a model directory (the shipped ``models/entailment/`` when ``path`` is None).

        Raises:
            ImportError: onnxruntime or tokenizers is not installed (the message names the extra).
            FileNotFoundError: the directory lacks ``model.onnx``, ``tokenizer.json`` or ``model-card.json``.
            ValueError: a card whose labels are not the three of :data:`LABELS`.
        """
        ort, tokenizer_cls = runtime()
        p = default_dir() if path is None else Path(path)
        files = {f: p / f for f in ("model.onnx", "tokenizer.json", "model-card.json")}
        lacking = [f for f, fp in files.items() if not fp.is_file()]
        if lacking:
            raise FileNotFoundError(f"entailment model {p}: no {', '.join(lacking)}")
        card = json.loads(files["model-card.json"].read_text(encoding="utf8"))
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        session = ort.InferenceSession(str(files["model.onnx"]), so, providers=["CPUExecutionProvider"])
        tok = tokenizer_cls.from_file(str(files["tokenizer.json"]))
        if tok.truncation is None:  # an export saved without it: the training length
            tok.enable_truncation(
                max_length=int((card.get("training") or {}).get("max_len", 128)), strategy="longest_first"
            )
        tok.no_padding()
        return cls(session, tok, card, p, batch_size=batch_size, cache_size=cache_size)

    def __reduce__(self):
        """Pickled as its directory and settings (an onnxruntime session does not pickle): a
        process that unpickles it loads the model again, with an empty cache."""
        return (_reload, (str(self.path), self.batch_size, self.cache_size))

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[Scores]:
        """``(p_entailed, p_contradicted, p_neutral)`` of each ``(premise, hypothesis)`` pair, in
        input order, each rounded to 6 places; cached pairs are not run again."""
        keys = [pair_key(a, b) for a, b in pairs]
        todo: dict[str, tuple[str, str]] = {}
        for k, pair in zip(keys, pairs):
            if k in self._cache:
                self.hits += 1
                self._cache.move_to_end(k)
            elif k not in todo:
                self.misses += 1
                todo[k] = pair
        fresh = self._run(list(todo.values()))
        out = {**{k: self._cache[k] for k in keys if k in self._cache}, **dict(zip(todo, fresh))}
        for k, s in zip(todo, fresh):
            self._cache[k] = s
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return [out[k] for k in keys]

    def _run(self, pairs: list[tuple[str, str]]) -> list[Scores]:
        """The network over ``pairs``, ``batch_size`` at a time, shortest first; input order back."""
        import numpy as np

        if not pairs:
            return []
        encs = self.tokenizer.encode_batch(pairs)
        order = sorted(range(len(pairs)), key=lambda i: (len(encs[i].ids), i))
        out: list[Scores | None] = [None] * len(pairs)
        for at in range(0, len(order), self.batch_size):
            part = order[at : at + self.batch_size]
            width = max(len(encs[i].ids) for i in part)
            feed = {
                n: np.zeros((len(part), width), dtype=np.int64)
                for n in ("input_ids", "attention_mask", "token_type_ids")
            }
            for row, i in enumerate(part):
                e, n = encs[i], len(encs[i].ids)
                feed["input_ids"][row, :n] = e.ids
                feed["attention_mask"][row, :n] = e.attention_mask
                feed["token_type_ids"][row, :n] = e.type_ids
            logits = self.session.run(None, {n: feed[n] for n in self.inputs})[0]
            for row, i in enumerate(part):
                p = _softmax(logits[row].tolist())
                out[i] = tuple(round(p[j], 6) for j in self.order)  # type: ignore[assignment]
        return out  # type: ignore[return-value]


def _reload(path: str, batch_size: int, cache_size: int) -> EntailmentModel:
    return EntailmentModel.load(path, batch_size=batch_size, cache_size=cache_size)
