"""``verdict/rules/contradicted.py``: a passage about the same thing states something incompatible."""

from tables import check, name, rec, table_test, value


def pct(n):
    return value(f"{n}%", "percent", n, unit="%", head="rise")


ROWS = [
    ("another percent", rec("Revenue rose 8% in the quarter.", ["revenue", "rise", "quarter"], quantities=[pct(8)]),
     [rec("Revenue rose 5% in the quarter.", ["revenue", "rise", "quarter"], quantities=[pct(5)])],
     "contradicted.value", "contradicted"),
    ("the predicate denied", rec("Revenue rose in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"]),
     [rec("Revenue did not rise in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"], negated=True,
          cue="not", negated_predicate="rise")], "contradicted.polarity", "contradicted"),
    ("an antonym", rec("Revenue rose in the quarter.", ["revenue", "rise", "quarter"], predicates=["rise"]),
     [rec("Revenue fell in the quarter.", ["revenue", "fall", "quarter"], predicates=["fall"])],
     "contradicted.antonym", "contradicted"),
    ("another name in the same role", rec("The product was announced by CEO Sundar Pichai.", ["product", "announce", "ceo"],
                                          entities=[name("Sundar Pichai", role="pobj")]),
     [rec("The product was announced by CEO Satya Nadella.", ["product", "announce", "ceo"],
          entities=[name("Satya Nadella", role="pobj")])], "contradicted.entity", "contradicted"),
    ("a value said of another step", rec("Cook for 5 minutes.", ["cook", "minute", "pasta", "sauce"],
                                         quantities=[value("5 minutes", "measure", 300, unit="second")]),
     [rec("Cook for 10 minutes.", ["cook", "minute", "rice", "water"],
          quantities=[value("10 minutes", "measure", 600, unit="second")])], "unverified.too_little", "unverified"),
]


test_rows = table_test(ROWS)


def test_differs_and_support():
    got = check(ROWS[0][1], ROWS[0][2])
    assert got["differs"] == [{"claim": "8%", "source": "5%", "kind": "quantity"}]
    assert got["reason"] == "the source gives 5% where the claim says 8%" and got["support"] == 0.0
