"""The ``sourced`` command line, one module a command (:mod:`.check`, :mod:`.cite`,
:mod:`.fields`, :mod:`.batch`, :mod:`.calibrate`, :mod:`.eval`, :mod:`.audit`, :mod:`.serve` with its web app
:mod:`.web`), what they share
(:mod:`._util`: the Typer app, options, output; :mod:`.gate`: ``--fail-on`` and the gate's
exit code; :mod:`.judge` and :mod:`.meaning`: the tier options), the outputs a command refuses (:mod:`.outputs`: one "refuse an output that
is an input"), how the process ends on a signal or a closed pipe (:mod:`.signals`,
:mod:`.stdout`), the run that turns errors into exit codes (:mod:`._main`) and the console
script (:mod:`.console`).

The top of the package: it may import every other part, and nothing imports it. This module
imports none of them, so that ``sourced --version`` and ``--help`` stay off spaCy;
``from sourced_nlp.cli import app, main`` reads :mod:`._main` on first use (PEP 562).
"""

from __future__ import annotations

from .._lazy import lazy_face

#: A submodule (``sourced_nlp.cli.eval``), or a name of :mod:`._main`, :mod:`._util` or
#: :mod:`.gate`, on first use.
__getattr__, __dir__ = lazy_face(globals(), search=("._main", "._util", ".gate"))
