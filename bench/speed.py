"""Speed and memory of sourced-nlp beside sourced-evidence: same machine, same run.

1. Throughput over the RAGTruth test subset (``--quick``: every 10th response): records/s and
   answer words/s, sourced-nlp with ``n_process`` 1 and 2 (source cache emptied before each),
   sourced-evidence in one process; ratios (sourced-nlp time / sourced-evidence time) beside; and
   the floor, en_core_web_sm alone through ``nlp.pipe`` over the answers alone (no source read).
2. Where sourced-nlp's time goes, per record (``check()`` one record at a time, source cache on,
   as in normal use): the tokenizer and every pipeline component timed separately on the answer
   and on the sources (the ``sourced_verify`` component parses the sources itself, through the
   same components), the verdict step (``Verifier.verify``) and the rest of ``sourced_verify``.
3. Scaling with source size: one 20-sentence answer (real RAGTruth summaries of the first
   article) against about 5 KB, 50 KB, 550 KB and 5 MB of real text (RAGTruth Summary articles
   concatenated in file order, cut at the first sentence end past the size; past the ~503 KB they hold,
   RAGTruth QA passages follow; past the ~1.9 MB of both, the same text again): first
   check (cold source cache) and re-check (warm cache, same nlp object), each size in a fresh
   process so that its peak memory is its own; beside them, up to 550 KB, the first check and
   peak memory of the same process parsing the source whole (``lazy_parse_chars: null``, as
   before the lazy parse), and sourced-evidence's first check and re-check.
   ``--scaling-only`` measures this part alone.
4. Peak resident memory (``resource.getrusage``, ``ru_maxrss``) after each phase, for this
   process and for its finished child processes (the ``n_process=2`` workers).
5. Start-up: wall time of ``sourced check examples/answer.txt examples/source.txt`` in a fresh
   process (median of 3), beside a fresh ``python -c`` running sourced-evidence on the same files;
   and ``sourced --version`` against ``python -c pass`` (median of 9 each, alternated): the ratio,
   and whether ``--version``, ``--help`` or a usage error imported spaCy (``-X importtime``).
   ``--startup-only`` measures this part alone.

Usage::

    python bench/speed.py --quick
    python bench/speed.py --startup-only
    python bench/speed.py --scaling-only
    python bench/speed.py --json bench/out/speed.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import (  # noqa: E402
    OURS,
    PEER,
    RAGTRUTH,
    REPO,
    dump_json,
    fmt,
    load_peer,
    load_ragtruth,
    log,
    machine,
    md_table,
    sources_for,
    subsample,
)

QUICK_EVERY = 10
SIZES = (("5 KB", 5_000), ("50 KB", 50_000), ("550 KB", 550_000), ("5 MB", 5_000_000))
WHOLE_UP_TO = 600_000  # the whole parse is also timed up to this size (5 MB whole takes about 15 minutes)
SPACY_NAMES = {"tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner", "senter", "morphologizer"}


def rss_mb() -> dict:
    """Peak resident set size so far, in MB (Linux reports ru_maxrss in KB)."""
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / (1024 * 1024)
    return {
        "self_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale, 1),
        "children_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale, 1),
    }


def clear_cache(nlp) -> bool:
    """Empty sourced_verify's source cache; False when the component has none."""
    try:
        verify = nlp.get_pipe("sourced_verify")
        ix = verify.indexer
        for cache in (ix._cache, ix._indexes, ix._blocks, ix._block_indexes):
            cache.clear()
        return True
    except (AttributeError, KeyError):
        return False


# ---------------------------------------------------------------------------- instrumentation
class _Timed:
    """A pipeline component (or the tokenizer) whose calls are timed into ``sink``."""

    def __init__(self, name: str, proc, sink: "Timings") -> None:
        self._name, self._proc, self._sink = name, proc, sink

    def __call__(self, doc, *args, **kwargs):
        is_verify = self._name == "sourced_verify"
        side = "source" if self._sink.inside_verify else "answer"
        if is_verify:
            self._sink.inside_verify = True
        t = time.perf_counter()
        try:
            return self._proc(doc, *args, **kwargs)
        finally:
            self._sink.add(side, self._name, time.perf_counter() - t)
            if is_verify:
                self._sink.inside_verify = False

    def __getattr__(self, attr):
        return getattr(self._proc, attr)


class Timings:
    def __init__(self) -> None:
        self.inside_verify = False
        self.totals: dict[tuple[str, str], float] = {}

    def add(self, side: str, name: str, secs: float) -> None:
        self.totals[(side, name)] = self.totals.get((side, name), 0.0) + secs


