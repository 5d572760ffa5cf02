"""Claims against a structured source: a Yelp-style business record, linearised.

The record and the answers are written for this test in the shape of RAGTruth's Data2txt
sources (nested ``hours``, ``attributes`` with Python-literal strings, ``review_info``); each row
is the verdict a careful reader gives.
"""

from __future__ import annotations

import pytest

import sourced_nlp

RECORD = {
    "name": "Casa Luna",
    "address": "12 Main St",
    "city": "Tucson",
    "state": "AZ",
    "categories": "Mexican, Restaurants, Bars",
    "hours": {"Monday": "11:0-21:0", "Friday": "11:0-23:0"},
    "attributes": {
        "OutdoorSeating": "False",
        "WiFi": "u'free'",
        "RestaurantsTakeOut": "True",
        "BusinessParking": "{'garage': False, 'street': True}",
    },
    "business_stars": 4.0,
    "review_info": [
        {
            "review_stars": 5.0,
            "review_date": "2021-06-01",
            "review_text": "Great tacos and friendly staff. The margaritas were strong!",
        }
    ],
}

ROWS = [
    ("Casa Luna is a Mexican restaurant located at 12 Main St in Tucson, AZ.", "grounded"),
    ("Casa Luna offers outdoor seating.", "contradicted"),
    ("Casa Luna does not offer outdoor seating.", "grounded"),
    ("Casa Luna offers free WiFi.", "grounded"),
    ("Casa Luna is open on Monday from 11 AM to 9 PM.", "grounded"),
    ("Casa Luna is open on Friday from 11 AM to 9 PM.", "contradicted"),
    ("Casa Luna is open on Sunday from 10 AM to 2 PM.", "unverified"),
    ("Casa Luna has a rating of 4 stars.", "grounded"),
    ("Casa Luna has a rating of 4.5 stars.", "contradicted"),
    ("Casa Luna serves Italian food.", "unverified"),
    ("Reviewers mention great tacos and friendly staff.", "grounded"),
    # the record is the subject: "The restaurant" is Casa Luna, each line one field of it
    ("The restaurant does not offer outdoor seating.", "grounded"),
    ("It offers takeout and free WiFi.", "grounded"),
    ("It has an average rating of 4 stars.", "grounded"),
    # a review verb must agree with the review's stars (5 here)
    ("Diners praised the great tacos and the friendly staff.", "grounded"),
    ("Diners complained about the tacos and the staff.", "unverified"),
    # opening hours: a time is one end of the day's range
    ("On Friday, it opens at 11 AM.", "grounded"),
    ("It closes at 9 PM on Fridays.", "contradicted"),
    ("Casa Luna is open until 10 PM on Mondays.", "contradicted"),
    ("Casa Luna is open until 9 PM on Mondays.", "grounded"),
    # both polarities in one sentence: each line on its side of the negation
    ("It offers takeout, but it does not offer outdoor seating.", "grounded"),
    ("It offers takeout but no outdoor seating.", "grounded"),
    # the affirmed half states a field the record denies
    ("It offers outdoor seating, but it does not offer takeout.", "contradicted"),
    # several days, each with its own hours, in one sentence
    ("It is open 11 AM to 9 PM on Monday and until 11 PM on Friday.", "grounded"),
    ("It is open 11 AM to 9 PM on Monday and 11 AM to 9 PM on Friday.", "contradicted"),
]


def test_list_position_is_not_a_value(nlp):
    """A review's position in the list is not one of its values: "1 star" is not stated by the
    first review of a record whose review gave 5 stars."""
    report = sourced_nlp.check("One review gave Casa Luna 1 star.", [RECORD], nlp=nlp)
    (claim,) = report.claims
    assert claim.verdict != "grounded", claim.reason
    assert all("1" not in e.text.split(":")[0] for e in claim.evidence)


@pytest.mark.parametrize("answer,expected", ROWS)
def test_record_claims(nlp, answer, expected):
    report = sourced_nlp.check(answer, [RECORD], nlp=nlp)
    (claim,) = report.claims
    assert claim.verdict == expected, claim.reason


