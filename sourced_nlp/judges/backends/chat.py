"""What the judges over a chat API share (not a backend of its own): claims sent ``max_claims``
a request, ``concurrency`` requests in flight, and a failed request failing its claims with the
reason in words. :class:`~.anthropic.AnthropicJudge` and :class:`~.openai.OpenAIJudge` derive
from :class:`ChatJudge` and give its ``ask``."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Mapping, Sequence

from ...errors import NoAnswer
from ..base import JudgeInput, Judgment
from ..prompt import parse_reply


def failure(err: Exception, timeout: float) -> str:
    """The reason a request failed, in words (``timeout``: the request's limit, in seconds)."""
    name = type(err).__name__
    if "Timeout" in name or isinstance(err, TimeoutError):
        return f"the judge timed out (after {timeout:g} s)"
    return f"the request failed ({name}: {' '.join(str(err).split())[:200]})"


class ChatJudge:
    """The sending side of a judge over a chat API: a subclass sets ``timeout``, ``max_claims``
    and ``concurrency`` and gives ``ask(inputs, sources) -> str``, the reply to one request."""

    timeout: float
    max_claims: int
    concurrency: int

    def ask(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> str:  # pragma: no cover
        raise NotImplementedError

    def _request(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> list[Judgment]:
        indexes = [inp.index for inp in inputs]
        try:
            reply = self.ask(inputs, sources)
        except Exception as err:  # SDK errors, timeouts, refusals: the claims stay unverified
            reason = str(err) if isinstance(err, NoAnswer) else failure(err, self.timeout)
            return [Judgment.failed(reason) for _ in inputs]
        answers = parse_reply(reply, indexes)
        return [answers[i] for i in indexes]

    def judge(self, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> list[Judgment]:
        """The judgments of ``inputs``, in order: one request per ``max_claims`` claims."""
        chunks = [list(inputs[i : i + self.max_claims]) for i in range(0, len(inputs), self.max_claims)]
        if len(chunks) <= 1 or self.concurrency == 1:
            done = [self._request(c, sources) for c in chunks]
        else:
            with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
                done = list(pool.map(lambda c: self._request(c, sources), chunks))
        return [j for chunk in done for j in chunk]
