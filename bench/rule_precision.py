"""The rules' precision on natural labelled text: how often each rule and each finding of the
guard decides, and how often it is right.

Sets (natural text, labelled by people; tuning data, see ``../shared/data/README.md``):

- ``ragtruth-train``: RAGTruth's train rows (391 responses), sentence by sentence: a sentence is
  hallucinated when a labelled span overlaps it (``benchlib.label_sentence``);
- ``faithbench``: ``dev/faithbench`` (370 summaries by ten LLMs), sentence by sentence: a sentence
  is hallucinated when a span labelled Unwanted or Questionable overlaps it;
- ``wice``, ``summedits``, ``factcheck-gpt``, ``climate-fever``: claim against evidence
  (``bench/claims.py`` loads them), one label a claim: hallucinated = not fully supported (WiCE
  partially/not supported, SummEdits inconsistent, factcheck-gpt anything but
  completely-support, climate-fever anything but SUPPORTS). Only items the checker reads as one
  claim count (a label of several sentences cannot be put on one of them); how many is printed.

What is counted, for each unit (a sentence the checker made a claim of):

- **the rule that decided it** (``claim.rule``): it fired; it is right when the verdict is
  ``grounded`` and the sentence is clean, or ``contradicted``/``unverified`` and the sentence is
  hallucinated (for ``unverified`` that is the share of what it left that deserved a look, not a
  claim of the verdict). A grounding rule is also counted by band of ``support`` (``BANDS``).
- **each finding of the guard** (:meth:`sourced_nlp.verdict.guard.Guard.read`, every finding on a
  grounding the rules made, not only the one that decided): it *takes back* a grounding; what it
  takes back is compared with what the guard *lets through* (the groundings it read and kept):
  the hallucinated share of each, and their ratio (``lift``: what it took back that was
  hallucinated, over what would have been at each set's rate of what the guard lets through
  there; the sets' base rates differ tenfold, so a pooled share alone would favour a finding that
  fires on the sets with most hallucinations). A finding earns its place when what it takes back
  is hallucinated at least 1.5 times as often as what it lets through.
- **admission** (``--write-model`` writes it into ``models/rule_precision.json``): a rule or a
  finding of the guard may give ``contradicted`` only where the low end of its pooled precision's
  95% interval is at least 50%, or it fired fewer than 10 times and was right each time; the
  others give ``unverified.possible`` (:meth:`sourced_nlp.verdict.verifier.Verifier.admitted`),
  and are still counted here under their own name.
- where the guard's finding *decided* a ``contradicted`` verdict, its row is ``guard:<rule>``,
  apart from the same name given by the ``contradicted`` rule.

Every share comes with its 95% Wilson interval. Pooled = the counts of every set added.
Deterministic: the same code and data give the same table (``PYTHONHASHSEED`` does not matter:
nothing iterates a set into the output).

Usage::

    python bench/rule_precision.py                      # every set, the table on stdout
    python bench/rule_precision.py --json bench/out/rule-precision.json
    python bench/rule_precision.py --write-model        # also models/rule_precision.json
    python bench/rule_precision.py --sets faithbench,ragtruth-train --config '{"guard": null}'
    python bench/rule_precision.py --every 4            # every 4th item of each set (quick look)
    python bench/rule_precision.py --sets ragtruth-test,faithbench --frontier   # reporting: strict levels
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import DEV, RAGTRUTH, REPO, label_sentence, load_ragtruth, log, md_table, read_jsonl, sources_for  # noqa: E402

SETS = ("ragtruth-train", "faithbench", "wice", "summedits", "factcheck-gpt", "climate-fever")
#: reporting only: measured, never written into the model (``--write-model`` refuses it)
REPORT_SETS = ("ragtruth-test",)
#: the strict levels whose frontier ``--frontier`` prints
LEVELS = (None, 0.8, 0.85, 0.9, 0.95)
#: the lower edges of the support bands a grounding rule is also counted by
BANDS = (0.0, 0.8, 0.9, 0.95)
#: what a take-back must beat: hallucinated this many times as often as what the guard lets through
LIFT = 1.5
#: what a contradicting rule's pooled precision must have as the lower end of its 95% interval
CONTRADICT_LOW = 0.5
Z = 1.959964


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials, ``(low, high)`` in [0, 1];
    ``(0.0, 1.0)`` for ``n == 0``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + Z * Z / n
    c = p + Z * Z / (2 * n)
    r = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, (c - r) / d), min(1.0, (c + r) / d)


# ---------------------------------------------------------------------------- the sets
def faithbench_units(path: Path) -> list[dict]:
    """``[{"answer", "sources", "spans": [(start, end, conflict)]}]`` of ``dev/faithbench``."""
    out = []
    for r in read_jsonl(path):
        spans = []
        for a in r.get("annotations") or []:
            labels = set(a.get("label") or ())
            if not labels & {"Unwanted", "Questionable"} and not any(x.startswith("Unwanted.") for x in labels):
                continue
            if a.get("summary_start") is None or a.get("summary_end") is None:
                continue
            spans.append((int(a["summary_start"]), int(a["summary_end"]), any("Intrinsic" in x for x in labels)))
        out.append({"answer": r["summary"], "sources": [r["source"]], "spans": spans})
    return out


def ragtruth_units(split: str) -> list[dict]:
    responses, sources = load_ragtruth(RAGTRUTH, split)
    out = []
    for r in responses:
        ours, _ = sources_for(sources[r["source_id"]])
        out.append({"answer": r["response"], "sources": ours, "labels": r.get("labels") or []})
    return out


def claim_units(name: str) -> list[dict]:
    from claims import load_set, usable

    items, _ = load_set(name, DEV)
    return [
        {"answer": it["claim"], "sources": it["sources"], "bad": it["gold"] != "grounded"} for it in items if usable(it)
    ]


def load(name: str) -> list[dict]:
    if name == "ragtruth-train":
        return ragtruth_units("train")
    if name == "ragtruth-test":
        return ragtruth_units("test")
    if name == "faithbench":
        return faithbench_units(DEV / "faithbench" / "dev.jsonl")
    return claim_units(name)


def hallucinated(unit: dict, start: int, end: int, n_claims: int) -> tuple[bool, bool] | None:
    """``(hallucinated, conflict)`` of the sentence ``[start, end)`` of ``unit``; None where the
    label cannot be put on one sentence (a claim-level item read as several claims)."""
    if "labels" in unit:
        return label_sentence({"start": start, "end": end}, unit["labels"])
    if "spans" in unit:
        hit = [c for s, e, c in unit["spans"] if s < end and start < e]
        return bool(hit), any(hit)
    if n_claims != 1:
        return None
    return unit["bad"], False


# ---------------------------------------------------------------------------- running
class GuardLog:
    """Wraps :class:`~sourced_nlp.verdict.guard.Guard` so each grounding it reads is recorded:
    ``{(start, end): {"rule", "findings": [(verdict, rule)], "out_verdict", "out_rule"}}``."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], dict] = {}

    def install(self) -> None:
        from sourced_nlp.verdict.guard import Guard

        original = Guard.__call__
        log_ = self

        def wrapped(guard, ctx, res):  # noqa: ANN001
            out = original(guard, ctx, res)
            found = guard.read(ctx, res)
            if res["verdict"] == "grounded" and res["evidence"]:
                rec = ctx.record
                log_.seen[(rec["start"], rec["end"])] = {
                    "rule": res["rule"],
                    "findings": [(f.verdict, f.rule) for f in found],
                    "out_verdict": out["verdict"],
                    "out_rule": out["rule"],
                }
            return out

        Guard.__call__ = wrapped  # type: ignore[method-assign]


