"""Writes ``models/aliases.json``: names that stand for one thing, so that a known alias never
reads as another name (``contradicted.entity``) and grounds like the name itself.

Sources:

- **Countries** from ``pycountry`` (the ISO 3166 databases of Debian's iso-codes, LGPL-2.1): each
  country's short name, official name and common name, and a former name from ISO 3166-3 where
  the country was renamed, not merged or split (Burma -> Myanmar, Zaire -> the Democratic Republic
  of the Congo, East Timor -> Timor-Leste). Two- and three-letter codes are left out: they are
  words of running text ("IN", "ME", "CAN").
- **Well-known other names** written for this package (``OTHER_NAMES`` below): the English
  exonyms and former names of countries and large cities in common use (Holland, Persia, Bombay,
  Peking), and the short forms of central banks, international bodies and large companies that
  news and filings use (the Fed, the ECB, J&J). Each group is one thing under every name.

Run (``pycountry`` is in the ``dev`` extra)::

    python bench/make_aliases.py
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ISO 3166-3 entries that were merged or split, not renamed: no alias of their successor
NOT_RENAMED = {
    "DDDE",
    "SKIN",
    "CSHH",
    "SUHH",
    "YUCS",
    "ANHH",
    "CSXX",
    "NTHH",
    "YDYE",
    "VDVN",
    "FXFR",
    "AIDJ",
    "BQAQ",
    "CTKI",
    "GEHH",
    "JTUM",
    "MIUM",
    "NQAQ",
    "PCHH",
    "PUUM",
    "PZPA",
    "WKUM",
}
OTHER_NAMES = [
    # countries: exonyms and former names in common English use
    ["netherlands", "holland", "the netherlands"],
    ["myanmar", "burma"],
    ["sri lanka", "ceylon"],
    ["iran", "persia"],
    ["thailand", "siam"],
    ["eswatini", "swaziland"],
    ["czechia", "czech republic"],
    ["turkey", "türkiye", "turkiye"],
    ["côte d'ivoire", "ivory coast", "cote d'ivoire"],
    ["north macedonia", "macedonia"],
    ["cabo verde", "cape verde"],
    ["democratic republic of the congo", "dr congo", "drc", "zaire", "congo-kinshasa"],
    ["timor-leste", "east timor"],
    ["vatican city", "holy see", "the vatican"],
    ["united arab emirates", "uae"],
    ["south africa", "rsa"],
    # cities: former names and exonyms
    ["mumbai", "bombay"],
    ["chennai", "madras"],
    ["kolkata", "calcutta"],
    ["bengaluru", "bangalore"],
    ["beijing", "peking"],
    ["guangzhou", "canton"],
    ["ho chi minh city", "saigon"],
    ["yangon", "rangoon"],
    ["istanbul", "constantinople"],
    ["st petersburg", "saint petersburg", "leningrad"],
    ["volgograd", "stalingrad"],
    ["kyiv", "kiev"],
    ["almaty", "alma-ata"],
    ["astana", "nur-sultan"],
    ["kinshasa", "léopoldville"],
    ["harare", "salisbury"],
    ["jakarta", "batavia"],
    ["taipei", "taihoku"],
    ["gdańsk", "gdansk", "danzig"],
    # central banks, public bodies, international organisations
    ["federal reserve", "fed", "the fed", "federal reserve board", "us federal reserve", "federal reserve system"],
    ["european central bank", "ecb"],
    ["bank of england", "boe"],
    ["bank of japan", "boj"],
    ["people's bank of china", "pboc"],
    ["reserve bank of india", "rbi"],
    ["international monetary fund", "imf"],
    ["world bank", "world bank group"],
    ["world trade organization", "wto"],
    ["north atlantic treaty organization", "nato"],
    ["organisation for economic co-operation and development", "oecd"],
    ["securities and exchange commission", "sec", "us securities and exchange commission"],
    ["food and drug administration", "fda", "us food and drug administration"],
    ["centers for disease control and prevention", "cdc"],
    ["central intelligence agency", "cia"],
    ["environmental protection agency", "epa"],
    ["internal revenue service", "irs"],
    ["national health service", "nhs"],
    ["organization of the petroleum exporting countries", "opec"],
    # companies: the short forms of filings and news
    ["johnson & johnson", "j&j", "johnson and johnson"],
    ["procter & gamble", "p&g", "procter and gamble"],
    ["general motors", "gm"],
    ["general electric", "ge"],
    ["international business machines", "ibm"],
    ["hewlett-packard", "hp"],
    ["bank of america", "bofa"],
    ["jpmorgan chase", "jpmorgan", "jp morgan", "jpm"],
    ["goldman sachs", "goldman"],
    ["alphabet", "google"],
    ["meta platforms", "meta", "facebook"],
    ["x corp", "twitter"],
    ["amazon.com", "amazon"],
    ["microsoft corporation", "microsoft", "msft"],
    ["exxonmobil", "exxon mobil", "exxon"],
    ["royal dutch shell", "shell"],
    ["british petroleum", "bp"],
    ["volkswagen", "vw"],
    ["bayerische motoren werke", "bmw"],
    ["american telephone and telegraph", "at&t"],
    ["united parcel service", "ups"],
    ["kentucky fried chicken", "kfc"],
    ["3m", "minnesota mining and manufacturing"],
]


def main() -> None:
    import pycountry

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "aliases.json")
    args = ap.parse_args()
    groups: dict[str, list[str]] = {}
    for c in pycountry.countries:
        names = [c.name, getattr(c, "official_name", None), getattr(c, "common_name", None)]
        groups[c.alpha_2] = [n for n in names if n]
    for h in pycountry.historic_countries:
        code = getattr(h, "alpha_4", "")
        successor = code[2:]
        if code in NOT_RENAMED or successor not in groups:
            continue
        groups[successor].append(h.name.split(",")[0])
    out_groups = []
    for code in sorted(groups):
        names = list(dict.fromkeys(n.lower() for n in groups[code]))
        if len(names) >= 2:
            out_groups.append(names)
    out_groups += [list(dict.fromkeys(g)) for g in OTHER_NAMES]
    out = {
        "_source": {
            "countries": f"pycountry {pycountry.__version__ if hasattr(pycountry, '__version__') else ''} (ISO 3166-1 and ISO 3166-3 "
            "from Debian's iso-codes; LGPL-2.1): short, official and common names, and former names of "
            "renamed countries",
            "other_names": "written for sourced-nlp (bench/make_aliases.py OTHER_NAMES): English exonyms and former "
            "names of countries and large cities, short forms of central banks, public bodies, "
            "international organisations and large companies",
            "made_by": "bench/make_aliases.py",
        },
        "aliases": out_groups,
    }
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf8")
    print(f"{args.out}: {len(out_groups)} alias groups")


if __name__ == "__main__":
    main()
