"""The shapes in which retrieval libraries hand back their documents, built with the real
packages (``langchain-core``, ``llama-index-core``: the ``dev`` extra): each is read as its
document, keeping its id and text and leaving metadata and scores out, or refused with one line
naming the shape (issue 30: N3-58, N3-59, N3-60). A row skips, with the reason, where its package
is not installed.

One table, one row per shape: ``(kind, build(), expected id, expected text)``, checked through
:func:`normalize_sources` (no model); then each case as the user ran it, through ``check`` and
``cite`` with the real pipeline.
"""

from __future__ import annotations

import json

import pytest

import sourced_nlp
from sourced_nlp.text.sources import normalize_sources

TEXT = "Contoso revenue rose 8% to $2.4 billion in 2023."
META = {"source": "warranty-2019.pdf", "years_covered": 5, "region": "Canada"}


def _lc():
    return pytest.importorskip("langchain_core.documents", reason="langchain-core is not installed (the dev extra)")


def _dumpd(value):
    load = pytest.importorskip("langchain_core.load", reason="langchain-core is not installed (the dev extra)")
    return json.loads(json.dumps(load.dumpd(value)))  # as it is stored: plain JSON


def _li():
    return pytest.importorskip("llama_index.core.schema", reason="llama-index-core is not installed (the dev extra)")


def _lc_doc(**kw):
    return _lc().Document(page_content=TEXT, metadata=META, **kw)


def _li_node():
    return _li().TextNode(id_="n1", text=TEXT, metadata=META)


def _li_doc():
    return _li().Document(id_="d1", text=TEXT, metadata=META)


def _with_score(node):
    return _li().NodeWithScore(node=node, score=0.87)


class Haystackish:
    """The attributes of ``haystack.Document`` (``content``, ``id``, ``meta``, ``score``)."""

    def __init__(self, content, id):
        self.content, self.id, self.meta, self.score = content, id, META, 0.4


SHAPES = [
    # kind, build(), id, text
    ("langchain Document", lambda: _lc_doc(id="lc1"), "lc1", TEXT),
    ("langchain Document without id", lambda: _lc_doc(), "0", TEXT),
    ("langchain (Document, score) pair [N3-58]", lambda: (_lc_doc(id="lc1"), 0.31), "lc1", TEXT),
    ("langchain (Document, score) pair without id [N3-58]", lambda: (_lc_doc(), 0.31), "0", TEXT),
    ("langchain model_dump", lambda: _lc_doc(id="lc1").model_dump(), "lc1", TEXT),
    ("langchain (model_dump, score) as JSON [N3-58]", lambda: [_lc_doc(id="lc1").model_dump(), 0.31], "lc1", TEXT),
    ("langchain dumpd [N3-60]", lambda: _dumpd(_lc_doc(id="lc1")), "lc1", TEXT),
    ("langchain dumpd without id [N3-60]", lambda: _dumpd(_lc_doc()), "0", TEXT),
    ("llamaindex TextNode", _li_node, "n1", TEXT),
    ("llamaindex TextNode to_dict", lambda: _li_node().to_dict(), "n1", TEXT),
    ("llamaindex Document", _li_doc, "d1", TEXT),
    ("llamaindex Document to_dict", lambda: _li_doc().to_dict(), "d1", TEXT),
    ("llamaindex Document model_dump", lambda: _li_doc().model_dump(), "d1", TEXT),
    (
        "llamaindex Document dict, text under text_resource only",
        lambda: {k: v for k, v in _li_doc().to_dict().items() if k != "text"},
        "d1",
        TEXT,
    ),
    ("llamaindex NodeWithScore(TextNode) [N3-59]", lambda: _with_score(_li_node()), "n1", TEXT),
    ("llamaindex NodeWithScore(Document) [N3-59]", lambda: _with_score(_li_doc()), "d1", TEXT),
    ("llamaindex NodeWithScore(TextNode) to_dict [N3-59]", lambda: _with_score(_li_node()).to_dict(), "n1", TEXT),
    ("llamaindex NodeWithScore(Document) to_dict [N3-59]", lambda: _with_score(_li_doc()).to_dict(), "d1", TEXT),
    (
        "llamaindex NodeWithScore dict as the case gave it [N3-59]",
        lambda: {
            "node": {"id_": "lc1", "text": TEXT, "class_name": "TextNode"},
            "score": 0.87,
            "class_name": "NodeWithScore",
        },
        "lc1",
        TEXT,
    ),
    ("haystack Document (duck typed)", lambda: Haystackish(TEXT, "h1"), "h1", TEXT),
    ("haystack (Document, score) pair", lambda: (Haystackish(TEXT, "h1"), 0.4), "h1", TEXT),
]