def run_set(name: str, units: list[dict], nlp, glog: GuardLog) -> list[dict]:
    """One row per claim of the set: its verdict, rule, support, labels and what the guard read."""
    import sourced_nlp

    rows = []
    for i, unit in enumerate(units):
        glog.seen.clear()
        try:
            rep = sourced_nlp.check(unit["answer"], unit["sources"], nlp=nlp)
        except Exception as err:  # noqa: BLE001 - a record the checker refuses is counted, not fatal
            log(f"  {name} #{i}: {type(err).__name__}: {err}")
            continue
        claims = list(rep.claims)
        for c in claims:
            lab = hallucinated(unit, c.start, c.end, len(claims))
            if lab is None:
                continue
            g = glog.seen.get((c.start, c.end))
            rows.append(
                {
                    "set": name,
                    "item": i,
                    "start": c.start,
                    "end": c.end,
                    "verdict": c.verdict,
                    "rule": c.rule or "?",
                    "reason": c.reason if c.rule == "unverified.possible" else "",
                    "support": float(c.support),
                    "bad": lab[0],
                    "conflict": lab[1],
                    "guard": g,
                }
            )
    return rows


# ---------------------------------------------------------------------------- counting
def band_of(support: float) -> str:
    edge = max(b for b in BANDS if support >= b or b == BANDS[0])
    return f"{edge:g}"


_POSSIBLE = re.compile(r"^possible contradiction \(([a-z_]+\.[a-z_]+)( of the guard)?, ")