@contextlib.contextmanager
def instrumented(nlp, sink: Timings):
    """Time the tokenizer, every component and ``Verifier.verify``; everything restored after."""
    saved_components = list(nlp._components)
    saved_tokenizer = nlp.tokenizer
    verifier = None
    try:
        nlp._components[:] = [(n, _Timed(n, p, sink)) for n, p in saved_components]
        nlp.tokenizer = _Timed("tokenizer", saved_tokenizer, sink)
        try:
            verifier = nlp.get_pipe("sourced_verify").verifier
        except (AttributeError, KeyError):
            log("sourced_verify has no .verifier: the verdict step is not timed separately")
        if verifier is not None:
            orig = verifier.verify

            def timed_verify(*a, **k):
                t = time.perf_counter()
                try:
                    return orig(*a, **k)
                finally:
                    sink.add("answer", "verdict (Verifier.verify)", time.perf_counter() - t)

            verifier.verify = timed_verify
        yield
    finally:
        nlp._components[:] = saved_components
        nlp.tokenizer = saved_tokenizer
        if verifier is not None and "verify" in vars(verifier):
            del verifier.verify


def breakdown(nlp, items: list[dict]) -> dict:
    import sourced_nlp

    clear_cache(nlp)
    sink = Timings()
    t0 = time.perf_counter()
    with instrumented(nlp, sink):
        for it in items:
            sourced_nlp.check(it["response"], it["src_ours"], nlp=nlp)
    wall = time.perf_counter() - t0
    n = len(items)
    per = {f"{side}: {name}": 1000 * secs / n for (side, name), secs in sink.totals.items()}
    verify_total = sink.totals.get(("answer", "sourced_verify"), 0.0)
    source_side = sum(s for (side, _), s in sink.totals.items() if side == "source")
    verdict = sink.totals.get(("answer", "verdict (Verifier.verify)"), 0.0)
    groups = {
        "answer: spaCy (tokenizer + en_core_web_sm components)": sum(
            s
            for (side, name), s in sink.totals.items()
            if side == "answer" and (name == "tokenizer" or name in SPACY_NAMES)
        ),
        "answer: sourced components (claims..passages)": sum(
            s
            for (side, name), s in sink.totals.items()
            if side == "answer" and name.startswith("sourced_") and name != "sourced_verify"
        ),
        "sources: spaCy (tokenizer + en_core_web_sm components)": sum(
            s
            for (side, name), s in sink.totals.items()
            if side == "source" and (name == "tokenizer" or name in SPACY_NAMES)
        ),
        "sources: sourced components (claims..passages)": sum(
            s for (side, name), s in sink.totals.items() if side == "source" and name.startswith("sourced_")
        ),
        "verdict (Verifier.verify)": verdict,
        "sourced_verify, rest (index, cache, report)": verify_total - source_side - verdict,
    }
    accounted = sum(groups.values())
    groups["outside the pipeline (make_doc glue, Report)"] = wall - accounted
    return {
        "records": n,
        "wall_s": round(wall, 2),
        "ms_per_record": {k: round(1000 * v / n, 2) for k, v in groups.items()},
        "ms_per_record_by_component": {k: round(v, 2) for k, v in sorted(per.items())},
    }


# ---------------------------------------------------------------------------- data
def scaling_inputs(data_dir: Path) -> tuple[str, dict[str, str], int]:
    responses, sources = load_ragtruth(data_dir, None)
    articles = [s for s in sources.values() if s["task_type"] == "Summary"]
    first = str(articles[0]["source_id"])
    texts = [s["source_info"] for s in articles]
    texts += [p for s in sources.values() if s["task_type"] == "QA" for p in sources_for(s)[1]]
    sents: list[str] = []
    for r in responses:
        if r["source_id"] != first:
            continue
        for line in r["response"].splitlines():
            for sent in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])", line.strip()):
                if len(sent.split()) >= 5 and sent not in sents:
                    sents.append(sent)
    answer = " ".join(sents[:20])
    whole = "\n\n".join(texts)
    base = whole
    while len(whole) < SIZES[-1][1]:
        whole += "\n\n" + base
    out = {}
    for label, target in SIZES:
        # cut at the first sentence end at or after the target size
        m = re.compile(r"[.!?][\"')\]]?(?=\s)").search(whole, target)
        out[label] = whole[: m.end()] if m else whole
    return answer, out, min(20, len(sents))


