"""The ``openai`` judge backend: any server that speaks OpenAI's chat-completions protocol, through
the official ``openai`` SDK: OpenAI, Azure OpenAI, or a local server (Ollama, vLLM, llama.cpp).

Needs the optional extra: ``pip install 'sourced-nlp[openai]'``. The server is ``base_url``
(``--judge-base-url``), else ``OPENAI_BASE_URL``, else OpenAI's; the key is ``OPENAI_API_KEY``
(a local server takes any value). With ``AZURE_OPENAI_ENDPOINT`` set and no base URL, the SDK's
``AzureOpenAI`` client is used, with ``AZURE_OPENAI_API_KEY`` (or ``AZURE_OPENAI_AD_TOKEN``),
``OPENAI_API_VERSION``, and the deployment's name as the model.

The undecided claims of a check go in one request (more than ``max_claims``: several,
``concurrency`` at a time), the sources in the system message. The reply is asked for as
structured output (a JSON schema ``response_format``); a server that refuses that (HTTP 400) is
asked again in JSON mode, then with no ``response_format``, and the reply is read by the same
tolerant parser as every backend's (:func:`~sourced_nlp.judges.prompt.parse_reply`); the format
that worked is kept for the judge's next requests. The SDK retries a 408, 409, 429, 5xx or a lost
connection ``max_retries`` times with exponential backoff (honouring ``Retry-After``). A refusal,
an unparsable reply, an API error or a timeout fails the claims of that request with the reason:
they stay ``unverified``.
"""

from __future__ import annotations

import os
import socket
import threading
import urllib.request
from typing import Any, Mapping, Optional, Sequence
from urllib.parse import urlsplit

from ...errors import JudgeUnavailable, NoAnswer
from ..base import VERDICTS, JudgeInput
from ..cache import JudgmentCache, default_dir
from ..prompt import DEFAULT_PROMPT, load_prompt, system_prompt, user_message
from .chat import ChatJudge
from .spec import backend, recording

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: The reply formats asked for, in the order they are tried.
FORMATS = ("json_schema", "json_object", "text")
#: Seconds the check before any work waits for the server to accept a connection.
CONNECT_TIMEOUT = 5.0