def decided_name(row: dict) -> str:
    """The row's deciding rule; ``guard:<rule>`` where the guard's finding decided a
    ``contradicted`` that the ``contradicted`` rule may also give. A ``contradicted`` demoted to
    ``unverified.possible`` counts as the rule that found it (it is measured as it was)."""
    g = row["guard"]
    if row["rule"] == "unverified.possible" and (m := _POSSIBLE.match(row.get("reason") or "")):
        return f"guard:{m.group(1)}" if m.group(2) else m.group(1)
    if g and g["out_verdict"] == "contradicted" and row["verdict"] == "contradicted" and row["rule"] == g["out_rule"]:
        return f"guard:{row['rule']}"
    return row["rule"]


def count(rows: list[dict]) -> dict:
    """``{"decided": {rule: {set: [fired, right]}}, "bands": {rule: {band: [fired, right]}},
    "took": {finding: {set: [took, bad]}}, "through": {set: [kept, bad]}, "sentences": {set: {...}}}``."""
    decided: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    bands: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    took: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    decided_by: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    through: dict = defaultdict(lambda: [0, 0])
    sent: dict = defaultdict(lambda: defaultdict(int))
    for r in rows:
        name, s, bad = decided_name(r), r["set"], r["bad"]
        right = (
            (not bad) if r["verdict"] == "grounded" else bad
        )  # contradicted, unverified, possible: on a hallucinated one
        decided[name][s][0] += 1
        decided[name][s][1] += int(right)
        if r["verdict"] == "grounded":
            b = bands[name][band_of(r["support"])]
            b[0] += 1
            b[1] += int(right)
        st = sent[s]
        st["claims"] += 1
        st["bad"] += int(bad)
        st[r["verdict"]] += 1
        st[f"{r['verdict']}_bad"] += int(bad)
        g = r["guard"]
        if g is None:
            continue
        if not g["findings"]:
            through[s][0] += 1
            through[s][1] += int(bad)
        for rule in dict.fromkeys(f"{v}:{n}" for v, n in g["findings"]):
            took[rule][s][0] += 1
            took[rule][s][1] += int(bad)
        if g["findings"] and g["out_verdict"] != "grounded":
            d = decided_by[g["out_rule"]][s]
            d[0] += 1
            d[1] += int(bad)
    return {
        "decided": decided,
        "bands": bands,
        "took": took,
        "through": through,
        "sentences": sent,
        "decided_by": decided_by,
    }


def pooled(per_set: dict) -> tuple[int, int]:
    return sum(v[0] for v in per_set.values()), sum(v[1] for v in per_set.values())


def entry(n: int, k: int) -> dict:
    lo, hi = wilson(k, n)
    return {
        "fired": n,
        "right": k,
        "precision": round(k / n, 4) if n else None,
        "low": round(lo, 4),
        "high": round(hi, 4),
    }


def table(counts: dict, sets: list[str]) -> dict:
    """The figures as data: the rows of :func:`count` with shares and intervals, per set and pooled."""
    rules = {}
    for name in sorted(counts["decided"]):
        per = counts["decided"][name]
        n, k = pooled(per)
        verdict = name.split(":")[-1].split(".")[0]
        row = {"verdict": verdict, **entry(n, k), "sets": {s: entry(*per[s]) for s in sets if s in per}}
        if name in counts["bands"]:
            row["bands"] = {b: entry(*counts["bands"][name][b]) for b in sorted(counts["bands"][name], key=float)}
        rules[name] = row
    n0, k0 = pooled(counts["through"])
    base = k0 / n0 if n0 else 0.0
    findings = {}
    for name in sorted(counts["took"]):
        per = counts["took"][name]
        n, k = pooled(per)
        lo, hi = wilson(k, n)
        share = k / n if n else 0.0
        # what it would take back hallucinated if it took back at each set's rate of what the guard
        # lets through there: the sets' base rates differ tenfold, so pooled shares alone mislead
        expected = sum(
            v[0] * counts["through"][s][1] / counts["through"][s][0] for s, v in per.items() if counts["through"][s][0]
        )
        findings[name] = {
            "took": n,
            "hallucinated": k,
            "share": round(share, 4),
            "low": round(lo, 4),
            "high": round(hi, 4),
            "expected": round(expected, 2),
            "lift": round(k / expected, 3) if expected else None,
            "sets": {s: {"took": per[s][0], "hallucinated": per[s][1]} for s in sets if s in per},
        }
    return {
        "rules": rules,
        "findings": findings,
        "let_through": {
            "kept": n0,
            "hallucinated": k0,
            "share": round(base, 4),
            "sets": {s: {"kept": v[0], "hallucinated": v[1]} for s, v in sorted(counts["through"].items())},
        },
    }


