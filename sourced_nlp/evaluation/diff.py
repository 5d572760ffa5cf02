"""``sourced eval diff A B``: the cases whose verdicts changed between two scorecards.

A case changed when its outcome (answered / abstained / error) or the verdict of one of its
claims changed, or a claim appeared or went away; claims are matched by their text (the
n-th claim of a given text in A with the n-th of that text in B). Cases only one scorecard
has are listed too.
"""

from __future__ import annotations

from collections import defaultdict

__all__ = ["diff_scorecards", "format_changes"]


def _keyed(verdicts: list[dict]) -> dict[tuple[str, int], str]:
    seen: dict[str, int] = defaultdict(int)
    out = {}
    for v in verdicts:
        out[(v["text"], seen[v["text"]])] = v["verdict"]
        seen[v["text"]] += 1
    return out


def _case_change(a: dict, b: dict) -> dict | None:
    """What changed in one case, or None."""
    va, vb = _keyed(a.get("verdicts") or []), _keyed(b.get("verdicts") or [])
    claims = []
    for key in list(va) + [k for k in vb if k not in va]:
        before, after = va.get(key), vb.get(key)
        if before != after:
            claims.append({"text": key[0], "before": before, "after": after})
    if a.get("outcome") == b.get("outcome") and not claims:
        return None
    return {"id": a["id"], "outcome": [a.get("outcome"), b.get("outcome")], "claims": claims}


def diff_scorecards(a: dict, b: dict) -> list[dict]:
    """The changed cases, in A's order then B's new ones: ``{"id", "outcome": [before, after],
    "claims": [{"text", "before", "after"}]}`` (a None verdict: the claim is not there)."""
    cases_a = {c["id"]: c for c in a["cases"]}
    cases_b = {c["id"]: c for c in b["cases"]}
    changes = []
    for cid, ca in cases_a.items():
        cb = cases_b.get(cid)
        if cb is None:
            changes.append({"id": cid, "outcome": [ca.get("outcome"), None], "claims": []})
            continue
        change = _case_change(ca, cb)
        if change:
            changes.append(change)
    for cid, cb in cases_b.items():
        if cid not in cases_a:
            changes.append({"id": cid, "outcome": [None, cb.get("outcome")], "claims": []})
    return changes


def format_changes(changes: list[dict]) -> list[str]:
    """Text lines: one per changed case, then one per changed claim under it."""
    lines = []
    for ch in changes:
        before, after = (x or "absent" for x in ch["outcome"])
        lines.append(f"{ch['id']}: {before} -> {after}" if before != after else f"{ch['id']}: verdicts changed")
        for c in ch["claims"]:
            lines.append(f"  {c['before'] or 'absent'} -> {c['after'] or 'absent'}: {c['text']}")
    return lines
