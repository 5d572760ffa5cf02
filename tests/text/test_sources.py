"""Sources: normalising lists, linearising JSON, reading files and answers."""

import json
import os
from pathlib import Path

import pytest

from sourced_nlp.text.sources import (
    SourceError,
    linearize,
    load_source_file,
    normalize_sources,
    read_answer,
)

RAGTRUTH = Path("/work/shared/data/ragtruth/source_info.jsonl")


# ---------------------------------------------------------------- normalize_sources


@pytest.mark.parametrize(
    "sources,expected",
    [
        (["a b.", "c d."], [("0", "a b.", False), ("1", "c d.", False)]),
        ([{"id": "doc", "text": "x."}], [("doc", "x.", False)]),
        ([{"id": 7, "text": "x."}], [("7", "x.", False)]),
        ([{"text": "x."}, "y."], [("0", "x.", False), ("1", "y.", False)]),
        ([{"name": "Joe's"}], [("0", "name: Joe's.", True)]),
        ([{"id": "a", "text": "t", "title": "T"}], [("0", "id: a.\ntext: t.\ntitle: T.", True)]),
        ([["a", "b"]], [("0", "a, b.", True)]),
        ([42], [("0", "42.", True)]),
        ([True], [("0", "true.", True)]),
        (("tuple ok.",), [("0", "tuple ok.", False)]),
    ],
)
def test_normalize_sources(sources, expected):
    got = normalize_sources(sources)
    assert [(s["id"], s["text"], s["structured"]) for s in got] == expected


def test_normalize_sources_is_idempotent():
    once = normalize_sources(["a.", {"k": "v"}])
    assert normalize_sources(once) == once
    assert normalize_sources(once) is once  # normalised once: given back, not done again
    again = normalize_sources(list(once))  # a plain list is normalised, as any list is
    assert again == once and again is not once


def test_a_check_normalises_its_sources_once(nlp):
    """The sources normalised where they come in are the ones ``sourced_verify`` reads."""
    from sourced_nlp.api import _make_doc

    srcs = normalize_sources(["Revenue rose 8% in 2023."])
    doc = nlp(_make_doc(nlp, "Revenue rose 8% in 2023.", srcs))
    assert doc._.sources is srcs and doc._.report["counts"]["grounded"] == 1


@pytest.mark.parametrize(
    "sources,match",
    [
        ([], "no sources"),
        ("just a string", "must be a list"),
        ({"id": "a", "text": "b"}, "must be a list"),
        (None, "must be a list"),
        ([""], "empty"),
        (["   \n\t"], "empty"),
        ([{"id": "a", "text": ""}], "empty"),
        ([{"id": "a", "text": 5}], "'text' must be a string"),
        ([{"text": None}], "'text' must be a string"),
        ([None], "null"),
        ([{}], "empty"),
        ([{"id": "a", "text": "x"}, {"id": "a", "text": "y"}], "duplicate source id 'a'"),
        (["x", {"id": "0", "text": "y"}], "duplicate source id '0'"),
    ],
)
def test_normalize_sources_errors(sources, match):
    with pytest.raises(SourceError, match=match):
        normalize_sources(sources)


def test_source_error_is_value_error():
    assert issubclass(SourceError, ValueError)


# ---------------------------------------------------------------- linearize


