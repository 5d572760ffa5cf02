"""Judges: a tier after the rules that lets a model decide what they cannot, without trusting it.

Only claims the rules left ``unverified`` are asked; a judge's ``grounded`` or ``contradicted``
stands only when its quote is found in the source it names. Backends, registered in
``spacy.registry.misc``: ``sourced.judge.anthropic.v1`` (Claude, the ``judge`` extra),
``sourced.judge.callable.v1`` (any Python function), ``sourced.judge.replay.v1`` (recorded
answers, offline).
"""

from __future__ import annotations

from .backends import CallableJudge, ReplayJudge, make_callable_judge, make_replay_judge, record_answers
from .base import VERDICTS, Candidate, Judge, JudgeInput, Judgment, Settled
from .cache import JudgmentCache, cache_key
from .claude import AnthropicJudge, JudgeUnavailable, make_anthropic_judge
from .prompt import DEFAULT_PROMPT, load_prompt, parse_reply
from .quotes import settle
from .tier import CANDIDATES, apply_judge, ask, candidates, judge_doc

__all__ = [
    "VERDICTS", "Candidate", "Judge", "JudgeInput", "Judgment", "Settled", "CallableJudge", "ReplayJudge",
    "AnthropicJudge", "JudgeUnavailable", "JudgmentCache", "cache_key", "DEFAULT_PROMPT", "load_prompt",
    "parse_reply", "settle", "CANDIDATES", "apply_judge", "ask", "candidates", "judge_doc",
    "make_callable_judge", "make_replay_judge", "make_anthropic_judge", "record_answers",
]
