"""Text as this package reads it, pure Python with no spaCy: quantities, dates and their
comparison (:mod:`.quantity`), quoted passages and citation markers (:mod:`.citations`),
sources and answers as text (:mod:`.sources`), JSON records linearised (:mod:`.linearize`), markup blanked with offsets
kept (:mod:`.markup`) and the lexicon files of ``models/`` (:mod:`.lexicons`).

May import nothing else of the package: every other part builds on it.
"""
