"""Writes ``models/antonyms-wordnet.json``: the antonym and incompatible-set lexicon that
``bench/train_entailment.py`` uses to make contradicted training pairs (one meaning-carrying word
changed), and a small list of safe synonyms for the lightly reworded entailed pairs.

Source: WordNet 3.0 (Princeton University, WordNet 3.0 licence: free use, copy, modification and
distribution with the copyright notice kept; the notice is stored in the file's ``_source`` key).
It is read from the database files of Debian's ``wordnet-base`` package (``/usr/share/wordnet``),
nothing downloaded::

    apt-get update && apt-get install -y wordnet-base
    python3 bench/make_antonyms.py            # standard library only

What it keeps:

- ``antonyms``: WordNet's *direct* antonyms, both words used at least once in WordNet's
  sense-tagged corpus (the index's tagsense count; rare words such as ``antitype`` are left out) (the lexical ``!`` pointers) of adjectives, verbs,
  adverbs and nouns, single words only (no ``_`` multi-word lemmas), as surface form -> list of
  surface forms. Verb pairs are inflected together (``increase/decrease``, ``increases/decreases``,
  ``increased/decreased``, ``increasing/decreasing``; irregular forms from ``verb.exc``); noun
  pairs also in the plural; one-syllable-ish adjective pairs also as ``-er``/``-est`` forms where
  WordNet's ``adj.exc`` or the regular rule gives them (``faster/slower``). Pairs made by a
  negative prefix (``available/unavailable``) are also listed under ``prefix_pairs`` so that the
  generator can count that kind apart.
- ``incompatible``: sets whose members exclude each other in the same slot (weekdays, months,
  colours, compass points, continents): the hyponyms or instances of a few WordNet synsets.
- ``synonyms``: words with a single sense in their part of speech and that sense's other single-word
  lemmas (both tagged at least once, as above) (a monosemous word's synset-mates: ``purchase -> buy`` is not kept, ``enormous ->
  huge``-type pairs are), for rewording that keeps the meaning.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WN = Path("/usr/share/wordnet")
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "non-", "a")
LICENCE = (
    "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. "
    "Permission to use, copy, modify and distribute this software and database and its documentation "
    "for any purpose and without fee or royalty is hereby granted, provided that you agree to comply with "
    "the following copyright notice and statements, including the disclaimer, and that the same appear on "
    "ALL copies of the software, database and documentation, including modifications that you make for "
    'internal use or for distribution. THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON '
    "UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. The name of Princeton "
    "University or Princeton may not be used in advertising or publicity pertaining to distribution of "
    "the software and/or database."
)
# the incompatible sets: name -> (noun lemma of the parent synset, pointer to follow: ~ hyponym, ~i instance)
SETS = {
    "weekday": ("day_of_the_week", "~~"),  # ~~: the hyponyms' hyponyms too (weekday -> Monday...)
    "month": ("gregorian_calendar_month", "~"),
    "colour": ("chromatic_color", "~"),
    "compass_point": ("cardinal_compass_point", "~"),
    "continent": ("continent", "~i"),
}
# members that are not everyday words of their set
SET_DROP = {
    "weekday",
    "sabbath",
    "workday",
    "feria",
    "salmon",
    "blond",
    "olive",
    "pastel",
    "eurasia",
    "gondwanaland",
    "laurasia",
    "pangaea",
}
# antonym pairs too loose to make a contradiction in running text (sense-specific or idiomatic)
STOP = {
    "have",
    "has",
    "had",
    "be",
    "do",
    "go",
    "come",
    "get",
    "take",
    "give",
    "make",
    "let",
    "keep",
    "put",
    "set",
    "in",
    "out",
    "on",
    "off",
    "up",
    "down",
    "over",
    "under",
    "back",
    "top",
    "bottom",
    "first",
    "second",
    "man",
    "woman",
    "one",
    "a",
    "i",
    "it",
    "an",
    "even",
    "odd",
    "ill",
    "well",
    "right",
    "left",
    "present",
    "absent",
    "same",
    "other",
    "general",
    "specific",
    "like",
    "still",
    "just",
    "near",
    "far",
    "here",
    "there",
    "before",
    "after",
    "end",
    "start",
    "beginning",
    "way",
    "rear",
    "front",
}


def read_data(pos: str) -> dict[str, dict]:
    """Synsets of one part of speech: offset -> {"words": [...], "ptrs": [(sym, offset, pos, src, tgt)], "type"}."""
    out = {}
    for line in (WN / f"data.{POS_FILES[pos]}").open(encoding="latin-1"):
        if line.startswith("  "):
            continue  # the licence header
        head = line.split(" | ")[0].split()
        off, ss_type, w_cnt = head[0], head[2], int(head[3], 16)
        words = [re.sub(r"\(.*\)$", "", head[4 + 2 * k]).lower() for k in range(w_cnt)]
        k = 4 + 2 * w_cnt
        p_cnt = int(head[k])
        ptrs = [tuple(head[k + 1 + 4 * j : k + 5 + 4 * j]) for j in range(p_cnt)]
        out[off] = {"words": words, "ptrs": ptrs, "type": ss_type}
    return out


TAGGED: dict[str, int] = defaultdict(int)  # lemma -> senses tagged in WordNet's sense-tagged corpus (a use count)


def read_index(pos: str) -> dict[str, list[str]]:
    out = {}
    for line in (WN / f"index.{POS_FILES[pos]}").open(encoding="latin-1"):
        if line.startswith("  "):
            continue
        f = line.split()
        lemma, synset_cnt = f[0], int(f[2])
        out[lemma] = f[-synset_cnt:]
        TAGGED[lemma] += int(f[-synset_cnt - 1])
    return out


def read_exc(pos: str) -> dict[str, list[str]]:
    """lemma -> inflected forms from ``<pos>.exc`` (inflected base...)."""
    out: dict[str, list[str]] = defaultdict(list)
    for line in (WN / f"{POS_FILES[pos]}.exc").open(encoding="latin-1"):
        f = line.split()
        for base in f[1:]:
            out[base].append(f[0])
    return out


VOWELS = set("aeiou")


def verb_forms(v: str, exc: dict[str, list[str]]) -> dict[str, str]:
    """base, 3sg, past, gerund of a verb (regular rules, irregular past from verb.exc)."""
    forms = {"base": v}
    forms["3sg"] = (
        v + "es" if re.search(r"(s|x|z|ch|sh)$", v) else (v[:-1] + "ies" if re.search(r"[^aeiou]y$", v) else v + "s")
    )
    irregular = [w for w in exc.get(v, []) if not w.endswith("ing") and not w.endswith("s")]
    if irregular:
        forms["past"] = irregular[0]
    elif v.endswith("e"):
        forms["past"] = v + "d"
    elif re.search(r"[^aeiou]y$", v):
        forms["past"] = v[:-1] + "ied"
    elif re.search(r"^[^aeiou]*[aeiou][^aeiouwxy]$", v):  # one-syllable CVC: stop -> stopped
        forms["past"] = v + v[-1] + "ed"
    else:
        forms["past"] = v + "ed"
    if v.endswith("ie"):
        forms["ing"] = v[:-2] + "ying"
    elif v.endswith("e") and not v.endswith("ee"):
        forms["ing"] = v[:-1] + "ing"
    elif re.search(r"^[^aeiou]*[aeiou][^aeiouwxy]$", v):
        forms["ing"] = v + v[-1] + "ing"
    else:
        forms["ing"] = v + "ing"
    return forms


def noun_plural(n: str, exc: dict[str, list[str]]) -> str:
    if exc.get(n):
        return exc[n][0]
    if re.search(r"(s|x|z|ch|sh)$", n):
        return n + "es"
    if re.search(r"[^aeiou]y$", n):
        return n[:-1] + "ies"
    return n + "s"


def adj_grades(a: str, exc: dict[str, list[str]]) -> dict[str, str] | None:
    """comparative and superlative of a short adjective, or None (``more X`` adjectives are left out)."""
    irregular = exc.get(a, [])
    er = [w for w in irregular if not w.endswith("st")]
    est = [w for w in irregular if w.endswith("st")]
    if er and est:
        return {"er": er[0], "est": est[0]}
    if len(a) > 6 or len(re.findall(r"[aeiouy]+", a)) > 2 or a.endswith(("ed", "ing", "ful", "ous", "ive", "al", "ic")):
        return None
    if len(re.findall(r"[aeiou]+", re.sub(r"e$", "", a))) == 2 and not a.endswith("y"):
        return None
    if a.endswith("e"):
        return {"er": a + "r", "est": a + "st"}
    if re.search(r"[^aeiou]y$", a):
        return {"er": a[:-1] + "ier", "est": a[:-1] + "iest"}
    if re.search(r"^[^aeiou]*[aeiou][^aeiouwxy]$", a):
        return {"er": a + a[-1] + "er", "est": a + a[-1] + "est"}
    return {"er": a + "er", "est": a + "est"}


def incompatible_sets(nouns: dict[str, dict], index_n: dict[str, list[str]]) -> dict[str, list[str]]:
    """The sets of :data:`SETS` (name -> members): the hyponyms or instances of each set's synset
    (one level, two for ``~~``), first lemma of each, single words only, less :data:`SET_DROP`."""
    incompatible = {}
    for name, (lemma, sym) in SETS.items():
        members: list[str] = []
        frontier = index_n.get(lemma, [])[:1]
        for _depth in range(2 if sym == "~~" else 1):
            nxt = []
            for off in frontier:
                for psym, toff, tpos, _ in nouns[off]["ptrs"]:
                    if psym == sym.replace("~~", "~") and tpos == "n":
                        nxt.append(toff)
                        w = nouns[toff]["words"][0]
                        if "_" not in w and w not in members and w not in SET_DROP:
                            members.append(w)
            frontier = nxt
        incompatible[name] = members
    return incompatible


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "antonyms-wordnet.json")
    args = ap.parse_args()
    if not (WN / "data.adj").exists():
        raise SystemExit(f"error: no WordNet database under {WN}: apt-get install -y wordnet-base")

    data = {p: read_data(p) for p in POS_FILES}
    index = {p: read_index(p) for p in POS_FILES}
    exc = {p: read_exc(p) for p in POS_FILES}
    pairs: dict[str, set[tuple[str, str]]] = {p: set() for p in POS_FILES}
    for p, synsets in data.items():
        for ss in synsets.values():
            for sym, off, tpos, st in ss["ptrs"]:
                if sym != "!":
                    continue
                tpos = "a" if tpos == "s" else tpos
                src, tgt = int(st[:2], 16), int(st[2:], 16)
                target = data[tpos].get(off)
                if not target or src == 0 or tgt == 0:
                    continue
                a, b = ss["words"][src - 1], target["words"][tgt - 1]
                if (
                    "_" in a
                    or "_" in b
                    or "-" in a
                    and "-" in b
                    or a in STOP
                    or b in STOP
                    or not a.isalpha()
                    and "-" not in a
                ):
                    continue
                if not re.fullmatch(r"[a-z][a-z-]*", a) or not re.fullmatch(r"[a-z][a-z-]*", b):
                    continue
                if not TAGGED[a] or not TAGGED[b]:
                    continue  # a word never met in the sense-tagged corpus (antitype, forer...): too rare to use
                pairs[p].add((a, b))

    antonyms: dict[str, set[str]] = defaultdict(set)
    prefix_pairs: set[tuple[str, str]] = set()

    def add(a: str, b: str) -> None:
        if a != b:
            antonyms[a].add(b)
            antonyms[b].add(a)

    for p, ps in pairs.items():
        for a, b in ps:
            if any(b == pre + a for pre in PREFIXES) or any(a == pre + b for pre in PREFIXES):
                prefix_pairs.add(tuple(sorted((a, b))))
            add(a, b)
            if p == "v":
                fa, fb = verb_forms(a, exc["v"]), verb_forms(b, exc["v"])
                for k in ("3sg", "past", "ing"):
                    add(fa[k], fb[k])
            elif p == "n":
                add(noun_plural(a, exc["n"]), noun_plural(b, exc["n"]))
            elif p == "a":
                ga, gb = adj_grades(a, exc["a"]), adj_grades(b, exc["a"])
                if ga and gb:
                    add(ga["er"], gb["er"])
                    add(ga["est"], gb["est"])

    incompatible = incompatible_sets(data["n"], index["n"])

    synonyms: dict[str, list[str]] = {}
    for p in ("a", "r", "v"):
        for lemma, offs in index[p].items():
            if len(offs) != 1 or "_" in lemma or not lemma.isalpha() or len(lemma) < 4:
                continue
            if not TAGGED[lemma]:
                continue
            mates = [
                w
                for w in data[p][offs[0]]["words"]
                if w != lemma and w.isalpha() and len(index[p].get(w, [])) == 1 and TAGGED[w]
            ]
            mates = [
                w
                for w in mates
                if w.endswith("ly") == lemma.endswith("ly") and w.endswith("ed") == lemma.endswith("ed")
            ]
            if mates:
                synonyms[lemma] = sorted(set(mates))

    out = {
        "_source": {
            "name": "WordNet 3.0",
            "by": "Cognitive Science Laboratory, Princeton University",
            "licence": "WordNet 3.0 licence (permissive; notice below kept on all copies)",
            "notice": LICENCE,
            "read_from": "Debian package wordnet-base (/usr/share/wordnet)",
            "made_by": "bench/make_antonyms.py",
        },
        "antonyms": {k: sorted(v) for k, v in sorted(antonyms.items())},
        "prefix_pairs": sorted(list(p) for p in prefix_pairs),
        "incompatible": incompatible,
        "synonyms": dict(sorted(synonyms.items())),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=0, sort_keys=False) + "\n", encoding="utf8")
    print(
        f"{args.out}: {len(out['antonyms'])} words with antonyms, {len(prefix_pairs)} prefix pairs, "
        f"{sum(map(len, incompatible.values()))} words in {len(incompatible)} incompatible sets, "
        f"{len(synonyms)} synonym entries, {args.out.stat().st_size / 1e6:.2f} MB"
    )


if __name__ == "__main__":
    main()
