"""Train the meaning tier's model (``models/meaning-v1.json``): logistic regression over
:data:`sourced_nlp.verdict.meaning.features.FEATURES`, on the claims the rules leave unverified with
every anchor present (:func:`sourced_nlp.verdict.rules.meaning.eligible`).

Data recipe (tuning data only; never a RAGTruth test row):

- RAGTruth TRAIN responses (``../shared/data/ragtruth``, ``split == "train"``): each claim is
  labelled as ``bench/ragtruth.py`` labels a sentence: positive (stated) when no labelled span
  overlaps it, negative when one does.
- the dev sets (``../shared/data/dev``, loaded as ``bench/claims.py`` loads them): an item whose
  gold is grounded (climate-fever SUPPORTS, WiCE supported, SummEdits consistent, factcheck-gpt
  completely-support) labels every claim of it positive; an item of another gold labels its
  claim negative only when it has one claim (which sentence of a longer one is wrong is not
  known); the refuting golds (climate-fever REFUTES, factcheck-gpt refute) are also marked
  ``refutes``, for the ``contradicted.meaning`` threshold.

Held-out part (for choosing the thresholds and reporting; never fitted on): RAGTruth responses
whose ``sha1(source_id) % 10 < 3`` (all responses of a source together), dev items whose
``sha1(set name + claim text) % 10 < 3``. The fit is the rest. Seed 0 everywhere; the rows are
read in file order, so a fresh run writes the same file.

Steps: ``--collect`` runs the rules (tier off) over every set and caches the feature rows in
``bench/out/meaning-rows.jsonl``; then the fit (scikit-learn, the ``train`` extra:
``pip install -e '.[train]'``) writes the model with its thresholds, and prints the held-out
AUC and the frontier (clean-grounded coverage against false-grounded, rules plus tier, on the
held-out RAGTruth part; grounded recall and precision on each dev set's held-out part).

Usage::

    python bench/train_meaning.py --collect          # rows (about 10 minutes on 2 cores), then fit
    python bench/train_meaning.py                    # fit from the cached rows
    python bench/train_meaning.py --compare-gbm      # also gradient boosting, held-out AUC only
    python bench/train_meaning.py --cost 100         # the tier's time per record against the answer's parse
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import DEV, OUT, RAGTRUTH, REPO, label_sentence, load_ragtruth, log, md_table, roc_auc, sources_for  # noqa: E402

ROWS = OUT / "meaning-rows.jsonl"
MODEL = REPO / "models" / "meaning-v1.json"
SEED = 0
HELD = 3  # of 10 hash buckets
DEV_SETS = ("climate-fever", "wice", "summedits", "factcheck-gpt")
#: the bars of the issue that the grounded threshold must keep on the held-out RAGTruth part
MAX_FALSE_GROUNDED = 0.015
#: a contradicted threshold is kept only with this precision on this many held-out claims
MIN_CONTRA_PRECISION, MIN_CONTRA_CLAIMS = 0.5, 40


def bucket(key: str) -> int:
    """The hash bucket (0-9) of a key: SHA-1, so it does not follow the hash seed."""
    return int(hashlib.sha1(key.encode("utf8")).hexdigest(), 16) % 10


# ---------------------------------------------------------------------------- collecting rows
class Collector:
    """A rule that decides nothing: it records the features of every eligible claim it sees."""

    __name__ = "meaning_collector"

    def __init__(self) -> None:
        self.seen: list[tuple[int, int, list[float]]] = []

    def __call__(self, ctx):
        from sourced_nlp.verdict.meaning.features import features
        from sourced_nlp.verdict.rules.meaning import eligible

        if eligible(ctx):
            self.seen.append((int(ctx.record["start"]), int(ctx.record["end"]), features(ctx)))
        return None


def pipeline_with(collector: Collector):
    import sourced_nlp

    nlp = sourced_nlp.load_pipeline(config={"meaning": None})
    v = nlp.get_pipe("sourced_verify")
    v.verifier.rules = (*v.rules[:-1], collector, v.rules[-1])
    return nlp


def check_rows(nlp, collector: Collector, answer: str, sources) -> tuple[list, dict]:
    """The report's claims and ``{(start, end): features}`` of its eligible claims."""
    import sourced_nlp

    collector.seen.clear()
    rep = sourced_nlp.check(answer, sources, nlp=nlp)
    feats = {}
    for s, e, x in collector.seen:
        feats.setdefault((s, e), x)  # a claim that cites sources is seen twice: the first, all sources... (same claim)
    return rep, feats


