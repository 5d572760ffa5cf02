"""sourced_nlp.integrations: the LlamaIndex evaluator and the LangChain Runnable against the real
packages (the dev extra installs both; a test is skipped only when its package is missing), and
docs/integrations.md, every Python block run as written."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sourced_nlp
from sourced_nlp import NotGroundedError

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "integrations.md"

SOURCE = "The museum opened in 1902. It has 30 rooms."
MIXED = "The museum opened in 1902. It has 40 rooms. The director is Ann Lee."  # grounded, contradicted, unverified


def _llama():
    pytest.importorskip("llama_index.core", reason="llama-index-core is in the llamaindex and dev extras")
    from sourced_nlp.integrations import llamaindex

    return llamaindex


def _langchain():
    pytest.importorskip("langchain_core", reason="langchain-core is in the langchain and dev extras")
    from sourced_nlp.integrations import langchain

    return langchain


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def _run_block(code: str) -> tuple[dict, str]:
    namespace: dict = {"__name__": "docs_integrations"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), namespace)
    return namespace, out.getvalue()


# ------------------------------------------------------------------ the page, as written


def test_the_page_has_one_block_a_library_at_least():
    blocks = _blocks()
    assert len(blocks) == 3
    assert "sourced_nlp.integrations.llamaindex" in blocks[0] and "sourced_nlp.integrations.llamaindex" in blocks[1]
    assert "sourced_nlp.integrations.langchain" in blocks[2]


def test_the_llamaindex_examples_run_as_written():
    _llama()
    ns, out = _run_block(_blocks()[0])
    assert ns["result"].passing is False and ns["result"].score == 0.5
    assert out.splitlines() == [
        "False 0.5",
        "contradicted (contradicted.value): 'It has 40 rooms.': the source gives 30 where the claim says 40",
        "fails the gate: 1 claim(s) contradicted",
        "[{'source': 'guide', 'start': 27, 'end': 43, 'text': 'It has 30 rooms.'}]",
    ]
    ns, out = _run_block(_blocks()[1])
    assert out.splitlines() == ["True", "[False, True]"]


def test_the_langchain_example_runs_as_written():
    _langchain()
    ns, out = _run_block(_blocks()[2])
    assert out.splitlines() == [
        "{'grounded': 1, 'contradicted': 1, 'unverified': 0} 50",
        "the answer fails the gate (1 claim(s) contradicted):",
        "- contradicted (contradicted.value): 'It has 40 rooms.': the source gives 30 where the claim says 40",
        "1",
    ]


def test_the_printed_outputs_on_the_page_are_those_of_the_examples():
    """Each ``print(...)  # output`` comment, and the comment lines under a print, say what it prints."""
    _llama(), _langchain()
    for code in _blocks():
        _, out = _run_block(code)
        said = [m for line in code.splitlines() for m in re.findall(r"print\(.*\)  # (.*)$", line)]
        said += [
            line.strip()[2:]
            for line in code.splitlines()
            if line.strip().startswith("# ") and not line.strip().startswith("# your")
        ]
        assert [s for s in said if s not in out] == []


# ------------------------------------------------------------------ importing


