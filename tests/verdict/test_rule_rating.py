"""``verdict/records/rating.py``: praise and rating words against the one record's stars."""

from tables import name, rec, table_test, value


def record(stars: float) -> dict:
    return {
        "r1": (
            True,
            [
                rec("name: Finch & Fork.", ["name"], entities=[name("Finch & Fork", "ORG")]),
                rec(f"business stars: {stars}.", ["business", "star"], quantities=[value(str(stars), "number", stars)]),
                rec("categories: Restaurants, Mexican.", ["category", "restaurant", "mexican"]),
            ],
        )
    }


ROWS = [
    (
        "highly rated, 3 stars",
        rec("It is a highly rated Mexican restaurant.", ["highly", "rate", "mexican", "restaurant"]),
        record(3.0),
        "contradicted.rating",
        "contradicted",
    ),
    (
        "highly rated, 3.5 stars",
        rec("It is a highly rated Mexican restaurant.", ["highly", "rate", "mexican", "restaurant"]),
        record(3.5),
        "unverified.rating",
        "unverified",
    ),
    (
        "an impressive rating, 2 stars",
        rec("It has an impressive rating.", ["impressive", "rating"]),
        record(2.0),
        "contradicted.rating",
        "contradicted",
    ),
    (
        "an impressive rating, 3.5 stars",
        rec("It has an impressive rating.", ["impressive", "rating"]),
        record(3.5),
        "unverified.rating",
        "unverified",
    ),
    (
        "a perfect 5-star rating that fits",
        rec("It is a Mexican restaurant with a perfect 5-star rating.", ["mexican", "restaurant", "perfect"]),
        record(5.0),
        "grounded.passage",
        "grounded",
    ),
]


test_rows = table_test(ROWS)


def test_prose_sources_never_run_it():
    from tables import check

    got = check(rec("It is highly rated.", ["highly", "rate"]), [rec("It is rated.", ["rate"])])
    assert not got["rule"].endswith(".rating")