def collect_ragtruth(nlp, collector, fh) -> int:
    responses, sources = load_ragtruth(RAGTRUTH, "train")
    n = 0
    t0 = time.time()
    for i, r in enumerate(responses):
        src = sources[r["source_id"]]
        ours, _ = sources_for(src)
        rep, feats = check_rows(nlp, collector, r["response"], ours)
        held = bucket(str(r["source_id"])) < HELD
        segs = [{"start": c.start, "end": c.end, "verdict": c.verdict, "rule": c.rule} for c in rep.claims]
        segs += [
            {"start": s.start, "end": s.end, "verdict": "skipped", "rule": None} for s in rep.skipped if s.text.strip()
        ]
        for seg in segs:
            hall, conflict = label_sentence(seg, r.get("labels") or [])
            x = feats.get((seg["start"], seg["end"]))
            fh.write(
                json.dumps(
                    {
                        "set": "ragtruth",
                        "task": src["task_type"],
                        "id": str(r["id"]),
                        "held": held,
                        "start": seg["start"],
                        "end": seg["end"],
                        "verdict": seg["verdict"],
                        "rule": seg["rule"],
                        "label": int(not hall),
                        "refutes": int(conflict),
                        "x": x,
                    }
                )
                + "\n"
            )
            n += 1
        if i % 50 == 0:
            log(f"  ragtruth train: {i}/{len(responses)} responses, {time.time() - t0:.0f}s")
    return n


def collect_dev(nlp, collector, fh, name: str) -> int:
    from claims import load_set, usable

    items, _ = load_set(name, DEV)
    items = [it for it in items if usable(it)]
    n = 0
    t0 = time.time()
    for i, it in enumerate(items):
        rep, feats = check_rows(nlp, collector, it["claim"], it["sources"])
        positive = it["gold"] == "grounded"
        refutes = it["gold"] == "contradicted"
        held = bucket(name + "\n" + it["claim"]) < HELD
        claims = list(rep.claims)
        item_verdict = (
            "contradicted"
            if any(c.verdict == "contradicted" for c in claims)
            else "grounded"
            if claims and all(c.verdict == "grounded" for c in claims)
            else "unverified"
        )
        for c in claims:
            x = feats.get((c.start, c.end))
            known = positive or len(claims) == 1
            fh.write(
                json.dumps(
                    {
                        "set": name,
                        "id": str(i),
                        "held": held,
                        "start": c.start,
                        "end": c.end,
                        "verdict": c.verdict,
                        "rule": c.rule,
                        "item_verdict": item_verdict,
                        "claims": len(claims),
                        "gold": it["gold"],
                        "label": int(positive) if known else None,
                        "refutes": int(refutes),
                        "x": x,
                    }
                )
                + "\n"
            )
            n += 1
        if i % 500 == 0:
            log(f"  {name}: {i}/{len(items)} items, {time.time() - t0:.0f}s")
    return n


def collect(collector: Collector | None = None, rows: Path = ROWS) -> None:
    """Run the rules with ``collector`` (default: :class:`Collector`) over every set; its rows to ``rows``."""
    collector = collector or Collector()
    nlp = pipeline_with(collector)
    rows.parent.mkdir(parents=True, exist_ok=True)
    tmp = rows.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf8") as fh:
        log(f"ragtruth train: {collect_ragtruth(nlp, collector, fh)} rows")
        for name in DEV_SETS:
            log(f"{name}: {collect_dev(nlp, collector, fh, name)} rows")
    tmp.replace(rows)
    log(f"rows -> {rows}")


