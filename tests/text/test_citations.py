"""Table-driven tests for sourced_nlp.text.citations: locating quotes and parsing citation markers."""

import pytest

from sourced_nlp.text.citations import (
    Citation,
    Match,
    citation_spans,
    find_citations,
    locate,
    normalize_with_map,
    resolve_target,
    strip_citations,
)

SRC = (
    "The Golden Gate Bridge opened to traffic on May 27, 1937, after four years of\n"
    "construction. It was the longest suspension bridge in the world at the time, and its\n"
    "color, “International Orange”, was chosen by the consulting architect Irving Morrow."
)

# ---------------------------------------------------------------------------------------------
# normalize_with_map
# ---------------------------------------------------------------------------------------------

NORMALIZE_CASES = [
    ("A\n \u201cb\u201d", 'a "b"'),
    ("\ufb01nal", "final"),  # ligature via NFKC
    ("1990\u20131995 \u2014 x \u2212 y", "1990-1995 - x - y"),
    ("wait\u2026", "wait..."),
    ("  lead and trail \t\n", "lead and trail"),
    ("STRASSE Stra\u00dfe", "strasse strasse"),
    ("e\u0301t\u00e9", "\u00e9t\u00e9"),  # combining mark composed
    ("soft\u00adhyphen zero\u200bwidth", "softhyphen zerowidth"),
    ("it\u2019s", "it's"),
]


@pytest.mark.parametrize("text, expected", NORMALIZE_CASES)
def test_normalize_with_map(text, expected):
    norm, offsets = normalize_with_map(text)
    assert norm == expected
    assert len(offsets) == len(norm)
    assert offsets == sorted(offsets)
    assert all(0 <= o < len(text) for o in offsets)


# ---------------------------------------------------------------------------------------------
# locate
# ---------------------------------------------------------------------------------------------

LOCATE_CASES = [
    # (quote, text, kwargs, expected (method, matched text) or None)
    ("opened to traffic", SRC, {}, ("exact", "opened to traffic")),
    ("  opened to traffic ", SRC, {}, ("exact", "opened to traffic")),
    # curly quotes in the source, straight quotes in the quote
    (
        'color, "International Orange", was chosen',
        SRC,
        {},
        ("normalized", "color, \u201cInternational Orange\u201d, was chosen"),
    ),
    # spanning a line break, and case
    ("Four years of construction", SRC, {}, ("normalized", "four years of\nconstruction")),
    # dashes and ellipsis
    (
        "from 1990-1995...",
        "It ran from 1990\u20131995\u2026 then stopped.",
        {},
        ("normalized", "from 1990\u20131995\u2026"),
    ),
    # trailing punctuation in the quote that the source does not have there
    ('"opened to traffic."', SRC, {}, ("normalized", "opened to traffic")),
    # one changed word in a 10-word quote
    (
        "It was the longest cable bridge in the world at",
        SRC,
        {},
        ("fuzzy", "It was the longest suspension bridge in the world at"),
    ),
    # one missing word in a 10-word quote
    (
        "It was the longest suspension bridge in world at the time",
        SRC,
        {},
        ("fuzzy", "It was the longest suspension bridge in the world at the time"),
    ),
    # one missing word in a 6-word quote: 6/7
    ("chosen by the architect Irving Morrow", SRC, {}, ("fuzzy", "chosen by the consulting architect Irving Morrow")),
    ("chosen by the architect Irving Morrow", SRC, {"min_score": 0.9}, None),
    # two edits in 9 words: 7/9 < 0.8
    ("was chosen by the famous architect Irving Morrow himself", SRC, {}, None),
    # a short quote with a typo is never fuzzy
    ("opened to trafic", SRC, {}, None),
    ("Golden Gte Bridge", SRC, {}, None),
    # a changed number is not a typo
    ("The Golden Gate Bridge opened to traffic on May 28, 1937, after four years", SRC, {}, None),
    ("The Golden Gate Bridge opened to traffic on May 27, 1938, after four years", SRC, {}, None),
    # protected words (e.g. negation cues) must be kept
    ("It was not the longest suspension bridge in the world at the time", SRC, {"protected": {"not"}}, None),
    # fuzzy switched off
    ("It was the longest cable bridge in the world at", SRC, {"fuzzy": False}, None),
    # no partial words
    ("ate Bridge", SRC, {}, None),
    ("10%", "Growth was 110% last year.", {}, None),
    ("absent from the source entirely here", SRC, {}, None),
]


