"""``verdict/rules/entailment.py`` and ``verdict/meaning/entailment.py``: the entailment tier
(``sourced.meaning.v2``).

The rows run the default rules with the tier where ``sourced_verify`` puts it, over a stub
scorer of fixed probabilities, so what is tested is each job's gate: the paraphrase route grounds
only an eligible claim at or above its threshold, the veto takes back only a grounded result at
or beyond its own. The shipped model is then tested for what must hold of any checkpoint: it
loads, caches, returns pairs in input order, reads an identical pair as more entailed than its
negation, and gives the same reports for ``n_process`` 1 and 2.
"""

from __future__ import annotations

import builtins
import json
from dataclasses import dataclass, field

import pytest
from tables import ACME, CLAIM, PASSAGE, WITH_BERLIN, _index, rec, verifier

from sourced_nlp.verdict import Verifier
from sourced_nlp.verdict.rules.entailment import EntailmentRule, premise


@dataclass
class Stub:
    """A scorer of fixed probabilities ``(p_entailed, p_contradicted, p_neutral)``; ``pairs``: what it was asked."""

    fixed: tuple[float, float, float]
    name: str = "stub"
    version: str = "0"
    pairs: list = field(default_factory=list)

    def scores(self, pairs):
        self.pairs.extend(pairs)
        return [self.fixed for _ in pairs]


ENTAILED, NEUTRAL, CONTRADICTED, UNSURE = (0.97, 0.02, 0.01), (0.03, 0.07, 0.9), (0.01, 0.98, 0.01), (0.5, 0.2, 0.3)

RECORD = {
    "r1": (
        True,
        [
            rec("name: Acme.", ["name"], entities=[ACME]),
            rec("categories: staffing, hiring.", ["category", "staffing", "hiring"]),
        ],
    )
}

# (row id, claim, sources, scorer's probabilities, thresholds (veto, paraphrase), expected rule, verdict)
ROWS = [
    (
        "paraphrase: entailed at the threshold grounds",
        CLAIM,
        [PASSAGE],
        ENTAILED,
        (0.9, 0.97),
        "grounded.entailment",
        "grounded",
    ),
    (
        "paraphrase: below the threshold stays unverified",
        CLAIM,
        [PASSAGE],
        UNSURE,
        (0.9, 0.95),
        "unverified.too_little",
        "unverified",
    ),
    (
        "paraphrase: the model alone never contradicts",
        CLAIM,
        [PASSAGE],
        CONTRADICTED,
        (0.9, 0.95),
        "unverified.too_little",
        "unverified",
    ),
    (
        "paraphrase: a name the passage lacks is not eligible",
        WITH_BERLIN,
        [PASSAGE],
        ENTAILED,
        (0.9, 0.5),
        "unverified.missing",
        "unverified",
    ),
    ("paraphrase: a record is not prose", CLAIM, RECORD, ENTAILED, (0.9, 0.5), "unverified.too_little", "unverified"),
    ("paraphrase: off above 1", CLAIM, [PASSAGE], (1.0, 0.0, 0.0), (0.9, 1.01), "unverified.too_little", "unverified"),
    (
        "veto: a grounded claim read as neutral",
        PASSAGE,
        [PASSAGE],
        NEUTRAL,
        (0.9, 0.95),
        "unverified.entailment",
        "unverified",
    ),
    (
        "veto: a grounded claim read as contradicted",
        PASSAGE,
        [PASSAGE],
        CONTRADICTED,
        (0.9, 0.95),
        "unverified.entailment",
        "unverified",
    ),
    (
        "veto: entailed, the rule's verdict stands",
        PASSAGE,
        [PASSAGE],
        ENTAILED,
        (0.9, 0.95),
        "grounded.passage",
        "grounded",
    ),
    (
        "veto: below its threshold, the rule's verdict stands",
        PASSAGE,
        [PASSAGE],
        UNSURE,
        (0.9, 0.95),
        "grounded.passage",
        "grounded",
    ),
    ("veto: off above 1", PASSAGE, [PASSAGE], CONTRADICTED, (1.01, 0.95), "grounded.passage", "grounded"),
    (
        "veto: not of a record's line",
        RECORD["r1"][1][0],
        RECORD,
        CONTRADICTED,
        (0.0, 0.95),
        "grounded.passage",
        "grounded",
    ),
]