def test_importing_the_package_imports_neither_library():
    code = (
        "import sys, sourced_nlp.integrations, sourced_nlp; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('llama_index', 'langchain_core', 'spacy')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "module, package, extra",
    [("llamaindex", "llama_index", "llamaindex"), ("langchain", "langchain_core", "langchain")],
)
def test_a_missing_library_is_an_import_error_naming_the_extra(module, package, extra):
    code = (
        f"import sys; sys.modules[{package!r}] = None\n"  # as if not installed
        f"try:\n    import sourced_nlp.integrations.{module}\n"
        f"except ImportError as err:\n    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert f"pip install 'sourced-nlp[{extra}]'" in out.stdout


# ------------------------------------------------------------------ LlamaIndex


def test_the_evaluator_is_a_llamaindex_evaluator(nlp):
    li = _llama()
    from llama_index.core.evaluation import BaseEvaluator, EvaluationResult

    evaluator = li.SourcedEvaluator(nlp=nlp)
    assert isinstance(evaluator, BaseEvaluator)
    result = evaluator.evaluate(query="q", response=MIXED, contexts=[SOURCE])
    assert isinstance(result, EvaluationResult)
    assert result.query == "q" and result.response == MIXED and result.contexts == [SOURCE]


def test_a_contradiction_fails_and_the_feedback_names_each_claim_not_grounded(nlp):
    li = _llama()
    result = li.SourcedEvaluator(nlp=nlp).evaluate(response=MIXED, contexts=[SOURCE])
    assert result.passing is False
    assert result.score == pytest.approx(0.33)
    assert result.feedback.splitlines() == [
        "contradicted (contradicted.value): 'It has 40 rooms.': the source gives 30 where the claim says 40",
        "unverified (unverified.no_passage): 'The director is Ann Lee.': no source passage is about this claim",
        "fails the gate: 1 claim(s) contradicted",
    ]
    assert result.gate == ["1 claim(s) contradicted"]
    assert [c["verdict"] for c in result.report["claims"]] == ["grounded", "contradicted", "unverified"]
    assert result.to_report().counts == {"grounded": 1, "contradicted": 1, "unverified": 1}
    assert result.report == sourced_nlp.check(MIXED, [SOURCE], nlp=nlp).to_dict()  # the check, unchanged


def test_a_grounded_answer_passes_with_score_one(nlp):
    li = _llama()
    result = li.SourcedEvaluator(nlp=nlp).evaluate(response="The museum opened in 1902.", contexts=[SOURCE])
    assert (result.passing, result.score, result.feedback, result.gate) == (True, 1.0, "all 1 claim(s) grounded", [])


def test_unverified_passes_the_default_gate_and_fails_a_strict_one(nlp):
    li = _llama()
    answer = "The director is Ann Lee."
    assert li.SourcedEvaluator(nlp=nlp).evaluate(response=answer, contexts=[SOURCE]).passing is True
    strict = li.SourcedEvaluator(nlp=nlp, fail_on="unverified").evaluate(response=answer, contexts=[SOURCE])
    assert strict.passing is False and strict.score == 0.0
    assert strict.gate == ["1 claim(s) unverified"]
    assert li.SourcedEvaluator(nlp=nlp, fail_under=50).evaluate(response=answer, contexts=[SOURCE]).passing is False


def test_no_claim_has_no_score(nlp):
    li = _llama()
    result = li.SourcedEvaluator(nlp=nlp).evaluate(response="Sure! Here is the answer:", contexts=[SOURCE])
    assert (result.passing, result.score, result.feedback) == (True, None, "no claim to check")
    strict = li.SourcedEvaluator(nlp=nlp, fail_on="unverified").evaluate(
        response="Sure! Here is the answer:", contexts=[SOURCE]
    )
    assert strict.passing is False


def test_nodes_and_node_with_score_name_the_evidence(nlp):
    li = _llama()
    from llama_index.core import Document
    from llama_index.core.schema import NodeWithScore, TextNode

    evaluator = li.SourcedEvaluator(nlp=nlp)
    for contexts in (
        [TextNode(text=SOURCE, id_="guide")],
        [NodeWithScore(node=TextNode(text=SOURCE, id_="guide"), score=0.5)],
        [Document(text=SOURCE, id_="guide")],
    ):
        result = evaluator.evaluate(response="It has 40 rooms.", contexts=contexts)
        assert result.passing is False and result.contexts == [SOURCE]
        assert result.report["claims"][0]["evidence"][0]["source"] == "guide"


def test_evaluate_response_and_the_async_methods(nlp):
    li = _llama()
    from llama_index.core.base.response.schema import Response
    from llama_index.core.schema import NodeWithScore, TextNode

    evaluator = li.SourcedEvaluator(nlp=nlp)
    response = Response(response="It has 40 rooms.", source_nodes=[NodeWithScore(node=TextNode(text=SOURCE, id_="g"))])
    assert evaluator.evaluate_response(query="q", response=response).report["claims"][0]["evidence"][0]["source"] == "g"
    assert asyncio.run(evaluator.aevaluate_response(query="q", response=response)).passing is False
    assert asyncio.run(evaluator.aevaluate(response="It has 30 rooms.", contexts=[SOURCE])).passing is True


def test_missing_inputs_and_a_wrong_gate_are_errors(nlp):
    li = _llama()
    evaluator = li.SourcedEvaluator(nlp=nlp)
    with pytest.raises(ValueError, match="needs a response"):
        evaluator.evaluate(response=None, contexts=[SOURCE])
    with pytest.raises(ValueError, match="needs a response"):
        evaluator.evaluate(response="It has 30 rooms.")
    with pytest.raises(sourced_nlp.SourceError):
        evaluator.evaluate(response="It has 30 rooms.", contexts=[])
    with pytest.raises(ValueError, match="unknown fail_on"):
        li.SourcedEvaluator(fail_on="sometimes")


def test_the_pipeline_is_loaded_once_on_first_use(monkeypatch, nlp):
    li = _llama()
    from sourced_nlp import api

    calls = []
    monkeypatch.setattr(api, "load_pipeline", lambda *a, **k: calls.append(1) or nlp)
    evaluator = li.SourcedEvaluator()
    assert calls == []
    evaluator.evaluate(response="It has 30 rooms.", contexts=[SOURCE])
    evaluator.evaluate(response="It has 40 rooms.", contexts=[SOURCE])
    assert calls == [1]


# ------------------------------------------------------------------ LangChain


def test_the_runnable_returns_the_report(nlp):
    lc = _langchain()
    from langchain_core.runnables import Runnable

    check = lc.SourcedCheck(nlp=nlp)
    assert isinstance(check, Runnable)
    report = check.invoke({"answer": MIXED, "documents": [SOURCE]})
    assert report["schema"] == "sourced.report/1"
    assert report == sourced_nlp.check(MIXED, [SOURCE], nlp=nlp).to_dict()
    sourced_nlp.Report.from_dict(report)  # a valid report


def test_the_runnable_in_a_chain(nlp):
    lc = _langchain()
    from langchain_core.documents import Document
    from langchain_core.messages import AIMessage
    from langchain_core.prompts import PromptTemplate
    from langchain_core.runnables import RunnableLambda

    docs = [Document(page_content=SOURCE, id="guide")]
    chain = RunnableLambda(lambda q: {"answer": "It has 40 rooms.", "documents": docs}) | lc.SourcedCheck(nlp=nlp)
    report = chain.invoke("How big is it?")
    assert report["counts"]["contradicted"] == 1 and report["claims"][0]["evidence"][0]["source"] == "guide"
    # prompt | ... | runnable: the answer as a chat model's message
    prompt = PromptTemplate.from_template("{question}")
    chain = (
        prompt
        | RunnableLambda(lambda p: {"answer": AIMessage(content="It has 30 rooms."), "documents": docs})
        | lc.SourcedCheck(nlp=nlp, raise_on_fail=True)
    )
    assert chain.invoke({"question": "How big is it?"})["counts"]["grounded"] == 1
    assert asyncio.run(chain.ainvoke({"question": "x"}))["counts"]["grounded"] == 1
    assert [r["counts"]["grounded"] for r in chain.batch([{"question": "x"}] * 3)] == [1, 1, 1]


def test_raise_on_fail_guards_a_chain(nlp):
    lc = _langchain()
    from langchain_core.runnables import RunnableLambda

    guarded = RunnableLambda(lambda q: {"answer": MIXED, "documents": [SOURCE]}) | lc.SourcedCheck(
        nlp=nlp, raise_on_fail=True
    )
    with pytest.raises(NotGroundedError) as err:
        guarded.invoke("q")
    assert str(err.value).splitlines() == [
        "the answer fails the gate (1 claim(s) contradicted):",
        "- contradicted (contradicted.value): 'It has 40 rooms.': the source gives 30 where the claim says 40",
        "- unverified (unverified.no_passage): 'The director is Ann Lee.': no source passage is about this claim",
    ]
    assert err.value.report.counts == {"grounded": 1, "contradicted": 1, "unverified": 1}
    fallback = guarded.with_fallbacks([RunnableLambda(lambda q: "held back")], exceptions_to_handle=(NotGroundedError,))
    assert fallback.invoke("q") == "held back"
    # the default gate lets an unverified claim through; a strict one does not
    unverified = {"answer": "The director is Ann Lee.", "documents": [SOURCE]}
    assert lc.SourcedCheck(nlp=nlp, raise_on_fail=True).invoke(unverified)["counts"]["unverified"] == 1
    with pytest.raises(NotGroundedError, match=r"fails the gate \(1 claim\(s\) unverified\)"):
        lc.SourcedCheck(nlp=nlp, raise_on_fail=True, fail_on="unverified").invoke(unverified)
    # without raise_on_fail, a failing answer gives its report
    assert lc.SourcedCheck(nlp=nlp).invoke({"answer": MIXED, "documents": [SOURCE]})["counts"]["contradicted"] == 1


def test_the_runnable_refuses_other_inputs_and_a_wrong_gate(nlp):
    lc = _langchain()
    check = lc.SourcedCheck(nlp=nlp)
    with pytest.raises(TypeError, match=r"takes \{'answer': str, 'documents': \[\.\.\.\]\}, got str"):
        check.invoke("It has 30 rooms.")
    with pytest.raises(TypeError, match=r"keys \['answer'\]"):
        check.invoke({"answer": "It has 30 rooms."})
    with pytest.raises(TypeError, match="'answer' must be a str"):
        check.invoke({"answer": 3, "documents": [SOURCE]})
    with pytest.raises(sourced_nlp.SourceError):
        check.invoke({"answer": "It has 30 rooms.", "documents": []})
    with pytest.raises(ValueError, match="unknown fail_on"):
        lc.SourcedCheck(fail_on="sometimes")