@pytest.mark.parametrize("quote, text, kwargs, expected", LOCATE_CASES)
def test_locate(quote, text, kwargs, expected):
    m = locate(quote, text, **kwargs)
    if expected is None:
        assert m is None
        return
    assert isinstance(m, Match)
    assert (m.method, m.text) == expected
    assert text[m.start : m.end] == m.text
    if m.method == "fuzzy":
        assert kwargs.get("min_score", 0.8) <= m.score < 1.0
    else:
        assert m.score == 1.0


def test_locate_fuzzy_scores():
    # one changed word in 10 -> 9/10
    m = locate("It was the longest cable bridge in the world at", SRC)
    assert m.score == pytest.approx(0.9)
    # an 8-word quote missing one word of the source -> a 9-word window, 8/9
    m = locate("after four years of construction It the longest", SRC)
    assert m is not None and m.method == "fuzzy" and m.score == pytest.approx(8 / 9)
    # an 8-word quote with one word the source lacks -> a 7-word window, 7/8
    m = locate("after four long years of construction It was", SRC)
    assert m is not None and m.method == "fuzzy" and m.score == pytest.approx(7 / 8)
    assert m.text == "after four years of\nconstruction. It was"


NEAR_TEXT = "A bridge. Then a bridge again. And one more bridge."
NEAR_CASES = [
    (None, 2),
    (0, 2),
    (15, 17),
    (40, 44),
    (1000, 44),
]


@pytest.mark.parametrize("near, start", NEAR_CASES)
def test_locate_near(near, start):
    m = locate("bridge", NEAR_TEXT, near=near)
    assert m.start == start and NEAR_TEXT[m.start : m.end] == "bridge"


def test_locate_near_normalized_and_fuzzy():
    text = "Opened in\n1932. Later it reopened. Opened  in 1932 again."
    m = locate("opened in 1932", text, near=30)
    assert m.method == "normalized" and m.start == text.rindex("Opened")
    para = "the council voted to build a new bridge over the river"
    text = f"{para}. Unrelated words here. {para}."
    m = locate("the council voted to build a new tunnel over the river", text, near=len(text))
    assert m.method == "fuzzy" and m.start == text.rindex("the council")
    assert text[m.start : m.end] == para


@pytest.mark.parametrize("quote", ["", "   ", "\n"])
def test_locate_empty_quote_raises(quote):
    with pytest.raises(ValueError):
        locate(quote, SRC)


def test_locate_offsets_with_expanding_chars():
    text = "Stra\u00dfe \ufb01nal \u2026 word\u00ad\u00adsplit end"
    for quote, expected in [
        ("strasse", "Stra\u00dfe"),
        ("final ...", "\ufb01nal \u2026"),
        ("wordsplit end", "word\u00ad\u00adsplit end"),
    ]:
        m = locate(quote, text)
        assert m is not None and m.text == expected and text[m.start : m.end] == expected


# ---------------------------------------------------------------------------------------------
# find_citations
# ---------------------------------------------------------------------------------------------