def tier_verifier(rule) -> Verifier:
    """The table verifier with the tier just before the last rule (as ``sourced_verify`` does)."""
    v = verifier()
    v.rules = (*v.rules[:-1], rule, v.rules[-1])
    return v


def check_with(claim: dict, sources, scorer, veto: float = 0.9, paraphrase: float = 0.95) -> dict:
    if isinstance(sources, list):
        sources = {"s1": (False, sources)}
    index, texts = _index(sources)
    return tier_verifier(EntailmentRule(scorer, veto_threshold=veto, paraphrase_threshold=paraphrase)).verify(
        claim, index, texts
    )


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_rows(row):
    _, claim, sources, probs, (veto, para), rule, verdict = row
    got = check_with(claim, sources, Stub(probs), veto, para)
    assert (got["rule"], got["verdict"]) == (rule, verdict), got


def test_a_paraphrase_carries_the_score_the_best_passage_and_its_offsets():
    stub = Stub(ENTAILED)
    got = check_with(CLAIM, [rec("Unrelated words here about weather today.", ["weather"]), PASSAGE], stub, 0.9, 0.9)
    assert got["meaning"] == {"model": "stub", "version": "0", "score": 0.97}
    start = len("Unrelated words here about weather today.") + 1
    assert got["evidence"] == [
        {"source": "s1", "start": start, "end": start + len(PASSAGE["text"]), "text": PASSAGE["text"]}
    ]
    assert stub.pairs[0] == (PASSAGE["text"], CLAIM["text"])  # premise: the passage; hypothesis: the claim
    assert 0.7 <= got["support"] <= 0.8


def test_a_veto_keeps_the_evidence_and_shows_the_score():
    got = check_with(PASSAGE, [PASSAGE], Stub(NEUTRAL))
    assert got["meaning"]["score"] == 0.03 and got["evidence"][0]["text"] == PASSAGE["text"]
    assert "grounded.passage" in got["reason"]


def test_a_short_passage_is_read_with_the_one_before():
    index, texts = _index({"s1": (False, [PASSAGE, rec("It grew fast.", ["grow", "fast"])])})
    ctx = verifier().context(CLAIM, index, texts)
    assert premise(ctx, [index.passages[1]]) == f"{PASSAGE['text']} It grew fast."
    assert premise(ctx, [index.passages[0]]) == PASSAGE["text"]


@pytest.mark.parametrize(
    "key,value",
    [
        ("veto_threshold", -0.1),
        ("paraphrase_threshold", 1.5),
        ("veto_threshold", "0.9"),
        ("paraphrase_threshold", True),
    ],
)
def test_a_threshold_out_of_range_is_refused(key, value):
    from sourced_nlp.components.meaning_v2 import make_entailment

    with pytest.raises(ValueError, match=key):
        make_entailment(**{key: value})


def test_without_the_runtime_v2_names_the_extra(monkeypatch, tmp_path):
    real = builtins.__import__

    def no_onnx(name, *args, **kwargs):
        if name == "onnxruntime" or name.startswith("onnxruntime."):
            raise ImportError(f"No module named {name!r}", name=name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_onnx)
    import sourced_nlp

    with pytest.raises(ImportError, match=r'pip install "sourced-nlp\[meaning\]"'):
        sourced_nlp.load_pipeline(config={"meaning": {"@misc": "sourced.meaning.v2", "path": str(tmp_path)}})
    assert sourced_nlp.load_pipeline().get_pipe("sourced_verify").meaning is not None  # the default (v1) needs nothing


