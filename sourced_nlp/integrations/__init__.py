"""Checking where users already evaluate RAG: an evaluator of LlamaIndex and a Runnable of
LangChain, one module each.

- :mod:`.llamaindex`: :class:`~.llamaindex.SourcedEvaluator`, a
  ``llama_index.core.evaluation.BaseEvaluator`` (``pip install 'sourced-nlp[llamaindex]'``).
- :mod:`.langchain`: :class:`~.langchain.SourcedCheck`, a LangChain ``Runnable`` that takes
  ``{"answer", "documents"}`` and returns the report, or raises when the gate fails
  (``pip install 'sourced-nlp[langchain]'``).
- :mod:`._shared`: what both share: the pipeline loaded once, on first use; one check at a
  time; the gate; the feedback lines.

Importing this package imports neither library: each module imports its own when it is
imported, and says which extra to install when it is missing. May import the public API
(:mod:`sourced_nlp.api`, imported when first used), :mod:`~sourced_nlp.report`,
:mod:`~sourced_nlp.text` and :mod:`~sourced_nlp.errors`; nothing imports this package.
"""