CITATION_CASES = [
    # (text, [(marker, targets, quote)])
    ("It opened in 1932 [1].", [("[1]", ("1",), None)]),
    ("It opened in 1932[1].", [("[1]", ("1",), None)]),
    ("Costs rose [1, 3].", [("[1, 3]", ("1", "3"), None)]),
    ("Costs rose [1,3][4].", [("[1,3]", ("1", "3"), None), ("[4]", ("4",), None)]),
    ("Costs rose [1-3].", [("[1-3]", ("1", "2", "3"), None)]),
    ("Costs rose [2\u20134].", [("[2\u20134]", ("2", "3", "4"), None)]),
    ("Costs rose [1; 5-6].", [("[1; 5-6]", ("1", "5", "6"), None)]),
    ("See [S2].", [("[S2]", ("S2",), None)]),
    ("See [S1-S3].", [("[S1-S3]", ("S1", "S2", "S3"), None)]),
    (
        'It opened [S2: "the bridge opened in 1932"].',
        [('[S2: "the bridge opened in 1932"]', ("S2",), "the bridge opened in 1932")],
    ),
    (
        "It opened [S2: \u201cthe bridge opened\u201d].",
        [("[S2: \u201cthe bridge opened\u201d]", ("S2",), "the bridge opened")],
    ),
    ("It opened [1: 'it's open'].", [("[1: 'it's open']", ("1",), "it's open")]),
    # a quote wrapped over two lines (an answer copied from a narrow terminal or page)
    (
        'It opened [S1: "opened offices\nin Lisbon"].',
        [('[S1: "opened offices\nin Lisbon"]', ("S1",), "opened offices\nin Lisbon")],
    ),
    ('It opened [S1: "opened offices\n\nin Lisbon"].', []),  # a blank line ends any marker
    ("It opened (Passage 2).", [("(Passage 2)", ("2",), None)]),
    ("It opened (passage 2).", [("(passage 2)", ("2",), None)]),
    ("It opened (Source 3).", [("(Source 3)", ("3",), None)]),
    ("It opened (Sources 1 and 3).", [("(Sources 1 and 3)", ("1", "3"), None)]),
    ("It opened (see Document 4).", [("(see Document 4)", ("4",), None)]),
    ("It opened [Source 2].", [("[Source 2]", ("2",), None)]),
    ("It opened (Source: Reuters).", [("(Source: Reuters)", ("Reuters",), None)]),
    ("It opened (Sources: Reuters; AP).", [("(Sources: Reuters; AP)", ("Reuters", "AP"), None)]),
    ("It opened [^1].", [("[^1]", ("1",), None)]),
    ("It opened [^note-a].", [("[^note-a]", ("note-a",), None)]),
    ("It opened [doc-id].", [("[doc-id]", ("doc-id",), None)]),
    ("It opened [doc_7] [report-2021].", [("[doc_7]", ("doc_7",), None), ("[report-2021]", ("report-2021",), None)]),
    ("It opened [a1b2].", [("[a1b2]", ("a1b2",), None)]),
    ("It opened [notes.txt].", [("[notes.txt]", ("notes.txt",), None)]),
    ("It opened [[1]](https://example.org/a).", [("[[1]](https://example.org/a)", ("1",), None)]),
    ("[1] Smith, J. (2020). A book.", [("[1]", ("1",), None)]),
    # non-markers
    ("He wrote [sic] that.", []),
    ("It is the oldest [citation needed].", []),
    ("See [the report](https://example.org/report-1).", []),
    ("See [GPT-4](https://openai.com) and ![img-2](a.png).", []),
    ("It was founded (2021) in Oslo.", []),
    ("Growth was modest (8%).", []),
    ("1. First point\n2) second point\n(3) third\n- fourth\n* [x] done\n- [ ] todo", []),
    ("Use `arr[1]` or\n```\nx = y[2]\n```\n", []),
    ("Text [...] elided, (source) alone, [Source] alone, (Source: ) empty.", []),
    ("A context [window] and (passage of time).", []),
    ("Values [1000000-1] are odd [5-1].", []),
]


@pytest.mark.parametrize("text, expected", CITATION_CASES)
def test_find_citations(text, expected):
    cites = find_citations(text)
    assert [(c.marker, c.targets, c.quote) for c in cites] == expected
    for c in cites:
        assert isinstance(c, Citation)
        assert text[c.start : c.end] == c.marker


def test_find_citations_order_and_to_dict():
    text = 'A (Source 2) b [1] c [S3: "q"] d [^4].'
    cites = find_citations(text)
    assert [c.start for c in cites] == sorted(c.start for c in cites)
    assert cites[2].to_dict() == {
        "marker": '[S3: "q"]',
        "targets": ["S3"],
        "quote": "q",
        "start": text.index("[S3"),
        "end": text.index("] d") + 1,
    }


# ---------------------------------------------------------------------------------------------
# strip_citations / citation_spans
# ---------------------------------------------------------------------------------------------

STRIP_CASES = [
    ("opened in 1932 [1].", "opened in 1932."),
    ("opened in 1932[1][2].", "opened in 1932."),
    ("opened in 1932 [1] [2], then closed.", "opened in 1932, then closed."),
    ("opened in 1932 ([1]).", "opened in 1932."),
    ("A [1] B (Passage 2) C.", "A B C."),
    ("[1] Smith et al.\n[2] Jones", "Smith et al.\nJones"),
    ("No markers here [sic].", "No markers here [sic]."),
    ('It opened [S2: "it opened"] early.', "It opened early."),
]


