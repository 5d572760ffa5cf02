"""Calibration: how often a judge (or the rules, or the meaning tier) agrees with human labels on a gold set.

A gold set is JSONL, one claim per line: ``{"id", "claim", "sources": [{"id", "text"} or "text", ...],
"label": "grounded" | "contradicted" | "unverified", "origin"}`` (``bench/make_gold.py``
draws one from ``../shared/data``). :func:`calibrate` gives the agreement (the share of claims
whose verdict is the label), the confusion matrix (label -> verdict -> count) and, per verdict,
its precision (the share of claims given that verdict whose label it is) and recall.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Optional, Sequence

import srsly

from ..judges.base import VERDICTS, Candidate, Judge, JudgeInput
from ..judges.quotes import settle
from ..judges.tier import ask
from ..text.sources import normalize_sources


def read_gold(path: str | Path) -> list[dict]:
    """The rows of a gold file, checked.

    Raises:
        ValueError: no such file, a line that is not JSON, or a row without a ``claim``
            string, a non-empty ``sources`` list or a known ``label``, or with sources that
            :func:`sourced_nlp.text.sources.normalize_sources` refuses (the message names the file
            and line); a file with no row. The sources take every shape the rest of the package
            accepts (strings, ``{"id", "text"}``, document mappings, structured JSON), normalised
            to ``{"id", "text"}``.
    """
    try:
        text = Path(path).read_text(encoding="utf8")
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"gold file {path}: cannot read it ({err.__class__.__name__})") from None
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = srsly.json_loads(line)
        except ValueError:
            raise ValueError(f"gold file {path}: line {n} is not JSON") from None
        ok = (
            isinstance(row, dict)
            and isinstance(row.get("claim"), str)
            and row.get("label") in VERDICTS
            and isinstance(row.get("sources"), list)
            and row["sources"]
        )
        if not ok:
            raise ValueError(
                f'gold file {path}: line {n} needs "claim", a non-empty "sources" list and a '
                f"label in {', '.join(VERDICTS)}"
            )
        try:
            sources = normalize_sources(row["sources"])
        except ValueError as err:
            raise ValueError(f"gold file {path}: line {n}: {err}") from None
        row["sources"] = [{"id": s["id"], "text": s["text"]} for s in sources]
        rows.append(row)
    if not rows:
        raise ValueError(f"gold file {path}: no rows")
    return rows


def overall(verdicts: Sequence[str]) -> str:
    """One verdict for a gold claim the pipeline split into several: contradicted if any is,
    grounded if all are (and there is one), else unverified."""
    if "contradicted" in verdicts:
        return "contradicted"
    return "grounded" if verdicts and all(v == "grounded" for v in verdicts) else "unverified"


def pipeline_verdicts(rows: Sequence[dict], nlp: Any = None) -> list[str]:
    """Each gold claim checked by the pipeline (the rules, and its judge if it has one)."""
    from .. import api

    reports = api.check_many([(r["claim"], r["sources"]) for r in rows], nlp=nlp)
    return [overall([c.verdict for c in rep.claims]) for rep in reports]


def judge_verdicts(judge: Judge, rows: Sequence[dict]) -> list[tuple[str, str]]:
    """Each gold claim asked of ``judge`` alone (every source as one passage), its quote checked:
    ``[(verdict, status)]`` with status ``accepted``, ``unverified``, ``discarded`` or ``failed``."""

    def one(row: dict) -> tuple[str, str]:
        sources = {s["id"]: s["text"] for s in row["sources"]}
        passages = tuple(Candidate(sid, 0, len(text), text) for sid, text in sources.items())
        s = settle(ask(judge, [JudgeInput(0, row["claim"], passages)], sources)[0], sources)
        if s.match is not None:
            return s.verdict, "accepted"
        if s.judgment.error is not None:
            return "unverified", "failed"
        return "unverified", "unverified" if s.judgment.verdict == "unverified" else "discarded"

    workers = max(1, int(getattr(judge, "concurrency", 1) or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, rows))


def metrics(labels: Sequence[str], verdicts: Sequence[str]) -> dict:
    """``{"n", "agreement", "confusion", "per_verdict"}``: agreement in [0, 1] (None for no
    claim); ``confusion[label][verdict]`` counts; ``per_verdict[v]`` = ``{"predicted", "correct",
    "precision", "recall"}`` (None when undefined: nothing predicted, no such label)."""
    confusion = {g: {p: 0 for p in VERDICTS} for g in VERDICTS}
    for g, p in zip(labels, verdicts):
        confusion[g][p] += 1
    n = len(labels)
    agree = sum(confusion[v][v] for v in VERDICTS)
    per = {}
    for v in VERDICTS:
        predicted = sum(confusion[g][v] for g in VERDICTS)
        gold = sum(confusion[v].values())
        per[v] = {
            "predicted": predicted,
            "correct": confusion[v][v],
            "precision": round(confusion[v][v] / predicted, 4) if predicted else None,
            "recall": round(confusion[v][v] / gold, 4) if gold else None,
        }
    return {"n": n, "agreement": round(agree / n, 4) if n else None, "confusion": confusion, "per_verdict": per}


def calibrate(rows: Sequence[dict], judge: Optional[Judge] = None, nlp: Any = None) -> dict:
    """Agreement of a judge, or of the pipeline, with the labels of a gold set.

    Args:
        rows: gold rows (:func:`read_gold`).
        judge: a backend to ask about every claim alone; None: the pipeline ``nlp`` decides.
        nlp: the pipeline when ``judge`` is None (default :func:`sourced_nlp.load_pipeline`:
            the rules and the meaning tier); give one with ``{"meaning": None}`` in its config for
            the rules alone, or with a judge in its config to measure the tiers together.

    Returns:
        :func:`metrics` plus ``backend`` (the judge's, or the pipeline's tiers: ``rules``,
        ``rules+meaning``, ``rules+meaning+replay``), ``meaning`` (the meaning tier's model and
        version, None without it), ``model``, ``prompt_version`` (the judge's; None without one),
        ``status`` (judge answers by status: accepted, unverified, discarded, failed) and
        ``origins`` (claims per origin of the gold set).
    """
    labels = [r["label"] for r in rows]
    out: dict = {"backend": "rules", "model": None, "prompt_version": None, "meaning": None}
    if judge is not None:
        judged = judge_verdicts(judge, rows)
        verdicts = [v for v, _ in judged]
        out.update(
            backend=judge.backend,
            model=judge.model,
            prompt_version=judge.prompt_version,
            status=dict(Counter(s for _, s in judged)),
        )
    else:
        if nlp is None:
            from .. import api

            nlp = api.load_pipeline()
        verdicts = pipeline_verdicts(rows, nlp)
        verify = nlp.get_pipe("sourced_verify")
        tiers = ["rules"]
        m = getattr(verify, "meaning", None)
        if m is not None:
            tiers.append("meaning")
            model = getattr(m, "model", None)
            out["meaning"] = f"{getattr(model, 'name', type(m).__name__)} {getattr(model, 'version', '')}".strip()
        j = getattr(verify, "judge", None)
        if j is not None:
            tiers.append(j.backend)
            out.update(model=j.model, prompt_version=j.prompt_version)
        out["backend"] = "+".join(tiers)
    out.update(metrics(labels, verdicts))
    out["origins"] = dict(Counter(str(r.get("origin", "")) for r in rows))
    return out


def gold_digest(path: str | Path) -> str:
    """SHA-1 of a gold file's bytes (recorded with the results, to name the set measured)."""
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def table(result: dict) -> str:
    """The result as Markdown: a header line, the confusion matrix and precision per verdict."""
    head = (
        f"{result['backend']}"
        + (f" ({result['meaning']})" if result.get("meaning") else "")
        + (f" {result['model']}" if result.get("model") else "")
        + (f" (prompt {result['prompt_version']})" if result.get("prompt_version") else "")
        + f": agreement {result['agreement']:.1%} on {result['n']} claims"
        if result["n"]
        else ": no claims"
    )
    lines = [head, "", "| label \\ verdict | " + " | ".join(VERDICTS) + " | recall |", "|---|" + "---:|" * 4]
    for g in VERDICTS:
        rec = result["per_verdict"][g]["recall"]
        lines.append(
            f"| {g} | "
            + " | ".join(str(result["confusion"][g][p]) for p in VERDICTS)
            + f" | {'—' if rec is None else f'{rec:.1%}'} |"
        )
    prec = [result["per_verdict"][v]["precision"] for v in VERDICTS]
    lines.append("| precision | " + " | ".join("—" if p is None else f"{p:.1%}" for p in prec) + " | |")
    if result.get("status"):
        lines += ["", "judge answers: " + ", ".join(f"{k} {v}" for k, v in sorted(result["status"].items()))]
    return "\n".join(lines)
