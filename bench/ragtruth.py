"""RAGTruth benchmark: sourced-nlp and sourced-evidence, sentence by sentence.

Reads RAGTruth in its upstream format (``response.jsonl`` + ``source_info.jsonl``). Sources per
task: QA -- each ``passage N:`` of ``source_info["passages"]`` is its own source (the question is
not a source); Summary -- the article; Data2txt -- the business JSON object, passed to sourced-nlp
as a structured source (the dict itself) and to sourced-evidence as JSON text (``indent=1``).

Scoring, per sentence of the response as each tool segments it (sourced-nlp: its claims plus its
skipped segments; sourced-evidence: its sentences, mapped back to character offsets):

- a sentence is *hallucinated* when any labelled span overlaps it, a *conflict* sentence when an
  overlapping span's ``label_type`` contains "Conflict";
- skipped segments count as not grounded (they are part of ``sentences``).

Metrics (fractions in [0, 1]; None when the denominator is 0): ``sentences``; ``base_rate``
(hallucinated share); ``grounded_share``; ``false_grounded_rate`` (hallucinated among grounded);
``clean_grounded_coverage`` (grounded among not hallucinated); ``hallucinated_not_grounded``
(hallucinated sentences not called grounded); ``contradicted`` (count);
``contradicted_precision`` (hallucinated among contradicted); ``contradicted_exact_precision``
(conflict among contradicted); ``conflict_recall`` (conflict sentences called contradicted);
``support_auc`` (ROC-AUC of ``1 - support`` against hallucinated, over claims -- skipped segments
have no support; rank formula with ties averaged; sourced-nlp only).

Response level: a response is hallucinated when it has any label. sourced-nlp flags a response
when its minimum claim support is below a threshold chosen on the TRAIN split (max F1 on train;
cached in ``bench/out/threshold.json`` keyed by a fingerprint of the package code, recomputed
when the code changed); a response without claims is never flagged. Beside it: the "flag every
response" baseline and two threshold-free rules for both tools (any claim contradicted; any
sentence not grounded).

sourced-evidence gets each QA passage as its own source, like sourced-nlp (``--peer-raw-qa``
gives it the upstream string with its ``passage N:`` markers instead: then "According to Passage
1, ..." sentences match the marker, and its QA clean-grounded coverage rises by about 3 points).

Tools: ``sourced-nlp`` (the default pipeline: the rules, then the meaning tier),
``sourced-nlp-rules`` (the same with ``meaning: null``: the rules only, so the tier's gain shows
in the same run; its own response-level threshold, cached in ``bench/out/threshold-rules.json``)
and ``sourced-evidence``. ``--no-meaning`` runs ``sourced-nlp`` itself with the rules only (its
``--dump`` then is the rules-only one).

Tune only on train (``--split train``, ``--dump``); the test split is for reporting.

Usage::

    python bench/ragtruth.py --split test --json bench/out/ragtruth-test.json
    python bench/ragtruth.py --split test --quick
    python bench/ragtruth.py --split train --dump bench/out/train-sentences.jsonl
    python bench/ragtruth.py --split test --tools sourced-evidence
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import (  # noqa: E402
    OURS,
    OUT,
    PEER,
    RAGTRUTH,
    TASKS,
    code_fingerprint,
    dump_json,
    file_sha1,
    fmt,
    label_sentence,
    load_peer,
    load_ragtruth,
    log,
    machine,
    md_table,
    our_segments,
    peer_segments,
    prf,
    ratio,
    roc_auc,
    sources_for,
    subsample,
)

METRICS = (
    "sentences",
    "base_rate",
    "grounded_share",
    "false_grounded_rate",
    "clean_grounded_coverage",
    "hallucinated_not_grounded",
    "contradicted",
    "contradicted_precision",
    "contradicted_exact_precision",
    "conflict_recall",
    "support_auc",
)
COUNT_METRICS = {"sentences", "contradicted"}
#: sourced-nlp with the rules only (the meaning tier off), run beside the default in the same run
RULES = f"{OURS}-rules"
QUICK_EVERY = 5  # --quick: every 5th response (~445 of the 2,226 test responses)
THRESHOLD_CACHE = OUT / "threshold.json"


# ---------------------------------------------------------------------------- running the tools
def run_ours(
    items: list[dict], n_process: int = 1, progress: bool = True, config: dict | None = None
) -> tuple[list[list[dict]], int]:
    """sourced-nlp on every item; ``(segments per item, errors)``. A record that raises is kept
    as one not-grounded segment spanning the response (verdict ``"error"``) and counted.
    ``config``: ``sourced_verify`` config overrides (:func:`sourced_nlp.load_pipeline`)."""
    import sourced_nlp

    nlp = sourced_nlp.load_pipeline(config=config)
    records = [(it["response"], it["src_ours"]) for it in items]
    reports: list = []
    t0 = time.time()
    try:
        if n_process > 1:
            reports = sourced_nlp.check_many(records, nlp=nlp, n_process=n_process)
        else:
            chunk = 100
            for i in range(0, len(records), chunk):
                reports.extend(sourced_nlp.check_many(records[i : i + chunk], nlp=nlp, n_process=1))
                if progress:
                    log(f"  {OURS}: {len(reports)}/{len(records)} responses, {time.time() - t0:.0f}s")
    except Exception as err:  # noqa: BLE001 - a failing record must not lose the whole run
        log(f"  {OURS}: check_many failed ({err!r}); checking the rest one by one")
        for answer, sources in records[len(reports) :]:
            try:
                reports.append(sourced_nlp.check(answer, sources, nlp=nlp))
            except Exception as err2:  # noqa: BLE001
                log(f"  {OURS}: error on a record: {err2!r}")
                reports.append(err2)
    out, errors = [], 0
    for it, rep in zip(items, reports):
        if isinstance(rep, Exception):
            errors += 1
            out.append(
                [
                    {
                        "start": 0,
                        "end": len(it["response"]),
                        "text": it["response"],
                        "verdict": "error",
                        "support": None,
                        "reason": f"error: {rep!r}",
                        "kind": "error",
                    }
                ]
            )
        else:
            out.append(our_segments(rep))
    log(f"  {OURS}: {len(items)} responses in {time.time() - t0:.1f}s ({errors} errors)")
    return out, errors


def run_peer(items: list[dict]) -> tuple[list[list[dict]], int]:
    """sourced-evidence on every item; ``(segments per item, unmapped-or-error count)``."""
    check = load_peer()
    if check is None:
        return [], 0
    t0 = time.time()
    out, problems = [], 0
    for it in items:
        try:
            result = check(it["response"], it["src_peer"])
            segs = peer_segments(it["response"], result["claims"])
        except Exception as err:  # noqa: BLE001
            log(f"  {PEER}: error on {it['id']}: {err!r}")
            segs = [
                {
                    "start": 0,
                    "end": len(it["response"]),
                    "text": it["response"],
                    "verdict": "error",
                    "reason": repr(err),
                }
            ]
            problems += 1
        problems += sum(1 for s in segs if s["start"] < 0)
        out.append(segs)
    log(f"  {PEER}: {len(items)} responses in {time.time() - t0:.1f}s ({problems} errors/unmapped sentences)")
    return out, problems


# ---------------------------------------------------------------------------- scoring
def sentence_rows(items: list[dict], segments: list[list[dict]]) -> list[dict]:
    rows = []
    for it, segs in zip(items, segments):
        for s in segs:
            hall, conflict = label_sentence(s, it["labels"])
            rows.append({**s, "id": it["id"], "task": it["task"], "hallucinated": hall, "conflict": conflict})
    return rows


def sentence_metrics(rows: list[dict], with_auc: bool) -> dict:
    n = len(rows)
    hall = [r for r in rows if r["hallucinated"]]
    clean = [r for r in rows if not r["hallucinated"]]
    grounded = [r for r in rows if r["verdict"] == "grounded"]
    contra = [r for r in rows if r["verdict"] == "contradicted"]
    conflict = [r for r in rows if r["conflict"]]
    auc = None
    if with_auc:
        claims = [r for r in rows if r.get("support") is not None]
        auc = roc_auc([1.0 - r["support"] for r in claims], [r["hallucinated"] for r in claims])
    return {
        "sentences": n,
        "base_rate": ratio(len(hall), n),
        "grounded_share": ratio(len(grounded), n),
        "false_grounded_rate": ratio(sum(r["hallucinated"] for r in grounded), len(grounded)),
        "clean_grounded_coverage": ratio(sum(r["verdict"] == "grounded" for r in clean), len(clean)),
        "hallucinated_not_grounded": ratio(sum(r["verdict"] != "grounded" for r in hall), len(hall)),
        "contradicted": len(contra),
        "contradicted_precision": ratio(sum(r["hallucinated"] for r in contra), len(contra)),
        "contradicted_exact_precision": ratio(sum(r["conflict"] for r in contra), len(contra)),
        "conflict_recall": ratio(sum(r["verdict"] == "contradicted" for r in conflict), len(conflict)),
        "support_auc": auc,
        # contradictions by what differs (quantity, polarity, antonym, entity): count, precision
        "contradicted_by_kind": {
            k: [
                sum(1 for r in contra if (r.get("differs") or "-") == k),
                ratio(
                    sum(r["hallucinated"] for r in contra if (r.get("differs") or "-") == k),
                    sum(1 for r in contra if (r.get("differs") or "-") == k),
                ),
            ]
            for k in sorted({r.get("differs") or "-" for r in contra})
        },
    }


def sentence_counts(rows: list[dict]) -> dict:
    verdicts: dict[str, int] = {}
    for r in rows:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    return {
        "sentences": len(rows),
        "hallucinated": sum(r["hallucinated"] for r in rows),
        "conflict": sum(r["conflict"] for r in rows),
        "verdicts": verdicts,
    }


def min_support(segs: list[dict]) -> float | None:
    vals = [s["support"] for s in segs if s.get("support") is not None]
    return min(vals) if vals else None


def choose_threshold(min_supports: list[float | None], gold: list[bool]) -> dict:
    """The threshold maximising F1 of ``min_support < t``; candidates are midpoints between
    consecutive distinct values plus one below and one above all of them. Ties: the lower t."""
    vals = sorted({v for v in min_supports if v is not None})
    if not vals:
        return {"threshold": None, "f1": None}
    cands = [vals[0] - 1e-6] + [(a + b) / 2 for a, b in zip(vals, vals[1:])] + [vals[-1] + 1e-6]
    best = None
    for t in cands:
        pred = [v is not None and v < t for v in min_supports]
        f1 = prf(pred, gold)["f1"] or 0.0
        if best is None or f1 > best["f1"] + 1e-12:
            best = {"threshold": round(t, 6), "f1": f1}
    return best


def response_level(items: list[dict], segments: list[list[dict]], threshold: float | None, ours: bool) -> dict:
    by_task: dict[str, dict] = {}
    for scope in (*TASKS, "overall"):
        idx = [i for i, it in enumerate(items) if scope == "overall" or it["task"] == scope]
        if not idx:
            continue
        gold = [bool(items[i]["labels"]) for i in idx]
        block = {
            "responses": len(idx),
            "hallucinated_responses": sum(gold),
            "flag_all_baseline": prf([True] * len(idx), gold),
            "any_contradicted": prf([any(s["verdict"] == "contradicted" for s in segments[i]) for i in idx], gold),
            "any_not_grounded": prf([any(s["verdict"] != "grounded" for s in segments[i]) for i in idx], gold),
        }
        if ours and threshold is not None:
            ms = [min_support(segments[i]) for i in idx]
            block["min_support_below_threshold"] = prf([m is not None and m < threshold for m in ms], gold)
        by_task[scope] = block
    return {"threshold": threshold if ours else None, "by_task": by_task}


# ---------------------------------------------------------------------------- data
def build_items(data_dir: Path, split: str, quick: bool, limit: int | None, peer_raw_qa: bool = False) -> list[dict]:
    responses, sources = load_ragtruth(data_dir, split)
    responses = subsample(responses, QUICK_EVERY if quick else None, limit)
    items = []
    for r in responses:
        src = sources[r["source_id"]]
        ours, peer = sources_for(src)
        if peer_raw_qa and src["task_type"] == "QA":
            peer = [src["source_info"]["passages"]]
        items.append(
            {
                "id": str(r["id"]),
                "task": src["task_type"],
                "model": r.get("model"),
                "response": r["response"],
                "labels": r.get("labels") or [],
                "src_ours": ours,
                "src_peer": peer,
            }
        )
    return items


def threshold_cache(config: dict | None) -> Path:
    """The cache file of the response-level threshold of one configuration: the default's, the
    rules only's, or one per other ``--verify-config`` (named by the SHA-1 of its JSON), so that
    measuring another configuration never reads or overwrites theirs."""
    if not config:
        return THRESHOLD_CACHE
    if config == {"meaning": None}:
        return THRESHOLD_CACHE.with_name("threshold-rules.json")
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode("utf8")).hexdigest()[:12]
    return THRESHOLD_CACHE.with_name(f"threshold-{digest}.json")


def train_threshold(data_dir: Path, n_process: int, refresh: bool = False, config: dict | None = None) -> dict:
    """The response-level threshold from the full TRAIN split, cached by code fingerprint
    (``config``: the ``sourced_verify`` overrides, ``{"meaning": None}`` for the rules only)."""
    key = {
        "fingerprint": code_fingerprint(),
        "data": str(data_dir.resolve()),
        "responses_sha1": file_sha1(data_dir / "response.jsonl"),
    }
    cache = threshold_cache(config)
    if cache.exists() and not refresh:
        try:
            cached = json.loads(cache.read_text())
            if all(cached.get(k) == v for k, v in key.items()):
                log(f"threshold from {cache} (train, same code): {cached['threshold']}")
                return cached
        except (ValueError, KeyError):
            pass
    log("choosing the response-level threshold on the train split (code changed or no cache)")
    items = build_items(data_dir, "train", quick=False, limit=None)
    segs, _ = run_ours(items, n_process=n_process, progress=False, config=config)
    return save_threshold(items, segs, key, config)


def save_threshold(
    items: list[dict], segs: list[list[dict]], key: dict | None = None, config: dict | None = None
) -> dict:
    key = key or {}
    best = choose_threshold([min_support(s) for s in segs], [bool(it["labels"]) for it in items])
    result = {
        **key,
        "threshold": best["threshold"],
        "train_f1": best["f1"],
        "train_responses": len(items),
        "chosen_on": "train",
        "rule": "flag a response when min claim support < threshold (max F1 on train)",
    }
    cache = threshold_cache(config)
    dump_json(cache, result)
    log(f"threshold {best['threshold']} (train F1 {fmt(best['f1'])}) -> {cache}")
    return result


# ---------------------------------------------------------------------------- output
def print_tables(result: dict) -> None:
    sub = result["subset"]
    print(
        f"## RAGTruth {result['split']} ({sub['responses']} responses"
        f"{', quick: every %dth' % QUICK_EVERY if sub['quick'] else ''}"
        f"{', limit %d' % sub['limit'] if sub['limit'] else ''})\n"
    )
    if result["split"] == "test" and not sub["quick"] and not sub["limit"]:
        print("RAGTruth test subset (373/450 sources)\n")
    head = ["tool / scope", *METRICS]
    rows = []
    for tool, block in result["tools"].items():
        for scope in ("QA", "Summary", "Data2txt", "overall"):
            m = block.get(scope)
            if m is None:
                continue
            rows.append(
                [f"{tool} {scope}", *[fmt(m[k], pct=k not in COUNT_METRICS and k != "support_auc") for k in METRICS]]
            )
    print("### Sentence level\n")
    print(md_table(head, rows))
    print()
    rows = []
    for tool, block in result["tools"].items():
        for scope in ("QA", "Summary", "Data2txt", "overall"):
            m = block.get(scope)
            for kind, (n, prec) in sorted((m or {}).get("contradicted_by_kind", {}).items()):
                if kind != "-":  # a tool that says no kind (sourced-evidence) has no row
                    rows.append([f"{tool} {scope}", kind, n, fmt(prec, True)])
    if rows:
        print("### Contradicted sentences by what differs\n")
        print(md_table(["tool / scope", "differs", "contradicted", "precision"], rows))
        print()
    print("### Response level (a response is hallucinated when it has any label)\n")
    rows = []
    for tool, block in result["tools"].items():
        rl = block.get("response_level")
        if not rl:
            continue
        for scope, b in rl["by_task"].items():
            for rule in ("min_support_below_threshold", "any_contradicted", "any_not_grounded", "flag_all_baseline"):
                if rule not in b:
                    continue
                p = b[rule]
                name = (
                    f"min support < {rl['threshold']}"
                    if rule == "min_support_below_threshold"
                    else rule.replace("_", " ")
                )
                if rule == "flag_all_baseline" and tool != next(iter(result["tools"])):
                    continue  # the same for every tool
                rows.append(
                    [
                        f"{tool if rule != 'flag_all_baseline' else 'baseline'} {scope}",
                        name,
                        b["responses"],
                        b["hallucinated_responses"],
                        fmt(p["precision"], True),
                        fmt(p["recall"], True),
                        fmt(p["f1"], True),
                    ]
                )
    print(md_table(["tool / scope", "rule", "responses", "hallucinated", "precision", "recall", "F1"], rows))
    print()
    for tool, t in (
        result.get("thresholds") or ({OURS: result["threshold"]} if result.get("threshold") else {})
    ).items():
        print(
            f"threshold chosen on train ({tool}): {t.get('threshold')} (train F1 {fmt(t.get('train_f1'))}, "
            f"{t.get('train_responses')} train responses)\n"
        )
    for tool, n in result.get("errors", {}).items():
        if n:
            print(f"WARNING: {tool}: {n} records failed or sentences could not be mapped\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", type=Path, default=RAGTRUTH, help="directory with response.jsonl and source_info.jsonl")
    ap.add_argument("--split", choices=("test", "train"), default="test")
    ap.add_argument("--limit", type=int, default=None, help="only the first N responses (after --quick)")
    ap.add_argument("--quick", action="store_true", help=f"every {QUICK_EVERY}th response (deterministic)")
    ap.add_argument("--n-process", type=int, default=1, help="worker processes for sourced-nlp")
    ap.add_argument(
        "--tools",
        default=f"{OURS},{RULES},{PEER}",
        help=f"comma-separated: {OURS} (with the meaning tier), {RULES} (the rules only), {PEER}",
    )
    ap.add_argument(
        "--no-meaning",
        action="store_true",
        help=f"run {OURS} itself with the rules only (the meaning tier off; its --dump then too)",
    )
    ap.add_argument("--json", type=Path, default=None, help="write the metrics as JSON")
    ap.add_argument("--dump", type=Path, default=None, help="per-sentence JSONL of sourced-nlp (train split only)")
    ap.add_argument(
        "--peer-raw-qa",
        action="store_true",
        help="give sourced-evidence the QA passages as one string with its 'passage N:' markers "
        "(not the default: a marker lets 'According to Passage 1' sentences match)",
    )
    ap.add_argument(
        "--verify-config",
        type=json.loads,
        default=None,
        metavar="JSON",
        help="more sourced_verify config overrides for sourced-nlp, e.g. '{\"guard\": null}' or "
        '\'{"guard": {"@misc": "sourced.guard.v1", "unaligned": "all"}}\' or the entailment tier, '
        '\'{"meaning": {"@misc": "sourced.meaning.v2", "veto_threshold": 0.9, "paraphrase_threshold": 0.95}}\'',
    )
    ap.add_argument("--refresh-threshold", action="store_true", help="recompute the train threshold even if cached")
    args = ap.parse_args(argv)

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = set(tools) - {OURS, RULES, PEER}
    if unknown:
        ap.error(f"unknown tools {sorted(unknown)}")
    if args.dump and args.split != "train":
        ap.error("--dump is for tuning, and tuning uses the train split only (use --split train)")
    if not (args.data / "response.jsonl").exists() or not (args.data / "source_info.jsonl").exists():
        ap.error(f"{args.data} must hold response.jsonl and source_info.jsonl")

    t_start = time.time()
    items = build_items(args.data, args.split, args.quick, args.limit, peer_raw_qa=args.peer_raw_qa)
    log(f"RAGTruth {args.split}: {len(items)} responses from {args.data}")
    result: dict = {
        "split": args.split,
        "data": str(args.data.resolve()),
        "peer_raw_qa": args.peer_raw_qa,
        "subset": {
            "responses": len(items),
            "quick": args.quick,
            "quick_every": QUICK_EVERY if args.quick else None,
            "limit": args.limit,
            "by_task": {t: sum(it["task"] == t for it in items) for t in TASKS},
        },
        "machine": machine(),
        "tools": {},
        "counts": {},
        "errors": {},
    }

    segments: dict[str, list[list[dict]]] = {}
    extra = args.verify_config or {}
    # the rules-only tool stays rules only whatever --verify-config says of meaning
    configs = {
        OURS: {**({"meaning": None} if args.no_meaning else {}), **extra} or None,
        RULES: {**extra, "meaning": None},
    }
    result["meaning"] = not args.no_meaning
    for tool in (OURS, RULES):
        if tool in tools:
            segments[tool], result["errors"][tool] = run_ours(items, n_process=args.n_process, config=configs[tool])
    if PEER in tools:
        peer, problems = run_peer(items)
        if peer:
            segments[PEER], result["errors"][PEER] = peer, problems

    thresholds: dict[str, dict] = {}
    for tool in (OURS, RULES):
        if tool not in segments:
            continue
        full = not args.quick and args.limit is None
        if args.split == "train" and full:
            key = {
                "fingerprint": code_fingerprint(),
                "data": str(args.data.resolve()),
                "responses_sha1": file_sha1(args.data / "response.jsonl"),
            }
            thresholds[tool] = save_threshold(items, segments[tool], key, configs[tool])
        else:
            thresholds[tool] = train_threshold(
                args.data, args.n_process, refresh=args.refresh_threshold, config=configs[tool]
            )
    threshold = thresholds.get(OURS) or thresholds.get(RULES)
    if threshold is not None:
        result["threshold"] = threshold
        result["thresholds"] = thresholds

    for tool, segs in segments.items():
        rows = sentence_rows(items, segs)
        block, counts = {}, {}
        for scope in (*TASKS, "overall"):
            scoped = [r for r in rows if scope == "overall" or r["task"] == scope]
            if scope != "overall" and not scoped:
                continue
            block[scope] = sentence_metrics(scoped, with_auc=(tool in (OURS, RULES)))
            counts[scope] = sentence_counts(scoped)
        block["response_level"] = response_level(
            items, segs, thresholds[tool]["threshold"] if tool in thresholds else None, ours=(tool in (OURS, RULES))
        )
        result["tools"][tool] = block
        result["counts"][tool] = counts
        if tool == OURS and args.dump:
            args.dump.parent.mkdir(parents=True, exist_ok=True)
            with open(args.dump, "w", encoding="utf8") as fh:
                for r in rows:
                    fh.write(
                        json.dumps(
                            {
                                "id": r["id"],
                                "task": r["task"],
                                "start": r["start"],
                                "end": r["end"],
                                "text": r["text"],
                                "hallucinated": r["hallucinated"],
                                "conflict": r["conflict"],
                                "verdict": r["verdict"],
                                "support": r.get("support"),
                                "reason": r.get("reason"),
                                "kind": r.get("kind"),
                            },
                            ensure_ascii=False,
                        )
                        + "\n"
                    )
            log(f"per-sentence rows -> {args.dump}")

    result["seconds"] = round(time.time() - t_start, 1)
    print_tables(result)
    print(
        f"command: python bench/ragtruth.py {' '.join(argv if argv is not None else sys.argv[1:])}  "
        f"({result['seconds']}s, commit {result['machine']['commit']})"
    )
    if args.json:
        dump_json(args.json, result)
        log(f"metrics -> {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
