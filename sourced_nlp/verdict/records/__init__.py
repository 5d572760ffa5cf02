"""The rules for business records (a linearised JSON record among the sources: Yelp's businesses).

They run only when the sources hold records: :mod:`.rating` (the stars a claim's praise or
rating word implies), :mod:`.hours` (opening hours and closed days), :mod:`.fields` (a field's
value the claim affirms against the record's false line or another value).

May import the rest of :mod:`sourced_nlp.verdict` only.
"""