def startup(runs: int = 3) -> dict:
    answer, source = REPO / "examples" / "answer.txt", REPO / "examples" / "source.txt"
    if not answer.exists() or not source.exists():
        log("examples/answer.txt or examples/source.txt missing: start-up not measured")
        return {"skipped": "examples/answer.txt or examples/source.txt missing"}
    exe = Path(sys.executable).parent / "sourced"
    cmd_ours = (
        [str(exe), "check", str(answer), str(source)]
        if exe.exists()
        else [sys.executable, "-m", "sourced_nlp.cli", "check", str(answer), str(source)]
    )
    cmd_peer = [
        sys.executable,
        "-c",
        "import sys; from sourced import check; check(open(sys.argv[1]).read(), [open(sys.argv[2]).read()])",
        str(answer),
        str(source),
    ]
    out = {}
    for tool, cmd in ((OURS, cmd_ours), (PEER, cmd_peer)):
        times, codes, rss, err = [], set(), [], ""
        for _ in range(runs):
            t = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
            err = proc.stderr.read().decode("utf8", "replace")
            _, status, usage = os.wait4(proc.pid, 0)
            times.append(time.perf_counter() - t)
            codes.add(os.waitstatus_to_exitcode(status))
            rss.append(usage.ru_maxrss / 1024)
            proc.returncode = os.waitstatus_to_exitcode(status)
            proc.stderr.close()
        if codes - {0, 1}:
            log(f"{tool} start-up command exited {sorted(codes)}: {err.strip()[-300:]}")
        out[tool] = {
            "median_s": round(statistics.median(times), 3),
            "runs": [round(x, 3) for x in times],
            "peak_rss_mb": round(max(rss), 1),
            "exit_codes": sorted(codes),
            "command": " ".join(Path(c).name if i == 0 else c for i, c in enumerate(cmd)),
        }
    return out


def version_ratio(runs: int = 9) -> dict:
    """Wall time of ``sourced --version`` in a fresh process against ``python -c pass`` with the
    same interpreter (its site-packages and ``.pth`` files included), the two alternated, each
    the median of ``runs``; the ratio of the medians is the start-up the CLI adds to Python's own.
    Also says whether ``--version``, ``--help`` and a usage error imported spaCy (``-X importtime``)."""
    exe = Path(sys.executable).parent / "sourced"
    ours = [str(exe)] if exe.exists() else [sys.executable, "-m", "sourced_nlp.cli"]
    cmds = {"python -c pass": [sys.executable, "-c", "pass"], "sourced --version": ours + ["--version"]}
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, check=False)
            times[name].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in times.items()}
    spacy_imported = {}
    for args in (["--version"], ["--help"], ["check", "missing-answer.txt", "missing-source.txt"]):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "sourced_nlp.cli", *args],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        spacy_imported[" ".join(["sourced", *args])] = bool(re.search(r"\|\s+spacy$", proc.stderr, re.M))
    return {
        "runs": runs,
        "median_s": {k: round(v, 4) for k, v in med.items()},
        "all_s": {k: [round(x, 4) for x in v] for k, v in times.items()},
        "ratio": round(med["sourced --version"] / med["python -c pass"], 2),
        "spacy_imported": spacy_imported,
    }