@pytest.mark.parametrize(
    "value,expected",
    [
        ({"name": "Joe's"}, ["name: Joe's."]),
        ({"hours": {"Monday": "17:0-21:0"}}, ["hours Monday: 17:0-21:0."]),
        ({"attributes": {"OutdoorSeating": False}}, ["attributes outdoor seating: false."]),
        ({"attributes": {"BusinessParking": {"garage": False}}}, ["attributes business parking garage: false."]),
        ({"categories": "Pizza, Italian"}, ["categories: Pizza, Italian."]),
        ({"tags": ["a", "b", 3]}, ["tags: a, b, 3."]),
        ({"business_stars": 4.0}, ["business stars: 4.0."]),
        ({"x": None}, ["x: none."]),
        ({"x": []}, ["x: none."]),
        ({"WiFi": "u'free'"}, ["WiFi: free."]),
        (
            {"review_info": [{"review_text": "Great!", "review_stars": 5}, {"review_text": "ok"}]},
            ["review info review text: Great!", "review info review stars: 5.", "review info review text: ok."],
        ),
        (
            {"Alcohol": "u'full_bar'", "NoiseLevel": "average", "x": "A_B"},
            ["alcohol: full bar.", "noise level: average.", "x: A_B."],
        ),
        ({"note": "line one\nline two"}, ["note: line one line two."]),
        (
            {"BusinessParking": "{'garage': False, 'street': True}"},
            ["business parking garage: false.", "business parking street: true."],
        ),
        ({"Ambience": '{"romantic": false}'}, ["ambience romantic: false."]),
        ({"odd": "{not a literal}"}, ["odd: {not a literal}."]),
        ({}, []),
        ("plain", ["plain."]),
    ],
)
def test_linearize(value, expected):
    text = linearize(value)
    assert (text.split("\n") if text else []) == expected


def test_linearize_prefix():
    assert linearize({"a": 1}, prefix="root") == "root a: 1."


def test_linearize_statements_end_with_full_stop():
    text = linearize({"a": {"b": [1, 2], "cityName": {"zip_code": "x"}}, "e": [{"f": True}]})
    assert text.splitlines() == ["a b: 1, 2.", "a city name zip code: x.", "e f: true."]


@pytest.mark.skipif(not RAGTRUTH.exists(), reason="RAGTruth data not present")
def test_linearize_real_yelp_record():
    record = None
    with RAGTRUTH.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["task_type"] == "Data2txt" and isinstance(row["source_info"], dict):
                info = row["source_info"]
                if isinstance(info.get("hours"), dict) and isinstance(info.get("attributes"), dict):
                    record = info
                    break
    assert record is not None
    text = linearize(record)
    lines = text.splitlines()
    assert f"name: {record['name']}." in lines
    assert f"city: {record['city']}." in lines
    day, hours = next(iter(record["hours"].items()))
    assert f"hours {day}: {hours}." in lines
    attr_lines = [line for line in lines if line.startswith("attributes ")]
    assert attr_lines and all(line.endswith(".") for line in attr_lines)
    if "OutdoorSeating" in record["attributes"]:
        value = record["attributes"]["OutdoorSeating"]
        if isinstance(value, bool):
            assert f"attributes outdoor seating: {str(value).lower()}." in lines
    assert any(line.startswith("review info review text: ") for line in lines)
    assert all("\n" not in line and line.strip() for line in lines)
    # normalize_sources marks it structured
    [src] = normalize_sources([record])
    assert src["structured"] and src["text"] == text


# ---------------------------------------------------------------- files


def write(tmp_path: Path, name: str, data) -> str:
    p = tmp_path / name
    if isinstance(data, bytes):
        p.write_bytes(data)
    else:
        p.write_text(data, encoding="utf-8")
    return str(p)


def test_load_text_file(tmp_path):
    path = write(tmp_path, "article.txt", "Revenue rose 8%.\n")
    assert load_source_file(path) == {"id": "article.txt", "text": "Revenue rose 8%.\n", "structured": False}


def test_load_text_file_drops_bom(tmp_path):
    path = write(tmp_path, "bom.txt", "\ufeffHello.".encode("utf-8"))
    assert load_source_file(path)["text"] == "Hello."


@pytest.mark.parametrize(
    "content,expected_text,structured,expected_id",
    [
        ('"A JSON string."', "A JSON string.", False, "s.json"),
        ('{"id": "doc-1", "text": "Mapped."}', "Mapped.", False, "doc-1"),
        ('{"text": "No id."}', "No id.", False, "s.json"),
        (
            '{"name": "Joe\'s", "hours": {"Monday": "9:0-17:0"}}',
            "name: Joe's.\nhours Monday: 9:0-17:0.",
            True,
            "s.json",
        ),
        ("[1, 2]", "1, 2.", True, "s.json"),
    ],
)
def test_load_json_file(tmp_path, content, expected_text, structured, expected_id):
    path = write(tmp_path, "s.json", content)
    src = load_source_file(path)
    assert src == {"id": expected_id, "text": expected_text, "structured": structured}


