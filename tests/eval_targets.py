"""Targets for the ``sourced eval run`` tests: one callable that answers in the shape its
question names, raises, or never returns in time."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Reply:
    """An SDK-style response object: the adapter reads its attributes."""

    answer: str
    contexts: list = field(default_factory=list)
    usage: dict = field(default_factory=dict)


class Usage:
    prompt_tokens = 11
    completion_tokens = 4


def dispatch(question: str, sources: list[dict]):
    """Answer in the shape the question asks for."""
    first = sources[0]
    if question == "shape str":
        return f"{first['text'].rstrip('.')} [{first['id']}]."
    if question == "shape dict":
        return {
            "answer": first["text"],
            "citations": [{"source": first["id"], "quote": first["text"]}],
            "usage": {"input_tokens": 20, "output_tokens": 5},
            "latency_ms": 42,
        }
    if question == "shape object":
        return Reply(answer=first["text"], contexts=[first["text"]], usage=Usage())
    if question == "raise":
        raise RuntimeError("the model backend is down")
    if question == "bad shape":
        return 42
    if question == "sleep":
        time.sleep(120)
        return "too late"
    raise AssertionError(f"unexpected question {question!r}")


def question_only(question):
    """A target that takes the question alone."""
    return "I don't know." if "?" in question else question