# ---------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=RAGTRUTH)
    ap.add_argument("--quick", action="store_true", help=f"every {QUICK_EVERY}th test response; breakdown on 50")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--startup-only", action="store_true", help="only part 5, start-up (about 10 s)")
    ap.add_argument(
        "--scaling-only", action="store_true", help="only part 3, scaling with source size (about 5 minutes)"
    )
    ap.add_argument("--scaling-child", default=None, help=argparse.SUPPRESS)  # one size, in a fresh process
    args = ap.parse_args(argv)
    if args.scaling_child:
        print(json.dumps(scaling_row(args.data, args.scaling_child)))
        return 0

    t_run = time.perf_counter()
    if args.scaling_only:
        result = {"machine": machine(), "scaling": scaling(args.data)}
        result["seconds"] = round(time.perf_counter() - t_run, 1)
        print_scaling(result["scaling"])
        print(
            f"\ncommand: python bench/speed.py {' '.join(argv if argv is not None else sys.argv[1:])}  "
            f"({result['seconds']}s, commit {result['machine']['commit']})"
        )
        if args.json:
            dump_json(args.json, result)
        return 0
    result: dict = {"quick": args.quick, "memory": {}}
    # 5. start-up first: a child forked from a large process would report that process's pages
    result["startup"] = startup()
    result["version_ratio"] = version_ratio()
    if args.startup_only:
        result["machine"] = machine()
        result["seconds"] = round(time.perf_counter() - t_run, 1)
        print_startup(result)
        print(
            f"\ncommand: python bench/speed.py {' '.join(argv if argv is not None else sys.argv[1:])}  "
            f"({result['seconds']}s, commit {result['machine']['commit']})"
        )
        if args.json:
            dump_json(args.json, result)
        return 0
    t_import = time.perf_counter()
    import sourced_nlp

    import_s = time.perf_counter() - t_import
    t = time.perf_counter()
    nlp = sourced_nlp.load_pipeline()
    load_s = time.perf_counter() - t
    result["load"] = {"import_s": round(import_s, 3), "load_pipeline_s": round(load_s, 3)}
    result["machine"] = machine()
    result["memory"]["after load"] = rss_mb()
    peer_check = load_peer()

    responses, sources = load_ragtruth(args.data, "test")
    responses = subsample(responses, QUICK_EVERY if args.quick else None, args.limit)
    items = []
    for r in responses:
        ours, peer = sources_for(sources[r["source_id"]])
        items.append({"response": r["response"], "src_ours": ours, "src_peer": peer})
    n, words = len(items), sum(len(it["response"].split()) for it in items)
    log(f"throughput over {n} RAGTruth test responses ({words:,} answer words)")

    # 1. throughput
    thr: dict[str, dict] = {}
    for n_proc in (1, 2):
        clear_cache(nlp)
        t = time.perf_counter()
        sourced_nlp.check_many([(it["response"], it["src_ours"]) for it in items], nlp=nlp, n_process=n_proc)
        secs = time.perf_counter() - t
        thr[f"{OURS} n_process={n_proc}"] = {
            "seconds": round(secs, 2),
            "records_per_s": n / secs,
            "words_per_s": words / secs,
        }
        log(f"  {OURS} n_process={n_proc}: {secs:.1f}s")
        result["memory"][f"after {OURS} n_process={n_proc}"] = rss_mb()
    # the floor: en_core_web_sm alone over the answers alone, batched (nlp.pipe), no source read
    plain = _plain_model()
    t = time.perf_counter()
    for _ in plain.pipe((it["response"] for it in items), batch_size=64):
        pass
    secs = time.perf_counter() - t
    thr["en_core_web_sm nlp.pipe, answers only"] = {
        "seconds": round(secs, 2),
        "records_per_s": n / secs,
        "words_per_s": words / secs,
    }
    log(f"  en_core_web_sm nlp.pipe over the answers: {secs:.1f}s")
    del plain
    if peer_check is not None:
        t = time.perf_counter()
        for it in items:
            peer_check(it["response"], it["src_peer"])
        secs = time.perf_counter() - t
        thr[PEER] = {"seconds": round(secs, 2), "records_per_s": n / secs, "words_per_s": words / secs}
        log(f"  {PEER}: {secs:.1f}s")
        for v in thr.values():
            v["time_ratio_vs_peer"] = v["seconds"] / secs if secs else None
    result["throughput"] = {"records": n, "answer_words": words, "tools": thr}

    # 2. breakdown
    sample = items[: 50 if args.quick else 300]
    log(f"breakdown over {len(sample)} records")
    result["breakdown"] = breakdown(nlp, sample)
    result["memory"]["after breakdown"] = rss_mb()

    # 3. scaling
    if not args.skip_scaling:
        result["scaling"] = scaling(args.data)

    result["memory"]["peak"] = rss_mb()
    result["seconds"] = round(time.perf_counter() - t_run, 1)

    print_tables(result)
    print(
        f"\ncommand: python bench/speed.py {' '.join(argv if argv is not None else sys.argv[1:])}  ({result['seconds']}s, commit {result['machine']['commit']})"
    )
    if args.json:
        dump_json(args.json, result)
        log(f"-> {args.json}")
    return 0


def _x(ours: float | None, peer: float | None) -> str:
    """``ours / peer`` as a ratio: ``17x``, ``1.3x``, ``0.09x``."""
    if not ours or not peer:
        return "–"
    x = ours / peer
    return f"{x:.0f}x" if x >= 10 else f"{x:.2g}x"


