"""Input as people write it: hard-wrapped text, Markdown and HTML answers, documents of retrieval
libraries, a byte-order mark, European numbers. Each row: ``(kind, answer, sources, the claims
found with their verdicts)``; the real pipeline checks the answer.
"""

from __future__ import annotations

import pytest

import sourced_nlp

WRAPPED_SOURCE = (
    "Contoso Ltd. reported revenue of $2.4 billion for the third quarter, up 8%\n"
    "from a year earlier. Net income rose to $310 million, compared with $290\n"
    "million in the same period last year. The company employs 1,200 people in\n"
    "Lisbon and Oslo."
)
SOURCE = "Contoso revenue rose 8% to $2.4 billion in 2023. The company has 1,200 employees in Lisbon."

ROWS = [
    (
        "hard-wrapped answer and source",
        "Contoso reported revenue of $2.4\nbillion, up 8% from a year earlier. Net income rose to $310 million,\n"
        "compared with $290 million in the same period last year.",
        [WRAPPED_SOURCE],
        [
            ("Contoso reported revenue of $2.4\nbillion, up 8% from a year earlier.", "grounded"),
            ("Net income rose to $310 million,\ncompared with $290 million in the same period last year.", "grounded"),
        ],
    ),
    (
        "a wrapped fragment is no claim of its own",
        "The company employs 1,200 people in\nLisbon and Oslo.",
        [WRAPPED_SOURCE],
        [("The company employs 1,200 people in\nLisbon and Oslo.", "grounded")],
    ),
    (
        "a wrapped line still shows a wrong figure",
        "Contoso reported revenue of $2.4 billion for the third quarter, up 12%\nfrom a year earlier.",
        [WRAPPED_SOURCE],
        [
            (
                "Contoso reported revenue of $2.4 billion for the third quarter, up 12%\nfrom a year earlier.",
                "contradicted",
            )
        ],
    ),
    (
        "citation marker wrapped onto the next line",
        "Contoso revenue rose 8% to $2.4 billion in 2023 [1,\n2]. It has 1,200 employees in Lisbon (Passage\n1).",
        [SOURCE, "Contoso is based in Lisbon."],
        [
            ("Contoso revenue rose 8% to $2.4 billion in 2023 [1,\n2].", "grounded"),
            ("It has 1,200 employees in Lisbon (Passage\n1).", "grounded"),
        ],
    ),
    (
        "Markdown bold and list",
        "**Key figures**\n- Contoso revenue rose **12%** to $2.4 billion in 2023.\n- The company has 1,200 employees in Lisbon.",
        [SOURCE],
        [
            ("Contoso revenue rose **12%** to $2.4 billion in 2023.", "contradicted"),
            ("The company has 1,200 employees in Lisbon.", "grounded"),
        ],
    ),
    (
        "Markdown table and code block",
        "| Year | Revenue |\n|---|---|\n| 2023 | $2.4 billion |\n\n```python\nrevenue = 2.4e9  # 12% growth\n```\n"
        "Contoso revenue rose 8% in 2023.",
        [SOURCE],
        [("| 2023 | $2.4 billion |", None), ("Contoso revenue rose 8% in 2023.", "grounded")],
    ),
    (
        "HTML answer: a contradiction inside tags",
        "<p>Contoso revenue rose <b>12%</b> to $2.4 billion in 2023.</p><ul><li>The company has "
        "<i>1,200</i> employees in Lisbon.</li></ul>",
        [SOURCE],
        [
            ("Contoso revenue rose <b>12%</b> to $2.4 billion in 2023.", "contradicted"),
            ("The company has <i>1,200</i> employees in Lisbon.", "grounded"),
        ],
    ),
    (
        "European thousands separator",
        "The company has 1.200 employees in Lisbon.",
        [SOURCE],
        [("The company has 1.200 employees in Lisbon.", "grounded")],
    ),
    (
        "a count is not contradicted by an amount",
        "The company has 228,000 employees.",
        ["The company paid $221,000 in fees."],
        [("The company has 228,000 employees.", "unverified")],
    ),
    (
        "byte-order mark at the start",
        "\ufeffContoso revenue rose 8% to $2.4 billion in 2023.",
        ["\ufeff" + SOURCE],
        [("Contoso revenue rose 8% to $2.4 billion in 2023.", "grounded")],
    ),
    # an invisible bidirectional control is read as a space: glued to a value it hid the value;
    # inside a claim, the claim's text keeps it as written
    (
        "a bidirectional control after a wrong figure",
        "Contoso revenue rose 12% to $2.4 billion in 2023.\u202e",
        [SOURCE],
        [("Contoso revenue rose 12% to $2.4 billion in 2023.", "contradicted")],
    ),
    (
        "bidirectional isolates around a figure",
        "Contoso revenue rose \u2066\u20668%\u2069 to $2.4 billion in 2023.",
        [SOURCE],
        [("Contoso revenue rose \u2066\u20668%\u2069 to $2.4 billion in 2023.", "grounded")],
    ),
]


