"""``verdict/rules/meaning.py``: the meaning tier decides only what the rules leave unverified
with every name and value of the claim in its best passage.

The rows run the default rules with the tier before the last rule, over a stub model of a
fixed score (``score``; ``contra``: its contradicted threshold), so what is tested is the gate:
a stub that would ground everything grounds only the claims the gate lets through.
"""

from dataclasses import dataclass

import pytest
from tables import ACME, CLAIM, PASSAGE, WITH_BERLIN, _index, rec, value, verifier

from sourced_nlp.verdict import CitedSources, Verifier
from sourced_nlp.verdict.meaning.features import FEATURES, features
from sourced_nlp.verdict.meaning.model import MeaningModel
from sourced_nlp.verdict.rules.meaning import MeaningRule, eligible


@dataclass
class Stub:
    """A model of one fixed score."""

    fixed: float
    contradicted_threshold: float | None = None
    name: str = "stub"
    version: str = "0"
    grounded_threshold: float = 0.8

    def score(self, x: list[float]) -> float:
        assert len(x) == len(FEATURES)
        return self.fixed


WITH_VALUE = rec(
    "Acme expanded its workforce by 40%.",
    ["expand", "workforce"],
    entities=[ACME],
    quantities=[value("40%", "percent", 40, unit="percent")],
    predicates=["expand"],
)
PASSAGE_8 = rec(
    "Acme hired 8% more staff.",
    ["hire", "more", "staff"],
    entities=[ACME],
    quantities=[value("8%", "percent", 8, unit="percent")],
    predicates=["hire"],
)
SAME_8 = rec(
    "Acme expanded its workforce by 8%.",
    ["expand", "workforce"],
    entities=[ACME],
    quantities=[value("8%", "percent", 8, unit="percent")],
    predicates=["expand"],
)
DENIED = rec(
    "Acme did not hire many new staff members fast.",
    ["hire", "many", "new", "staff", "member", "fast"],
    entities=[ACME],
    predicates=["hire"],
    negated=True,
    cue="not",
    negated_predicate="hire",
)
QUOTED = rec('Acme said "we grow fast".', ["say", "grow", "fast"], entities=[ACME], quotes=["we grow fast"])
RECORD = {
    "r1": (
        True,
        [
            rec("name: Acme.", ["name"], entities=[ACME]),
            rec("categories: staffing, hiring.", ["category", "staffing", "hiring"]),
        ],
    )
}

ROWS = [
    ("a paraphrase, every name there", CLAIM, [PASSAGE], "grounded.meaning", "grounded", {"score": 0.99}),
    ("below the grounded threshold", CLAIM, [PASSAGE], "unverified.too_little", "unverified", {"score": 0.5}),
    (
        "at or below the contradicted threshold",
        CLAIM,
        [PASSAGE],
        "contradicted.meaning",
        "contradicted",
        {"score": 0.05, "contra": 0.1},
    ),
    ("no contradicted threshold: unverified", CLAIM, [PASSAGE], "unverified.too_little", "unverified", {"score": 0.05}),
    ("a name the passage lacks", WITH_BERLIN, [PASSAGE], "unverified.missing", "unverified", {"score": 0.99}),
    ("a value no passage holds", WITH_VALUE, [PASSAGE], "unverified.missing", "unverified", {"score": 0.99}),
    ("a value that differs", WITH_VALUE, [SAME_8], "contradicted.value", "contradicted", {"score": 0.99}),
    (
        "a value that differs, too little shared to contradict",
        WITH_VALUE,
        [PASSAGE_8],
        "unverified.too_little",
        "unverified",
        {"score": 0.99},
    ),
    ("the passage denies another predicate", CLAIM, [DENIED], "unverified.too_little", "unverified", {"score": 0.99}),
    ("a quote", QUOTED, [PASSAGE], "unverified.quote", "unverified", {"score": 0.99}),
    ("a record, not prose", CLAIM, RECORD, "unverified.too_little", "unverified", {"score": 0.99}),
    (
        "what a rule grounds stays the rule's",
        PASSAGE,
        [PASSAGE],
        "grounded.passage",
        "grounded",
        {"score": 0.0, "contra": 0.5},
    ),
]


def tier_verifier(model) -> Verifier:
    """The table verifier with the tier just before the last rule (as ``sourced_verify`` does)."""
    v = verifier()
    rules = v.rules
    v.rules = (*rules[:-1], MeaningRule(model), rules[-1])
    return v


def check_with(claim: dict, sources, model) -> dict:
    if isinstance(sources, list):
        sources = {"s1": (False, sources)}
    index, texts = _index(sources)
    return tier_verifier(model).verify(claim, index, texts)


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_rows(row):
    _, claim, sources, rule, verdict, kw = row
    got = check_with(claim, sources, Stub(kw["score"], kw.get("contra")))
    assert (got["rule"], got["verdict"]) == (rule, verdict), got


def test_a_tier_verdict_carries_the_model_score_and_evidence():
    got = check_with(CLAIM, [PASSAGE], Stub(0.99))
    assert got["meaning"] == {"model": "stub", "version": "0", "score": 0.99}
    assert got["evidence"] == [{"source": "s1", "start": 0, "end": len(PASSAGE["text"]), "text": PASSAGE["text"]}]
    assert 0.7 <= got["support"] <= 0.8


def test_without_the_tier_the_rules_decide_alone():
    index, texts = _index({"s1": (False, [PASSAGE])})
    assert verifier().verify(CLAIM, index, texts)["rule"] == "unverified.too_little"


def test_never_grounds_a_claim_with_a_missing_name_or_number():
    """Whatever the model says, a claim with a name or a value its passages lack is not the tier's."""
    for claim in (WITH_BERLIN, WITH_VALUE):
        for passages in ([PASSAGE], [PASSAGE, PASSAGE_8]):
            index, texts = _index({"s1": (False, passages)})
            ctx = verifier().context(claim, index, texts)
            assert not eligible(ctx)
            assert check_with(claim, passages, Stub(1.0))["verdict"] != "grounded"


def test_the_shipped_model_loads_and_scores_a_vector():
    model = MeaningModel.load()
    assert model.features == FEATURES and model.name and model.version
    index, texts = _index({"s1": (False, [PASSAGE])})
    x = features(verifier().context(CLAIM, index, texts))
    assert len(x) == len(FEATURES) and all(isinstance(v, float) for v in x)
    s = model.score(x)
    assert 0.0 <= s <= 1.0 and s == model.score(list(x))


def test_cited_sources_get_the_tier_too():
    index, texts = _index({"s1": (False, [PASSAGE])})
    v = tier_verifier(Stub(0.99))
    got = v.verify(CLAIM, index, texts, CitedSources(["s1"], lambda ids: v.verify(CLAIM, index, texts)))
    assert got["verdict"] == "grounded" and got["rule"] == "grounded.cited" and got["meaning"]["model"] == "stub"
