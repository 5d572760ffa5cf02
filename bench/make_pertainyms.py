"""Writes the ``pertainyms`` key of ``models/lexical.json``: relational adjectives and the noun
they pertain to (``renal`` -> ``kidney``, ``cardiac`` -> ``heart``, ``lunar`` -> ``moon``), so
that a claim and a source that name one organ, body or place, one by the adjective and one by the
noun, hold the same content word (``sourced_passages`` reads an adjective's lemma as its noun;
the guard then aligns the two by lemma).

Source: WordNet 3.0's pertainym pointers (``\\``) of adjectives (Princeton University, WordNet 3.0
licence; the notice is kept in ``models/wordnet.json``'s ``_source``), read from the database files
of Debian's ``wordnet-base`` package (``/usr/share/wordnet``), nothing downloaded::

    apt-get update && apt-get install -y wordnet-base
    python3 bench/make_pertainyms.py            # standard library only

An adjective is kept only where a wrong reading is unlikely: a single word, never a noun or verb
lemma of WordNet too (``chemical``, ``criminal``: a noun of its own), its noun used at least once in
WordNet's sense-tagged corpus and never tagged there as a verb (``tear``, ``lead``: the verb would
match), no prefix that adds to the noun (``afebrile``, ``precancerous``, ``subcutaneous``:
:data:`PREFIXES`), every sense of it a pertainym of the same single noun (``oral`` also means
spoken; ``dental`` pertains to two nouns: both left out), no common sense younger than WordNet
(:data:`LATER`), and not a form of the noun's own stem (``national``/``nation``: the word matcher
already holds those).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_antonyms import TAGGED, WN, read_data, read_index  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[a-z]+")
#: the prefixes that add to the noun what the noun alone does not say ("afebrile", "precancerous",
#: "intravenous" / "subcutaneous": no fever, not yet a cancer, two routes into one body)
PREFIXES = (
    "a",
    "anti",
    "bi",
    "cis",
    "di",
    "en",
    "endo",
    "epi",
    "extra",
    "hemi",
    "hyper",
    "hypo",
    "in",
    "inter",
    "intra",
    "mono",
    "multi",
    "non",
    "omni",
    "per",
    "peri",
    "poly",
    "post",
    "pre",
    "semi",
    "sub",
    "super",
    "supra",
    "trans",
    "tri",
    "un",
    "uni",
)
#: adjectives with a common sense younger than WordNet 3.0 (a "viral" video spreads online)
LATER = frozenset({"viral"})
NOTE = (
    " Pertainyms: relational adjectives and the one noun each pertains to (renal -> kidney), from WordNet 3.0's "
    "pertainym pointers, kept where every sense of the adjective pertains to that noun and the adjective is no noun "
    "or verb of WordNet (bench/make_pertainyms.py); an adjective's lemma is read as its noun."
)


def same_stem(a: str, b: str) -> bool:
    """The two words share a stem ("national"/"nation"): a common prefix of five letters, or of
    all but two letters of the shorter word."""
    short, long_ = sorted((a, b), key=len)
    n = max(4, len(short) - 2)
    return long_.startswith(short[:n])


def pertainyms() -> dict[str, str]:
    """``{adjective: noun}`` (module docstring)."""
    adj, noun = read_data("a"), read_data("n")
    index = {p: read_index(p) for p in ("n", "v", "a", "r")}  # also fills TAGGED
    verb_uses = {
        f.split()[0]: int(f.split()[-int(f.split()[2]) - 1])
        for f in (WN / "index.verb").open(encoding="latin-1")
        if not f.startswith("  ")
    }
    targets: dict[str, set[str]] = defaultdict(set)
    senses: dict[str, int] = defaultdict(int)
    for ss in adj.values():
        for k, w in enumerate(ss["words"], 1):
            senses[w] += 1
            for sym, off, tpos, st in ss["ptrs"]:
                src, tgt = int(st[:2], 16), int(st[2:], 16)
                if sym == "\\" and tpos == "n" and src == k and off in noun:
                    targets[w].add(noun[off]["words"][tgt - 1])
    out = {}
    for a, nouns in targets.items():
        n = next(iter(nouns))
        if len(nouns) != 1 or not WORD.fullmatch(a) or not WORD.fullmatch(n) or TAGGED[n] == 0:
            continue
        if (
            a in index["n"]
            or a in index["v"]
            or verb_uses.get(n, 0) > 0
            or a in LATER
            or same_stem(a, n)
            or a.startswith(PREFIXES)
        ):
            continue
        # every sense of the adjective is a pertainym of the noun
        per_sense = sum(
            1
            for ss in adj.values()
            for k, w in enumerate(ss["words"], 1)
            if w == a and any(sym == "\\" and tpos == "n" and int(st[:2], 16) == k for sym, _, tpos, st in ss["ptrs"])
        )
        if per_sense == senses[a]:
            out[a] = n
    return dict(sorted(out.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "lexical.json")
    args = ap.parse_args()
    if not (WN / "data.adj").exists():
        raise SystemExit(f"error: no WordNet database under {WN}: apt-get install -y wordnet-base")
    # the file is laid out by hand: the key is written (or rewritten) as its last one, the rest kept
    text = args.out.read_text(encoding="utf8")
    text = re.sub(r',\n  "pertainyms": \{.*\}\n\}\n$', "\n}\n", text, flags=re.S)
    lex = json.loads(text)
    if NOTE not in lex["_source"]:
        old = json.dumps(lex["_source"], ensure_ascii=False)
        text = text.replace(old, json.dumps(lex["_source"] + NOTE, ensure_ascii=False), 1)
    table = pertainyms()
    body = json.dumps(table, ensure_ascii=False, separators=(", ", ": "))
    text = text.rstrip().removesuffix("}").rstrip() + f',\n  "pertainyms": {body}\n}}\n'
    json.loads(text)
    args.out.write_text(text, encoding="utf8")
    print(f"{args.out}: {len(table)} pertainyms")


if __name__ == "__main__":
    main()
