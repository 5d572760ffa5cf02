"""The meaning tier's part of the command line: ``--meaning/--no-meaning`` of ``check``,
``cite`` and ``batch`` and the ``sourced_verify`` config it selects."""

from __future__ import annotations

import typer

MEANING = typer.Option(
    True,
    "--meaning/--no-meaning",
    help="The meaning tier (a learned score, after the rules, for the claims they leave unverified "
    "with every name and value present); --no-meaning: the rules only.",
)


def meaning_config(meaning: bool) -> dict:
    """The ``sourced_verify`` config overrides for the option: ``{}`` (the default, the shipped
    model) when on, ``{"meaning": None}`` when off."""
    return {} if meaning else {"meaning": None}
