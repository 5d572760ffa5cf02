"""sourced-nlp: check an LLM answer against its sources, claim by claim.

Every claim is ``grounded`` (a source passage states it, shown with offsets),
``contradicted`` (a passage about the same thing states something incompatible) or
``unverified`` (neither can be shown; the reason says why).

    >>> import sourced_nlp
    >>> report = sourced_nlp.check("Revenue grew 9% in 2023.", ["Revenue grew 8% in 2023."])
    >>> report.counts["contradicted"]
    1
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from . import _compat
# The names marked F401 are public by name (``sourced_nlp.InputError``) but left out of __all__.
from .errors import (InputError, ModelNotFoundError, NotGroundedError, RecordError, SourceError,  # noqa: F401
                     TextTooLongError)

if TYPE_CHECKING:
    from .api import MODEL_NAMES, assert_grounded, check, check_many, cite, load_pipeline  # noqa: F401
    from .citing.citation_check import json_citation  # noqa: F401
    from .citing.fields import FieldsReport, check_fields
    from .citing.prompts import citation_instructions, json_reply, parse_claims, to_footnotes  # noqa: F401
    from .components.extensions import CLAIMS_KEY  # noqa: F401
    from .report.findings import NO_CLAIM_REASON  # noqa: F401
    from .report.html import displacy_options
    from .report.model import Report, to_frame
    from .text.citations import Match, find_citations, locate
    from .text.markup import reading_text  # noqa: F401

__version__ = "0.1.0"
__all__ = ["check", "check_many", "RecordError", "assert_grounded", "load_pipeline", "Report", "SourceError", "TextTooLongError",
           "NotGroundedError", "to_frame", "displacy_options"]
__all__ += ["cite", "locate", "Match", "find_citations", "check_fields", "FieldsReport", "citation_instructions",
            "parse_claims", "to_footnotes"]

_compat.install()

#: Where the names this package exports live. They are imported on first use (PEP 562), so
#: that ``import sourced_nlp`` (and ``sourced --help``, ``--version`` and every usage error)
#: pays neither for spaCy, rapidfuzz, pint and numpy (srsly), nor for modules it does not use.
_WHERE = {
    "api": ("MODEL_NAMES", "assert_grounded", "check", "check_many", "cite", "load_pipeline"),
    "citing.citation_check": ("json_citation",),
    "citing.fields": ("FieldsReport", "check_fields"),
    "citing.prompts": ("citation_instructions", "json_reply", "parse_claims", "to_footnotes"),
    "components.extensions": ("CLAIMS_KEY",),
    "report.findings": ("NO_CLAIM_REASON",),
    "report.html": ("displacy_options",),
    "report.model": ("Report", "to_frame"),
    "text.citations": ("Match", "find_citations", "locate"),
    "text.markup": ("reading_text",),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}


def __getattr__(name: str) -> Any:
    """A public name of :data:`_WHERE`, imported from its module on first use; or a submodule
    (``sourced_nlp.api``), imported, as when this package imported it itself.

    Raises:
        AttributeError: neither.
    """
    module = _MODULE_OF.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE_OF))
