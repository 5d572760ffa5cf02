"""The judge tier: after the rules, for the claims they left ``unverified`` (scope ``all``: and
those they grounded).

:func:`apply_judge` takes the per-claim results of a check (the ``report["claims"]`` dicts) and
the candidate passages of each, asks the judge about every ``unverified`` claim in one call,
checks each answer's quote in the source it names (:func:`sourced_nlp.judges.quotes.settle`),
and returns the updated results. A claim a rule grounded or contradicted is never sent and
never changed. A judged claim gets ``rule`` ``grounded.judge`` / ``contradicted.judge``, its
quote as evidence, and ``judge``: ``{backend, model, prompt_version, verdict, quote, start, end,
source, reason, status}``; a claim whose answer was discarded or failed stays ``unverified``,
with the reason appended to its own and ``judge.status`` ``discarded`` / ``failed`` /
``unverified``.

A judge of scope ``all`` (``judge.scope``, ``--judge-scope all``) is also asked about the claims
the rules (or the meaning tier) grounded, to take them down, never up: its ``contradicted`` with
a verified quote makes such a claim ``contradicted`` (rule ``contradicted.judge_overruled``), its
``unverified`` (or a ``contradicted`` whose quote is discarded: it does not find the claim
supported) makes it ``unverified`` (rule ``unverified.judge_not_supported``); its ``grounded``,
or no answer, leaves the claim as the rules had it, with ``judge`` added. A contradicted claim is
never sent.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..citing.provenance import citation_status, cited_sources, finding, verdict_findings
from .backends.replay import record_answers
from .base import Candidate, Judge, JudgeInput, Judgment, Settled
from .cache import cache_key
from .quotes import settle

CANDIDATES = 5
# findings that show a claim holds what no source has: a judge cannot ground such a claim
_UNSOURCED = ("fabricated-number", "fabricated-quote")
# the support of a judged claim: the lowest a rule gives a grounded claim; a contradiction's 0
SUPPORT = {"grounded": 0.7, "contradicted": 0.0}


def asks(judge: Judge) -> tuple[str, ...]:
    """The verdicts of the claims ``judge`` is asked about: ``unverified``; with scope ``all``
    (``judge.scope``), ``grounded`` too."""
    return ("unverified", "grounded") if getattr(judge, "scope", "unverified") == "all" else ("unverified",)


def candidates(index: Any, rec: Optional[Mapping], limit: int = CANDIDATES) -> list[Candidate]:
    """The passages the rules compare a claim with (``PassageIndex.candidates``), best first,
    as :class:`Candidate` (source id, offsets in the source text, text); [] without a record."""
    if rec is None:
        return []
    out = []
    for pid in index.candidates(rec, limit):
        p = index.passages[pid]
        out.append(Candidate(p.source, int(p.f["start"]), int(p.f["end"]), p.f["text"]))
    return out


def ask(judge: Judge, inputs: Sequence[JudgeInput], sources: Mapping[str, str]) -> list[Judgment]:
    """The judge's answers to ``inputs``, in order, through its cache (``judge.cache``) and
    recorded to ``judge.record`` when it has one. A judge that raises, or answers a different
    number of claims, fails them all with the reason."""
    cache = getattr(judge, "cache", None)
    keys = (
        [cache_key(judge.backend, judge.model, judge.prompt_version, inp, sources) for inp in inputs] if cache else []
    )
    answers: list[Optional[Judgment]] = [cache.get(k) for k in keys] if cache else [None] * len(inputs)
    todo = [i for i, a in enumerate(answers) if a is None]
    if todo:
        try:
            fresh = list(judge.judge([inputs[i] for i in todo], sources))
        except Exception as err:  # a judge of the caller's: never lets a claim through
            fresh = [Judgment.failed(f"the judge raised {type(err).__name__}: {err}")] * len(todo)
        if len(fresh) != len(todo):
            fresh = [Judgment.failed(f"the judge gave {len(fresh)} answers for {len(todo)} claims")] * len(todo)
        for i, j in zip(todo, fresh):
            answers[i] = j
            if cache:
                cache.put(keys[i], j)
    done = [a if a is not None else Judgment.failed("no answer") for a in answers]
    record = getattr(judge, "record", None)
    if record:
        record_answers(record, inputs, done, judge.model, judge.prompt_version)
    return done


def _status(s: Settled) -> str:
    if s.match is not None:
        return "accepted"
    if s.judgment.error is not None:
        return "failed"
    return "unverified" if s.judgment.verdict == "unverified" else "discarded"


def _judge_info(judge: Judge, s: Settled) -> dict:
    j, m = s.judgment, s.match or {}
    return {
        "backend": judge.backend,
        "model": judge.model,
        "prompt_version": judge.prompt_version,
        "verdict": j.verdict,
        "quote": m.get("text", j.quote),
        "start": m.get("start"),
        "end": m.get("end"),
        "source": j.source,
        "reason": j.reason if j.error is None else j.error,
        "status": _status(s),
    }


def _settled_claim(judge: Judge, claim: dict, s: Settled) -> dict:
    """The claim dict after its judgment (a new dict)."""
    info = _judge_info(judge, s)
    if s.match is None:
        return dict(claim, reason=f"{claim.get('reason') or 'not shown'}; {s.reason}", judge=info)
    out = dict(
        claim,
        verdict=s.verdict,
        rule=f"{s.verdict}.judge",
        reason=s.reason,
        support=SUPPORT[s.verdict],
        evidence=[dict(s.match)],
        differs=[],
        judge=info,
    )
    if claim.get("citation_status") == "unsupported":  # the one status a judge's verdict may change
        checked = out.get("citations") or []
        out["citation_status"] = citation_status(checked, cited_sources(checked), out)
    return out


def _rechecked_claim(judge: Judge, claim: dict, s: Settled) -> dict:
    """A grounded claim after the judgment of a judge of scope ``all`` (a new dict; see the
    module docstring): taken down to ``contradicted`` or ``unverified``, or kept as it was."""
    info = _judge_info(judge, s)
    if s.match is not None and s.verdict == "contradicted":
        out = dict(
            claim,
            verdict="contradicted",
            rule="contradicted.judge_overruled",
            reason=f"grounded by {claim.get('rule')}, overruled by the {s.reason}",
            support=SUPPORT["contradicted"],
            evidence=[dict(s.match)],
            differs=[],
            judge=info,
        )
    elif s.judgment.error is None and s.judgment.verdict != "grounded":
        out = dict(
            claim,
            verdict="unverified",
            rule="unverified.judge_not_supported",
            reason=f"grounded by {claim.get('rule')}, not supported by the judge: {s.reason}",
            judge=info,
        )
    else:
        return dict(claim, judge=info)
    checked = out.get("citations") or []
    if checked:
        out["citation_status"] = citation_status(checked, cited_sources(checked), out)
    return out


def refresh_findings(findings: list[dict], i: int, old: Mapping, new: Mapping) -> None:
    """Replace claim ``i``'s verdict finding once its verdict changed after the rules (the judge's,
    or ``strict``'s in ``sourced_verify``), in place: ``old`` and ``new`` are its claim dicts."""
    if new["verdict"] == old["verdict"]:
        return
    findings[:] = [
        f
        for f in findings
        if not (
            f.get("claim") == i
            and (
                f.get("kind") == "unsupported-claim"
                or (f.get("kind") == "broken-citation" and old["verdict"] == "grounded")
            )
        )
    ]
    findings.extend(verdict_findings(new, i))
    if new.get("citation_status") == "elsewhere":
        cites = ", ".join(sorted(cited_sources(new.get("citations") or [])))
        findings.append(
            finding(
                "broken-citation",
                f"grounded only in {new['evidence'][0]['source']}, which it does not cite (cites {cites})",
                i,
            )
        )
    findings.sort(key=lambda f: (f.get("claim") is not None, f.get("claim") if f.get("claim") is not None else -1))


