"""The claims of reports as a ``pandas.DataFrame``, one row per claim.

pandas is imported only when a frame is built (the ``notebook`` extra); the rows are plain
dicts of :class:`~sourced_nlp.report.ClaimResult` fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .marks import VERDICTS, differs_joined

if TYPE_CHECKING:  # pragma: no cover
    from .data import ClaimResult

__all__ = ["FRAME_COLUMNS", "claim_row", "claims_frame"]

FRAME_COLUMNS = (
    "claim",
    "text",
    "start",
    "end",
    "verdict",
    "support",
    "reason",
    "differs",
    "evidence_source",
    "evidence_start",
    "evidence_end",
    "evidence_text",
    "n_evidence",
    "rule",
    "rule_precision",
)


def claim_row(i: int, c: ClaimResult) -> dict:
    """The row of claim ``c`` at position ``i`` of its report, keyed by :data:`FRAME_COLUMNS`:
    the first evidence passage only (``None`` without one), ``differs`` as ``"12% ≠ 8%"``,
    ``rule_precision`` the measured precision in [0, 1] of the claim's rule (None: unmeasured)."""
    e = c.evidence[0] if c.evidence else None
    return {
        "claim": i,
        "text": c.text,
        "start": c.start,
        "end": c.end,
        "verdict": c.verdict,
        "support": float(c.support),
        "reason": c.reason,
        "differs": differs_joined(c.differs, sides=False),
        "evidence_source": e.source if e else None,
        "evidence_start": e.start if e else None,
        "evidence_end": e.end if e else None,
        "evidence_text": e.text if e else None,
        "n_evidence": len(c.evidence),
        "rule": c.rule,
        "rule_precision": c.rule_precision,
    }


def claims_frame(rows: list[dict], batch: bool = True):
    """The ``pandas.DataFrame`` of claim rows (:func:`claim_row`, each preceded by its
    ``report`` key when ``batch``): the columns of :data:`FRAME_COLUMNS`, ``verdict`` a
    categorical of :data:`~sourced_nlp.report.marks.VERDICTS`, offsets nullable integers,
    ``rule_precision`` float (NaN: unmeasured).

    Raises:
        ImportError: pandas is not installed (``pip install 'sourced-nlp[notebook]'``).
    """
    try:
        import pandas as pd
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("to_frame needs pandas: pip install 'sourced-nlp[notebook]'") from err
    columns = (["report"] if batch else []) + list(FRAME_COLUMNS)
    df = pd.DataFrame(rows, columns=columns)
    df["verdict"] = pd.Categorical(df["verdict"], categories=list(VERDICTS))
    for col in ("claim", "start", "end", "n_evidence"):
        df[col] = df[col].astype("int64")
    for col in ("evidence_start", "evidence_end"):
        df[col] = df[col].astype("Int64")
    for col in ("support", "rule_precision"):
        df[col] = df[col].astype("float64")
    return df
