"""The ``anthropic`` judge backend: a Claude model through the Anthropic Python SDK.

Needs the optional extra: ``pip install 'sourced-nlp[judge]'``. Credentials are whatever the
SDK finds (``ANTHROPIC_API_KEY``, ``ANTHROPIC_AUTH_TOKEN``). Every source of the check goes in
the system prompt, marked ``cache_control: ephemeral``, so a re-check against the same sources
reads them at the provider's cache price; the undecided claims of a check go in one request
(more than ``max_claims`` of them: several requests, ``concurrency`` at a time). A refusal, an
unparsable reply, an API error or a timeout fails the claims of that request with the reason:
they stay ``unverified``.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Sequence

from ...errors import JudgeUnavailable, NoAnswer
from ..base import JudgeInput
from ..cache import JudgmentCache, default_dir
from ..prompt import DEFAULT_PROMPT, load_prompt, system_prompt, user_message
from .chat import ChatJudge
from .spec import backend, recording

DEFAULT_MODEL = "claude-sonnet-4-5"
CREDENTIAL_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")


def preflight() -> None:
    """Check, before any work, that the backend can run: a credential variable is set and the
    SDK imports.

    Raises:
        JudgeUnavailable: with one line saying what is missing and how to fix it.
    """
    if not any(os.environ.get(v) for v in CREDENTIAL_VARIABLES):
        raise JudgeUnavailable("--judge anthropic needs an API key: set ANTHROPIC_API_KEY (nothing was checked)")
    try:
        import anthropic  # noqa: F401
    except ImportError:
        raise JudgeUnavailable("--judge anthropic needs the Anthropic SDK: pip install 'sourced-nlp[judge]'") from None


class AnthropicJudge(ChatJudge):
    """A Claude model as the judge (see the module docstring).

    Args:
        model: the model id.
        prompt: a prompt version (``judge-v1``) or a ``.txt`` path.
        timeout: seconds a request may take.
        max_tokens: the longest reply, in tokens.
        max_claims: claims per request.
        concurrency: requests in flight at once when a check needs more than one.
        client: an ``anthropic.Anthropic``-like client (``client.messages.create``); made on
            first use when None.
        cache: the on-disk judgment cache, or None.
    """

    backend = "anthropic"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        prompt: str = DEFAULT_PROMPT,
        timeout: float = 60.0,
        max_tokens: int = 4096,
        max_claims: int = 50,
        concurrency: int = 4,
        client: Any = None,
        cache: Optional[JudgmentCache] = None,
    ) -> None:
        for name, value in (("max_claims", max_claims), ("concurrency", concurrency), ("max_tokens", max_tokens)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"judge {name} must be an integer >= 1, got {value!r}")
        self.model = model
        self.prompt_version, self.prompt = load_prompt(prompt)
        self.timeout, self.max_tokens = float(timeout), max_tokens
        self.max_claims, self.concurrency = max_claims, concurrency
        self.client, self.cache = client, cache

    def _client(self) -> Any:
        if self.client is None:
            import anthropic

            self.client = anthropic.Anthropic(timeout=self.timeout, max_retries=2)
        return self.client

    def ask(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> str:
        """One request for ``inputs``: the reply's text.

        Raises:
            NoAnswer: the model refused (``stop_reason == "refusal"``) or cut its reply
                short (``max_tokens``); any error of the SDK, as raised.
        """
        system = [{"type": "text", "text": system_prompt(self.prompt, sources), "cache_control": {"type": "ephemeral"}}]
        resp = self._client().messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=system,
            messages=[{"role": "user", "content": user_message(inputs)}],
        )
        stop = getattr(resp, "stop_reason", None)
        if stop == "refusal":
            raise NoAnswer("the judge refused to answer")
        if stop == "max_tokens":
            raise NoAnswer(f"the reply was cut short at {self.max_tokens} tokens")
        return "".join(getattr(b, "text", "") for b in resp.content if getattr(b, "type", "text") == "text")


def make_anthropic_judge(
    model: str = DEFAULT_MODEL,
    prompt: str = DEFAULT_PROMPT,
    timeout: float = 60.0,
    max_tokens: int = 4096,
    max_claims: int = 50,
    concurrency: int = 4,
    cache_dir: Optional[str] = "default",
    record: Optional[str] = None,
    scope: str = "unverified",
) -> AnthropicJudge:
    """The ``anthropic`` backend; ``cache_dir`` ``"default"`` is :func:`default_dir`, None or
    ``""`` turns the cache off; ``scope``: what it is asked about (``unverified`` or ``all``)."""
    folder = default_dir() if cache_dir == "default" else cache_dir
    judge = AnthropicJudge(
        model=model,
        prompt=prompt,
        timeout=timeout,
        max_tokens=max_tokens,
        max_claims=max_claims,
        concurrency=concurrency,
        cache=JudgmentCache(folder) if folder else None,
    )
    return recording(judge, record, scope)


def _options(model: Optional[str], concurrency: int, file: Optional[str]) -> dict:
    return {"concurrency": concurrency, **({"model": model} if model else {})}


def _check(model: Optional[str], concurrency: int, file: Optional[str]) -> None:
    try:
        preflight()
    except JudgeUnavailable as err:
        raise ValueError(str(err)) from None


BACKEND = backend("anthropic", make_anthropic_judge, _options, _check)