# ---------------------------------------------------------------------------- fitting
def read_rows() -> list[dict]:
    if not ROWS.exists():
        raise SystemExit(f"error: no cached rows {ROWS}: run with --collect first")
    return [json.loads(line) for line in ROWS.open(encoding="utf8")]


def fit_lr(X, y):
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(X)
    lr = LogisticRegression(C=1.0, max_iter=2000, random_state=SEED).fit(scaler.transform(X), y)
    return scaler, lr


def frontier_ragtruth(
    rows: list[dict], scores: dict[int, float], thresholds: list[float], task: str | None = None
) -> list[dict]:
    """Rules plus tier at each threshold, over every sentence of the held-out RAGTruth part."""
    out = []
    sel = [
        (i, r)
        for i, r in enumerate(rows)
        if r["set"] == "ragtruth" and r["held"] and (task is None or r["task"] == task)
    ]
    for t in [None, *thresholds]:
        grounded = [
            r for i, r in sel if r["verdict"] == "grounded" or (t is not None and i in scores and scores[i] >= t)
        ]
        clean = [r for _, r in sel if r["label"] == 1]
        added = [r for i, r in sel if t is not None and i in scores and scores[i] >= t]
        out.append(
            {
                "threshold": t,
                "sentences": len(sel),
                "clean_grounded_coverage": sum(r["label"] == 1 for r in grounded) / len(clean) if clean else None,
                "false_grounded_rate": sum(r["label"] == 0 for r in grounded) / len(grounded) if grounded else None,
                "added": len(added),
                "added_false": sum(r["label"] == 0 for r in added),
            }
        )
    return out


def frontier_dev(rows: list[dict], scores: dict[int, float], name: str, thresholds: list[float]) -> list[dict]:
    """Item level on a dev set's held-out part: grounded items among gold grounded (recall) and
    gold-not-grounded items called grounded, rules plus tier at each threshold."""
    items: dict[str, list[tuple[int, dict]]] = {}
    for i, r in enumerate(rows):
        if r["set"] == name and r["held"]:
            items.setdefault(r["id"], []).append((i, r))
    out = []
    for t in [None, *thresholds]:
        pos = neg = tp = fp = 0
        for claims in items.values():
            gold = claims[0][1]["gold"] == "grounded"
            called = all(
                r["verdict"] == "grounded" or (t is not None and i in scores and scores[i] >= t) for i, r in claims
            )
            pos += gold
            neg += not gold
            tp += gold and called
            fp += (not gold) and called
        out.append(
            {
                "threshold": t,
                "items": len(items),
                "grounded_recall": tp / pos if pos else None,
                "not_grounded_called_grounded": fp / neg if neg else None,
                "balanced_accuracy_2class": ((tp / pos if pos else 0) + (1 - fp / neg if neg else 0)) / 2,
            }
        )
    return out


def choose_grounded(rows: list[dict], scores: dict[int, float]) -> tuple[float, dict]:
    """The lowest threshold (of a 0.005 grid) at which the held-out RAGTruth part stays within
    the false-grounded bar: the overall rate at most ``MAX_FALSE_GROUNDED`` or, when the rules
    alone are above it, not above the rules' own rate; and each task's at most 2.0% (or its
    rules-only rate)."""
    base = frontier_ragtruth(rows, scores, [])[0]
    cap = max(MAX_FALSE_GROUNDED, base["false_grounded_rate"] or 0.0)
    tasks = sorted({r["task"] for r in rows if r["set"] == "ragtruth"})
    task_caps = {k: max(0.02, frontier_ragtruth(rows, scores, [], k)[0]["false_grounded_rate"] or 0.0) for k in tasks}
    grid = [round(0.5 + 0.005 * k, 3) for k in range(100)] + [0.999, 1.0]
    for t in grid:
        f = frontier_ragtruth(rows, scores, [t])[1]
        if (f["false_grounded_rate"] or 0.0) > cap + 1e-12:
            continue
        if any(
            (frontier_ragtruth(rows, scores, [t], k)[1]["false_grounded_rate"] or 0.0) > task_caps[k] + 1e-12
            for k in tasks
        ):
            continue
        return t, {"cap_overall": cap, "cap_by_task": task_caps, **f}
    return 1.0, {"cap_overall": cap, "cap_by_task": task_caps}


