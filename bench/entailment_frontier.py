"""The entailment tier's frontier: what each threshold of ``sourced.meaning.v2`` would do, from one
probing run per data set.

One probing run checks every record with the tier's two jobs opened wide and their effect held
back: the **veto** scores every grounded claim the guard lets through and takes none back; the
**paraphrase** route grounds every eligible claim (``paraphrase_threshold`` 0), which the guard
then passes or takes back. Each claim's ``p_entailed`` is recorded. A threshold pair is then
applied offline: a grounded claim whose ``1 - p_entailed >= veto`` leaves grounded (counted as
unverified: the ``contradicted`` rule that may follow a veto is not replayed, so the contradicted
counts here are the rules'), and a paraphrase grounding stands when ``p_entailed >= paraphrase``.
False-grounded and coverage are exact for every pair (a veto only ever takes a claim out of
grounded); the verdict of a chosen pair is confirmed by running it (``bench/ragtruth.py
--verify-config``).

Reported: RAGTruth (``--split``, train by default: the tuning split) false-grounded rate and
clean-grounded coverage, overall and per task (definitions of ``bench/ragtruth.py``); the dev
sets of ``bench/claims.py`` (WiCE grounded precision, SummEdits balanced accuracy, and balanced
accuracy per set); the same for the rules only (``meaning: null``) as the baseline.

Usage::

    python bench/entailment_frontier.py                          # train + the four dev sets
    python bench/entailment_frontier.py --limit 100 --sets wice  # a quick look
    python bench/entailment_frontier.py --json bench/out/entailment-frontier.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import claims as claims_bench  # noqa: E402
import ragtruth as ragtruth_bench  # noqa: E402
from benchlib import label_sentence, log, md_table  # noqa: E402

VETOES = (1.01, 0.99, 0.98, 0.95, 0.9, 0.8, 0.7, 0.5)
PARAPHRASES = (1.01, 0.99, 0.98, 0.95, 0.9, 0.8, 0.7)
DATA = HERE.parent.parent / "shared" / "data"

#: p_entailed recorded by the probing run, keyed by (record number, claim start, claim end)
SCORES: dict[tuple[int, int, int], float] = {}
CURRENT = [0]


def probing_pipeline():
    """A pipeline whose entailment tier records every score and vetoes nothing."""
    import sourced_nlp
    from sourced_nlp.verdict.rules.entailment import EntailmentRule

    nlp = sourced_nlp.load_pipeline(
        config={"meaning": {"@misc": "sourced.meaning.v2", "veto_threshold": 0.0, "paraphrase_threshold": 0.0}}
    )
    veto = EntailmentRule.veto

    def recording_veto(self, ctx, res):
        taken = veto(self, ctx, res)
        if taken is not None and taken.get("meaning"):
            SCORES[(CURRENT[0], ctx.record["start"], ctx.record["end"])] = taken["meaning"]["score"]
        return None  # recorded, not taken back

    EntailmentRule.veto = recording_veto
    return nlp


def probe(records: list[tuple[str, list]], nlp) -> list[list[dict]]:
    """Per record, its claims ``{"start", "end", "verdict", "rule", "score"}`` under the probe."""
    import sourced_nlp

    out = []
    for k, (answer, sources) in enumerate(records):
        CURRENT[0] = k
        rep = sourced_nlp.check(answer, sources, nlp=nlp).to_dict()
        rows = []
        for c in rep["claims"]:
            score = (
                (c.get("meaning") or {}).get("score")
                if c["rule"] == "grounded.entailment"
                else SCORES.get((k, c["start"], c["end"]))
            )
            rows.append(
                {"start": c["start"], "end": c["end"], "verdict": c["verdict"], "rule": c["rule"], "score": score}
            )
        out.append(rows)
    return out


def verdict_at(c: dict, veto: float, paraphrase: float) -> str:
    """A probed claim's verdict at a threshold pair (module docstring)."""
    if c["rule"] == "grounded.entailment":
        return "grounded" if c["score"] >= paraphrase else "unverified"
    if c["verdict"] == "grounded" and c["score"] is not None and 1 - c["score"] >= veto:
        return "unverified"
    return c["verdict"]