# --- the shipped model ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def model():
    pytest.importorskip("onnxruntime")
    from sourced_nlp.verdict.meaning.entailment import EntailmentModel

    return EntailmentModel.load()


SAME = ("The museum was closed for repairs in 1990.", "The museum was closed for repairs in 1990.")
NEGATED = ("The museum was closed for repairs in 1990.", "The museum was not closed for repairs in 1990.")
OTHER = ("The hotel lies near the beach.", "The hotel is close to the beach.")


def test_the_model_reads_an_identical_pair_as_more_entailed_than_its_negation(model):
    same, negated = model.scores([SAME, NEGATED])
    assert all(abs(sum(p) - 1.0) < 1e-4 for p in (same, negated))
    assert same[0] > negated[0] and negated[1] > same[1]
    assert model.name and model.version


def test_scores_are_cached_and_in_input_order(model):
    before = (model.hits, model.misses)
    alone = [model.scores([p])[0] for p in (OTHER, SAME, NEGATED)]
    assert model.scores([OTHER, SAME, NEGATED, OTHER]) == [*alone, alone[0]]
    assert model.hits - before[0] >= 4  # the second call ran nothing


def test_a_batch_returns_input_order(model):
    from sourced_nlp.verdict.meaning.entailment import EntailmentModel

    batched = EntailmentModel.load(batch_size=3)
    got = batched.scores([NEGATED, OTHER, SAME])
    assert [max(range(3), key=p.__getitem__) for p in got] == [
        max(range(3), key=p.__getitem__) for p in model.scores([NEGATED, OTHER, SAME])
    ]


@pytest.fixture(scope="module")
def v2_nlp(model):
    import sourced_nlp

    return sourced_nlp.load_pipeline(
        config={"meaning": {"@misc": "sourced.meaning.v2", "paraphrase_threshold": 0.5, "veto_threshold": 0.95}}
    )


def test_the_config_sets_the_thresholds(v2_nlp):
    tier = v2_nlp.get_pipe("sourced_verify").meaning
    assert (tier.veto_threshold, tier.paraphrase_threshold) == pytest.approx((0.95, 0.5))  # as the config reads floats
    assert v2_nlp.get_pipe("sourced_verify").verifier.rules[-2] is tier


def test_a_paraphrase_the_rules_leave_unverified_is_grounded_by_the_model(v2_nlp):
    import sourced_nlp

    claim, source = OTHER[1], OTHER[0]
    rules = sourced_nlp.check(claim, [source], nlp=sourced_nlp.load_pipeline(config={"meaning": None})).to_dict()
    assert rules["claims"][0]["verdict"] == "unverified"
    got = sourced_nlp.check(claim, [source], nlp=v2_nlp).to_dict()["claims"][0]
    assert (got["rule"], got["verdict"]) == ("grounded.entailment", "grounded"), got
    assert got["meaning"]["score"] >= 0.5
    assert got["evidence"] == [{"source": got["evidence"][0]["source"], "start": 0, "end": len(source), "text": source}]


RECORDS = [
    ("The hotel is close to the beach. It has 40 rooms.", ["The hotel lies near the beach. The hotel has 40 rooms."]),
    ("The museum was closed for repairs in 1990.", ["The museum was shut for repairs in 1990. It reopened in 1992."]),
    ("Acme cut its prices sharply in 2019.", ["In 2019 Acme lowered its prices a lot."]),
]


def test_n_process_one_and_two_give_the_same_reports(v2_nlp):
    import sourced_nlp

    one = [r.to_dict() for r in sourced_nlp.check_many(RECORDS, nlp=v2_nlp, n_process=1)]
    two = [r.to_dict() for r in sourced_nlp.check_many(RECORDS, nlp=v2_nlp, n_process=2)]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert any(c["rule"].endswith(".entailment") for r in one for c in r["claims"])
