"""Rule ``entailment``: the meaning tier's route 2 (``sourced.meaning.v2``), an entailment
cross-encoder (:mod:`sourced_nlp.verdict.meaning.entailment`) read in two places.

* **Paraphrase** (the rule, tried where route 1 is: just before the last rule). A claim the rules
  leave unverified that :func:`~sourced_nlp.verdict.rules.meaning.eligible` lets through (prose;
  every name and value of the claim in its best passage, none conflicting; no polarity flip,
  antonym or swapped roles; shortfall ``too_little`` or ``subject``; no quote) is
  ``grounded.entailment`` when the model reads its best passage as entailing it with
  ``p_entailed >= paraphrase_threshold``; the best passage is the evidence. A grounded result of
  this rule still passes the guard. The model alone never contradicts a claim.
* **Veto** (:meth:`EntailmentRule.veto`, asked by the verifier about every ``grounded`` result
  the guard lets through). When the model reads the evidence as not entailing the claim,
  ``1 - p_entailed >= veto_threshold``, the result becomes ``unverified.entailment`` (its
  evidence kept); then, as after the guard, a ``contradicted`` rule may still decide. Not asked
  of the tier's own ``grounded.entailment``, nor of evidence from a record (the model reads
  prose).

The premise is the evidence passage's text (several passages joined in evidence order), with
the passage before it in its source put first when the passage is shorter than
:data:`SHORT_WORDS` words (a sentence that leans on the one before: "It grew 8%."). The
hypothesis is the claim's text as written. Both results carry ``meaning``:
``{"model", "version", "score"}``, the score being ``p_entailed``.
"""

from __future__ import annotations

from typing import Protocol

from ..context import ClaimContext
from ..index import passage_at
from ..passage import Passage
from ..types import Result, result
from .meaning import eligible

DECIDES = ("grounded.entailment", "unverified.entailment")
#: a premise passage shorter than this (words) is read with the passage before it
SHORT_WORDS = 6


class EntailmentScorer(Protocol):
    """What the tier needs of a model: a name, a version and ``scores(pairs)``, one
    ``(p_entailed, p_contradicted, p_neutral)`` per ``(premise, hypothesis)`` pair, in order."""

    name: str
    version: str

    def scores(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float, float]]: ...


def premise(ctx: ClaimContext, passages: list[Passage]) -> str:
    """The premise of ``passages`` (module docstring): their texts joined; a single short
    passage with the passage before it in the same source."""
    if len(passages) == 1:
        p = passages[0]
        if len(p.f["text"].split()) < SHORT_WORDS and p.prev is not None:
            before = ctx.index.passages[p.prev]
            if before.source == p.source:
                return f"{before.f['text']} {p.f['text']}"
    return " ".join(p.f["text"] for p in passages)


def validate_thresholds(veto_threshold: float, paraphrase_threshold: float) -> None:
    """Both thresholds are numbers in [0, 1], or above 1 (up to 1.01) for a job turned off.

    Raises:
        ValueError: naming the first threshold that is not.
    """
    for key, t in (("veto_threshold", veto_threshold), ("paraphrase_threshold", paraphrase_threshold)):
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.0 <= float(t) <= 1.01:
            raise ValueError(f"sourced.meaning.v2: {key} {t!r} must be a number in [0, 1] (1.01: off)")


class EntailmentRule:
    """The tier over one scorer (module docstring): ``rule(ctx) -> Result | None`` is the
    paraphrase route, :meth:`veto` the veto.

    Args:
        model: the scorer (:class:`~sourced_nlp.verdict.meaning.entailment.EntailmentModel`).
        veto_threshold: a grounded claim whose evidence scores ``1 - p_entailed`` at or above
            it is unverified; above 1: no veto.
        paraphrase_threshold: an eligible claim whose best passage scores ``p_entailed`` at or
            above it is grounded; above 1: no paraphrase.
    """

    __name__ = "entailment"

    def __init__(self, model: EntailmentScorer, *, veto_threshold: float, paraphrase_threshold: float) -> None:
        validate_thresholds(veto_threshold, paraphrase_threshold)
        self.model = model
        self.veto_threshold = float(veto_threshold)
        self.paraphrase_threshold = float(paraphrase_threshold)

    def _entailed(self, ctx: ClaimContext, passages: list[Passage]) -> tuple[float, dict]:
        """``p_entailed`` of the claim by ``passages``, and the result's ``meaning`` entry."""
        p_e = self.model.scores([(premise(ctx, passages), ctx.record["text"])])[0][0]
        return p_e, {"model": self.model.name, "version": self.model.version, "score": round(p_e, 4)}

    def __call__(self, ctx: ClaimContext) -> Result | None:
        if self.paraphrase_threshold > 1.0 or not eligible(ctx):
            return None
        best = ctx.best
        assert best is not None
        p_e, info = self._entailed(ctx, [ctx.passage(best.pid)])
        if p_e < self.paraphrase_threshold:
            return None
        span = max(1e-9, 1.0 - self.paraphrase_threshold)
        support = 0.7 + 0.1 * min(1.0, (p_e - self.paraphrase_threshold) / span)
        m = self.model
        out = result(
            "grounded",
            f"the entailment tier ({m.name} {m.version}) reads the passage as stating the claim "
            f"(p_entailed {p_e:.3f} >= {self.paraphrase_threshold:.3f}); every name and value of the claim is there",
            support,
            [ctx.evidence(best.pid)],
            rule="grounded.entailment",
        )
        return {**out, "meaning": info}  # type: ignore[typeddict-unknown-key]

    def veto(self, ctx: ClaimContext, res: Result) -> Result | None:
        """``unverified.entailment`` for a grounded ``res`` whose evidence the model reads as not
        entailing the claim (module docstring); None: ``res`` stands."""
        if self.veto_threshold > 1.0 or res["verdict"] != "grounded" or res["rule"] == "grounded.entailment":
            return None
        if not res["evidence"] or ctx.index.has_records:
            return None
        pids = [passage_at(ctx.index, ev["source"], ev["start"], ev["end"]) for ev in res["evidence"]]
        if any(pid is None or ctx.index.passages[pid].structured for pid in pids):
            return None
        p_e, info = self._entailed(ctx, [ctx.index.passages[pid] for pid in pids])  # type: ignore[index]
        if 1.0 - p_e < self.veto_threshold:
            return None
        m = self.model
        support = max(0.15, min(0.65, ctx.support)) if ctx.best is not None else 0.4
        out = result(
            "unverified",
            f"the rules ground the claim ({res['rule']}), but the entailment tier ({m.name} "
            f"{m.version}) does not read the evidence as stating it (1 - p_entailed {1.0 - p_e:.3f} >= "
            f"{self.veto_threshold:.3f})",
            support,
            list(res["evidence"]),
            list(res.get("differs") or []),
            rule="unverified.entailment",
        )
        kept = {"alignment": res["alignment"]} if "alignment" in res else {}  # the guard's word alignment
        return {**out, **kept, "meaning": info}  # type: ignore[typeddict-unknown-key]
