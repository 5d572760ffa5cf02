"""The meaning tier in the real pipeline: its config key, the shipped model, what it may change,
``--meaning/--no-meaning`` on the command line, and ``n_process`` 1 against 2.

Records: RAGTruth train responses (``../shared/data``; skipped where it is absent), whose
claims the rules leave unverified in all the shortfalls the tier reads.
"""

from __future__ import annotations

import json
import sys

import pytest

import sourced_nlp
from conftest import ROOT, SHARED
from sourced_nlp.verdict.guard import DECIDES as GUARD_DECIDES
from sourced_nlp.verdict.meaning.features import FEATURES
from sourced_nlp.verdict.meaning.model import MeaningModel

DATA = SHARED / "data" / "ragtruth"
N_RECORDS = 24


@pytest.fixture(scope="module")
def records() -> list[tuple[str, list]]:
    """The first RAGTruth train responses with their sources, as ``bench/ragtruth.py`` gives them."""
    if not (DATA / "response.jsonl").is_file():
        pytest.skip(f"the shared data is not at {DATA}")
    sys.path.insert(0, str(ROOT / "bench"))
    from benchlib import load_ragtruth, sources_for

    responses, sources = load_ragtruth(DATA, "train")
    return [(r["response"], sources_for(sources[r["source_id"]])[0]) for r in responses[:N_RECORDS]]


def _model_file(tmp_path, name: str, **changes) -> str:
    """A copy of the shipped model with ``changes`` (coefficients, thresholds)."""
    d = json.loads(open(MeaningModel.load().path, encoding="utf8").read())
    d.update(changes)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(d), encoding="utf8")
    return str(path)


def _reports(records, config) -> list[dict]:
    nlp = sourced_nlp.load_pipeline(config=config)
    return [r.to_dict() for r in sourced_nlp.check_many(records, nlp=nlp)]


@pytest.fixture(scope="module")
def rules_only(records) -> list[dict]:
    """The rules-only reports of the records (``meaning: null``), computed once for the tests
    that compare with them (none of them changes them)."""
    return _reports(records, {"meaning": None})


def test_the_shipped_model_is_the_default_and_null_turns_it_off():
    model = MeaningModel.load()
    assert model.features == FEATURES and model.name == "meaning-lr"
    on = sourced_nlp.load_pipeline().get_pipe("sourced_verify")
    off = sourced_nlp.load_pipeline(config={"meaning": None}).get_pipe("sourced_verify")
    assert on.meaning is not None and on.verifier.rules[-2] is on.meaning
    assert off.meaning is None and off.verifier.rules == off.rules


def test_a_model_of_other_features_is_refused(tmp_path):
    path = _model_file(tmp_path, "other", features=[*FEATURES[:-1], "a_feature_of_another_version"])
    with pytest.raises(ValueError, match="its features do not match this version's"):
        MeaningModel.load(path)
    with pytest.raises(FileNotFoundError, match="no file"):
        MeaningModel.load(tmp_path / "missing.json")


def test_a_tier_that_never_decides_gives_the_rules_verdicts(records, rules_only, tmp_path):
    """``meaning: null`` is the rules only: the same reports as a tier whose model never decides."""
    never = _model_file(
        tmp_path,
        "never",
        coef=[0.0] * len(FEATURES),
        intercept=0.0,
        grounded_threshold=0.9,
        contradicted_threshold=None,
    )
    assert rules_only == _reports(records, {"meaning": {"@misc": "sourced.meaning.v1", "path": never}})


def test_the_tier_changes_only_claims_the_rules_leave_unverified_with_every_anchor(records, rules_only, tmp_path):
    """A model that grounds everything it is shown grounds only the gate's claims: unverified
    ``too_little`` / ``subject`` by the rules, no figure the sources lack, its passage as evidence."""
    always = _model_file(
        tmp_path,
        "always",
        coef=[0.0] * len(FEATURES),
        intercept=10.0,
        grounded_threshold=0.5,
        contradicted_threshold=None,
    )
    rules = rules_only
    tier = _reports(records, {"meaning": {"@misc": "sourced.meaning.v1", "path": always}})
    changed = 0
    for (_answer, sources), a, b in zip(records, rules, tier):
        for ca, cb in zip(a["claims"], b["claims"]):
            if ca == cb:
                continue
            changed += 1
            assert ca["rule"] in ("unverified.too_little", "unverified.subject"), ca
            if cb["verdict"] != "grounded":
                # the tier grounded it and the guard of grounded took it back (verdict/guard.py)
                assert cb["rule"] in GUARD_DECIDES, cb
                continue
            # against the sources it cites, the tier's grounding is the cited rule's (its score rides along)
            assert cb["rule"] in ("grounded.meaning", "grounded.cited") and cb["meaning"]["model"] == "meaning-lr", cb
            assert not any(
                f["kind"] == "fabricated-number" and f.get("claim") == a["claims"].index(ca)
                for f in b.get("findings", [])
            )
            ev = cb["evidence"][0]  # the passage, by its offsets in its source
            source = sources[[s["id"] for s in b["sources"]].index(ev["source"])]
            text = source["text"] if isinstance(source, dict) else source
            assert text[ev["start"] : ev["end"]] == ev["text"]
    assert changed > 0, "no claim of the records reached the tier"


def test_n_process_one_and_two_give_the_same_reports(records):
    nlp = sourced_nlp.load_pipeline()
    one = [r.to_dict() for r in sourced_nlp.check_many(records[:12], nlp=nlp, n_process=1)]
    two = [r.to_dict() for r in sourced_nlp.check_many(records[:12], nlp=nlp, n_process=2)]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_cli_meaning_and_no_meaning(records, rules_only, tmp_path, run_cli):
    """``--no-meaning`` gives the rules-only report, ``--meaning`` (the default) the tier's."""
    tier = _reports(records, {})
    rules = rules_only
    k = next((k for k, rep in enumerate(tier) if any(c["rule"].endswith(".meaning") for c in rep["claims"])), None)
    assert k is not None, "the shipped model decides no claim of the records"
    answer, sources = records[k]
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"answer": answer, "sources": sources}), encoding="utf8")
    got = {}
    for flag in ("--meaning", "--no-meaning"):
        code, out, err = run_cli("check", "--json-input", path, "--format", "json", flag)
        assert code in (0, 1), err
        got[flag] = [(c["verdict"], c["rule"]) for c in json.loads(out)["claims"]]
    assert got["--no-meaning"] == [(c["verdict"], c["rule"]) for c in rules[k]["claims"]]
    assert got["--meaning"] == [(c["verdict"], c["rule"]) for c in tier[k]["claims"]] != got["--no-meaning"]


def test_setting_the_tier_on_a_component_takes_effect():
    import spacy

    from sourced_nlp import MODEL_NAMES
    from sourced_nlp.verdict.rules.meaning import MeaningRule

    for model_name in MODEL_NAMES:  # a pipeline of its own: load_pipeline's are shared
        try:
            nlp = spacy.load(model_name)
            break
        except OSError:
            continue
    v = nlp.add_pipe("sourced_verify")
    assert v.verifier.rules[-2] is v.meaning
    v.meaning = None
    assert v.verifier.rules == v.rules
    rule = MeaningRule(MeaningModel.load())
    v.meaning = rule
    assert v.verifier.rules == (*v.rules[:-1], rule, v.rules[-1])