@pytest.mark.parametrize("kind,build,sid,text", SHAPES, ids=[row[0] for row in SHAPES])
def test_shape_is_read_as_its_document(kind, build, sid, text):
    [src] = normalize_sources([build()])
    assert (src["id"], src["text"], src["structured"]) == (sid, text, False)


class Thing:
    """An object that is no document."""


REFUSED = [
    # kind, build(), message fragment
    (
        "(object, score) pair [N3-58]",
        lambda: (Thing(), 0.3),
        "source 0 is a (Thing, score) pair, and a Thing object is no document",
    ),
    (
        "langchain dumpd of no document [N3-60]",
        lambda: _dumpd(pytest.importorskip("langchain_core.messages").HumanMessage(content="x is 5.")),
        "source 0 is a LangChain serialised langchain.schema.messages.HumanMessage (constructor), not a Document",
    ),
    (
        "langchain dumpd of a Document without page_content [N3-60]",
        lambda: {
            "lc": 1,
            "type": "constructor",
            "id": ["langchain", "schema", "document", "Document"],
            "kwargs": {"id": "a"},
        },
        "source 0 is a LangChain serialised langchain.schema.document.Document (constructor), not a Document with a 'page_content'",
    ),
    (
        "langchain not_implemented [N3-60]",
        lambda: {"lc": 1, "type": "not_implemented", "id": ["mylib", "Retriever"], "repr": "Retriever()"},
        "source 0 is a LangChain serialised mylib.Retriever (not_implemented)",
    ),
]


@pytest.mark.parametrize("kind,build,message", REFUSED, ids=[row[0] for row in REFUSED])
def test_shape_that_is_no_document_is_refused_in_one_line(kind, build, message):
    with pytest.raises(sourced_nlp.InputError) as err:
        normalize_sources([build()])
    assert message in str(err.value) and "\n" not in str(err.value)


def test_n3_58_pair_checks_the_document_text_not_its_metadata(nlp):
    answer = "The warranty covers parts for 5 years in Canada."
    doc = _lc().Document(page_content="The warranty covers parts for one year.", metadata=META)
    report = sourced_nlp.check(answer, [(doc, 0.31)], nlp=nlp)
    assert report.sources[0] == {"id": "0", "chars": len("The warranty covers parts for one year.")}
    assert all("Canada" not in e.text and "0.31" not in e.text for e in report.claims[0].evidence)


def test_n3_59_node_with_score_dict_keeps_its_id_for_cite(nlp):
    node = {
        "node": {"id_": "lc1", "text": "Contoso revenue rose 8% to $2.4 billion.", "class_name": "TextNode"},
        "score": 0.87,
        "class_name": "NodeWithScore",
    }
    report = sourced_nlp.cite("Contoso revenue rose 8% to $2.4 billion [lc1].", [node], nlp=nlp)
    assert not [f for f in report.findings if f["kind"] == "broken-citation"], report.findings
    assert report.claims[0].verdict == "grounded"


def test_n3_60_dumpd_document_is_checked(nlp):
    report = sourced_nlp.check("x is 5.", [_dumpd(_lc().Document(page_content="x is 5.", id="lc1"))], nlp=nlp)
    assert report.sources[0]["id"] == "lc1"
    assert report.claims[0].verdict == "grounded"


def test_dumpd_document_in_a_source_file(tmp_path, run_cli):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(_dumpd(_lc().Document(page_content=TEXT, id="lc1"))), encoding="utf8")
    answer = tmp_path / "answer.txt"
    answer.write_text("Contoso revenue rose 8% in 2023.", encoding="utf8")
    code, out, err = run_cli("check", str(answer), str(path), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["sources"][0]["id"] == "lc1"
