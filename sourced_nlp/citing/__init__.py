"""Citations: a claim's citations checked against the sources they name and its citation
status (:mod:`.provenance`), one citation resolved and its quote located
(:mod:`.citation_check`), structured fields checked in their cited passages (:mod:`.fields`),
and the prompting helpers that ask a model to cite and read its reply back (:mod:`.prompts`).

Pure Python, no spaCy. May import :mod:`sourced_nlp.text`, :mod:`sourced_nlp.report` and the
verdict's citation rule (:mod:`sourced_nlp.verdict.rules.cited`).
"""