def test_false_attribute_names_the_value(nlp):
    report = sourced_nlp.check("Casa Luna offers outdoor seating.", [RECORD], nlp=nlp)
    (claim,) = report.claims
    assert claim.evidence[0].text == "attributes outdoor seating: False."
    assert claim.differs[0]["source"] == "false"


def test_weekday_range_names_every_day(nlp):
    """ "Monday through Friday" states the days between too: the record has no Wednesday line."""
    record = dict(RECORD, hours={"Monday": "11:0-21:0", "Tuesday": "11:0-21:0", "Friday": "11:0-21:0"})
    report = sourced_nlp.check("Casa Luna is open Monday through Friday from 11 AM to 9 PM.", [record], nlp=nlp)
    (claim,) = report.claims
    assert claim.verdict != "grounded", claim.reason
    full = dict(record, hours={d: "11:0-21:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")})
    report = sourced_nlp.check("Casa Luna is open Monday through Friday from 11 AM to 9 PM.", [full], nlp=nlp)
    assert report.claims[0].verdict == "grounded", report.claims[0].reason


def test_record_lines_name_only_their_own_field(nlp):
    """A line of a record does not inherit the names of the line before it: the WiFi line's name
    is no name of the parking line after it."""
    from sourced_nlp.text.sources import normalize_sources

    vp = nlp.get_pipe("sourced_verify")
    index = vp.index_for(normalize_sources([RECORD]))
    parking = [p for p in index.passages if "parking" in p.f["text"]]
    assert parking
    for p in parking:
        assert not any("wi" in k for k in p.keys), (p.f["text"], list(p.keys))
    assert any("wifi" in p.keys for p in index.passages if "WiFi" in p.f["text"])


@pytest.mark.parametrize(
    "answer,expected",
    [
        ("Masala Junction is an Indian restaurant located at 1575 S Virginia St in Reno, NV.", "grounded"),
        ("Masala Junction is an Indian restaurant located at 1577 S Virginia St in Reno, NV.", "unverified"),
    ],
)
def test_street_address_with_house_number_and_direction(nlp, answer, expected):
    record = {
        "name": "Masala Junction",
        "address": "1575 S Virginia St",
        "city": "Reno",
        "state": "NV",
        "categories": "Indian, Restaurants, Vegetarian, Buffets",
        "business_stars": 4.0,
        "attributes": {f"Attr{i}": "True" for i in range(30)},
    }
    report = sourced_nlp.check(answer, [record], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason


@pytest.mark.parametrize(
    "answer,expected",
    [
        # every part stated by a line but one, which a false line denies
        ("Casa Luna offers free WiFi and takeout, and it is dog-friendly.", "contradicted"),
        ("Casa Luna offers free WiFi and takeout.", "grounded"),
        # a claim that denies the part itself agrees with the false line
        ("Casa Luna offers free WiFi and takeout, but it does not allow dogs.", "grounded"),
    ],
)
def test_a_part_a_false_line_denies(nlp, answer, expected):
    record = dict(RECORD, attributes=dict(RECORD["attributes"], DogsAllowed="False"))
    report = sourced_nlp.check(answer, [record], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason


DINER = {
    "name": "Sunrise Diner",
    "address": "880 W Main St",
    "city": "Boise",
    "state": "ID",
    "categories": "Breakfast & Brunch, Diners, Barbeque",
    "business_stars": 4.5,
    "hours": {d: "6:0-14:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")},
}
SIX_DAYS = dict(
    DINER, hours={d: "6:0-14:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")}
)
TAVERNA = {
    "name": "Santorini Taverna",
    "address": "5364 E 82nd St",
    "city": "Indianapolis",
    "state": "IN",
    "categories": "Greek, Mediterranean, Restaurants",
    "business_stars": 4.0,
}
SALON = {
    "name": "Lotus Nail Lounge",
    "address": "1708 W Swann Ave",
    "city": "Tampa",
    "state": "FL",
    "categories": "Nail Salons, Beauty & Spas, Waxing, Hair Removal",
    "business_stars": 4.5,
}
GYM = {
    "name": "Desert Iron",
    "city": "Tempe",
    "state": "AZ",
    "categories": "Gyms, Fitness & Instruction",
    "business_stars": 4.5,
    "hours": {
        **{d: "5:0-21:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")},
        "Saturday": "7:0-14:0",
        "Sunday": "8:0-12:0",
    },
}
AMENITIES = dict(
    DINER,
    attributes={
        "RestaurantsTakeOut": "True",
        "RestaurantsDelivery": "True",
        "WiFi": "u'free'",
        "BusinessAcceptsCreditCards": "True",
    },
)
BYO = dict(
    DINER,
    attributes={
        "Alcohol": "u'none'",
        "RestaurantsTakeOut": "True",
        "OutdoorSeating": "False",
        "BusinessAcceptsCreditCards": "True",
        "BusinessParking": "{'garage': False, 'street': True, 'validated': False, 'lot': False, 'valet': False}",
    },
)
PRICEY = dict(DINER, attributes={"RestaurantsPriceRange2": "4", "GoodForKids": "True"})
TAPROOM = dict(
    DINER,
    hours={
        **{d: "16:0-0:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday")},
        "Friday": "11:0-2:0",
        "Saturday": "11:0-2:0",
        "Sunday": "11:0-22:0",
    },
)
LATE = dict(DINER, business_stars=2.5, hours={"Thursday": "11:0-22:0", "Friday": "11:0-0:0", "Saturday": "12:0-0:0"})


