"""The verdict of a claim against its sources, as pure Python over plain feature records.

No spaCy in here: claims and source passages arrive as the feature records built by
``sourced_passages`` (:mod:`sourced_nlp.components.passages`, typed in :mod:`.types`), so the
rules can be read and tested on their own. For each claim:

1. **Candidates.** :class:`~.index.PassageIndex` finds the passages that share a content
   lemma, an entity key or a quantity kind with the claim — never a scan of every passage.
2. **Alignment.** Each candidate is compared with the claim (:mod:`.alignment`, with
   :mod:`.words`, :mod:`.values`, :mod:`.polarity`), once per claim, in a shared
   :class:`~.context.ClaimContext`.
3. **Verdict.** The rules of :data:`~.rules.DEFAULT_RULES` are tried in order, one module
   each (:mod:`.rules`, the business-record rules in :mod:`.records`); the first that decides
   gives the result and names itself in its ``rule`` key. ``support`` orders claims
   (:mod:`.support`).
4. **Guard.** A ``grounded`` result is aligned with its evidence word by word
   (:mod:`.guard`) and taken back when a word that carries the claim's meaning is not
   accounted for; when it is, the ``contradicted`` rule may then decide. Its finders are one
   a module in :mod:`.guard`, asked in the order of :data:`~.guard.DEFAULT_FINDERS`; its word
   alignment and lexicon are in :mod:`.wordalign`, its token records and walks of the parse in
   :mod:`.tree`.

May import only :mod:`sourced_nlp.text` (and its own :mod:`.meaning`, the learned tier).
"""

from __future__ import annotations

from .alignment import Aligner, Alignment
from .context import CitedSources, ClaimContext, Rule
from .guard import Guard, GuardLexicon
from .index import PassageIndex
from .lexicon import VerdictLexicon, default_lexicon
from .passage import Passage
from .rules import DEFAULT_RULES
from .thresholds import Thresholds, validate_thresholds
from .types import ClaimRecord, FeatureRecord, PassageRecord, Result
from .verifier import Verifier
from .words import WordMatcher, word_in

__all__ = [
    "Aligner",
    "Alignment",
    "CitedSources",
    "ClaimContext",
    "ClaimRecord",
    "DEFAULT_RULES",
    "FeatureRecord",
    "Guard",
    "GuardLexicon",
    "Passage",
    "PassageIndex",
    "PassageRecord",
    "Result",
    "Rule",
    "Thresholds",
    "VerdictLexicon",
    "Verifier",
    "WordMatcher",
    "default_lexicon",
    "validate_thresholds",
    "word_in",
]
