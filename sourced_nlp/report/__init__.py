"""The report of a check and its views: its data (:mod:`.data`, its gates in :mod:`.gates`), the
``Report`` a check returns, the data with its views' methods (:mod:`.model`), its
JSON shape check (:mod:`.schema`), findings and gates (:mod:`.findings`), the marks every view
shares (:mod:`.marks`), the least-trusted-first order of the claims (:mod:`.card_order`), and one
module per view: :mod:`.text` (the terminal, rich), :mod:`.markdown`,
:mod:`.html` (an answer written in Markdown rendered by :mod:`.answer_md`) and :mod:`.frame`
(pandas).

Pure Python, no spaCy. Imports nothing of the package (but the old paths' table and the faces'
helper, which import nothing of it either), only the standard library and the views' own
libraries (rich, pandas, markdown-it, each imported by the view that needs them).

``from sourced_nlp.report import Report`` keeps working: every name of :mod:`.model` is read
from it on first use (PEP 562), so that importing one view does not import the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_face

if TYPE_CHECKING:
    from .model import SCHEMA, ClaimResult, Evidence, Report, Skipped, to_frame

__all__ = [
    "SCHEMA",
    "VERDICTS",
    "FAIL_ON",
    "SEVERITIES",
    "Evidence",
    "ClaimResult",
    "Skipped",
    "Report",
    "to_frame",
    "check_fail_on",
    "check_thresholds",
]

#: A submodule (``sourced_nlp.report.html``), or a name of :mod:`.model` (or of :mod:`.findings`
#: and :mod:`.marks`, which the single report module once held), on first use.
__getattr__, __dir__ = lazy_face(globals(), search=(".model", ".findings", ".marks"))
