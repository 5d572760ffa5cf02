"""How the time of a check grows with the length of one claim: an answer of one sentence with no
full stop ("revenue rose 8 percent and revenue rose 8 percent and ..."), at N and 4N repeats, in
one run (the pipeline loaded once, each size checked twice, the faster time kept).

The ratio of the two times is the figure: a check linear in the claim's length gives about 4; a
walk of the parse that is quadratic in it gives about 16.

Usage::

    python bench/long_claim.py            # N = 1,000 (27 KB) and 4,000 (108 KB)
    python bench/long_claim.py --n 500
"""

from __future__ import annotations

import argparse
import time

SOURCE = "Revenue rose 8 percent in 2023."


def answer(n: int) -> str:
    """One sentence of ``n`` clauses joined by "and", no full stop."""
    return " and ".join(["revenue rose 8 percent"] * n)


def timed(check, nlp, text: str) -> float:
    """The faster of two checks of ``text``, in seconds."""
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        check(text, [SOURCE], nlp=nlp)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="repeats of the small size; the large one is 4 times as many")
    args = ap.parse_args()
    from sourced_nlp import check, load_pipeline

    nlp = load_pipeline()
    small, large = answer(args.n), answer(4 * args.n)
    t1, t4 = timed(check, nlp, small), timed(check, nlp, large)
    print(f"one sentence of {len(small):,} characters: {t1:.2f} s")
    print(f"one sentence of {len(large):,} characters: {t4:.2f} s")
    print(f"ratio (4x the length): {t4 / t1:.1f}  (linear: about 4; quadratic: about 16)")


if __name__ == "__main__":
    main()
