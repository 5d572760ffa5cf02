"""The meaning tier's model: a logistic regression over :data:`~sourced_nlp.verdict.meaning.features.FEATURES`,
read from a JSON file (pure Python at run time: no numpy, no scikit-learn).

The file (``models/meaning-v1.json``, written by ``bench/train_meaning.py``)::

    {"name": "meaning-lr", "version": "1", "kind": "logistic",
     "features": [names, in order], "mean": [...], "scale": [...], "coef": [...], "intercept": float,
     "grounded_threshold": float, "contradicted_threshold": float | null, "training": {...}}

The score of a feature vector ``x`` is ``sigmoid(intercept + sum(coef_i * (x_i - mean_i) / scale_i))``
(the sum is :func:`math.fsum`), in [0, 1]: the model's estimate that the claim is stated by its
sources. A claim scoring at or above ``grounded_threshold`` is grounded by the tier; at or below
``contradicted_threshold`` (when not null) contradicted.
"""

from __future__ import annotations

import importlib.resources
import json
import math
from dataclasses import dataclass
from pathlib import Path

from .features import FEATURES

#: the model shipped in the package (``models/meaning-v1.json``, the package ``sourced_nlp.models``)
DEFAULT_MODEL = "meaning-v1.json"
_KEYS = ("name", "version", "kind", "features", "mean", "scale", "coef", "intercept", "grounded_threshold")


@dataclass(frozen=True)
class MeaningModel:
    """A loaded model (see the module docstring); build it with :meth:`load`."""

    name: str
    version: str
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    grounded_threshold: float
    contradicted_threshold: float | None
    path: str = ""

    @classmethod
    def load(cls, path: str | Path | None = None) -> "MeaningModel":
        """Read a model file (the shipped ``models/meaning-v1.json`` when ``path`` is None).

        Args:
            path: a model file's path; None for the shipped one.

        Raises:
            FileNotFoundError: no file at ``path``.
            ValueError: the file is not a model of this shape (a key missing, lists of
                different lengths, a threshold outside [0, 1]), or its feature names differ
                from :data:`~sourced_nlp.verdict.meaning.features.FEATURES` (a model trained on other
                features: retrain it with ``bench/train_meaning.py``).
        """
        p = Path(str(importlib.resources.files("sourced_nlp.models") / DEFAULT_MODEL)) if path is None else Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"meaning model: no file {p}")
        try:
            d = json.loads(p.read_text(encoding="utf8"))
        except ValueError as err:
            raise ValueError(f"meaning model {p}: not JSON ({err})") from None
        missing = [k for k in _KEYS if not isinstance(d, dict) or k not in d]
        if missing:
            raise ValueError(f"meaning model {p}: missing {', '.join(missing)}")
        if d["kind"] != "logistic":
            raise ValueError(f"meaning model {p}: kind {d['kind']!r} is not 'logistic'")
        names = tuple(d["features"])
        if names != FEATURES:
            extra = [n for n in names if n not in FEATURES]
            lacking = [n for n in FEATURES if n not in names]
            raise ValueError(
                f"meaning model {p}: its features do not match this version's "
                f"(not known: {extra or '-'}; not in the file: {lacking or '-'}; or another order); "
                "retrain it with bench/train_meaning.py"
            )
        if not (len(d["mean"]) == len(d["scale"]) == len(d["coef"]) == len(names)):
            raise ValueError(f"meaning model {p}: mean, scale and coef must have one entry per feature ({len(names)})")
        if any(float(s) <= 0 for s in d["scale"]):
            raise ValueError(f"meaning model {p}: every scale must be > 0")
        ct = d.get("contradicted_threshold")
        for key, t in (("grounded_threshold", d["grounded_threshold"]), ("contradicted_threshold", ct)):
            if t is not None and not 0.0 <= float(t) <= 1.0:
                raise ValueError(f"meaning model {p}: {key} {t} is outside [0, 1]")
        return cls(
            str(d["name"]),
            str(d["version"]),
            names,
            tuple(map(float, d["mean"])),
            tuple(map(float, d["scale"])),
            tuple(map(float, d["coef"])),
            float(d["intercept"]),
            float(d["grounded_threshold"]),
            None if ct is None else float(ct),
            str(p),
        )

    def score(self, x: list[float]) -> float:
        """The model's score of one feature vector (module docstring), rounded to 6 places.

        Raises:
            ValueError: ``x`` has another length than the model's features.
        """
        if len(x) != len(self.coef):
            raise ValueError(f"meaning model {self.name}: {len(x)} features given, {len(self.coef)} expected")
        z = math.fsum([self.intercept, *((c * (v - m) / s) for c, v, m, s in zip(self.coef, x, self.mean, self.scale))])
        z = max(-60.0, min(60.0, z))
        return round(1.0 / (1.0 + math.exp(-z)), 6)