def choose_contradicted(rows: list[dict], scores: dict[int, float]) -> tuple[float | None, list[dict]]:
    """A threshold ``t`` (score <= t: contradicted) only where the held-out claims at or below it
    (RAGTruth: hallucinated sentences; dev: a refuting gold) are at least ``MIN_CONTRA_PRECISION``
    right on at least ``MIN_CONTRA_CLAIMS`` claims; the grid and what each point gave."""
    held = [(i, r) for i, r in enumerate(rows) if r["held"] and i in scores and r["label"] is not None]
    table = []
    chosen = None
    for t in (0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3):
        low = [r for i, r in held if scores[i] <= t]
        right = sum(
            (r["set"] == "ragtruth" and r["label"] == 0) or (r["set"] != "ragtruth" and r["refutes"] == 1) for r in low
        )
        prec = right / len(low) if low else None
        table.append({"threshold": t, "claims": len(low), "precision": prec})
        if low and len(low) >= MIN_CONTRA_CLAIMS and prec is not None and prec >= MIN_CONTRA_PRECISION:
            chosen = t
    return chosen, table


def fit(compare_gbm: bool, write: bool) -> dict:
    from sourced_nlp.verdict.meaning.features import FEATURES
    from sourced_nlp.verdict.meaning.model import MeaningModel

    rows = read_rows()
    if any(r["x"] is not None and len(r["x"]) != len(FEATURES) for r in rows):
        raise SystemExit("error: the cached rows have other features than this version: run with --collect")
    neg, pneg = FEATURES.index("negated"), FEATURES.index("passage_negated")
    for r in rows:  # the gate's polarity check (a row cached before it): not the tier's claim
        if r["x"] is not None and r["x"][neg] != r["x"][pneg]:
            r["x"] = None
    data = [(i, r) for i, r in enumerate(rows) if r["x"] is not None and r["label"] is not None]
    train = [(i, r) for i, r in data if not r["held"]]
    held = [(i, r) for i, r in data if r["held"]]
    X = [r["x"] for _, r in train]
    y = [r["label"] for _, r in train]
    log(f"fit on {len(train)} eligible claims ({sum(y)} stated), held out {len(held)}")
    scaler, lr = fit_lr(X, y)
    doc = {
        "name": "meaning-lr",
        "version": "1",
        "kind": "logistic",
        "features": list(FEATURES),
        "mean": [round(float(v), 8) for v in scaler.mean_],
        "scale": [round(float(v), 8) for v in scaler.scale_],
        "coef": [round(float(v), 8) for v in lr.coef_[0]],
        "intercept": round(float(lr.intercept_[0]), 8),
        "grounded_threshold": 1.0,
        "contradicted_threshold": None,
    }
    tmp = OUT / "meaning-candidate.json"
    tmp.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text(json.dumps(doc), encoding="utf8")
    model = MeaningModel.load(tmp)  # the runtime's own scoring, so the thresholds fit what ships
    scores = {i: model.score(r["x"]) for i, r in data}
    report: dict = {"fit_claims": len(train), "fit_stated": sum(y), "held_claims": len(held)}
    aucs = {}
    for name in ("ragtruth", *DEV_SETS, "all"):
        sel = [(i, r) for i, r in held if name == "all" or r["set"] == name]
        aucs[name] = {
            "claims": len(sel),
            "stated": sum(r["label"] for _, r in sel),
            "auc": roc_auc([scores[i] for i, _ in sel], [bool(r["label"]) for _, r in sel]) if sel else None,
        }
        # the rules' own support, the score the tier improves on
        aucs[name]["auc_rules_support"] = (
            roc_auc([r["x"][FEATURES.index("support")] for _, r in sel], [bool(r["label"]) for _, r in sel])
            if sel
            else None
        )
    report["held_out_auc"] = aucs
    if compare_gbm:
        from sklearn.ensemble import HistGradientBoostingClassifier

        gbm = HistGradientBoostingClassifier(
            max_iter=200, learning_rate=0.05, max_leaf_nodes=15, random_state=SEED
        ).fit(X, y)
        g = gbm.predict_proba([r["x"] for _, r in held])[:, 1]
        gs = {i: float(s) for (i, _), s in zip(held, g)}
        report["gbm_held_out_auc"] = {
            name: roc_auc(
                [gs[i] for i, r in held if name == "all" or r["set"] == name],
                [bool(r["label"]) for i, r in held if name == "all" or r["set"] == name],
            )
            for name in ("ragtruth", *DEV_SETS, "all")
        }
    gt, why = choose_grounded(rows, scores)
    ct, contra = choose_contradicted(rows, scores)
    grid = [0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98]
    if gt not in grid:
        grid = sorted([*grid, gt])
    report["grounded_threshold"] = gt
    report["grounded_threshold_why"] = why
    report["contradicted_threshold"] = ct
    report["contradicted_grid"] = contra
    report["frontier_ragtruth"] = {
        k: frontier_ragtruth(rows, scores, grid, None if k == "overall" else k) for k in ("overall", "QA", "Summary")
    }
    report["frontier_dev"] = {name: frontier_dev(rows, scores, name, grid) for name in DEV_SETS}
    doc.update(
        grounded_threshold=gt,
        contradicted_threshold=ct,
        training={
            "script": "bench/train_meaning.py",
            "seed": SEED,
            "data_sha1": hashlib.sha1(
                json.dumps([[r["set"], r["id"], r["held"], r["label"], r["x"]] for _, r in data]).encode()
            ).hexdigest(),
            "fit_claims": len(train),
            "held_claims": len(held),
            "held_out": "RAGTruth train: sha1(source_id) % 10 < 3; dev: sha1(set + newline + claim) % 10 < 3",
            "held_out_auc": {k: (round(v["auc"], 4) if v["auc"] is not None else None) for k, v in aucs.items()},
        },
    )
    if write:
        MODEL.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf8")
        log(f"model -> {MODEL}")
    return report


