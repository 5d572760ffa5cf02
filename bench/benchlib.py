"""Shared pieces of the benchmark scripts: RAGTruth loading, source formatting for both tools,
sentence offsets for both tools, metrics (ROC-AUC by the rank formula, F1, balanced accuracy)
and Markdown tables.

Nothing here tunes anything: it only runs the tools and counts.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import sys
import time
from pathlib import Path
from typing import Any, Iterable

REPO = Path(__file__).resolve().parent.parent
DATA = (REPO / ".." / "shared" / "data").resolve()
RAGTRUTH = DATA / "ragtruth"
DEV = DATA / "dev"
OUT = REPO / "bench" / "out"

TASKS = ("QA", "Summary", "Data2txt")
VERDICTS = ("grounded", "contradicted", "unverified")
OURS, PEER = "sourced-nlp", "sourced-evidence"

# RAGTruth QA passages are one string: "passage 1:... passage 2:...".
_PASSAGE = re.compile(r"(?:^|\n)\s*passage\s*(\d+)\s*:", re.I)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def read_jsonl(path: Path | str) -> list[dict]:
    with open(path, encoding="utf8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# ---------------------------------------------------------------------------- RAGTruth
def load_ragtruth(data_dir: Path | str, split: str | None = None) -> tuple[list[dict], dict[str, dict]]:
    """``(responses, sources_by_id)``; responses of ``split`` only (all when None), in file order."""
    data_dir = Path(data_dir)
    sources = {str(s["source_id"]): s for s in read_jsonl(data_dir / "source_info.jsonl")}
    responses = [r for r in read_jsonl(data_dir / "response.jsonl") if split is None or r.get("split") == split]
    for r in responses:
        r["source_id"] = str(r["source_id"])
    return responses, sources


def qa_passages(passages: str) -> list[tuple[str, str]]:
    """Split ``"passage 1:... passage 2:..."`` into ``[("passage 1", text), ...]`` (empty ones dropped).
    Text before the first marker, if any, is kept as ``"passage 0"``."""
    out: list[tuple[str, str]] = []
    marks = list(_PASSAGE.finditer(passages))
    if not marks:
        return [("passage 1", passages.strip())] if passages.strip() else []
    head = passages[: marks[0].start()].strip()
    if head:
        out.append(("passage 0", head))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(passages)
        text = passages[m.end() : end].strip()
        if text:
            out.append((f"passage {m.group(1)}", text))
    return out


def _structured(info: Any) -> Any:
    if isinstance(info, str):
        try:
            return json.loads(info)
        except ValueError:
            return info
    return info


def sources_for(source: dict) -> tuple[list, list[str]]:
    """The sources of one RAGTruth task: ``(for sourced-nlp, for sourced-evidence)``.

    QA: each ``passage N:`` is its own source (the question is not a source). Summary: the
    article. Data2txt: the business JSON object itself for sourced-nlp (a structured source), the
    same JSON dumped with ``indent=1`` as plain text for sourced-evidence.
    """
    task, info = source["task_type"], source["source_info"]
    if task == "QA":
        passages = qa_passages(info["passages"] if isinstance(info, dict) else str(info))
        return [{"id": pid, "text": text} for pid, text in passages], [text for _, text in passages]
    if task == "Data2txt":
        obj = _structured(info)
        if isinstance(obj, (dict, list)):
            return [obj], [json.dumps(obj, indent=1, ensure_ascii=False)]
        return [str(obj)], [str(obj)]
    text = info if isinstance(info, str) else json.dumps(info, ensure_ascii=False)
    return [text], [text]


def subsample(items: list, quick_every: int | None, limit: int | None) -> list:
    """Every k-th item (deterministic, k = ``quick_every``), then the first ``limit``."""
    if quick_every and quick_every > 1:
        items = items[::quick_every]
    if limit is not None:
        items = items[:limit]
    return items


# ---------------------------------------------------------------------------- segments
def peer_segments(response: str, claims: list[dict]) -> list[dict]:
    """Map sourced-evidence's claims (texts only, in order) back to offsets in ``response``.

    Its splitter strips the text, splits on line breaks and sentence ends and strips each part,
    so every claim is a substring of the response found in order. A claim not found (never
    expected) is kept with ``start = end = -1`` and counted by the caller.
    """
    out, cursor = [], 0
    for c in claims:
        text = c["claim"]
        i = response.find(text, cursor)
        if i < 0:
            i = response.find(text)
        if i < 0:
            out.append({"start": -1, "end": -1, "text": text, "verdict": c["status"], "reason": c.get("detail", "")})
            continue
        out.append(
            {"start": i, "end": i + len(text), "text": text, "verdict": c["status"], "reason": c.get("detail", "")}
        )
        cursor = i + len(text)
    return out


def our_segments(report: Any) -> list[dict]:
    """Claims and skipped segments of a sourced-nlp report, in answer order. Skipped segments get
    verdict ``"skipped"`` (not grounded) and no support; whitespace-only segments are dropped."""
    rows = []
    for c in report.claims:
        rows.append(
            {
                "start": c.start,
                "end": c.end,
                "text": c.text,
                "verdict": c.verdict,
                "support": float(c.support),
                "reason": c.reason,
                "kind": "claim",
                "differs": c.differs[0]["kind"] if c.differs else None,
            }
        )
    for s in report.skipped:
        if not (s.text or "").strip():
            continue
        rows.append(
            {
                "start": s.start,
                "end": s.end,
                "text": s.text,
                "verdict": "skipped",
                "support": None,
                "reason": f"skipped: {s.kind}",
                "kind": s.kind,
            }
        )
    rows.sort(key=lambda r: (r["start"], r["end"]))
    return rows


def label_sentence(seg: dict, labels: list[dict]) -> tuple[bool, bool]:
    """``(hallucinated, conflict)``: any labelled span overlapping ``[start, end)``; a Conflict type."""
    hall = conflict = False
    s, e = seg["start"], seg["end"]
    if s < 0:
        return False, False
    for lab in labels:
        if int(lab["start"]) < e and int(lab["end"]) > s:
            hall = True
            if "Conflict" in str(lab.get("label_type", "")):
                conflict = True
    return hall, conflict


# ---------------------------------------------------------------------------- metrics
def ratio(num: float, den: float) -> float | None:
    return None if not den else num / den


def roc_auc(scores: list[float], positives: list[bool]) -> float | None:
    """ROC-AUC by the rank formula (Mann-Whitney U), ties given their average rank.

    ``scores`` higher = more likely positive. None when one class is absent.
    """
    n = len(scores)
    n_pos = sum(1 for p in positives if p)
    n_neg = n - n_pos
    if n_pos == 0 or n_neg == 0:
        return None
    order = sorted(range(n), key=lambda i: scores[i])
    ranks = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1  # ranks are 1-based
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        i = j + 1
    rank_sum = sum(r for r, p in zip(ranks, positives) if p)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def prf(pred: list[bool], gold: list[bool]) -> dict:
    tp = sum(1 for p, g in zip(pred, gold) if p and g)
    fp = sum(1 for p, g in zip(pred, gold) if p and not g)
    fn = sum(1 for p, g in zip(pred, gold) if not p and g)
    precision = ratio(tp, tp + fp)
    recall = ratio(tp, tp + fn)
    f1 = None
    if precision is not None and recall is not None and precision + recall > 0:
        f1 = 2 * precision * recall / (precision + recall)
    elif tp + fn > 0:
        f1 = 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn, "n": len(gold)}


# ---------------------------------------------------------------------------- tables
def fmt(v: Any, pct: bool = False, digits: int = 3) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{100 * v:.1f}%" if pct else f"{v:.{digits}f}"
    return str(v)


def md_table(header: list[str], rows: Iterable[list[Any]]) -> str:
    rows = [[str(c) for c in r] for r in rows]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- provenance
def code_fingerprint() -> str:
    """SHA-1 over the package sources and lexicons: a cached threshold is reused only while
    the checker is byte-identical."""
    h = hashlib.sha1()
    for root in (REPO / "sourced_nlp", REPO / "models"):
        for p in sorted(root.rglob("*")):
            if p.is_file() and p.suffix in {".py", ".json", ".jsonl", ".txt", ".cfg"}:
                h.update(str(p.relative_to(REPO)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()


def file_sha1(path: Path | str) -> str:
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def git_commit() -> str:
    try:
        import subprocess

        out = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        )
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "sourced_nlp", "models"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except Exception:  # noqa: BLE001 - provenance only
        return "unknown"


def machine() -> dict:
    info = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        import spacy

        info["spacy"] = spacy.__version__
    except ImportError:
        pass
    try:
        import sourced

        info["sourced-evidence"] = getattr(sourced, "__version__", "?")
    except ImportError:
        pass
    info["commit"] = git_commit()
    info["date"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    return info


def load_peer():
    """``sourced.check`` of sourced-evidence, or None with a message when it is not installed."""
    try:
        from sourced import check  # sourced-evidence
    except ImportError:
        log("sourced-evidence is not installed (pip install sourced-evidence==0.4.1): skipping it")
        return None
    return check


def dump_json(path: Path | str, obj: Any) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf8") as fh:
        json.dump(obj, fh, indent=2, ensure_ascii=False, sort_keys=False)
        fh.write("\n")
