"""A JSON claims reply's citations on the claim spans of its doc (:func:`sourced_nlp.cite`).

``cite`` makes the claims of a JSON reply the lines of the doc and keeps their citations in
``doc._.reply_citations``; ``sourced_verify`` puts them on the claim spans before checking them.
"""

from __future__ import annotations

from spacy.tokens import Doc

from ..citing.citation_check import json_citation
from . import extensions


def add_reply_citations(doc: Doc) -> None:
    """Each claim span's citations, extended with those of the JSON reply lines it overlaps
    (``doc._.reply_citations``, :func:`sourced_nlp.cite`), each read by
    :func:`~sourced_nlp.citing.citation_check.json_citation` and labelled
    ``claims[j].citations[k]``."""
    lines = doc._.reply_citations
    if not lines:
        return
    for span in doc.spans.get(extensions.CLAIMS_KEY, []):
        extra = [
            json_citation(x, (a, b), f"claims[{j}].citations[{k}]")
            for j, (a, b, cites) in enumerate(lines)
            if a < span.end_char and span.start_char < b
            for k, x in enumerate(cites)
        ]
        span._.citations = list(span._.citations or []) + extra