def print_report(rep: dict) -> None:
    print(
        f"## The meaning tier: fit on {rep['fit_claims']} eligible claims ({rep['fit_stated']} stated), "
        f"{rep['held_claims']} held out\n"
    )
    rows = [
        [
            k,
            v["claims"],
            v["stated"],
            f"{v['auc']:.3f}" if v["auc"] is not None else "-",
            f"{v['auc_rules_support']:.3f}" if v["auc_rules_support"] is not None else "-",
            f"{rep['gbm_held_out_auc'][k]:.3f}" if rep.get("gbm_held_out_auc", {}).get(k) is not None else "-",
        ]
        for k, v in rep["held_out_auc"].items()
    ]
    print(
        md_table(["held-out part", "eligible claims", "stated", "AUC (LR)", "AUC (rules' support)", "AUC (GBM)"], rows)
    )
    print()
    for scope, fr in rep["frontier_ragtruth"].items():
        print(f"### RAGTruth train, held-out part, {scope}: rules + tier at each threshold\n")
        print(
            md_table(
                ["threshold", "sentences", "clean-grounded coverage", "false-grounded", "added", "added false"],
                [
                    [
                        "rules only" if f["threshold"] is None else f["threshold"],
                        f["sentences"],
                        _pct(f["clean_grounded_coverage"]),
                        _pct(f["false_grounded_rate"]),
                        f["added"],
                        f["added_false"],
                    ]
                    for f in fr
                ],
            )
        )
        print()
    for name, fr in rep["frontier_dev"].items():
        print(f"### {name}, held-out part (items): rules + tier\n")
        print(
            md_table(
                ["threshold", "items", "grounded recall", "not-grounded called grounded", "2-class bal. acc."],
                [
                    [
                        "rules only" if f["threshold"] is None else f["threshold"],
                        f["items"],
                        _pct(f["grounded_recall"]),
                        _pct(f["not_grounded_called_grounded"]),
                        _pct(f["balanced_accuracy_2class"]),
                    ]
                    for f in fr
                ],
            )
        )
        print()
    print(f"grounded threshold: {rep['grounded_threshold']} ({json.dumps(rep['grounded_threshold_why'])})\n")
    print("contradicted.meaning (score <= t) on the held-out claims:\n")
    print(
        md_table(
            ["t", "claims", "precision"],
            [[c["threshold"], c["claims"], _pct(c["precision"])] for c in rep["contradicted_grid"]],
        )
    )
    print(
        f"\ncontradicted threshold: {rep['contradicted_threshold']}"
        f" (kept only at >= {MIN_CONTRA_PRECISION:.0%} precision on >= {MIN_CONTRA_CLAIMS} held-out claims)\n"
    )


