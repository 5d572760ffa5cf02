"""Long sources: the same claims against their own source hidden in a long one, parsed whole and
parsed only where the claims need it (``lazy_parse_chars``, :mod:`sourced_nlp.components.blocks`).

RAGTruth's sources are short (at most about 10,000 characters), so the benchmarks never reach the
lazy parse, which starts above 20,000. This benchmark makes long sources from them: each prose
response (QA, Summary) of the chosen split keeps its sources, but its first source is padded to
``--chars`` characters with the texts of other sources of the same split (never its own), the
response's own text placed at a position fixed by the response id. Three runs over the same
responses, in one process each, scored sentence by sentence as ``bench/ragtruth.py`` does:

- ``as given``: the sources as RAGTruth gives them;
- ``long, whole``: the padded sources, every one parsed whole (``lazy_parse_chars: null``);
- ``long, lazy``: the padded sources, read cheaply and parsed in the blocks the claims need
  (the default).

It prints the sentence metrics of each, how many sentences change verdict between the two long
runs, and the time of each run. Tune on ``--split train`` only.

    python bench/long_sources.py --split train --every 10 --chars 60000
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import RAGTRUTH, fmt, git_commit, log, md_table  # noqa: E402
from ragtruth import OURS, build_items, run_ours, sentence_metrics, sentence_rows  # noqa: E402

RUNS = ("as given", "long, whole", "long, lazy")


def _text(source) -> str:
    return source["text"] if isinstance(source, dict) else source


def padded(items: list[dict], chars: int) -> list[dict]:
    """The items with their first source padded to ``chars`` characters (see the module docstring)."""
    pool = []
    for it in items:
        for s in it["src_ours"]:
            t = _text(s)
            if t not in pool:
                pool.append(t)
    out = []
    for it in items:
        own = {_text(s) for s in it["src_ours"]}
        h = int(hashlib.sha1(it["id"].encode()).hexdigest(), 16)
        first = _text(it["src_ours"][0])
        pad: list[str] = []
        size = len(first)
        for step in range(len(pool)):
            if size >= chars:
                break
            t = pool[(h + step) % len(pool)]
            if t not in own:
                pad.append(t)
                size += len(t) + 2
        at = h % (len(pad) + 1)
        text = "\n\n".join([*pad[:at], first, *pad[at:]])
        src0 = dict(it["src_ours"][0], text=text) if isinstance(it["src_ours"][0], dict) else text
        out.append(dict(it, src_ours=[src0, *it["src_ours"][1:]]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=RAGTRUTH)
    ap.add_argument("--split", choices=("train", "test"), default="train")
    ap.add_argument("--every", type=int, default=10, help="every k-th prose response (deterministic)")
    ap.add_argument("--chars", type=int, default=60_000, help="the padded length of each response's first source")
    args = ap.parse_args(argv)
    if args.chars <= 20_000:
        ap.error("--chars must exceed 20,000 (the lazy parse starts above lazy_parse_chars, 20,000 by default)")

    items = [it for it in build_items(args.data, args.split, False, None) if it["task"] in ("QA", "Summary")][
        :: args.every
    ]
    long_items = padded(items, args.chars)
    log(f"{len(items)} prose responses of {args.split}; first sources padded to {args.chars:,} characters")
    runs = {
        "as given": (items, None),
        "long, whole": (long_items, {"lazy_parse_chars": None}),
        "long, lazy": (long_items, None),
    }
    rows, secs = {}, {}
    t_all = time.time()
    for name in RUNS:
        its, config = runs[name]
        t0 = time.time()
        segs, errors = run_ours(its, config=config, progress=False)
        secs[name] = time.time() - t0
        if errors:
            log(f"{name}: {errors} errors")
        rows[name] = sentence_rows(its, segs)

    table = []
    for name in RUNS:
        m = sentence_metrics(rows[name], with_auc=True)
        table.append(
            [
                name,
                m["sentences"],
                fmt(m["clean_grounded_coverage"], pct=True),
                fmt(m["false_grounded_rate"], pct=True),
                m["contradicted"],
                fmt(m["contradicted_precision"], pct=True),
                fmt(m["support_auc"]),
                f"{secs[name]:.1f}",
            ]
        )
    print(
        f"### {OURS} on {len(items)} prose responses of RAGTruth {args.split}, first source padded to {args.chars:,} characters\n"
    )
    print(
        md_table(
            [
                "run",
                "sentences",
                "clean-grounded coverage",
                "false-grounded rate",
                "contradicted",
                "contradicted precision",
                "support AUC",
                "seconds",
            ],
            table,
        )
    )
    whole = {(r["id"], r["start"], r["end"]): r["verdict"] for r in rows["long, whole"]}
    changed: dict[tuple[str, str], int] = {}
    for r in rows["long, lazy"]:
        before = whole.get((r["id"], r["start"], r["end"]))
        if before != r["verdict"]:
            changed[(str(before), r["verdict"])] = changed.get((str(before), r["verdict"]), 0) + 1
    print(
        f"\nsentences whose verdict differs, long whole -> long lazy: {sum(changed.values())} of {len(rows['long, lazy'])}"
    )
    for (a, b), n in sorted(changed.items()):
        print(f"- {a} -> {b}: {n}")
    print(
        f"\ncommand: python bench/long_sources.py {' '.join(argv if argv is not None else sys.argv[1:])}  "
        f"({time.time() - t_all:.0f}s, commit {git_commit()})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
