"""Structured-record dev set: sourced-nlp on Yelp-style business records and LLM overviews.

The cases in ``tests/cases/records.jsonl`` are hand-written for this project (they are NOT
RAGTruth and are not copied from the Yelp Open Dataset): each is an invented business record in
the shape of a Yelp Open Dataset business object (``hours`` as ``"H:M-H:M"``, ``attributes``
with Yelp's string values such as ``"True"``, ``"u'free'"`` and Python-repr dicts, plus three
``review_info`` entries), the one-paragraph "objective overview" an LLM might write from it, and
a label per sentence of that answer: ``grounded`` (everything it states is in the record),
``contradicted`` (the record holds an incompatible value) or ``unverified`` (the record is
silent, or the sentence is an opinion).

Each answer is checked with ``sourced_nlp.check(answer, [record])``: the record dict is passed
as a structured source, which :func:`sourced_nlp.text.sources.linearize` turns into statements. Each
labelled sentence gets the verdict of the claims overlapping it by character offsets:
contradicted if any is contradicted, else grounded if all are grounded, else unverified; a
sentence no claim overlaps (all of it skipped) is counted as ``no claim``.

Printed:

- for each label, how many sentences got each verdict;
- coverage: grounded-labelled sentences called grounded / all grounded-labelled sentences;
- false-grounded: non-grounded-labelled sentences called grounded / all sentences called
  grounded;
- contradicted precision: contradicted-labelled sentences called contradicted / all sentences
  called contradicted (and, for reference, contradicted recall);
- with ``-v``: every sentence whose verdict differs from its label, with the tool's reason(s).

Usage::

    python bench/records.py
    python bench/records.py -v
    python bench/records.py --cases tests/cases/records.jsonl --ids rec-02,rec-06 -v
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import srsly

import sourced_nlp

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "tests" / "cases" / "records.jsonl"
LABELS = ("grounded", "contradicted", "unverified")
NO_CLAIM = "no claim"
VERDICT_COLUMNS = (*LABELS, NO_CLAIM)


def sentence_spans(answer: str, sentences: list[dict], case_id: str) -> list[tuple[int, int]]:
    """Character offsets of each labelled sentence, found in order in the answer."""
    spans, pos = [], 0
    for s in sentences:
        start = answer.find(s["text"], pos)
        if start < 0:
            raise ValueError(f"{case_id}: sentence not found in the answer (in order): {s['text']!r}")
        spans.append((start, start + len(s["text"])))
        pos = start + len(s["text"])
    return spans


def sentence_verdict(claims: list, start: int, end: int) -> tuple[str, list]:
    """``(verdict, overlapping claims)`` for the answer range ``[start, end)``."""
    over = [c for c in claims if c.start < end and c.end > start]
    if not over:
        return NO_CLAIM, over
    verdicts = {c.verdict for c in over}
    if "contradicted" in verdicts:
        return "contradicted", over
    if verdicts == {"grounded"}:
        return "grounded", over
    return "unverified", over


def ratio(num: int, den: int) -> str:
    return f"{num}/{den} = {num / den:.3f}" if den else f"{num}/{den} = n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=Path, default=CASES, help="the JSONL file of cases (default: %(default)s)")
    ap.add_argument("--ids", default="", help="comma-separated case ids to run (default: all)")
    ap.add_argument(
        "-v", "--verbose", action="store_true", help="list every sentence whose verdict differs from its label"
    )
    args = ap.parse_args(argv)

    cases = list(srsly.read_jsonl(args.cases))
    if args.ids:
        wanted = {x.strip() for x in args.ids.split(",") if x.strip()}
        cases = [c for c in cases if c["id"] in wanted]
    if not cases:
        print("no cases to run", file=sys.stderr)
        return 2

    nlp = sourced_nlp.load_pipeline()
    table = {label: {v: 0 for v in VERDICT_COLUMNS} for label in LABELS}
    misses = []
    for case in cases:
        answer = case["answer"]
        report = sourced_nlp.check(answer, [case["record"]], nlp=nlp)
        spans = sentence_spans(answer, case["sentences"], case["id"])
        for s, (start, end) in zip(case["sentences"], spans):
            verdict, over = sentence_verdict(report.claims, start, end)
            table[s["label"]][verdict] += 1
            if verdict != s["label"]:
                misses.append((case["id"], s, verdict, over))

    n = sum(sum(row.values()) for row in table.values())
    print(
        f"{len(cases)} cases, {n} labelled sentences ({args.cases.relative_to(REPO) if args.cases.is_relative_to(REPO) else args.cases})"
    )
    print()
    width = max(len(x) for x in (*LABELS, "label")) + 2
    print("label".ljust(width) + "".join(v.rjust(14) for v in VERDICT_COLUMNS) + "total".rjust(8))
    for label in LABELS:
        row = table[label]
        print(
            label.ljust(width)
            + "".join(str(row[v]).rjust(14) for v in VERDICT_COLUMNS)
            + str(sum(row.values())).rjust(8)
        )
    print()

    called_g = sum(table[label]["grounded"] for label in LABELS)
    called_c = sum(table[label]["contradicted"] for label in LABELS)
    n_g = sum(table["grounded"].values())
    n_c = sum(table["contradicted"].values())
    print(f"coverage                {ratio(table['grounded']['grounded'], n_g)}")
    print(f"false-grounded          {ratio(called_g - table['grounded']['grounded'], called_g)}")
    print(f"contradicted precision  {ratio(table['contradicted']['contradicted'], called_c)}")
    print(f"contradicted recall     {ratio(table['contradicted']['contradicted'], n_c)}")

    if args.verbose and misses:
        print()
        print(f"{len(misses)} sentences whose verdict differs from the label:")
        for case_id, s, verdict, over in misses:
            print()
            print(f"[{case_id}] label {s['label']}, got {verdict}: {s['text']}")
            print(f"    why (label): {s['why']}")
            for c in over:
                part = "" if len(over) == 1 else f" [{c.verdict}] {c.text!r}"
                print(f"    tool:{part} {c.reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
