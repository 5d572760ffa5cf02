"""Score a whole RAG system: run it over a cases file, re-score the captured run offline, gate
a pull request on the scorecard, list the cases whose verdicts changed.

- :mod:`.cases`: the cases file (JSONL, one ``{"id", "question", "sources", "expect"}`` a line).
- :mod:`.adapter`: what a target returned, normalised into one :class:`~.adapter.Output`.
- :mod:`.run`: ``sourced eval run``, one call of the target per case, captured as JSONL.
- :mod:`.score`: ``sourced eval score``, the scorecard of a captured run (``sourced.scorecard/1``).
- :mod:`.gate`: ``sourced eval gate``, the metrics that fell against a baseline scorecard.
- :mod:`.diff`: ``sourced eval diff``, the cases whose verdicts changed between two scorecards.
- :mod:`.audit`: the hash-chained audit log (``--audit FILE``, ``sourced audit verify``).

May import the API, :mod:`~sourced_nlp.files`, :mod:`~sourced_nlp.text`,
:mod:`~sourced_nlp.report` and :mod:`~sourced_nlp.judges`; never the command line.
:mod:`.calibrate` measures a judge's agreement with human labels (``sourced calibrate``).
"""