def summary(counts: dict, sets: list[str]) -> list[list]:
    """Per set: claims, base rate, coverage of clean claims, false-grounded, contradicted and its precision."""
    out = []
    for s in sets:
        st = counts["sentences"].get(s)
        if not st:
            continue
        clean = st["claims"] - st["bad"]
        g, gb, c, cb = st["grounded"], st["grounded_bad"], st["contradicted"], st["contradicted_bad"]
        out.append(
            [
                s,
                st["claims"],
                f"{st['bad'] / st['claims']:.1%}",
                f"{(g - gb) / clean:.1%}" if clean else "-",
                f"{gb / g:.1%}" if g else "-",
                c,
                f"{cb / c:.1%}" if c else "-",
            ]
        )
    return out


def frontier(rows: list[dict], sets: list[str]) -> str:
    """Coverage of clean claims against the false-grounded rate, per set, at each strict level
    (:data:`LEVELS`; None: strict off): a grounding stays where the shipped table's measured
    precision of its rule, in its band of support, is at least the level
    (:meth:`sourced_nlp.verdict.precision.PrecisionTable.of`, as ``--strict`` reads it)."""
    from sourced_nlp.verdict.precision import default_precision

    table = default_precision()
    out = []
    for s in sets:
        mine = [r for r in rows if r["set"] == s]
        clean = sum(not r["bad"] for r in mine)
        cells = [s]
        for level in LEVELS:
            kept = [
                r
                for r in mine
                if r["verdict"] == "grounded" and (level is None or (table.of(r["rule"], r["support"]) or 0.0) >= level)
            ]
            bad = sum(r["bad"] for r in kept)
            cells.append(f"{(len(kept) - bad) / clean:.1%} / {bad / len(kept):.1%}" if kept and clean else "-")
        out.append(cells)
    return md_table(["set", *("off" if x is None else f"{x:g}" for x in LEVELS)], out)


def pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def render(tab: dict, counts: dict, sets: list[str]) -> str:
    lines = [
        "### Claims per set",
        "",
        md_table(
            [
                "set",
                "claims",
                "hallucinated",
                "coverage (clean grounded)",
                "false-grounded",
                "contradicted",
                "its precision",
            ],
            summary(counts, sets),
        ),
        "",
        "### The rule that decided",
        "",
    ]
    rows = []
    for name, r in sorted(tab["rules"].items(), key=lambda x: (x[1]["verdict"], x[0])):
        cells = [
            f"`{name}`",
            r["fired"],
            pct(r["precision"]),
            f"{r['low']:.0%}–{r['high']:.0%}",
            ("yes" if admitted(r) else "**no**") if r["verdict"] == "contradicted" else "",
        ]
        cells += [f"{r['sets'][s]['right']}/{r['sets'][s]['fired']}" if s in r["sets"] else "" for s in sets]
        rows.append(cells)
    lines.append(md_table(["rule", "fired", "right", "95% interval", "may contradict", *sets], rows))
    lt = tab["let_through"]
    lines += [
        "",
        "### The guard's findings: what each takes back",
        "",
        f"What the guard lets through: {lt['kept']} groundings, {pct(lt['share'])} hallucinated.",
        "",
    ]
    rows = []
    for name, f in sorted(tab["findings"].items()):
        cells = [
            f"`{name}`",
            f["took"],
            pct(f["share"]),
            f"{f['low']:.0%}–{f['high']:.0%}",
            "-" if f["lift"] is None else f"{f['lift']:.2f}x",
        ]
        cells += [f"{f['sets'][s]['hallucinated']}/{f['sets'][s]['took']}" if s in f["sets"] else "" for s in sets]
        rows.append(cells)
    lines.append(md_table(["finding", "took back", "hallucinated", "95% interval", "lift", *sets], rows))
    return "\n".join(lines)


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def model_data(tab: dict, sets: list[str], every: int, config: dict | None, sizes: dict) -> dict:
    """What ``models/rule_precision.json`` holds (:mod:`sourced_nlp.verdict.precision`)."""
    rules, guard = {}, {}
    for name, r in tab["rules"].items():
        row = {k: r[k] for k in ("verdict", "fired", "right", "precision", "low", "high")}
        if name.startswith("guard:"):
            guard[name.split(":", 1)[1]] = row  # the same name as the contradicted rule's
            continue
        if "bands" in r:
            row["bands"] = r["bands"]
        rules[name] = row
    return {
        "_source": "written by bench/rule_precision.py (python bench/rule_precision.py --write-model): each rule's verdicts "
        "on natural labelled text, right = grounded on a clean sentence, contradicted or unverified on a "
        "hallucinated one; pooled over the sets, 95% Wilson interval; grounding rules also by band of support",
        "commit": commit(),
        "every": every,
        "config": config or {},
        "sets": sizes,
        "bands": list(BANDS),
        "rules": rules,
        "guard": guard,
        "admission": admission(tab),
    }