@pytest.mark.parametrize("text, expected", STRIP_CASES)
def test_strip_citations(text, expected):
    stripped, cites = strip_citations(text)
    assert stripped == expected
    assert cites == find_citations(text)


SPAN_CASES = [
    ("opened in 1932 [1].", [(14, 18)]),
    ("opened in 1932[1].", [(14, 17)]),
    ("[1] x (Source 2)", [(0, 3), (5, 16)]),
    ("no markers", []),
]


@pytest.mark.parametrize("text, expected", SPAN_CASES)
def test_citation_spans(text, expected):
    assert citation_spans(text) == expected


# ---------------------------------------------------------------------------------------------
# resolve_target
# ---------------------------------------------------------------------------------------------

DEFAULT_IDS = ["0", "1", "2"]
NAMED_IDS = ["wiki", "doc-id", "Reuters"]
RESOLVE_CASES = [
    # (target, source_ids, expected index)
    ("1", DEFAULT_IDS, 0),  # an answer's [1] is the first source
    ("3", DEFAULT_IDS, 2),
    ("4", DEFAULT_IDS, None),
    ("0", DEFAULT_IDS, 0),  # no place 0 in the answer's numbering: the id "0"
    ("0", ["0"], 0),
    ("0", ["x", "y"], None),
    ("S2", DEFAULT_IDS, 1),
    ("Passage 2", DEFAULT_IDS, 1),
    ("Source 3", NAMED_IDS, 2),
    ("doc-2", NAMED_IDS, 1),
    ("P1", NAMED_IDS, 0),
    ("doc-id", NAMED_IDS, 1),  # an exact id
    ("reuters", NAMED_IDS, 2),  # unique after casefolding
    ("AP", NAMED_IDS, None),
    ("sic", NAMED_IDS, None),
    ("2", ["a.txt", "b.txt"], 1),
    ("S2", ["S1", "S2", "S3"], 1),  # an exact id wins
    ("S2", ["S2", "S1"], 0),
    ("doc-2", ["doc-0", "doc-1"], None),  # ids of that shape: a missing id is not a position
    ("2", ["10", "20"], None),  # numeric ids that do not contain it
    ("20", ["10", "20"], 1),
    ("1", [], None),
    # plain-string sources (id = list index) mixed with {"id", "text"} ones: [N] is the N-th
    ("1", ["0", "x"], 0),
    ("1", ["x", "1"], 0),
    ("2", ["x", "1"], 1),
    ("3", ["x", "1"], None),
    ("x", ["x", "1"], 0),
    ("1", ["1", "x"], 0),  # an id "1" given to the first source
    ("2", ["1", "x"], None),  # numbers given as ids: numbers are ids only
    ("", DEFAULT_IDS, None),
]


@pytest.mark.parametrize("target, ids, expected", RESOLVE_CASES)
def test_resolve_target(target, ids, expected):
    assert resolve_target(target, ids) == expected


def test_resolve_target_zero_based():
    assert resolve_target("0", DEFAULT_IDS, base=0) == 0
    assert resolve_target("S0", DEFAULT_IDS, base=0) == 0


# The fuzzy rule of docs/citations.md: a window scores 1 - edits / words and must reach min_score (0.8), so
# one word may differ in a quote of five words or more; a four-word quote must be exact.
BRIDGE = 'The bridge is painted in its color, "International Orange", since 1937.'
FUZZY_RULE = [  # (quote, the text matched or None, score)
    ('its colour, "International Orange"', None, None),
    ('painted in its colour, "International Orange"', 'painted in its color, "International Orange', 0.833333),
    ('painted in its color, "International Orange"', 'painted in its color, "International Orange"', 1.0),
]


@pytest.mark.parametrize("quote, found, score", FUZZY_RULE)
def test_fuzzy_rule_as_the_docs_state_it(quote, found, score):
    m = locate(quote, BRIDGE)
    if found is None:
        assert m is None
    else:
        assert (m.text, m.score) == (found, score) and BRIDGE[m.start : m.end] == found