@pytest.mark.parametrize(
    "name,data,match",
    [
        ("empty.txt", "", "empty"),
        ("blank.txt", "  \n\t\n", "empty"),
        ("bad.txt", b"\xff\xfe\x00bad", "not UTF-8"),
        ("bad.json", '{"a": 1,\n "b": }', r"malformed JSON.*line 2, column"),
        ("null.json", "null", "null"),
        ("empty.json", "{}", "no text"),
        ("blank.json", '"   "', "no text"),
        ("badtext.json", '{"id": "x", "text": 3}', "'text' must be a string"),
    ],
)
def test_load_source_file_errors(tmp_path, name, data, match):
    path = write(tmp_path, name, data)
    with pytest.raises(SourceError, match=match) as info:
        load_source_file(path)
    assert path in str(info.value)


def test_load_source_file_missing_and_directory(tmp_path):
    missing = str(tmp_path / "nope.txt")
    with pytest.raises(SourceError, match="not found") as info:
        load_source_file(missing)
    assert missing in str(info.value)
    with pytest.raises(SourceError, match="directory"):
        load_source_file(str(tmp_path))


def test_read_answer_file(tmp_path):
    path = write(tmp_path, "a.txt", "Revenue rose 12%.")
    assert read_answer(path) == "Revenue rose 12%."


@pytest.mark.parametrize(
    "arg,match",
    [
        ("Revenue rose 12%.", "not found"),  # never taken as the answer text itself
        ("does/not/exist.txt", "not found"),
    ],
)
def test_read_answer_missing(arg, match):
    assert not os.path.exists(arg)
    with pytest.raises(SourceError, match=match):
        read_answer(arg)


def test_read_answer_errors(tmp_path):
    with pytest.raises(SourceError, match="empty"):
        read_answer(write(tmp_path, "e.txt", " \n"))
    with pytest.raises(SourceError, match="not UTF-8"):
        read_answer(write(tmp_path, "b.txt", b"\xff\xfe\x00bad"))


def test_read_answer_stdin(monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("Answer – ok.".encode("utf-8"))))
    assert read_answer("-") == "Answer – ok."
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"   ")))
    with pytest.raises(SourceError, match="empty"):
        read_answer("-")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe")))
    with pytest.raises(SourceError, match="not UTF-8"):
        read_answer("-")


# ---------------------------------------------------------------- a new user's bad sources


@pytest.mark.parametrize("item", [{"id": "a"}, {"id": "a", "structured": True}])
def test_mapping_with_an_id_but_no_text_is_an_error(item):
    with pytest.raises(SourceError, match="source 'a' has an id but no text"):
        normalize_sources(["fine", item])


def test_structured_records_without_id_or_text_still_linearise():
    out = normalize_sources([{"name": "Joe's", "stars": 4}, {"identifier": "a"}])
    assert out[0] == {"id": "0", "text": "name: Joe's.\nstars: 4.", "structured": True}
    assert out[1]["structured"] and out[1]["text"] == "identifier: a."


def test_json_source_file_with_an_id_but_no_text(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('{"id": "a"}', encoding="utf-8")
    with pytest.raises(SourceError, match=r"a\.json: source 'a' has an id but no text"):
        load_source_file(str(path))


@pytest.mark.parametrize("item", ["A \ud800 b", {"id": "s", "text": "A \udc00 b"}, {"name": "A \ud800"}])
def test_source_text_with_an_unpaired_surrogate_is_an_error(item):
    with pytest.raises(SourceError, match=r"unpaired surrogate escape \\ud[8c]00") as info:
        normalize_sources([item])
    assert "source " in str(info.value)