def admitted(row: dict) -> bool:
    """A contradicting rule is admitted when the low end of its pooled precision's 95% interval is
    at least 50%, or it fired fewer than 10 times and was right each time."""
    return row["low"] >= CONTRADICT_LOW or (row["fired"] < 10 and row["right"] == row["fired"])


def admission(tab: dict) -> dict:
    """``{"rules": {"demote": [...]}, "guard": {"demote": [...]}, "criterion": str}``: the
    contradicting rules and findings of the guard that may not give ``contradicted``."""
    demote: dict[str, list[str]] = {"rules": [], "guard": []}
    for name, r in sorted(tab["rules"].items()):
        if r["verdict"] != "contradicted" or admitted(r):
            continue
        if name.startswith("guard:"):
            demote["guard"].append(name.split(":", 1)[1])
        else:
            demote["rules"].append(name)
    return {
        "criterion": f"contradicted only where the pooled precision's 95% interval starts at {CONTRADICT_LOW:.0%} or more, "
        "or fewer than 10 firings, every one right",
        "rules": {"demote": demote["rules"]},
        "guard": {"demote": demote["guard"]},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--sets",
        default=",".join(SETS),
        help="comma-separated, of: " + ", ".join(SETS + REPORT_SETS) + f" ({', '.join(REPORT_SETS)}: reporting only)",
    )
    ap.add_argument("--every", type=int, default=1, help="every k-th item of each set (default: all)")
    ap.add_argument("--config", type=json.loads, default=None, help="sourced_verify config overrides, JSON")
    ap.add_argument("--json", type=Path, help="write the whole table here")
    ap.add_argument("--rows", type=Path, help="write one JSON line per claim here (for reading by hand)")
    ap.add_argument("--write-model", action="store_true", help="write models/rule_precision.json")
    ap.add_argument("--frontier", action="store_true", help="also print coverage / false-grounded at each strict level")
    args = ap.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    for s in sets:
        if s not in SETS + REPORT_SETS:
            ap.error(f"unknown set {s!r}; one of {', '.join(SETS + REPORT_SETS)}")
    if not sets:
        ap.error("--sets names no set")
    if args.every < 1:
        ap.error(f"--every must be 1 or more, got {args.every}")
    if args.config is not None and not isinstance(args.config, dict):
        ap.error(f"--config must be a JSON object of sourced_verify settings, got {args.config!r}")
    if args.write_model and any(s in REPORT_SETS for s in sets):
        ap.error(f"{', '.join(REPORT_SETS)} is for reporting: the model is written from the tuning sets only")
    if args.write_model and (sorted(sets) != sorted(SETS) or args.every != 1 or args.config):
        ap.error("--write-model measures the shipped table: every tuning set, whole (no --every), the default config")

    import sourced_nlp

    t0 = time.perf_counter()
    nlp = sourced_nlp.load_pipeline(config=args.config)
    glog = GuardLog()
    glog.install()
    rows, sizes = [], {}
    for s in sets:
        t1 = time.perf_counter()
        units = load(s)[:: max(1, args.every)]
        got = run_set(s, units, nlp, glog)
        sizes[s] = {"items": len(units), "claims": len(got)}
        rows += got
        log(f"{s}: {len(units)} items, {len(got)} claims counted, {time.perf_counter() - t1:.0f} s")
    counts = count(rows)
    tab = table(counts, sets)
    print(render(tab, counts, sets))
    if args.frontier:
        print("\n### Strict levels: coverage of clean claims / false-grounded\n")
        print(frontier(rows, sets))
    log(f"in all {time.perf_counter() - t0:.0f} s")
    if args.rows:
        args.rows.parent.mkdir(parents=True, exist_ok=True)
        with open(args.rows, "w", encoding="utf8") as fh:
            for r in rows:
                fh.write(json.dumps(r, sort_keys=True) + "\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"sets": sizes, "summary": summary(counts, sets), **tab}, indent=1, sort_keys=True) + "\n"
        )
    if args.write_model:
        path = REPO / "models" / "rule_precision.json"
        path.write_text(
            json.dumps(model_data(tab, sets, args.every, args.config, sizes), indent=1, sort_keys=True) + "\n"
        )
        log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
