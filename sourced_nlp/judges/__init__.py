"""Judges: a tier after the rules that lets a model decide what they cannot, without trusting it.

Only claims the rules left ``unverified`` are asked; a judge's ``grounded`` or ``contradicted``
stands only when its quote is found in the source it names. Backends, registered in
``spacy.registry.misc``: ``sourced.judge.anthropic.v1`` (Claude, the ``judge`` extra),
``sourced.judge.openai.v1`` (any chat-completions server: OpenAI, Azure OpenAI, Ollama, vLLM; the
``openai`` extra), ``sourced.judge.callable.v1`` (any Python function), ``sourced.judge.replay.v1`` (recorded
answers, offline).

One module a backend under :mod:`.backends` (its ``__init__`` is the list of them). May import
:mod:`~sourced_nlp.text`, :mod:`~sourced_nlp.citing` and :mod:`~sourced_nlp.errors`; never spaCy at module level,
never the API or the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_face

if TYPE_CHECKING:
    from .backends.anthropic import AnthropicJudge, JudgeUnavailable, make_anthropic_judge
    from .backends.function import CallableJudge, make_callable_judge
    from .backends.openai import OpenAIJudge, make_openai_judge
    from .backends.replay import ReplayJudge, make_replay_judge, record_answers
    from .base import VERDICTS, Candidate, Judge, JudgeInput, Judgment, Settled
    from .cache import JudgmentCache, cache_key
    from .prompt import DEFAULT_PROMPT, load_prompt, parse_reply
    from .quotes import settle
    from .tier import CANDIDATES, apply_judge, ask, asks, candidates

#: Where each public name lives. The modules are imported on first use (PEP 562), so that
#: ``sourced --help`` (which imports :mod:`sourced_nlp.cli.judge`) does not import spaCy;
#: the backends register in ``spacy.registry.misc`` when their module is imported
#: (:mod:`sourced_nlp.components.verify` imports them).
_WHERE = {
    "backends.function": ("CallableJudge", "make_callable_judge"),
    "backends.replay": ("ReplayJudge", "make_replay_judge", "record_answers"),
    "base": ("VERDICTS", "Candidate", "Judge", "JudgeInput", "Judgment", "Settled"),
    "cache": ("JudgmentCache", "cache_key"),
    "backends.anthropic": ("AnthropicJudge", "JudgeUnavailable", "make_anthropic_judge"),
    "backends.openai": ("OpenAIJudge", "make_openai_judge"),
    "prompt": ("DEFAULT_PROMPT", "load_prompt", "parse_reply"),
    "quotes": ("settle",),
    "tier": ("CANDIDATES", "apply_judge", "ask", "asks", "candidates"),
}
__getattr__, __dir__ = lazy_face(globals(), _WHERE)


__all__ = [
    "VERDICTS",
    "Candidate",
    "Judge",
    "JudgeInput",
    "Judgment",
    "Settled",
    "CallableJudge",
    "ReplayJudge",
    "AnthropicJudge",
    "OpenAIJudge",
    "JudgeUnavailable",
    "JudgmentCache",
    "cache_key",
    "DEFAULT_PROMPT",
    "load_prompt",
    "parse_reply",
    "settle",
    "CANDIDATES",
    "apply_judge",
    "ask",
    "asks",
    "candidates",
    "make_callable_judge",
    "make_replay_judge",
    "make_anthropic_judge",
    "make_openai_judge",
    "record_answers",
]
