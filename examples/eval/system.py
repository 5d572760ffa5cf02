"""A small deterministic RAG system over the bundled corpus, for ``sourced eval``.

It has the flaws a real one has, on purpose, so that the scorecard has something to show:

1. Retrieval: the answer is the source sentence that shares the most content words with the
   question (ties go to the earlier source, then the earlier sentence).
2. Abstention: when that sentence shares fewer than ``min_overlap`` words (3) with the
   question, it says "I cannot answer this from the sources."
3. Citation: it cites the *document* that shares the most content words with the question
   (ties: the earlier source), which is not always the one the sentence came from.
4. Quotes: a question that starts with "Quote" gets the sentence as a quote in its citation,
   ``[doc: "..."]`` (attributed by rule 3).
5. A cache of canned answers from an earlier release of the help centre answers some questions
   before retrieval; some of them are stale.

``answer`` is the system; ``answer_eager`` is the same with ``min_overlap=2``. Each call
returns ``{"answer", "contexts", "usage", "latency_ms"}``: ``latency_ms`` is a simulated
figure (5 ms for a cache hit, else 100 + 10 per question word), so that runs are reproducible.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    "a an and are at be by did do does for from has have how in is it its many much of on or "
    "per the to was what when which who whom with".split()
)
CANNED = {
    "delivery": "Standard delivery takes 2 business days [shipping-policy].",
    "return": "Items can be returned within 60 days of delivery [shipping-policy].",
}
ABSTAIN = "I cannot answer this from the sources."


def words(text: str) -> set[str]:
    """Content words: lower-cased runs of letters and digits (``4.2`` kept whole), stopwords out."""
    return {w for w in re.findall(r"[a-z0-9]+(?:\.[0-9]+)?", text.lower()) if w not in STOPWORDS}


def sentences(text: str) -> list[str]:
    """The sentences of a source: split after ``.``, ``!`` or ``?`` followed by a space."""
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def _usage(question: str, sources: list[dict], answer: str) -> dict:
    return {
        "input_tokens": len(question.split()) + sum(len(s["text"].split()) for s in sources),
        "output_tokens": len(answer.split()),
    }


def respond(question: str, sources: list[dict], min_overlap: int = 3) -> dict:
    """The system's reply to ``question`` over ``sources`` (``[{"id", "text"}]``)."""
    for key, canned in CANNED.items():
        if key in question.lower():
            return {
                "answer": canned,
                "contexts": sources,
                "usage": _usage(question, sources, canned),
                "latency_ms": 5.0,
            }
    q = words(question)
    latency = 100.0 + 10.0 * len(question.split())
    best, best_n = None, -1
    for src in sources:
        for sent in sentences(src["text"]):
            n = len(q & words(sent))
            if n > best_n:
                best, best_n = sent, n
    if best is None or best_n < min_overlap:
        return {
            "answer": ABSTAIN,
            "contexts": sources,
            "usage": _usage(question, sources, ABSTAIN),
            "latency_ms": latency,
        }
    doc_scores = [len(q & words(s["text"])) for s in sources]
    cited = sources[doc_scores.index(max(doc_scores))]["id"]
    core = best.rstrip(".!?")
    if question.lower().startswith("quote"):
        text = f'{core} [{cited}: "{core}"].'
    else:
        text = f"{core} [{cited}]."
    return {"answer": text, "contexts": sources, "usage": _usage(question, sources, text), "latency_ms": latency}


def answer(question: str, sources: list[dict]) -> dict:
    """The example system (abstains below 3 shared words)."""
    return respond(question, sources)


def answer_eager(question: str, sources: list[dict]) -> dict:
    """The same system, abstaining only below 2 shared words: it answers more, and worse."""
    return respond(question, sources, min_overlap=2)
