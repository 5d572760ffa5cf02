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

from typing import TYPE_CHECKING

from . import _compat
from ._lazy import lazy_face

# The names marked F401 are public by name (``sourced_nlp.InputError``) but left out of __all__.
from .errors import InputError, ModelNotFoundError, NotGroundedError, RecordError, SourceError, TextTooLongError  # noqa: F401

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
__all__ = [
    "check",
    "check_many",
    "RecordError",
    "assert_grounded",
    "load_pipeline",
    "Report",
    "SourceError",
    "TextTooLongError",
    "NotGroundedError",
    "to_frame",
    "displacy_options",
]
__all__ += [
    "cite",
    "locate",
    "Match",
    "find_citations",
    "check_fields",
    "FieldsReport",
    "citation_instructions",
    "parse_claims",
    "to_footnotes",
]

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
#: A public name of :data:`_WHERE`, imported from its module on first use; or a submodule
#: (``sourced_nlp.api``), imported, as when this package imported it itself.
__getattr__, __dir__ = lazy_face(globals(), _WHERE)
