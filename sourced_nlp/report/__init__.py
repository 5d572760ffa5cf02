"""The report of a check and its views: the model (:mod:`.model`, its gates in :mod:`.gates`), its
JSON shape check (:mod:`.schema`), findings and gates (:mod:`.findings`), the marks every view
shares (:mod:`.marks`), the least-trusted-first order of the claims (:mod:`.card_order`), and one
module per view: :mod:`.text` (the terminal, rich), :mod:`.markdown`,
:mod:`.html` (an answer written in Markdown rendered by :mod:`.answer_md`) and :mod:`.frame`
(pandas).

Pure Python, no spaCy. May import only :mod:`sourced_nlp.text` besides the standard library
and the views' own libraries (rich, pandas, markdown-it, each imported by the view that needs
them).

``from sourced_nlp.report import Report`` keeps working: every name of :mod:`.model` is read
from it on first use (PEP 562), so that importing one view does not import the others.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import SCHEMA, ClaimResult, Evidence, Report, Skipped, to_frame

__all__ = ["SCHEMA", "VERDICTS", "FAIL_ON", "SEVERITIES", "Evidence", "ClaimResult", "Skipped", "Report", "to_frame",
           "check_fail_on", "check_thresholds"]


def __getattr__(name: str) -> Any:
    """A submodule (``sourced_nlp.report.html``), or a name of :mod:`.model` (or of
    :mod:`.findings` and :mod:`.marks`, which it once held), on first use.

    Raises:
        AttributeError: neither.
    """
    if not name.startswith("__") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f".{name}", __name__)
    for module in (".model", ".findings", ".marks"):  # the names the single report module had
        value = getattr(importlib.import_module(module, __name__), name, None)
        if value is not None:
            globals()[name] = value
            return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