@pytest.mark.parametrize(
    "record,answer,expected",
    [
        # "daily", "every day", "seven days a week" name all seven days
        (DINER, "It is open every day from 6 AM to 2 PM.", "grounded"),
        (DINER, "It is open daily from 6 AM to 2 PM.", "grounded"),
        (DINER, "It is open seven days a week, from 6 AM to 2 PM.", "grounded"),
        (SIX_DAYS, "It is open every day from 6 AM to 2 PM.", "unverified"),
        # noon and midnight are times of day
        (LATE, "It closes at midnight on Fridays and Saturdays.", "grounded"),
        (LATE, "It opens at noon on Saturday.", "grounded"),
        (LATE, "It opens at noon on Friday.", "contradicted"),
        # "Rated" (the model's lemma is "rat"), a category's other spelling, the site's name
        (DINER, "Rated 4.5 stars, Sunrise Diner serves breakfast.", "grounded"),
        (DINER, "Sunrise Diner serves barbecue.", "grounded"),
        (DINER, "Sunrise Diner has a 4.5-star rating on Yelp.", "grounded"),
        # "highly rated" needs 4 stars or more
        (DINER, "Sunrise Diner is a highly rated breakfast spot.", "grounded"),
        (LATE, "Sunrise Diner is a highly rated breakfast spot.", "contradicted"),
        (dict(DINER, business_stars=3.5), "Sunrise Diner is a highly rated breakfast spot.", "unverified"),
        # an adjective that judges the rating must fit the stars (DINER has 4.5)
        (DINER, "It boasts an impressive 4.5-star rating.", "grounded"),
        (DINER, "It has an excellent rating.", "grounded"),
        (dict(DINER, business_stars=5.0), "It has a perfect 5-star rating.", "grounded"),
        (DINER, "It has a perfect 4.5-star rating.", "unverified"),
        (DINER, "It has a low rating.", "contradicted"),
        (LATE, "It has an impressive rating.", "contradicted"),
        # a rating's scale; a price level in words; "falls into", "is considered" relate, state nothing
        (DINER, "Sunrise Diner has a rating of 4.5 out of 5 stars.", "grounded"),
        (PRICEY, "It holds a 4.5-star rating and falls into a higher price range.", "grounded"),
        (PRICEY, "It is considered good for kids and falls into the highest price range.", "grounded"),
        (dict(PRICEY, attributes={"RestaurantsPriceRange2": "2"}), "It falls into a higher price range.", "unverified"),
        # the opening sentence: name, trade, address, city and state from five lines
        (TAVERNA, "Santorini Taverna is a Greek restaurant located at 5364 E 82nd St in Indianapolis, IN.", "grounded"),
        (
            SALON,
            "Lotus Nail Lounge is a nail salon offering waxing services, located at 1708 W Swann Ave in Tampa, FL.",
            "grounded",
        ),
        (
            SALON,
            "Lotus Nail Lounge is a nail salon offering massage services, located at 1708 W Swann Ave in Tampa, FL.",
            "unverified",
        ),
        # a week of opening hours and another field: nine lines of one record
        (
            GYM,
            "The gym has a 4.5-star rating and is open Monday through Friday from 5 AM to 9 PM, Saturday from 7 AM to 2 PM, "
            "and Sunday from 8 AM to 12 PM.",
            "grounded",
        ),
        (
            GYM,
            "The gym has a 4.5-star rating and is open Monday through Friday from 5 AM to 9 PM, Saturday from 7 AM to 2 PM, "
            "and Sunday from 8 AM to 1 PM.",
            "contradicted",
        ),
        # a city whose line the tagger reads as a common noun ("city: Fishers.") is still that line's
        (
            {
                "name": "Umi Sushi",
                "address": "8235 E 116th St",
                "city": "Fishers",
                "state": "IN",
                "categories": "Sushi Bars, Japanese",
            },
            "Umi Sushi is a sushi bar located at 8235 E 116th St in Fishers, Indiana.",
            "grounded",
        ),
        (
            {
                "name": "Umi Sushi",
                "address": "8235 E 116th St",
                "city": "Carmel",
                "state": "IN",
                "categories": "Sushi Bars, Japanese",
            },
            "Umi Sushi is a sushi bar located at 8235 E 116th St in Fishers, Indiana.",
            "unverified",
        ),
        # a capitalised field word the tagger takes for a name is a word of the record's line
        (AMENITIES, "Takeout and delivery are available.", "grounded"),
        (AMENITIES, "Free Wi-Fi is available, and credit cards are accepted.", "grounded"),
        (dict(AMENITIES, attributes={"WiFi": "u'no'"}), "Free Wi-Fi is available.", "unverified"),
        # a claim of both polarities joined by "and": each clause against the lines on its side
        (BYO, "It does not serve alcohol, and parking is on the street.", "grounded"),
        (
            BYO,
            "It offers takeout but no outdoor seating, and it does not serve alcohol, though it accepts credit cards.",
            "grounded",
        ),
        (BYO, "It does not offer takeout, and parking is on the street.", "unverified"),
        # each time of a week of hours is said of the days next to it: before them when the claim
        # names a time first, after them when it names a day first; a heading of days before the
        # times is spelled out by the days after them
        (
            TAPROOM,
            "It is open from 4 PM to midnight Monday through Thursday and stays open until 2 AM on Fridays "
            "and Saturdays.",
            "grounded",
        ),
        (TAPROOM, "It opens at 4 PM Monday through Thursday and at 11 AM Friday through Sunday.", "grounded"),
        (TAPROOM, "Monday through Thursday it opens at 4 PM, and Friday through Sunday at 11 AM.", "grounded"),
        (
            TAPROOM,
            "It is open every day, starting at 4 PM Monday through Thursday and at 11 AM Friday through Sunday.",
            "grounded",
        ),
        (TAPROOM, "It opens at 11 AM Monday through Thursday and at 4 PM Friday through Sunday.", "unverified"),
        (
            TAPROOM,
            "It is open from 4 PM to midnight Monday through Thursday and until 1 AM on Fridays and Saturdays.",
            "contradicted",
        ),
        # "order", "suitable", "suited", "fit" relate a true attribute to the business
        (AMENITIES, "Guests can order takeout or delivery.", "grounded"),
        (
            dict(PRICEY, attributes={"GoodForKids": "True", "RestaurantsGoodForGroups": "True"}),
            "It is suitable for groups and children.",
            "grounded",
        ),
        (
            dict(PRICEY, attributes={"GoodForKids": "False", "RestaurantsGoodForGroups": "True"}),
            "It is suitable for groups and children.",
            "contradicted",
        ),
        # a field whose key runs to five words is read with its value
        (
            dict(DINER, attributes={"BusinessAcceptsCreditCards": "False", "RestaurantsGoodForGroups": "False"}),
            "It accepts credit cards.",
            "contradicted",
        ),
        (
            dict(DINER, attributes={"BusinessAcceptsCreditCards": "False", "RestaurantsGoodForGroups": "False"}),
            "It is good for groups.",
            "contradicted",
        ),
        (
            dict(DINER, attributes={"BusinessAcceptsCreditCards": "False", "RestaurantsGoodForGroups": "False"}),
            "It does not accept credit cards.",
            "grounded",
        ),
        # a state's code on its line is the state an answer names in full; a long list of
        # categories is a field, not a review's free text
        (
            {
                "name": "Red Dirt Brisket Co.",
                "address": "1324 E 11th St",
                "city": "Tulsa",
                "state": "OK",
                "categories": "Food Trucks, Barbeque, Food, Street Vendors, Caterers, Event Planning & Services",
            },
            "Red Dirt Brisket Co. is a barbecue food truck located at 1324 E 11th St in Tulsa, Oklahoma.",
            "grounded",
        ),
        # "takes reservations" does not name "take out: False": not contradicted by it
        (
            dict(
                DINER,
                attributes={
                    "RestaurantsTakeOut": "False",
                    "RestaurantsReservations": "True",
                    "OutdoorSeating": "True",
                    "Alcohol": "u'full_bar'",
                    "HappyHour": "True",
                },
            ),
            "The restaurant has a full bar, a happy hour, outdoor seating and takes reservations.",
            "unverified",
        ),
        # "with a focus on" states a category; "a bowling alley" is the record of category Bowling
        (
            {
                "name": "Everest Momo House",
                "city": "Tucson",
                "state": "AZ",
                "categories": "Himalayan/Nepalese, Indian, Restaurants, Dumplings",
            },
            "Everest Momo House is a Nepalese and Indian restaurant in Tucson, Arizona, with a focus on dumplings.",
            "grounded",
        ),
        (
            {
                "name": "Starlite Lanes",
                "city": "Edwardsville",
                "state": "IL",
                "categories": "Bowling, Active Life, Bars",
            },
            "Starlite Lanes is a bowling alley with a bar in Edwardsville, Illinois.",
            "grounded",
        ),
        # a list's heading word
        (
            dict(
                DINER,
                attributes={"WiFi": "u'free'", "HasTV": "True", "BusinessParking": "{'garage': False, 'lot': True}"},
            ),
            "* Amenities: Free Wi-Fi, TVs, parking lot",
            "grounded",
        ),
        # a denial in a list of verbs denies its own verb only
        (
            dict(BYO, attributes={**BYO["attributes"], "ByAppointmentOnly": "False", "WheelchairAccessible": "True"}),
            "It accepts credit cards, does not require appointments, offers takeout and is wheelchair accessible.",
            "grounded",
        ),
        (
            dict(BYO, attributes={**BYO["attributes"], "ByAppointmentOnly": "False", "WheelchairAccessible": "False"}),
            "It accepts credit cards, does not require appointments, offers takeout and is wheelchair accessible.",
            "contradicted",
        ),
        (
            dict(
                BYO,
                attributes={**BYO["attributes"], "RestaurantsDelivery": "False", "RestaurantsReservations": "False"},
            ),
            "It offers takeout, though it does not offer delivery or take reservations.",
            "grounded",
        ),
        (
            dict(BYO, attributes={**BYO["attributes"], "RestaurantsTakeOut": "False", "RestaurantsDelivery": "False"}),
            "It offers takeout but not delivery.",
            "contradicted",
        ),
        (
            dict(BYO, attributes={**BYO["attributes"], "RestaurantsDelivery": "False"}),
            "It offers takeout, though delivery is not available.",
            "grounded",
        ),
        # "closed on" a day the hours give is contradicted; a day they leave out is not stated
        ({"name": "Luigi's", "hours": {"Monday": "17:0-21:0"}}, "Luigi's is closed on Monday.", "contradicted"),
        (GYM, "The gym is closed on Saturdays.", "contradicted"),
        (SIX_DAYS, "It is closed on Sundays.", "unverified"),
        # a day named with one end of its hours only is not misstated: its other end is not said
        (
            GYM,
            "The gym is open Monday through Friday from 5 AM to 9 PM and until 2 PM on Saturday and Sunday.",
            "unverified",
        ),
    ],
)
def test_record_phrasings(nlp, record, answer, expected):
    report = sourced_nlp.check(answer, [record], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason


def test_hours_conflict_names_the_time_of_its_day(nlp):
    """Friday's line conflicts with the time said of Friday, not with Monday's."""
    report = sourced_nlp.check(
        "It is open from 4 PM to midnight Monday through Thursday and until 1 AM on Fridays and Saturdays.",
        [TAPROOM],
        nlp=nlp,
    )
    claim = report.claims[0]
    assert claim.verdict == "contradicted", claim.reason
    assert claim.differs[0]["claim"] == "until 1 AM", claim.differs
    assert "Friday" in claim.evidence[0].text or "Saturday" in claim.evidence[0].text, claim.evidence


@pytest.mark.parametrize(
    "answer,expected",
    [
        ("The Double Stack costs $9.", "grounded"),
        ("The Double Stack is priced at $9.", "grounded"),
        ("The Double Stack costs $12.", "contradicted"),
        ("The Double Stack costs a lot.", "unverified"),
    ],
)
def test_a_price_word_is_stated_by_the_amount(nlp, answer, expected):
    """'costs $9' against 'The Double Stack is $9': the amount says it is a price."""
    report = sourced_nlp.check(answer, ["The Double Stack is $9 and worth every bite."], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason


def test_a_review_is_one_text_however_short_its_first_sentence(nlp):
    """Every sentence of a review belongs to it, "Ehh." included: a claim about one customer is
    told from that review, not from a sentence of another that shares a word."""
    record = dict(
        DINER,
        review_info=[
            {
                "review_stars": 4.0,
                "review_date": "2021-09-12",
                "review_text": "Ordered pancakes. They forgot our iced tea.",
            },
            {
                "review_stars": 3.0,
                "review_date": "2022-11-05",
                "review_text": "Ehh. Came with a group of 8 and they were "
                "really accommodating. But the food came out staggered. Our server forgot refills a couple times.",
            },
        ],
    )
    report = sourced_nlp.check(
        "Another customer said the staff accommodated a group of 8, but the food came out "
        "staggered and the server forgot refills.",
        [record],
        nlp=nlp,
    )
    claim = report.claims[0]
    assert claim.verdict == "grounded", claim.reason
    assert all("iced tea" not in e.text for e in claim.evidence), claim.evidence


def test_a_hyphenated_duration_is_a_value(nlp):
    """'a 60-minute massage' is 60 minutes: the review's '60 min' states it, '90 min' does not."""
    for review, expected in (
        ("60 min massage was $110 plus tip, worth it.", "grounded"),
        ("90 min massage was $110 plus tip, worth it.", "contradicted"),
    ):
        record = dict(DINER, review_info=[{"review_stars": 5.0, "review_date": "2023-01-02", "review_text": review}])
        report = sourced_nlp.check("A 60-minute massage costs $110 plus tip.", [record], nlp=nlp)
        assert report.claims[0].verdict == expected, (review, report.claims[0].reason)


def test_daily_in_prose_names_no_weekday(nlp):
    report = sourced_nlp.check(
        "Get enough sleep, 7 hours daily.", ["Adults should get enough sleep, 7 hours daily."], nlp=nlp
    )
    assert report.claims[0].verdict == "grounded", report.claims[0].reason


VELVET = {
    "name": "Velvet Room",
    "city": "Reno",
    "state": "NV",
    "categories": "Bars, Nightlife",
    "attributes": {
        "RestaurantsReservations": "False",
        "GoodForKids": "False",
        "BikeParking": "True",
        "BusinessParking": "{'garage': False, 'street': True, 'lot': False}",
        "Music": "{'live': True, 'no_music': False}",
        "ByAppointmentOnly": "False",
    },
}
TAKEOUT = {
    "name": "Velvet Room",
    "city": "Reno",
    "state": "NV",
    "categories": "Bars, Nightlife",
    "attributes": {"RestaurantsTakeOut": "False", "RestaurantsReservations": "True"},
}
DOG_HOUSE = {
    "name": "Dog House",
    "city": "Reno",
    "state": "NV",
    "categories": "Hot Dogs, Restaurants",
    "attributes": {"DogsAllowed": "False", "Caters": "False"},
}


def _bar(alcohol: str) -> dict:
    return {
        "name": "Golden Lantern",
        "city": "Philadelphia",
        "state": "PA",
        "categories": "Chinese, Restaurants",
        "attributes": {"Alcohol": alcohol, "RestaurantsTakeOut": "True", "WiFi": "u'free'"},
    }


@pytest.mark.parametrize(
    "record,answer,expected",
    [
        # an affirmed claim that names a field the record denies is contradicted, whatever it adds
        (VELVET, "It also accepts reservations for large parties on weekends.", "contradicted"),
        (VELVET, "The restaurant is a great choice for families with children.", "contradicted"),
        # a field named only in part is not stated: "lot: False" says nothing of street parking
        (VELVET, "Street parking and bike parking are available.", "grounded"),
        # a negative key's false value affirms ("music no music: False"), a restriction's permits
        (VELVET, "The bar offers live music.", "grounded"),
        (VELVET, "Appointments can be made online.", "unverified"),
        # the words of a key stand together, or joined
        (TAKEOUT, "It takes reservations, and dinner there makes a fun night out.", "unverified"),
        (TAKEOUT, "It does take-out orders.", "contradicted"),
        (TAKEOUT, "Takeout is available.", "contradicted"),
        # words of a key that name no attribute
        (DOG_HOUSE, "The Dog House serves hot dogs and fries.", "unverified"),
        (DOG_HOUSE, "The restaurant caters to families.", "unverified"),
        (DOG_HOUSE, "Dogs are welcome on the patio.", "contradicted"),
        (DOG_HOUSE, "The restaurant offers catering.", "contradicted"),
        # the drinks name Alcohol; a full bar is another value than beer and wine
        (_bar("u'none'"), "The restaurant serves Chinese beers with its noodles.", "contradicted"),
        (_bar("u'beer_and_wine'"), "The restaurant has a full bar with craft cocktails.", "contradicted"),
        (_bar("u'beer_and_wine'"), "The restaurant serves beer and wine.", "grounded"),
        (_bar("u'full_bar'"), "The restaurant has a full bar.", "grounded"),
    ],
)
def test_attribute_fields_named_in_a_claim(nlp, record, answer, expected):
    report = sourced_nlp.check(answer, [record], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason


@pytest.mark.parametrize(
    "review,stars,claim,expected",
    [  # a verb that frames the reviewer's opinion ("felt", "found", "citing") is held by any review
        (
            "Rolls were mostly rice and our server forgot our edamame twice.",
            2.0,
            "One reviewer felt the rolls were mostly rice.",
            "grounded",
        ),
        (
            "Rolls were mostly rice and our server forgot our edamame twice.",
            2.0,
            "One reviewer found the rolls to be mostly rice.",
            "grounded",
        ),
        # ... but it counts for nothing: an excess ("too much rice") the review does not state stays unshown
        (
            "Nigiri fish to rice ratio is off though.",
            3.0,
            "One reviewer felt the nigiri had too much rice.",
            "unverified",
        ),
    ],
)
def test_a_review_frames_its_own_opinion(nlp, review, stars, claim, expected):
    record = dict(DINER, review_info=[{"review_stars": stars, "review_date": "2023-01-02", "review_text": review}])
    report = sourced_nlp.check(claim, [record], nlp=nlp)
    assert report.claims[0].verdict == expected, report.claims[0].reason