def ragtruth_frontier(split: str, limit: int | None, nlp) -> dict:
    items = ragtruth_bench.build_items(DATA / "ragtruth", split, quick=False, limit=limit)
    t = time.time()
    probed = probe([(it["response"], it["src_ours"]) for it in items], nlp)
    log(f"ragtruth {split}: {len(items)} responses probed in {time.time() - t:.0f}s")
    claims = []
    for it, rows in zip(items, probed):
        for c in rows:
            hall, _ = label_sentence({"start": c["start"], "end": c["end"]}, it["labels"])
            claims.append({**c, "hall": hall, "task": it["task"]})
    out = {}
    for veto in VETOES:
        for para in PARAPHRASES:
            row = {}
            for task in ("all", "QA", "Summary", "Data2txt"):
                sel = [c for c in claims if task == "all" or c["task"] == task]
                if not sel:
                    continue  # the train split has no Data2txt response
                got = [verdict_at(c, veto, para) == "grounded" for c in sel]
                grounded = [c for c, g in zip(sel, got) if g]
                clean = [g for c, g in zip(sel, got) if not c["hall"]]
                row[task] = {
                    "false_grounded": sum(c["hall"] for c in grounded) / max(1, len(grounded)),
                    "coverage": sum(clean) / max(1, len(clean)),
                    "grounded": len(grounded),
                }
            out[f"{veto}/{para}"] = row
    return {
        "claims": len(claims),
        "frontier": out,
        "vetoed_scores": sorted(c["score"] for c in claims if c["verdict"] == "grounded" and c["score"] is not None)[
            :5
        ],
    }


def dev_frontier(name: str, limit: int | None, nlp) -> dict:
    items, classes = claims_bench.load_set(name, DATA / "dev")
    items = [it for it in items if claims_bench.usable(it)]
    if limit:  # evenly spaced, as claims.py --quick
        items = items[:: max(1, len(items) // limit)][:limit]
    SCORES.clear()
    t = time.time()
    probed = probe([(it["claim"], it["sources"]) for it in items], nlp)
    log(f"{name}: {len(items)} items probed in {time.time() - t:.0f}s")
    out = {}
    for veto in VETOES:
        for para in PARAPHRASES:
            preds = [claims_bench.combine([verdict_at(c, veto, para) for c in rows]) for rows in probed]
            res = claims_bench.score(items, preds, classes)
            grounded = [it for it, p in zip(items, preds) if p == "grounded"]
            out[f"{veto}/{para}"] = {
                "balanced_accuracy": res["balanced_accuracy"],
                "grounded_precision": sum(it["gold"] == "grounded" for it in grounded) / max(1, len(grounded)),
                "grounded": len(grounded),
            }
    return {"items": len(items), "frontier": out}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="train", help="RAGTruth split (train: the tuning split; test: reporting only)")
    ap.add_argument(
        "--limit",
        type=int,
        default=None,
        help="at most this many records per data set (RAGTruth: the first; a dev set: evenly spaced)",
    )
    ap.add_argument("--sets", default="ragtruth,climate-fever,wice,summedits,factcheck-gpt")
    ap.add_argument("--json", type=Path, default=None, help="write every figure here")
    args = ap.parse_args(argv)
    nlp = probing_pipeline()
    results: dict = {"split": args.split, "limit": args.limit}
    for name in args.sets.split(","):
        SCORES.clear()
        results[name] = (
            ragtruth_frontier(args.split, args.limit, nlp)
            if name == "ragtruth"
            else dev_frontier(name, args.limit, nlp)
        )
    base = "1.01/1.01"
    shown = [f"{v}/1.01" for v in VETOES] + [
        f"1.01/{p}" for p in PARAPHRASES[1:]
    ]  # each job alone; --json has every pair
    for name, res in results.items():
        if not isinstance(res, dict) or "frontier" not in res:
            continue
        print(f"\n## {name} ({res.get('claims', res.get('items'))}; veto/paraphrase, {base} = the rules only)\n")
        if name == "ragtruth":
            rows = [
                [
                    k,
                    *(
                        f"{v[t]['false_grounded']:.1%} / {v[t]['coverage']:.1%}" if t in v else "—"
                        for t in ("all", "QA", "Summary", "Data2txt")
                    ),
                ]
                for k, v in res["frontier"].items()
                if k in shown
            ]
            print(md_table(["veto/paraphrase", "all FG / cov", "QA", "Summary", "Data2txt"], rows))
        else:
            rows = [
                [k, f"{v['balanced_accuracy']:.1%}", f"{v['grounded_precision']:.1%}", v["grounded"]]
                for k, v in res["frontier"].items()
                if k in shown
            ]
            print(md_table(["veto/paraphrase", "balanced acc.", "grounded precision", "grounded"], rows))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1), encoding="utf8")
    print(f"\ncommand: python bench/entailment_frontier.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
