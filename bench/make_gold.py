"""Draw the judge calibration gold set from ``../shared/data`` (and a stand-in's answers for it).

The data may not be copied into the project, so the gold set is not shipped: this script
writes it, the same every time (fixed seed), wherever it is asked to:

- 60 climate-fever claim/evidence pairs on which every annotator agreed (entropy 0), 20 per
  verdict (``SUPPORTS`` grounded, ``REFUTES`` contradicted, ``NOT_ENOUGH_INFO`` unverified);
  the source is the evidence sentence;
- 40 SummEdits summaries against their document: 20 consistent (grounded), 12 inconsistent by
  an entity change, antonym swap or negation only (contradicted), 8 inconsistent by an inserted
  fact only (unverified);
- 60 sentences of RAGTruth **train** responses (QA and Summary), 20 each: no labelled span
  (grounded), overlapping a Conflict span (contradicted), overlapping only a Baseless span
  (unverified); the sources are the record's passages or article.

``--answers FILE`` also writes, for ``--judge replay``, the answers of a *stand-in* judge: for
each claim, the source sentence most like it (rapidfuzz ``token_set_ratio``); ``grounded`` with
that sentence as its quote when they score at least 90, else ``unverified``. It is string
similarity, not a language model: it shows what calibration prints and lets the suite run it
offline. Record a real model's answers with ``sourced calibrate GOLD --judge anthropic --record FILE``.

    python bench/make_gold.py --out bench/out/gold.jsonl --answers bench/out/gold-answers.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

from rapidfuzz import fuzz

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import DATA, label_sentence, load_ragtruth, read_jsonl, sources_for  # noqa: E402

SEED = 17
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+[\"')\]]*|$)")
_CONTRA_EDITS = {"entity_modification", "antonym_swap", "negation_insertion_removal"}


def sentences(text: str) -> list[tuple[int, int]]:
    """``[(start, end)]`` of the sentences of ``text`` (a regular-expression split; stripped)."""
    out = []
    for m in _SENTENCE.finditer(text):
        s, e = m.start(), m.end()
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e - s >= 12:
            out.append((s, e))
    return out


def climate(data: Path, rng: random.Random) -> list[dict]:
    """20 climate-fever pairs per verdict, among those every annotator agreed on (entropy 0)."""
    rows = [r for r in read_jsonl(data / "dev" / "climate-fever" / "claim_evidence_pairs.jsonl") if r["entropy"] == 0]
    out = []
    for verdict in ("grounded", "contradicted", "unverified"):
        pool = [r for r in rows if r["verdict"] == verdict]
        for r in rng.sample(pool, 20):
            out.append(
                {
                    "id": f"climate-fever:{r['evidence_id']}:{r['claim_id']}",
                    "claim": r["claim"],
                    "sources": [{"id": "evidence", "text": r["evidence"]}],
                    "label": verdict,
                    "origin": "climate-fever",
                }
            )
    return out


def summedits(data: Path, rng: random.Random) -> list[dict]:
    """20 consistent SummEdits summaries, 12 edited to contradict their document, 8 with an inserted fact."""
    rows = read_jsonl(data / "dev" / "summedits" / "evaluation.jsonl")
    pools = {
        "grounded": [r for r in rows if r["label"] == 1],
        "contradicted": [
            r for r in rows if r["label"] == 0 and r["edit_types"] and set(r["edit_types"]) <= _CONTRA_EDITS
        ],
        "unverified": [r for r in rows if r["label"] == 0 and r["edit_types"] == ["hallucinated_fact_insertion"]],
    }
    out = []
    for verdict, n in (("grounded", 20), ("contradicted", 12), ("unverified", 8)):
        for r in rng.sample(pools[verdict], n):
            out.append(
                {
                    "id": f"summedits:{r['id']}",
                    "claim": r["summary"],
                    "sources": [{"id": "doc", "text": r["doc"]}],
                    "label": verdict,
                    "origin": "summedits",
                }
            )
    return out


def ragtruth(data: Path, rng: random.Random) -> list[dict]:
    """20 RAGTruth train sentences (QA, Summary) per label: clean, in a Conflict span, in a Baseless span only."""
    responses, sources = load_ragtruth(data / "ragtruth", split="train")
    pools: dict[str, list[dict]] = {"grounded": [], "contradicted": [], "unverified": []}
    for r in responses:
        src = sources.get(r["source_id"])
        if src is None or src["task_type"] not in ("QA", "Summary"):
            continue
        ours, _ = sources_for(src)
        srcs = [s if isinstance(s, dict) else {"id": "source", "text": s} for s in ours]
        for s, e in sentences(r["response"]):
            hall, conflict = label_sentence({"start": s, "end": e}, r["labels"])
            label = "contradicted" if conflict else "unverified" if hall else "grounded"
            pools[label].append(
                {
                    "id": f"ragtruth:{r['id']}:{s}",
                    "claim": r["response"][s:e],
                    "sources": srcs,
                    "label": label,
                    "origin": f"ragtruth-{src['task_type'].lower()}",
                }
            )
    return [row for verdict in ("grounded", "contradicted", "unverified") for row in rng.sample(pools[verdict], 20)]


def gold_set(data: Path = DATA, seed: int = SEED) -> list[dict]:
    """The gold rows, in a fixed order (climate-fever, SummEdits, RAGTruth train)."""
    rng = random.Random(seed)
    return climate(data, rng) + summedits(data, rng) + ragtruth(data, rng)


def stand_in(row: dict) -> dict:
    """The stand-in judge's answer for one gold row (see the module docstring)."""
    best, best_score = None, -1.0
    for src in row["sources"]:
        for s, e in sentences(src["text"]):
            score = fuzz.token_set_ratio(row["claim"], src["text"][s:e])
            if score > best_score:
                best, best_score = (src["id"], src["text"][s:e]), score
    base = {"claim": row["claim"], "model": "stand-in:token_set_ratio>=90", "prompt_version": "judge-v1"}
    if best is not None and best_score >= 90:
        return {
            **base,
            "verdict": "grounded",
            "source": best[0],
            "quote": best[1],
            "reason": f"the closest source sentence scores {best_score:.0f}",
        }
    return {
        **base,
        "verdict": "unverified",
        "source": "",
        "quote": "",
        "reason": f"no source sentence is close enough (best {best_score:.0f})",
    }


def main(argv: list[str] | None = None) -> int:
    """Write the gold set (and the stand-in's answers); exit 2 without the shared data."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="the shared data folder (default ../shared/data)")
    ap.add_argument("--out", type=Path, required=True, help="where to write the gold set (JSONL)")
    ap.add_argument("--answers", type=Path, help="also write the stand-in judge's answers here (JSONL)")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    if not (args.data / "ragtruth" / "response.jsonl").is_file() or not (args.data / "dev").is_dir():
        print(f"error: no shared data under {args.data} (ragtruth/ and dev/ are needed)", file=sys.stderr)
        return 2
    rows = gold_set(args.data, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf8")
    if args.answers:
        args.answers.parent.mkdir(parents=True, exist_ok=True)
        args.answers.write_text(
            "".join(json.dumps(stand_in(r), ensure_ascii=False) + "\n" for r in rows), encoding="utf8"
        )
    print(f"{len(rows)} gold claims -> {args.out}" + (f"; stand-in answers -> {args.answers}" if args.answers else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
