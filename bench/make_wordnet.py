"""Writes ``models/wordnet.json``: the word relations the guard of ``grounded`` reads
(:mod:`sourced_nlp.verdict.guard`): which lemmas may stand for one another when a claim's word is
aligned with its evidence, and which stand against one another in the same slot.

Source: WordNet 3.0 (Princeton University, WordNet 3.0 licence: free use, copy, modification and
distribution with the copyright notice kept; the notice is stored in the file's ``_source`` key),
read from the database files of Debian's ``wordnet-base`` package (``/usr/share/wordnet``),
nothing downloaded::

    apt-get update && apt-get install -y wordnet-base
    python3 bench/make_wordnet.py            # standard library only

Every entry is keyed by lemma (spaCy's lemma, lower case; single words only, used at least once
in WordNet's sense-tagged corpus, so ``antitype`` and other rare words are left out):

- ``groups``: lemma -> ids of the groups it belongs to. A group is a WordNet synset with at least
  two such lemmas (``rise``/``go up``/``climb``), a hypernym synset (one lemma is enough), and the derivational family a ``+`` pointer
  links (``decide``/``decision``, ``grow``/``growth``). Two lemmas that share a group align.
- ``broader``: lemma -> the groups of its direct hypernyms (``climb`` -> the group of ``rise``):
  a claim's broader word aligns with its evidence's narrower one (not two siblings).
- ``antonyms``: lemma -> lemmas it stands against: WordNet's direct antonyms (``!`` pointers) of
  every part of speech, carried to the synset-mates of both sides (every lemma of one synset against every
  lemma of the other), for nouns also to the direct hyponyms of each side (``income``, a kind of
  ``gain``, against ``loss``) and, for adjectives, through
  the similar-to (``&``) satellites of a head synset (``huge`` against ``small``).
- ``incompatible``: sets whose members exclude each other in one slot (weekdays, months,
  colours, compass points): the hyponyms of a few WordNet synsets.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_antonyms import LICENCE, POS_FILES, STOP, TAGGED, WN, incompatible_sets, read_data, read_index  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[a-z][a-z-]*")


def usable(w: str) -> bool:
    """A single word (no ``_``), letters and hyphens, met in the sense-tagged corpus."""
    return "_" not in w and bool(WORD.fullmatch(w)) and TAGGED[w] > 0


def single(w: str) -> bool:
    """A single word of letters and hyphens (rare ones too: an antonym is never a false alignment)."""
    return "_" not in w and bool(WORD.fullmatch(w))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "wordnet.json")
    args = ap.parse_args()
    if not (WN / "data.adj").exists():
        raise SystemExit(f"error: no WordNet database under {WN}: apt-get install -y wordnet-base")
    data = {p: read_data(p) for p in POS_FILES}
    index = {p: read_index(p) for p in POS_FILES}  # also fills TAGGED

    groups: dict[str, set[int]] = defaultdict(set)
    gid: dict[tuple[str, str], int] = {}

    def group(key: tuple[str, str]) -> int:
        return gid.setdefault(key, len(gid))

    # synsets with two usable lemmas or more
    for p, synsets in data.items():
        for off, ss in synsets.items():
            words = sorted({w for w in ss["words"] if usable(w)})
            if len(words) >= 2:
                g = group((p, off))
                for w in words:
                    groups[w].add(g)
    # broader terms: a lemma -> the groups of its synsets' direct hypernyms ("rise" -> the group of
    # "increase"): a claim's broader word aligns with the evidence's narrower one, never two siblings
    broader: dict[str, set[int]] = defaultdict(set)
    for p, synsets in data.items():
        if p not in ("v", "n"):
            continue
        for _off, ss in synsets.items():
            for sym, toff, tpos, _ in ss["ptrs"]:
                if sym == "@" and tpos == p and toff in synsets:
                    parent = [w for w in synsets[toff]["words"] if usable(w)]
                    if parent:
                        g = group((p, toff))
                        for w in parent:
                            groups[w].add(g)
                        for w in ss["words"]:
                            if usable(w):
                                broader[w].add(g)
    # derivational families: each + pointer joins its two lemmas in a family of two
    for synsets in data.values():
        for ss in synsets.values():
            for sym, off, tpos, st in ss["ptrs"]:
                if sym != "+":
                    continue
                tpos = "a" if tpos == "s" else tpos
                src, tgt = int(st[:2], 16), int(st[2:], 16)
                target = data[tpos].get(off)
                if not target or not src or not tgt:
                    continue
                a, b = ss["words"][src - 1], target["words"][tgt - 1]
                if a != b and usable(a) and usable(b) and a not in STOP and b not in STOP:
                    g = group(("+",) + tuple(sorted((a, b))))
                    groups[a].add(g)
                    groups[b].add(g)

    # antonyms: direct pointers, carried to the synset-mates of both sides
    antonyms: dict[str, set[str]] = defaultdict(set)

    def oppose(s1: dict, s2: dict) -> None:
        for a in s1["words"]:
            for b in s2["words"]:
                if a != b and single(a) and single(b) and a not in STOP and b not in STOP:
                    antonyms[a].add(b)
                    antonyms[b].add(a)

    for p, synsets in data.items():
        for ss in synsets.values():
            for sym, off, tpos, _st in ss["ptrs"]:
                if sym != "!":
                    continue
                tpos = "a" if tpos == "s" else tpos
                target = data[tpos].get(off)
                if not target:
                    continue
                oppose(ss, target)
                if p == "n":
                    # a kind of one side against the other ("income", a kind of gain, against "loss")
                    for h_sym, h_off, h_pos, _ in ss["ptrs"]:
                        if h_sym == "~" and h_pos == "n" and h_off in data["n"]:
                            oppose(data["n"][h_off], target)
                    for h_sym, h_off, h_pos, _ in target["ptrs"]:
                        if h_sym == "~" and h_pos == "n" and h_off in data["n"]:
                            oppose(ss, data["n"][h_off])
                if p == "a":
                    # the satellites similar to each head stand against the other head
                    for s_sym, s_off, _, _ in ss["ptrs"]:
                        if s_sym == "&" and s_off in data["a"]:
                            oppose(data["a"][s_off], target)
    # a lemma that is both antonym and synonym of another (polysemy: "fast"/"loose") aligns; no conflict
    for a in list(antonyms):
        antonyms[a] = {b for b in antonyms[a] if not (groups.get(a, set()) & groups.get(b, set()))}
    # a group of one lemma aligns nothing: dropped
    size: dict[int, int] = defaultdict(int)
    for gs in groups.values():
        for g in gs:
            size[g] += 1
    hypernym_groups = {g for gs in broader.values() for g in gs}

    incompatible = incompatible_sets(data["n"], index["n"])

    # renumber the groups densely in order of first use, so the file is stable
    used: dict[int, int] = {}
    out_groups = {}
    for w in sorted(groups):
        kept = [used.setdefault(g, len(used)) for g in sorted(groups[w]) if size[g] >= 2 or g in hypernym_groups]
        if kept:
            out_groups[w] = kept
    out = {
        "_source": {
            "name": "WordNet 3.0",
            "by": "Cognitive Science Laboratory, Princeton University",
            "licence": "WordNet 3.0 licence (permissive; notice below kept on all copies)",
            "notice": LICENCE,
            "read_from": "Debian package wordnet-base (/usr/share/wordnet)",
            "made_by": "bench/make_wordnet.py",
        },
        "groups": out_groups,
        "broader": {w: sorted(used[g] for g in broader[w] if g in used) for w in sorted(broader)},
        "antonyms": {k: sorted(v) for k, v in sorted(antonyms.items()) if v},
        "incompatible": incompatible,
    }
    args.out.write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf8")
    print(
        f"{args.out}: {len(out_groups)} lemmas in {len(used)} groups, {len(out['antonyms'])} lemmas with antonyms, "
        f"{args.out.stat().st_size / 1e6:.2f} MB"
    )


if __name__ == "__main__":
    main()
