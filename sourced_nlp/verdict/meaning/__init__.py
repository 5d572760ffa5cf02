"""The meaning tier: a learned score for the claims the rules leave unverified with every anchor
present (:mod:`sourced_nlp.verdict.rules.meaning`), over the features of :mod:`.features`, with
the model of :mod:`.model` (``models/meaning-v1.json``, trained by ``bench/train_meaning.py``).

Route 1 is pure Python at run time: no dependency beyond the package's own (rapidfuzz). Route 2,
the entailment cross-encoder of :mod:`.entailment` (``models/entailment/``, rule
:mod:`sourced_nlp.verdict.rules.entailment`), runs on onnxruntime and tokenizers (the
``meaning`` extra), imported only when it is loaded.

May import the rest of :mod:`sourced_nlp.verdict` only.
"""


# no imports here: the command line reads ``sourced_nlp.cli.meaning`` at start-up, and the
# features (rapidfuzz, the verdict) load only when a pipeline builds the tier
