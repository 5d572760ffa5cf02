"""``sourced.meaning.v2``, the entailment tier of ``sourced_verify``'s ``meaning`` config key
(:mod:`sourced_nlp.verdict.rules.entailment`), registered in spaCy's registry (``@misc``) when
:mod:`.pluggable` is imported.

Opt-in: the default ``meaning`` stays ``sourced.meaning.v1`` (route 1, pure Python) while the
model is still in training (see ``models/entailment/model-card.md``); the thresholds below were
chosen on RAGTruth train. Asking for v2 without its runtime
(onnxruntime, tokenizers: the ``meaning`` extra) fails when the pipeline is built, with an
:class:`ImportError` naming the extra; it never falls back silently.
"""

from __future__ import annotations

from spacy.util import registry

#: a grounded claim whose evidence the model reads as not entailing it with 1 - p_entailed at or
#: above this is unverified. Chosen on the RAGTruth train split with bench/entailment_frontier.py:
#: the highest veto at which train false-grounded falls to 1.0% (from 1.6%; clean-grounded
#: coverage 49.9% -> 35.4%); bench/RESULTS.md has the frontier and the dev sets
VETO_THRESHOLD = 0.8
#: an eligible unverified claim whose best passage the model reads as entailing it with
#: p_entailed at or above this is grounded: on train the lowest value of the frontier (0.7) adds
#: coverage (+0.6 points) and no false grounding; on the dev sets no grounding it adds is wrong
#: more often than the rules' own
PARAPHRASE_THRESHOLD = 0.7


@registry.misc("sourced.meaning.v2")
def make_entailment(
    path: str | None = None, veto_threshold: float = VETO_THRESHOLD, paraphrase_threshold: float = PARAPHRASE_THRESHOLD
):
    """The entailment tier over a model directory (the shipped ``models/entailment/`` when
    ``path`` is None); ``sourced_verify`` puts it where route 1 goes, just before the last rule,
    and its verifier asks its veto about every grounded result. A threshold above 1 turns that
    job off (1.01).

    Raises:
        ImportError: onnxruntime or tokenizers is not installed: ``pip install "sourced-nlp[meaning]"``.
        FileNotFoundError: a directory without ``model.onnx``, ``tokenizer.json`` or ``model-card.json``.
        ValueError: a threshold outside [0, 1.01].
    """
    from ..verdict.meaning.entailment import EntailmentModel
    from ..verdict.rules.entailment import EntailmentRule, validate_thresholds

    validate_thresholds(veto_threshold, paraphrase_threshold)  # a bad config fails before the model loads
    return EntailmentRule(
        _shared(EntailmentModel, path), veto_threshold=veto_threshold, paraphrase_threshold=paraphrase_threshold
    )


_LOADED: dict[str, object] = {}


def _shared(model_cls, path: str | None):
    """One loaded model per directory in a process (pipelines built from one config share its
    session and cache)."""
    from ..verdict.meaning.entailment import default_dir

    key = str(default_dir() if path is None else path)
    if key not in _LOADED:
        _LOADED[key] = model_cls.load(key)
    return _LOADED[key]