def apply_judge(
    judge: Judge,
    claims: Sequence[dict],
    passages: Mapping[int, Sequence[Candidate]],
    sources: Mapping[str, str],
    findings: Optional[list[dict]] = None,
) -> list[dict]:
    """The judge tier over one check's results.

    Args:
        judge: the backend.
        claims: the per-claim results, in report order (``verdict``, ``reason``, ``text``, ...).
        passages: ``{claim index: candidate passages}``; a claim absent here is judged on the
            whole sources.
        sources: ``{source_id: text}`` of every source of the check.
        findings: the report's findings, updated in place when a verdict changes; a claim with a
            ``fabricated-number`` or ``fabricated-quote`` finding is never judged grounded.

    Returns:
        New claim dicts, in order (see the module docstring); the ``unverified`` ones asked (with
        a judge of scope ``all``, the ``grounded`` ones too), the others the same dicts as given.
    """
    scope = asks(judge)
    todo = [i for i, c in enumerate(claims) if c.get("verdict") in scope]
    out = list(claims)
    if not todo or not sources:
        return out
    inputs = [JudgeInput(i, claims[i]["text"], tuple(passages.get(i, ())), claims[i].get("reason") or "") for i in todo]
    unsourced = {f.get("claim"): f["kind"] for f in findings or () if f.get("kind") in _UNSOURCED}
    for inp, judgment in zip(inputs, ask(judge, inputs, sources)):
        s = settle(judgment, sources)
        if s.verdict == "grounded" and inp.index in unsourced:
            s = Settled(
                "unverified",
                f"judge's grounded discarded: the claim holds what no source has ({unsourced[inp.index]})",
                judgment,
            )
        old = claims[inp.index]
        new = _rechecked_claim(judge, old, s) if old.get("verdict") == "grounded" else _settled_claim(judge, old, s)
        if findings is not None:
            refresh_findings(findings, inp.index, old, new)
        out[inp.index] = new
    return out