def print_tables(r: dict) -> None:
    m = r["machine"]
    print(
        f"## Speed (machine: {m.get('cpu', '?')}, {m.get('cpus')} CPUs, Python {m.get('python')}, spaCy {m.get('spacy')}; {m['date']})\n"
    )
    print(f"sourced-nlp import {r['load']['import_s']:.2f}s, load_pipeline {r['load']['load_pipeline_s']:.2f}s\n")
    t = r["throughput"]
    print(f"### Throughput: {t['records']} RAGTruth test responses, {t['answer_words']:,} answer words\n")
    print(
        md_table(
            ["tool", "seconds", "records/s", "answer words/s", "time vs sourced-evidence"],
            [
                [
                    k,
                    fmt(v["seconds"], digits=1),
                    fmt(v["records_per_s"], digits=1),
                    fmt(v["words_per_s"], digits=0),
                    (f"{v['time_ratio_vs_peer']:.1f}x" if v.get("time_ratio_vs_peer") else "–"),
                ]
                for k, v in t["tools"].items()
            ],
        )
    )
    floor = t["tools"].get("en_core_web_sm nlp.pipe, answers only")
    if floor:
        ratios = ", ".join(
            f"{k}: {v['seconds'] / floor['seconds']:.2f}x" for k, v in t["tools"].items() if k.startswith(OURS)
        )
        print(f"\ntime against en_core_web_sm's nlp.pipe over the answers alone (the target is <= 1.5x): {ratios}")
    b = r["breakdown"]
    print(
        f"\n### Where sourced-nlp's time goes ({b['records']} records, check() one at a time, source cache on; {b['wall_s']}s)\n"
    )
    total = sum(b["ms_per_record"].values())
    print(
        md_table(
            ["part", "ms / record", "share"],
            [[k, fmt(v, digits=2), fmt(v / total if total else None, True)] for k, v in b["ms_per_record"].items()],
        )
    )
    print("\nby component:\n")
    print(
        md_table(
            ["side: component", "ms / record"],
            [[k, fmt(v, digits=2)] for k, v in b["ms_per_record_by_component"].items()],
        )
    )
    if "scaling" in r:
        print_scaling(r["scaling"])
    print(
        "\n### Peak resident memory (ru_maxrss, MB; children = the largest finished child: start-up runs, n_process workers)\n"
    )
    print(
        md_table(
            ["after", "this process", "children"], [[k, v["self_mb"], v["children_mb"]] for k, v in r["memory"].items()]
        )
    )
    print_startup(r)


def _plain_model():
    """en_core_web_sm as the package loads it (the first of its model names that is installed)."""
    import spacy

    from sourced_nlp import MODEL_NAMES

    for name in MODEL_NAMES:
        try:
            return spacy.load(name)
        except OSError:
            continue
    raise SystemExit(f"none of {MODEL_NAMES} is installed")


def print_scaling(s: dict) -> None:
    print(
        f"\n### Scaling with source size ({s['answer_sentences']}-sentence answer, {s['answer_chars']:,} chars; each size in a fresh process)\n"
    )
    rows = []
    for label, row in s["sizes"].items():
        pf, pr = row.get(f"{PEER} first_s"), row.get(f"{PEER} recheck_s")
        rows.append(
            [
                label,
                f"{row['source_chars']:,}",
                row[f"{OURS} claims"],
                fmt(row[f"{OURS} first_s"], digits=2),
                fmt(row[f"{OURS} recheck_s"], digits=3),
                fmt(row[f"{OURS} peak_mb"], digits=0),
                row[f"{OURS} verdicts"],
                fmt(row.get("whole first_s"), digits=2),
                fmt(row.get("whole peak_mb"), digits=0),
                row.get("whole verdicts", "–"),
                fmt(pf, digits=3),
                fmt(pr, digits=3),
                _x(row[f"{OURS} first_s"], pf),
                _x(row[f"{OURS} recheck_s"], pr),
                f"{fmt(row.get('locate_fuzzy_s'), digits=3)} ({'found' if row.get('locate_found') else 'not found'})",
            ]
        )
    print(
        md_table(
            [
                "source",
                "chars",
                "our claims",
                "first (s)",
                "re-check (s)",
                "peak RSS (MB)",
                "g / c / u",
                "whole parse: first (s)",
                "whole: peak RSS (MB)",
                "whole: g / c / u",
                f"{PEER} first (s)",
                f"{PEER} re-check (s)",
                "first ratio",
                "re-check ratio",
                "locate, fuzzy 12-word quote (s)",
            ],
            rows,
        )
    )


