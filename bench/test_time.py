"""How long the test suite takes: runs pytest twice (without the ``slow`` mark, then everything)
and prints the wall time beside the counts from pytest's last line, with the machine's load.

    python bench/test_time.py                 # both runs, with -n 2 --dist loadfile (as ``make test``)
    python bench/test_time.py -n 0            # serial (no pytest-xdist)
    python bench/test_time.py --only fast     # just the run without the slow mark
    python bench/test_time.py -- -x tests/cli/test_cli.py   # extra pytest arguments

Timings on a shared machine are noisy: compare runs made one after another, and read the load
averages printed beside them (taken before and after each run).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COUNTS = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?)")


def last_line(output: str) -> str:
    """pytest's summary line (the last non-empty line, ``== ... ==`` stripped)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1].strip("= ") if lines else ""


def counts(line: str) -> dict[str, int]:
    found = {kind.rstrip("s") if kind.startswith("error") else kind: int(n) for n, kind in COUNTS.findall(line)}
    return {key: found.get(key, 0) for key in ("passed", "failed", "skipped", "error", "deselected")}


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def run(
    label: str, marks: list[str], workers: str, extra: list[str], log: str | None = None, dist: str = "loadfile"
) -> tuple[float, dict[str, int], str]:
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *marks, *extra]
    if workers != "0":
        cmd[4:4] = ["-n", workers, "--dist", dist]
    before = load()
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - start
    if log:
        Path(log).mkdir(parents=True, exist_ok=True)
        (Path(log) / f"{label.replace(' ', '-')}.log").write_text(proc.stdout + proc.stderr, encoding="utf-8")
    line = last_line(proc.stdout)
    found = counts(line)
    print(
        f"{label:<10} {wall:7.1f} s  passed {found['passed']:>4}  failed {found['failed']:>3}  "
        f"skipped {found['skipped']:>3}  errors {found['error']:>3}  deselected {found['deselected']:>3}  "
        f"load {before} -> {load()}  (exit {proc.returncode})",
        flush=True,
    )
    print(f"{'':<10} {line}", flush=True)
    if proc.returncode not in (0, 5):
        failing = [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        for ln in failing[:30]:
            print(f"{'':<10} {ln}", flush=True)
    return wall, found, line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", default="2", help="pytest-xdist workers (0: serial); default 2, as make test")
    parser.add_argument("--dist", default="loadfile", help="pytest-xdist distribution; default loadfile, as make test")
    parser.add_argument("--only", choices=["fast", "all"], help="run one of the two ways only")
    parser.add_argument("--log", help="write each run's whole pytest output to a file in this folder")
    parser.add_argument("extra", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    print(f"cpus {os.cpu_count()}  load {load()}  workers {args.n}  dist {args.dist}", flush=True)
    ok = True
    if args.only in (None, "fast"):
        _, found, _ = run("not slow", ["-m", "not slow"], args.n, args.extra, args.log, args.dist)
        ok &= found["failed"] == 0 and found["error"] == 0
    if args.only in (None, "all"):
        _, found, _ = run("all", [], args.n, args.extra, args.log, args.dist)
        ok &= found["failed"] == 0 and found["error"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