@pytest.mark.parametrize("kind,answer,sources,expected", ROWS, ids=[r[0] for r in ROWS])
def test_written_input(nlp, kind, answer, sources, expected):
    report = sourced_nlp.check(answer, sources, nlp=nlp)
    got = [(c.text, c.verdict) for c in report.claims]
    assert [t for t, _ in got] == [t for t, _ in expected]
    for (_, verdict), (_, want) in zip(got, expected):
        if want is not None:
            assert verdict == want, got
    for c in [*report.claims, *report.skipped]:  # offsets into the answer as given
        assert answer[c.start : c.end] == c.text
    assert report.answer == answer


def test_code_and_table_header_are_skipped(nlp):
    answer = "| Year | Revenue |\n|---|---|\n| 2023 | $2.4 billion |\n```\nx = 12\n```\nContoso rose."
    kinds = {(s.text, s.kind) for s in sourced_nlp.check(answer, [SOURCE], nlp=nlp).skipped}
    assert ("| Year | Revenue |", "table-header") in kinds
    assert ("x = 12", "code") in kinds


def test_bom_evidence_offsets_skip_the_mark(nlp):
    report = sourced_nlp.check("Contoso revenue rose 8% to $2.4 billion in 2023.", ["\ufeff" + SOURCE], nlp=nlp)
    ev = report.claims[0].evidence[0]
    assert (ev.start, ev.text) == (1, "Contoso revenue rose 8% to $2.4 billion in 2023.")


class LangChainDocument:
    """The attributes of ``langchain_core.documents.Document``."""

    def __init__(self, page_content, metadata=None, id=None):
        self.page_content, self.metadata, self.id = page_content, metadata or {}, id


class LlamaIndexNode:
    """The attributes of ``llama_index.core.schema.TextNode``."""

    def __init__(self, text, id_):
        self.text, self.id_, self.metadata = text, id_, {"file_name": "x.txt"}

    def get_content(self):
        return self.text


@pytest.mark.parametrize(
    "source,sid",
    [
        ({"page_content": SOURCE, "metadata": {"source": "q3.pdf"}, "type": "Document"}, "0"),
        ({"page_content": SOURCE, "metadata": {}, "id": "doc-7"}, "doc-7"),
        ({"id": "q3", "content": SOURCE, "meta": {"page": 2}}, "q3"),
        ({"id_": "node-1", "text": SOURCE, "metadata": {}, "class_name": "TextNode"}, "node-1"),
        (LangChainDocument(SOURCE, {"source": "q3.pdf"}, id="lc-1"), "lc-1"),
        (LlamaIndexNode(SOURCE, "li-1"), "li-1"),
    ],
)
def test_retrieval_library_documents(nlp, source, sid):
    report = sourced_nlp.check("Contoso revenue rose 8% to $2.4 billion in 2023.", [source], nlp=nlp)
    assert report.sources[0]["id"] == sid
    claim = report.claims[0]
    assert claim.verdict == "grounded"
    assert claim.evidence[0].text == "Contoso revenue rose 8% to $2.4 billion in 2023."  # the text, not JSON


def test_check_many_puts_an_error_in_place(nlp):
    good = ("Contoso revenue rose 8% in 2023.", [SOURCE])
    out = sourced_nlp.check_many(
        [good, {"id": "q7", "answer": "x", "sources": [None]}, good], nlp=nlp, on_error="return"
    )
    assert isinstance(out[0], sourced_nlp.Report) and isinstance(out[2], sourced_nlp.Report)
    assert isinstance(out[1], sourced_nlp.RecordError)
    assert (out[1].index, out[1].record_id, str(out[1])) == (1, "q7", "record 1 (id 'q7'): source 0 is null")


def test_strict_gates_fail_an_answer_with_no_claim(nlp):
    report = sourced_nlp.check("Sure! Here is the answer:", [SOURCE], nlp=nlp)
    assert not report.claims
    assert report.failed("unverified") and report.failed("medium")
    assert not report.failed("contradicted")  # the lenient gate: nothing is contradicted
    assert sourced_nlp.cite("Sure! Here is the answer:", [SOURCE], nlp=nlp).failed("medium")
