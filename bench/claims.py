"""Claim-level dev sets: sourced-nlp and sourced-evidence on claim + evidence pairs.

The four sets under ``../shared/data/dev/`` (tuning data: use them freely):

- climate-fever: a claim against one evidence sentence; gold = the ``verdict`` field
  (SUPPORTS -> grounded, REFUTES -> contradicted, NOT_ENOUGH_INFO -> unverified). 3 classes.
- wice: several rows per claim (one per annotator's evidence set); the best row per claim is
  kept (supported > partially_supported > not_supported; the first such row), its evidence
  sentences joined with newlines into one source. Gold: supported -> grounded,
  partially_supported and not_supported -> unverified (WiCE has no refuting label): 2 classes.
- summedits: document vs summary; label 1 (consistent) -> grounded expected, label 0
  (inconsistent) -> not grounded (contradicted or unverified both count as correct): 2 classes,
  plus accuracy per ``edit_types`` (an inconsistent summary is counted under each of its edit
  types; consistent summaries under "none (consistent)").
- factcheck-gpt: stance completely-support -> grounded, refute -> contradicted,
  partially-support and irrelevant -> unverified (a partially supported claim is not stated by
  the evidence, and nothing in it is refuted). 3 classes.

A claim of several sentences gets one verdict: contradicted if any of its sentences is
contradicted, else grounded if all of them are grounded, else unverified. For sourced-nlp the
sentences are its claims (skipped segments -- a preamble, a question -- are ignored); a claim
with no checkable sentence at all is unverified.

Reported per set and tool: the confusion matrix (gold rows x predicted verdict columns),
balanced accuracy (mean recall over the gold classes present; for a 2-class set, grounded vs
not grounded), and the grounded-vs-not balanced accuracy for every set.

Usage::

    python bench/claims.py                 # all four sets, full
    python bench/claims.py --quick         # about 300 items per set (every k-th)
    python bench/claims.py --limit 50 --sets wice,summedits
    python bench/claims.py --quick --tools sourced-nlp,sourced-nlp-rules   # the meaning tier on and off

Tools: ``sourced-nlp`` (the rules, then the meaning tier), ``sourced-nlp-rules`` (the rules
only, ``meaning: null``) and ``sourced-evidence``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import DEV, OURS, PEER, VERDICTS, dump_json, fmt, load_peer, log, machine, md_table, read_jsonl, subsample  # noqa: E402

SETS = ("climate-fever", "wice", "summedits", "factcheck-gpt")
#: sourced-nlp with the rules only (the meaning tier off), beside the default in the same run
RULES = f"{OURS}-rules"
QUICK_SIZE = 300
NOT_GROUNDED = "not grounded"
_WICE_RANK = {"supported": 2, "partially_supported": 1, "not_supported": 0}
_STANCE = {
    "completely-support": "grounded",
    "refute": "contradicted",
    "partially-support": "unverified",
    "irrelevant": "unverified",
}


# ---------------------------------------------------------------------------- loading
def load_set(name: str, dev: Path) -> tuple[list[dict], list[str]]:
    """``(items, gold classes)``; each item ``{"claim", "sources": [str], "gold", "edit_types"?}``."""
    if name == "climate-fever":
        rows = read_jsonl(dev / "climate-fever" / "claim_evidence_pairs.jsonl")
        items = [{"claim": r["claim"], "sources": [r["evidence"]], "gold": r["verdict"]} for r in rows]
        return items, list(VERDICTS)
    if name == "wice":
        rows = read_jsonl(dev / "wice" / "dev.jsonl")
        best: dict[str, dict] = {}
        for r in rows:
            key = r["claim"]
            if key not in best or _WICE_RANK[r["label"]] > _WICE_RANK[best[key]["label"]]:
                best[key] = r
        items = []
        for r in best.values():
            ev = r["evidence"] if isinstance(r["evidence"], list) else [str(r["evidence"])]
            text = "\n".join(s for s in ev if s and s.strip())
            items.append(
                {
                    "claim": r["claim"],
                    "sources": [text],
                    "wice_label": r["label"],
                    "gold": "grounded" if r["label"] == "supported" else NOT_GROUNDED,
                }
            )
        return items, ["grounded", NOT_GROUNDED]
    if name == "summedits":
        rows = read_jsonl(dev / "summedits" / "evaluation.jsonl")
        items = [
            {
                "claim": r["summary"],
                "sources": [r["doc"]],
                "gold": "grounded" if int(r["label"]) == 1 else NOT_GROUNDED,
                "edit_types": list(r.get("edit_types") or []),
            }
            for r in rows
        ]
        return items, ["grounded", NOT_GROUNDED]
    if name == "factcheck-gpt":
        rows = read_jsonl(dev / "factcheck-gpt" / "claim_evidence_stance.jsonl")
        items = [
            {"claim": r["claim"], "sources": [r["evidence"]], "gold": _STANCE[r["stance"]], "stance": r["stance"]}
            for r in rows
        ]
        return items, list(VERDICTS)
    raise ValueError(f"unknown set {name!r}")


def usable(item: dict) -> bool:
    return bool(item["claim"].strip()) and all(isinstance(s, str) and s.strip() for s in item["sources"])


# ---------------------------------------------------------------------------- verdicts
def combine(verdicts: list[str]) -> str:
    """One verdict for a claim of several sentences (see the module docstring)."""
    if "contradicted" in verdicts:
        return "contradicted"
    if verdicts and all(v == "grounded" for v in verdicts):
        return "grounded"
    return "unverified"


def run_ours(items: list[dict], n_process: int, config: dict | None = None) -> list[str]:
    """sourced-nlp's verdict per item; ``config``: ``sourced_verify`` overrides (``{"meaning": None}``:
    the rules only)."""
    import sourced_nlp

    nlp = sourced_nlp.load_pipeline(config=config)
    records = [(it["claim"], it["sources"]) for it in items]
    reports: list = []
    try:
        if n_process > 1:
            reports = sourced_nlp.check_many(records, nlp=nlp, n_process=n_process)
        else:
            for i in range(0, len(records), 200):
                reports.extend(sourced_nlp.check_many(records[i : i + 200], nlp=nlp))
    except Exception as err:  # noqa: BLE001 - keep going record by record
        log(f"  {OURS}: check_many failed ({err!r}); checking the rest one by one")
        for claim, sources in records[len(reports) :]:
            try:
                reports.append(sourced_nlp.check(claim, sources, nlp=nlp))
            except Exception as err2:  # noqa: BLE001
                reports.append(err2)
    out = []
    for rep in reports:
        out.append("error" if isinstance(rep, Exception) else combine([c.verdict for c in rep.claims]))
    return out


def run_peer(items: list[dict]) -> list[str] | None:
    check = load_peer()
    if check is None:
        return None
    out = []
    for it in items:
        try:
            out.append(combine([c["status"] for c in check(it["claim"], it["sources"])["claims"]]))
        except Exception:  # noqa: BLE001
            out.append("error")
    return out


# ---------------------------------------------------------------------------- scoring
def score(items: list[dict], preds: list[str], classes: list[str]) -> dict:
    cols = [*VERDICTS] + (["error"] if "error" in preds else [])
    matrix = {g: {c: 0 for c in cols} for g in classes}
    for it, p in zip(items, preds):
        matrix[it["gold"]][p] += 1

    def correct(gold: str, pred: str) -> bool:
        if gold == NOT_GROUNDED:
            return pred in ("contradicted", "unverified")
        return pred == gold

    recalls = {}
    for g in classes:
        n = sum(matrix[g].values())
        if n:
            recalls[g] = sum(v for p, v in matrix[g].items() if correct(g, p)) / n
    gb = {}
    for side in ("grounded", "not"):
        sel = [(it, p) for it, p in zip(items, preds) if (it["gold"] == "grounded") == (side == "grounded")]
        if sel:
            gb[side] = sum((p == "grounded") == (side == "grounded") for _, p in sel) / len(sel)
    result = {
        "n": len(items),
        "classes": classes,
        "two_class": len(classes) == 2,
        "confusion": matrix,
        "accuracy": sum(correct(it["gold"], p) for it, p in zip(items, preds)) / len(items) if items else None,
        "balanced_accuracy": sum(recalls.values()) / len(recalls) if recalls else None,
        "recall_per_class": recalls,
        "grounded_vs_not_balanced_accuracy": sum(gb.values()) / len(gb) if len(gb) == 2 else None,
    }
    if any("edit_types" in it for it in items):
        per: dict[str, dict] = {}
        for it, p in zip(items, preds):
            types = it.get("edit_types") or (["none (consistent)"] if it["gold"] == "grounded" else ["unknown"])
            for et in types:
                b = per.setdefault(et, {"n": 0, "correct": 0, "contradicted": 0})
                b["n"] += 1
                b["correct"] += correct(it["gold"], p)
                b["contradicted"] += p == "contradicted"
        result["per_edit_type"] = {
            k: {**v, "accuracy": v["correct"] / v["n"], "contradicted_share": v["contradicted"] / v["n"]}
            for k, v in sorted(per.items())
        }
    return result


def print_set(name: str, res: dict) -> None:
    any_res = next(iter(res.values()))
    two = " (2 classes: grounded vs not grounded)" if any_res["two_class"] else " (3 classes)"
    print(f"### {name}: {any_res['n']} items{two}\n")
    rows = []
    for tool, r in res.items():
        rows.append(
            [
                tool,
                fmt(r["accuracy"], True),
                fmt(r["balanced_accuracy"], True),
                fmt(r["grounded_vs_not_balanced_accuracy"], True),
                ", ".join(f"{k} {fmt(v, True)}" for k, v in r["recall_per_class"].items()),
            ]
        )
    print(
        md_table(["tool", "accuracy", "balanced accuracy", "grounded-vs-not bal. acc.", "recall per gold class"], rows)
    )
    print()
    for tool, r in res.items():
        cols = list(next(iter(r["confusion"].values())).keys())
        print(f"{tool} — confusion (rows gold, columns predicted):\n")
        print(
            md_table(["gold \\ predicted", *cols], [[g, *[r["confusion"][g][c] for c in cols]] for g in r["confusion"]])
        )
        print()
    if "per_edit_type" in any_res:
        rows = []
        for et in any_res["per_edit_type"]:
            rows.append(
                [
                    et,
                    any_res["per_edit_type"][et]["n"],
                    *[fmt(res[t]["per_edit_type"][et]["accuracy"], True) for t in res],
                    *[fmt(res[t]["per_edit_type"][et]["contradicted_share"], True) for t in res],
                ]
            )
        print("accuracy per edit type (consistent: called grounded; edited: called not grounded):\n")
        print(md_table(["edit type", "n", *[f"{t} accuracy" for t in res], *[f"{t} contradicted" for t in res]], rows))
        print()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dev", type=Path, default=DEV, help="directory holding the four dev sets")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--limit", type=int, default=None, help="first N items per set (after --quick)")
    ap.add_argument("--quick", action="store_true", help=f"about {QUICK_SIZE} items per set (every k-th)")
    ap.add_argument("--n-process", type=int, default=1)
    ap.add_argument(
        "--tools",
        default=f"{OURS},{RULES},{PEER}",
        help=f"comma-separated: {OURS} (with the meaning tier), {RULES} (the rules only), {PEER}",
    )
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument(
        "--verify-config",
        type=json.loads,
        default=None,
        metavar="JSON",
        help="more sourced_verify config overrides for sourced-nlp, e.g. '{\"guard\": null}'",
    )
    args = ap.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    for s in sets:
        if s not in SETS:
            ap.error(f"unknown set {s!r}; choose from {SETS}")

    t0 = time.time()
    out: dict = {
        "dev": str(args.dev.resolve()),
        "quick": args.quick,
        "limit": args.limit,
        "machine": machine(),
        "sets": {},
    }
    print(
        f"## Claim-level dev sets{' (quick)' if args.quick else ''}{f' (limit {args.limit})' if args.limit else ''}\n"
    )
    for name in sets:
        items, classes = load_set(name, args.dev)
        dropped = sum(not usable(it) for it in items)
        items = [it for it in items if usable(it)]
        every = max(1, len(items) // QUICK_SIZE) if args.quick else None
        items = subsample(items, every, args.limit)
        res, secs = {}, {}
        for tool in tools:
            t = time.time()
            if tool in (OURS, RULES):
                preds = run_ours(
                    items,
                    args.n_process,
                    {**({"meaning": None} if tool == RULES else {}), **(args.verify_config or {})} or None,
                )
            else:
                preds = run_peer(items)
            if preds is None:
                continue
            secs[tool] = round(time.time() - t, 1)
            res[tool] = score(items, preds, classes)
            log(f"  {name}: {tool} {len(items)} items in {secs[tool]}s")
        if not res:
            continue
        print_set(name, res)
        if dropped:
            print(f"({dropped} items with an empty claim or evidence left out)\n")
        out["sets"][name] = {"items": len(items), "dropped_empty": dropped, "seconds": secs, "tools": res}
    out["seconds"] = round(time.time() - t0, 1)
    print(
        f"command: python bench/claims.py {' '.join(argv if argv is not None else sys.argv[1:])}  ({out['seconds']}s, commit {out['machine']['commit']})"
    )
    if args.json:
        dump_json(args.json, out)
        log(f"metrics -> {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
