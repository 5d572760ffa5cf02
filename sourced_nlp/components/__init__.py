"""The spaCy components, one module each, registered as factories (``sourced_claims``,
``sourced_quantities``, ``sourced_entities``, ``sourced_negation``, ``sourced_passages``,
``sourced_verify``), with what they share: every ``Doc._``/``Span._`` extension
(:mod:`.extensions`), a large source read in blocks (:mod:`.blocks`) and in parts
(:mod:`.parts`), and the registered pluggable parts of ``sourced_verify`` (:mod:`.pluggable`).

The only part of the package that imports spaCy at module level. May import :mod:`~sourced_nlp.text`,
:mod:`~sourced_nlp.verdict`, :mod:`~sourced_nlp.report`, :mod:`~sourced_nlp.citing`,
:mod:`~sourced_nlp.judges` and :mod:`~sourced_nlp.errors`; never the API, batch or the command line.
"""