#: The reply's shape (the prompt's), as a strict JSON schema for structured output.
SCHEMA = {
    "type": "object",
    "properties": {
        "judgments": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "claim": {"type": "integer"},
                    "verdict": {"type": "string", "enum": list(VERDICTS)},
                    "source": {"type": "string"},
                    "quote": {"type": "string"},
                    "reason": {"type": "string"},
                },
                "required": ["claim", "verdict", "source", "quote", "reason"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["judgments"],
    "additionalProperties": False,
}


def azure(base_url: Optional[str] = None) -> bool:
    """Whether the judge talks to Azure OpenAI: ``AZURE_OPENAI_ENDPOINT`` is set and no base URL
    is (neither ``base_url`` nor ``OPENAI_BASE_URL``)."""
    return not base_url and not os.environ.get("OPENAI_BASE_URL") and bool(os.environ.get("AZURE_OPENAI_ENDPOINT"))


def server_url(base_url: Optional[str] = None) -> str:
    """The URL the judge's requests go to (see the module docstring)."""
    if azure(base_url):
        return os.environ["AZURE_OPENAI_ENDPOINT"]
    return base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL


def _proxied(scheme: str, host: str) -> bool:
    """Whether requests to ``host`` go through a proxy (the environment's): the proxy, not the
    host, is then what a connection reaches."""
    return bool(urllib.request.getproxies().get(scheme)) and not urllib.request.proxy_bypass(host)


def reach(url: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Check that the server at ``url`` accepts a TCP connection (nothing is sent; skipped
    behind a proxy).

    Raises:
        JudgeUnavailable: not an http(s) URL, or no connection, with the reason, in one line.
    """
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
        raise JudgeUnavailable(f"--judge openai: {url!r} is not an http(s) URL (nothing was checked)")
    if _proxied(parts.scheme, parts.hostname):
        return
    try:
        socket.create_connection(
            (parts.hostname, port or (443 if parts.scheme == "https" else 80)), timeout=timeout
        ).close()
    except OSError as err:
        why = (
            "no such host"
            if isinstance(err, socket.gaierror)
            else f"no answer in {timeout:g} s"
            if isinstance(err, socket.timeout)
            else (err.strerror or type(err).__name__).lower()
        )
        raise JudgeUnavailable(
            f"--judge openai cannot reach {url} ({why}): start the server or give the right "
            f"--judge-base-url (nothing was checked)"
        ) from None


def preflight(base_url: Optional[str] = None, timeout: float = CONNECT_TIMEOUT) -> None:
    """Check, before any work, that the backend can run: the key is set, the SDK imports and
    the server accepts a connection.

    Raises:
        JudgeUnavailable: with one line saying what is missing and how to fix it.
    """
    if azure(base_url):
        if not (os.environ.get("AZURE_OPENAI_API_KEY") or os.environ.get("AZURE_OPENAI_AD_TOKEN")):
            raise JudgeUnavailable(
                "--judge openai on Azure (AZURE_OPENAI_ENDPOINT) needs an API key: set "
                "AZURE_OPENAI_API_KEY (nothing was checked)"
            )
        if not os.environ.get("OPENAI_API_VERSION"):
            raise JudgeUnavailable(
                "--judge openai on Azure (AZURE_OPENAI_ENDPOINT) needs OPENAI_API_VERSION "
                "(e.g. 2024-10-21; nothing was checked)"
            )
    elif not os.environ.get("OPENAI_API_KEY"):
        raise JudgeUnavailable(
            "--judge openai needs an API key: set OPENAI_API_KEY (a local server takes any "
            "value, e.g. OPENAI_API_KEY=local; nothing was checked)"
        )
    try:
        import openai  # noqa: F401
    except ImportError:
        raise JudgeUnavailable("--judge openai needs the OpenAI SDK: pip install 'sourced-nlp[openai]'") from None
    reach(server_url(base_url), timeout)


def _response_format(fmt: str) -> dict:
    if fmt == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "judgments", "strict": True, "schema": SCHEMA},
            }
        }
    if fmt == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


class OpenAIJudge(ChatJudge):
    """A chat-completions model as the judge (see the module docstring).

    Args:
        model: the model id (on Azure: the deployment's name).
        base_url: the server (``http://localhost:11434/v1``); None: ``OPENAI_BASE_URL``, else
            OpenAI's (or Azure's, see :func:`azure`).
        prompt: a prompt version (``judge-v1``) or a ``.txt`` path.
        timeout: seconds a request may take (each try).
        max_retries: tries after the first on a 408, 409, 429, 5xx, timeout or lost connection.
        max_tokens: the longest reply, in tokens.
        max_claims: claims per request.
        concurrency: requests in flight at once when a check needs more than one.
        response_format: the first reply format to ask for (:data:`FORMATS`).
        client: an ``openai.OpenAI``-like client (``client.chat.completions.create``); made on
            first use when None.
        cache: the on-disk judgment cache, or None.
    """

    backend = "openai"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        base_url: Optional[str] = None,
        prompt: str = DEFAULT_PROMPT,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = 4096,
        max_claims: int = 50,
        concurrency: int = 4,
        response_format: str = FORMATS[0],
        client: Any = None,
        cache: Optional[JudgmentCache] = None,
    ) -> None:
        for name, value in (("max_claims", max_claims), ("concurrency", concurrency), ("max_tokens", max_tokens)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"judge {name} must be an integer >= 1, got {value!r}")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"judge max_retries must be an integer >= 0, got {max_retries!r}")
        if response_format not in FORMATS:
            raise ValueError(f"judge response_format must be one of {', '.join(FORMATS)}, got {response_format!r}")
        self.model, self.base_url = model, base_url or None
        self.prompt_version, self.prompt = load_prompt(prompt)
        self.timeout, self.max_retries, self.max_tokens = float(timeout), max_retries, max_tokens
        self.max_claims, self.concurrency = max_claims, concurrency
        self.format = response_format  # the reply format asked for now (a server's refusal moves it on)
        self.tokens = "max_tokens"  # the name the server takes for max_tokens (OpenAI's newer models: another)
        self.client, self.cache = client, cache
        self._lock = threading.Lock()

    def _client(self) -> Any:
        with self._lock:
            if self.client is None:
                import openai

                options = {"timeout": self.timeout, "max_retries": self.max_retries}
                self.client = (
                    openai.AzureOpenAI(**options)
                    if azure(self.base_url)
                    else openai.OpenAI(base_url=self.base_url, **options)
                )
            return self.client

    def _adapt(self, err: Exception, fmt: str, tokens: str) -> bool:
        """After a 400 to a request asked with ``fmt`` and ``tokens``: ask differently next
        (True), or not (False: the error stands)."""
        text = str(err).lower()
        with self._lock:
            if "max_completion_tokens" in text and tokens == "max_tokens":
                self.tokens = "max_completion_tokens"
                return True
            if fmt != "text":
                if self.format == fmt:
                    self.format = FORMATS[FORMATS.index(fmt) + 1]
                return True
        return False

    def ask(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> str:
        """One request for ``inputs`` (a few when the server refuses a reply format): the
        reply's text.

        Raises:
            NoAnswer: the model refused (``message.refusal``, ``finish_reason``
                ``content_filter``), cut its reply short (``length``) or gave no choice; any
                error of the SDK, as raised.
        """
        import openai

        client = self._client()
        messages = [
            {"role": "system", "content": system_prompt(self.prompt, sources)},
            {"role": "user", "content": user_message(inputs)},
        ]
        for _ in range(len(FORMATS) + 1):
            fmt, tokens = self.format, self.tokens
            try:
                resp = client.chat.completions.create(
                    model=self.model, messages=messages, **{tokens: self.max_tokens}, **_response_format(fmt)
                )
                break
            except openai.BadRequestError as err:
                if not self._adapt(err, fmt, tokens):
                    raise
        else:
            raise NoAnswer("the server refused every reply format (HTTP 400)")
        if not getattr(resp, "choices", None):
            raise NoAnswer("the reply has no choices")
        choice = resp.choices[0]
        refusal = getattr(choice.message, "refusal", None)
        if refusal:
            raise NoAnswer(f"the judge refused to answer: {' '.join(str(refusal).split())[:200]}")
        if choice.finish_reason == "content_filter":
            raise NoAnswer("the judge refused to answer (content filter)")
        if choice.finish_reason == "length":
            raise NoAnswer(f"the reply was cut short at {self.max_tokens} tokens")
        return choice.message.content or ""


def make_openai_judge(
    model: str = DEFAULT_MODEL,
    base_url: Optional[str] = None,
    prompt: str = DEFAULT_PROMPT,
    timeout: float = 60.0,
    max_retries: int = 2,
    max_tokens: int = 4096,
    max_claims: int = 50,
    concurrency: int = 4,
    response_format: str = FORMATS[0],
    cache_dir: Optional[str] = "default",
    record: Optional[str] = None,
    scope: str = "unverified",
) -> OpenAIJudge:
    """The ``openai`` backend; ``cache_dir`` ``"default"`` is :func:`default_dir`, None or ``""``
    turns the cache off; ``scope``: what it is asked about (``unverified`` or ``all``)."""
    folder = default_dir() if cache_dir == "default" else cache_dir
    judge = OpenAIJudge(
        model=model,
        base_url=base_url,
        prompt=prompt,
        timeout=timeout,
        max_retries=max_retries,
        max_tokens=max_tokens,
        max_claims=max_claims,
        concurrency=concurrency,
        response_format=response_format,
        cache=JudgmentCache(folder) if folder else None,
    )
    return recording(judge, record, scope)


def _options(model: Optional[str], concurrency: int, file: Optional[str], base_url: Optional[str] = None) -> dict:
    return {
        "concurrency": concurrency,
        **({"model": model} if model else {}),
        **({"base_url": base_url} if base_url else {}),
    }


def _check(model: Optional[str], concurrency: int, file: Optional[str], base_url: Optional[str] = None) -> None:
    if not model and (base_url or azure(base_url)):
        where = (
            "on Azure (AZURE_OPENAI_ENDPOINT) needs --judge-model DEPLOYMENT"
            if not base_url
            else "--judge-base-url needs --judge-model NAME (a model the server serves)"
        )
        raise ValueError(f"--judge openai {where}")
    try:
        preflight(base_url)
    except JudgeUnavailable as err:
        raise ValueError(str(err)) from None


BACKEND = backend("openai", make_openai_judge, _options, _check, options=("base_url",))
