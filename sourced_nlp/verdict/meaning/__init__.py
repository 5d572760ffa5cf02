"""The meaning tier: a learned score for the claims the rules leave unverified with every anchor
present (:mod:`sourced_nlp.verdict.rules.meaning`), over the features of :mod:`.features`, with
the model of :mod:`.model` (``models/meaning-v1.json``, trained by ``bench/train_meaning.py``).

Pure Python at run time: no dependency beyond the package's own (rapidfuzz).

May import the rest of :mod:`sourced_nlp.verdict` only.
"""


# no imports here: the command line reads ``sourced_nlp.cli.meaning`` at start-up, and the
# features (rapidfuzz, the verdict) load only when a pipeline builds the tier