def scaling(data_dir: Path) -> dict:
    """Part 3: every size of :data:`SIZES` in a fresh process (``--scaling-child``), so that each
    peak memory is that size's own."""
    answer, srcs, n_sents = scaling_inputs(data_dir)
    out: dict = {"answer_sentences": n_sents, "answer_chars": len(answer), "sizes": {}}
    for label in srcs:
        proc = subprocess.run(
            [sys.executable, __file__, "--data", str(data_dir), "--scaling-child", label],
            capture_output=True,
            text=True,
            check=True,
        )
        out["sizes"][label] = row = json.loads(proc.stdout.strip().splitlines()[-1])
        log(
            f"  scaling {label} ({row['source_chars']:,} chars): {row[f'{OURS} first_s']:.2f}s / {row[f'{OURS} recheck_s']:.3f}s, "
            f"{row[f'{OURS} peak_mb']:.0f} MB"
        )
    return out


def scaling_row(data_dir: Path, label: str) -> dict:
    """One size of part 3 in this (fresh) process: sourced-nlp's first check and re-check and
    the peak memory after them, then (up to :data:`WHOLE_UP_TO`) the same source parsed whole,
    then sourced-evidence and a fuzzy quote search."""
    import sourced_nlp

    answer, srcs, _ = scaling_inputs(data_dir)
    text = srcs[label]
    nlp = sourced_nlp.load_pipeline()
    sourced_nlp.check("Warm-up.", ["Warm-up."], nlp=nlp)  # the model's first call, paid once by every user
    row: dict = {"source_chars": len(text)}

    def verdicts(rep) -> str:
        return " / ".join(
            str(sum(c.verdict == v for c in rep.claims)) for v in ("grounded", "contradicted", "unverified")
        )

    t = time.perf_counter()
    rep = sourced_nlp.check(answer, [text], nlp=nlp)
    row[f"{OURS} first_s"] = time.perf_counter() - t
    t = time.perf_counter()
    sourced_nlp.check(answer, [text], nlp=nlp)
    row[f"{OURS} recheck_s"] = time.perf_counter() - t
    row[f"{OURS} peak_mb"] = rss_mb()["self_mb"]
    row[f"{OURS} claims"] = len(rep.claims)
    row[f"{OURS} verdicts"] = verdicts(rep)
    if len(text) <= WHOLE_UP_TO:
        verify = nlp.get_pipe("sourced_verify")
        clear_cache(nlp)
        verify.lazy_parse_chars = None
        t = time.perf_counter()
        whole = sourced_nlp.check(answer, [text], nlp=nlp)
        row["whole first_s"] = time.perf_counter() - t
        row["whole peak_mb"] = rss_mb()["self_mb"]
        row["whole verdicts"] = verdicts(whole)
    peer_check = load_peer()
    if peer_check is not None:
        t = time.perf_counter()
        peer_check(answer, [text])
        row[f"{PEER} first_s"] = time.perf_counter() - t
        t = time.perf_counter()
        peer_check(answer, [text])
        row[f"{PEER} recheck_s"] = time.perf_counter() - t
    # locating a quote: a 12-word quote from the end of the text (one word changed, so the
    # exact and normalised passes fail and the fuzzy pass runs over the whole text)
    quote = text.split()[-14:-2]
    quote[5] = "zzzz"
    t = time.perf_counter()
    row["locate_found"] = sourced_nlp.locate(" ".join(quote), text) is not None
    row["locate_fuzzy_s"] = time.perf_counter() - t
    return row


def print_startup(r: dict) -> None:
    su = r["startup"]
    print("\n### Start-up (fresh process, median of 3)\n")
    if "skipped" in su:
        print(f"skipped: {su['skipped']}")
    else:
        print(
            md_table(
                ["tool", "command", "median (s)", "peak RSS (MB)", "exit codes"],
                [
                    [k, f"`{v['command'][:80]}`", fmt(v["median_s"], digits=2), v["peak_rss_mb"], v["exit_codes"]]
                    for k, v in su.items()
                ],
            )
        )
    vr = r.get("version_ratio")
    if vr:
        print(
            f"\n`sourced --version` against `python -c pass` (same interpreter, median of {vr['runs']} each, alternated):\n"
        )
        print(md_table(["command", "median (s)"], [[f"`{k}`", fmt(v, digits=3)] for k, v in vr["median_s"].items()]))
        spacy = ", ".join(f"`{k}`: {'yes' if v else 'no'}" for k, v in vr["spacy_imported"].items())
        print(f"\nratio {vr['ratio']:.2f}x (target <= 3x); spaCy imported: {spacy}")


if __name__ == "__main__":
    raise SystemExit(main())