def cost(n: int) -> dict:
    """The tier's time per record against the spaCy parse of the answer, sources cached: the
    first ``n`` RAGTruth train responses, each checked once to fill the caches, then timed (the
    answer through the components before ``sourced_verify``; the tier's rule, wrapped in a timer,
    in a second check). Returns medians and totals in milliseconds."""
    import statistics

    import sourced_nlp

    nlp = sourced_nlp.load_pipeline()
    v = nlp.get_pipe("sourced_verify")
    rule = v.meaning
    spent = [0.0]

    def timed(ctx):
        t = time.perf_counter()
        try:
            return rule(ctx)
        finally:
            spent[0] += time.perf_counter() - t

    v.verifier.rules = tuple(timed if r is rule else r for r in v.verifier.rules)
    responses, sources = load_ragtruth(RAGTRUTH, "train")
    parse, tier = [], []
    try:
        for r in responses[:n]:
            ours, _ = sources_for(sources[r["source_id"]])
            sourced_nlp.check(r["response"], ours, nlp=nlp)  # fills the source caches
            t = time.perf_counter()
            doc = nlp.make_doc(r["response"])
            for name, proc in nlp.pipeline:
                if name == "sourced_verify":
                    break
                doc = proc(doc)
            parse.append(time.perf_counter() - t)
            spent[0] = 0.0
            sourced_nlp.check(r["response"], ours, nlp=nlp)
            tier.append(spent[0])
    finally:
        v.verifier.rules = tuple(rule if r is timed else r for r in v.verifier.rules)
    return {
        "records": len(parse),
        "parse_ms_median": 1000 * statistics.median(parse),
        "tier_ms_median": 1000 * statistics.median(tier),
        "parse_ms_total": 1000 * sum(parse),
        "tier_ms_total": 1000 * sum(tier),
        "tier_over_parse_total": sum(tier) / sum(parse),
    }


def _pct(v) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--collect", action="store_true", help=f"run the rules over the data first (rows -> {ROWS})")
    ap.add_argument("--compare-gbm", action="store_true", help="also fit gradient boosting; report its held-out AUC")
    ap.add_argument("--no-write", action="store_true", help=f"do not write {MODEL}")
    ap.add_argument("--json", type=Path, default=None, help="write the training report as JSON")
    ap.add_argument(
        "--cost",
        type=int,
        default=None,
        metavar="N",
        help="only measure the tier's time per record on the first N train responses (sources cached)",
    )
    args = ap.parse_args(argv)
    if args.cost:
        print(json.dumps(cost(args.cost), indent=1))
        return 0
    if args.collect:
        collect()
    rep = fit(args.compare_gbm, write=not args.no_write)
    print_report(rep)
    if args.json:
        args.json.write_text(json.dumps(rep, indent=1), encoding="utf8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
