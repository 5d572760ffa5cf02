"""sourced-nlp: check an LLM answer against its sources, claim by claim."""
from . import extensions  # noqa: F401  (registers Doc/Span extensions)

__version__ = "0.1.0"
