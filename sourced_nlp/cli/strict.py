"""Strictness on the command line: ``--strict`` and ``--strict-level`` of ``check``, ``cite``,
``batch`` and ``serve``, and the ``sourced_verify`` config they select (``strict``,
:mod:`sourced_nlp.verdict.precision`): a claim stays ``grounded`` only when the rule that
grounded it was measured at least that precise on natural text; any other grounding becomes
``unverified`` (rule ``unverified.strict``), its evidence kept.
"""

from __future__ import annotations

from typing import Optional

import typer

#: :data:`~sourced_nlp.verdict.precision.STRICT_DEFAULT`, written here for the help text alone:
#: importing that module loads the verdict package (rapidfuzz), which ``--help`` must not
#: (tests/components/test_trust.py checks that the two agree; :func:`strict_level` reads the module's).
HELP_DEFAULT = 0.9

STRICT = typer.Option(
    False,
    "--strict",
    help=f"Keep only the groundings of the most precise rules: a claim stays grounded only when its rule was "
    f"measured at least {HELP_DEFAULT:.0%} precise on natural text (--strict-level for another level); "
    "any other grounding becomes unverified (rule unverified.strict), its evidence kept.",
)
STRICT_LEVEL = typer.Option(
    None,
    "--strict-level",
    metavar="SHARE",
    help=f"The level of --strict, a share in (0, 1] (default {HELP_DEFAULT}); giving it turns --strict on.",
)


def strict_level(strict: bool, level: Optional[float]) -> Optional[float]:
    """The strict level the options select: ``level`` when given, else
    :data:`~sourced_nlp.verdict.precision.STRICT_DEFAULT` with ``--strict``, else None (off).

    Raises:
        ValueError: a ``--strict-level`` outside (0, 1] (or NaN), one line naming the value.
    """
    if level is None and not strict:
        return None  # nothing imported: the verdict package is loaded only by a check
    from ..verdict.precision import STRICT_DEFAULT, check_strict

    if level is not None:
        return check_strict(level, "--strict-level", off="")
    return STRICT_DEFAULT


def strict_config(level: Optional[float]) -> dict:
    """The ``sourced_verify`` config overrides for a strict level: ``{}`` when off (None),
    ``{"strict": level}`` otherwise."""
    return {} if level is None else {"strict": level}
