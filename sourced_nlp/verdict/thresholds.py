"""The tunables of the verdict (``sourced_verify`` config) and their validation."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Thresholds:
    """Tunables of the verdict (``sourced_verify`` config); every float is a share in [0, 1],
    every int a count >= 1.

    Defaults were set on the acceptance cases and the RAGTruth train split;
    ``fusion_coverage_record`` (one weak word of a claim told from several lines of a record may
    be missing) on the hand-written record cases of ``tests/cases/records.jsonl`` (1.0 -> 0.85:
    coverage 66 -> 77 of 136 sentences, false groundings 1 -> 1), since the train split holds
    no records. ``spread_support`` (the support at which a prose claim spread over one passage and
    the one or two beside it is grounded; 1.0 turns it off) on the RAGTruth train split.

    The support of an unverified claim is 0.15 + ``support_best`` x the best passage's partial
    match + ``support_spread`` x what the candidate passages hold between them -
    ``support_novel_words`` x the weighted share of its words no source holds -
    ``support_novel_name`` x each name no source mentions (at most 3); the four weights were set
    on the RAGTruth train split (support ROC-AUC 0.792 -> 0.804 for the first two, 0.809 -> 0.818
    for the last two). ``unanchored_conflict``: the coverage at which a prose passage with no name
    or other value of the claim is about the same thing (a value conflict). ``swap_min_words``:
    the content words a swap of names needs the passage to share when it shares no other name or
    value. ``fusion_record_lines``: the lines of one record a claim may be told from: a week of
    opening hours (seven lines) and a few more fields ("open Monday to Friday from 7 AM to 4 PM,
    ... and a great place for lunch"). ``key_span``: the words of an attribute's key stand within
    this many words of each other in a claim. ``text_value_words``: a record value of this many
    words is free text (a review), not a field.
    """

    grounded_coverage: float = 0.75
    grounded_coverage_anchored: float = 0.5
    contradicted_coverage: float = 0.5
    polarity_coverage: float = 0.7
    fusion_coverage: float = 0.75
    fusion_coverage_record: float = 0.85
    fusion_coverage_content: float = 0.9
    fusion_min_share: float = 0.3
    conflict_margin: float = 0.2
    swap_coverage: float = 0.7
    spread_support: float = 0.55
    max_candidates: int = 24
    unanchored_conflict: float = 0.7
    support_best: float = 0.25
    support_spread: float = 0.25
    support_novel_words: float = 0.3
    support_novel_name: float = 0.04
    swap_min_words: int = 2
    fusion_record_lines: int = 12
    key_span: int = 5
    text_value_words: int = 6


def validate_thresholds(thresholds: Thresholds, counts: dict[str, object] | None = None) -> None:
    """Check the tunables: every float field of :class:`Thresholds` is a share of a claim's
    content (a coverage, ``fusion_min_share``, a support weight, or ``conflict_margin``, a
    difference of two coverages), so it must lie in [0, 1]; every int field (``max_candidates``,
    how many passages are compared with a claim, and the other counts) and each of ``counts``
    (more counts of the caller's config, ``{"cache_size": 256}``) must be an integer >= 1.

    Raises:
        ValueError: naming the field, the value given and the allowed range, for the first
            field out of range (or not a number: a bool, a string, NaN).
    """
    values = [(f.name, f.default, getattr(thresholds, f.name)) for f in dataclasses.fields(thresholds)]
    values += [(name, 1, value) for name, value in (counts or {}).items()]
    for name, default, value in values:
        if isinstance(default, bool):
            continue
        if isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"sourced_verify config: {name} must be an integer >= 1 (a count), got {value!r}")
        elif isinstance(default, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0
            if not ok:  # NaN fails the comparison too
                raise ValueError(f"sourced_verify config: {name} must be in [0, 1], got {value!r}")
