"""Many records checked: one JSON-able result per record, in order (:mod:`.results`, the one
entry point every engine maps), the single-threaded checking child that a host with threads
of its own hands records to (:mod:`.child`), the file a run writes (:mod:`.output`: its lock,
its result lines, what ``--resume`` reads back), and Dask (:mod:`.dask`, the ``dask`` extra).

May import :mod:`sourced_nlp.text`, :mod:`sourced_nlp.report` and the package's API (the
pipeline); never the command line.
"""
