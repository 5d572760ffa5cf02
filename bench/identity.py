"""Every output byte of the command line over the hand-written cases, written to a folder, so that
a change that must not move a verdict or an output byte (a restructuring) can be checked with
``diff -r BEFORE AFTER``.

For each case of the three record sets (``tests/cases/records*.jsonl``), the acceptance cases and
the trap cases (``../shared/cases/``): the JSON report of ``sourced check --json-input``, the
same saved report rendered again as text, text ``-v``, Markdown and HTML, and the JSON and HTML
of ``sourced cite``; for the acceptance and trap cases also the JSON of ``check`` with a judge
(:func:`judge`, a deterministic stand-in through ``--judge callable``); one ``sourced batch``
over all of them; and the ``--help`` text of every command. Each output is written with the command's exit code on its first line. The commands run
in this process through Typer's ``CliRunner`` (one spaCy load for all of them).

Usage::

    python bench/identity.py OUT_DIR            # about 3 minutes on two cores
    diff -r BEFORE_DIR AFTER_DIR && echo identical

Pair it with the per-sentence train dump
(``PYTHONHASHSEED=0 python bench/ragtruth.py --split train --tools sourced-nlp --dump FILE``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import srsly

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "cases"
CASE_FILES = [
    REPO / "tests" / "cases" / "records.jsonl",
    REPO / "tests" / "cases" / "records-b.jsonl",
    REPO / "tests" / "cases" / "records-c.jsonl",
    SHARED / "acceptance.jsonl",
    SHARED / "traps.jsonl",
]
HELP = [
    [],
    ["check"],
    ["cite"],
    ["fields"],
    ["batch"],
    ["calibrate"],
    ["eval"],
    ["eval", "run"],
    ["eval", "score"],
    ["eval", "gate"],
    ["eval", "diff"],
    ["eval", "fixtures"],
    ["audit"],
    ["audit", "verify"],
]


def judge(inp):
    """A deterministic stand-in judge (``--judge callable --judge-model identity:judge``): the
    first six words of the claim's best candidate passage as a grounding quote, or unverified."""
    if not inp.candidates:
        return {"verdict": "unverified", "reason": "no candidate"}
    best = inp.candidates[0]
    return {
        "verdict": "grounded",
        "source": best.source,
        "quote": " ".join(best.text.split()[:6]),
        "reason": "the first words of the best passage",
    }


def cases() -> list[tuple[str, dict]]:
    """(id, {"answer", "sources"}) for every case of :data:`CASE_FILES`, in file order."""
    out = []
    for path in CASE_FILES:
        for row in srsly.read_jsonl(path):
            sources = row["sources"] if "sources" in row else [row["record"]]
            out.append((row["id"], {"id": row["id"], "answer": row["answer"], "sources": sources}))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    os.environ["COLUMNS"] = "100"
    os.environ.setdefault("PYTHONHASHSEED", "0")
    from typer.testing import CliRunner

    from sourced_nlp.cli import app

    sys.path.insert(0, str(Path(__file__).resolve().parent))  # identity:judge, for --judge callable

    runner = CliRunner()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    # the inputs live at one fixed place, so that paths that reach an output are the same each run
    work = Path(tempfile.gettempdir()) / "sourced-identity-inputs"
    work.mkdir(parents=True, exist_ok=True)

    def run(name: str, argv: list[str]) -> None:
        result = runner.invoke(app, argv, catch_exceptions=False)
        (out / name).write_text(f"exit {result.exit_code}\n{result.stdout}", encoding="utf-8")

    for argv in HELP:
        run("help-" + ("-".join(argv) or "sourced") + ".txt", [*argv, "--help"])
    records = []
    for case_id, record in cases():
        records.append(record)
        given = work / f"{case_id}.json"
        srsly.write_json(given, record)
        report = work / f"{case_id}.report.json"
        run(f"{case_id}.check.json", ["check", "--json-input", str(given), "-f", "json"])
        run(f"{case_id}.check-o.txt", ["check", "--json-input", str(given), "-f", "json", "-o", str(report)])
        for fmt, extra in (("text", []), ("text", ["-v"]), ("markdown", []), ("html", [])):
            suffix = fmt + ("-v" if extra else "")
            run(f"{case_id}.{suffix}", ["check", "--json-input", str(report), "-f", fmt, *extra])
        answer = work / f"{case_id}.answer.txt"
        answer.write_text(record["answer"], encoding="utf-8")
        paths = []
        for i, source in enumerate(record["sources"]):
            p = work / f"{case_id}.source{i}.{'txt' if isinstance(source, str) else 'json'}"
            if isinstance(source, str):
                p.write_text(source, encoding="utf-8")
            else:
                srsly.write_json(p, source)
            paths.append(str(p))
        run(f"{case_id}.cite.json", ["cite", str(answer), *paths, "-f", "json"])
        run(f"{case_id}.cite.html", ["cite", str(answer), *paths, "-f", "html"])
        if not case_id.startswith("rec"):
            run(
                f"{case_id}.judged.json",
                [
                    "check",
                    "--json-input",
                    str(given),
                    "-f",
                    "json",
                    "--judge",
                    "callable",
                    "--judge-model",
                    "identity:judge",
                ],
            )
    batch = work / "all.jsonl"
    srsly.write_jsonl(batch, records)
    run("batch.stdout", ["batch", str(batch)])
    print(f"{len(records)} cases written to {out}")


if __name__ == "__main__":
    main()
