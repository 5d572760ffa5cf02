"""The import paths of the previous layout, kept for one release: every old module name, and
the module it is now. ``import sourced_nlp.batching`` gives the module
:mod:`sourced_nlp.batch.results` itself (the same object, so patching either patches both),
with a ``DeprecationWarning`` naming the new path.

Installed by ``sourced_nlp/__init__.py``; imports nothing of the package until an old name is
imported.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: old module -> the module it is now (removed in the release after 0.1)
MOVED = {
    "sourced_nlp._exit": "sourced_nlp.cli.signals",
    "sourced_nlp._stdout": "sourced_nlp.cli.stdout",
    "sourced_nlp.console": "sourced_nlp.cli.console",
    "sourced_nlp.eval_cli": "sourced_nlp.cli.eval",
    "sourced_nlp.outputs": "sourced_nlp.cli.outputs",
    "sourced_nlp.judges.cli": "sourced_nlp.cli.judge",
    "sourced_nlp.meaning.cli": "sourced_nlp.cli.meaning",
    "sourced_nlp.batching": "sourced_nlp.batch.results",
    "sourced_nlp.checker_process": "sourced_nlp.batch.child",
    "sourced_nlp.dask_batch": "sourced_nlp.batch.dask",
    "sourced_nlp.blocks": "sourced_nlp.components.blocks",
    "sourced_nlp.parts": "sourced_nlp.components.parts",
    "sourced_nlp.extensions": "sourced_nlp.components.extensions",
    "sourced_nlp.citation_check": "sourced_nlp.citing.citation_check",
    "sourced_nlp.fields": "sourced_nlp.citing.fields",
    "sourced_nlp.prompts": "sourced_nlp.citing.prompts",
    "sourced_nlp.provenance": "sourced_nlp.citing.provenance",
    "sourced_nlp.citations": "sourced_nlp.text.citations",
    "sourced_nlp.quantity": "sourced_nlp.text.quantity",
    "sourced_nlp.sources": "sourced_nlp.text.sources",
    "sourced_nlp.markup": "sourced_nlp.text.markup",
    "sourced_nlp.lexicons": "sourced_nlp.text.lexicons",
    "sourced_nlp.report_schema": "sourced_nlp.report.schema",
    "sourced_nlp.findings": "sourced_nlp.report.findings",
    "sourced_nlp.marks": "sourced_nlp.report.marks",
    "sourced_nlp.html": "sourced_nlp.report.html",
    "sourced_nlp.markdown": "sourced_nlp.report.markdown",
    "sourced_nlp.frame": "sourced_nlp.report.frame",
    "sourced_nlp.render": "sourced_nlp.report.text",
    "sourced_nlp.meaning": "sourced_nlp.verdict.meaning",
    "sourced_nlp.meaning.model": "sourced_nlp.verdict.meaning.model",
    "sourced_nlp.meaning.features": "sourced_nlp.verdict.meaning.features",
    "sourced_nlp.judges.calibrate": "sourced_nlp.evaluation.calibrate",
    "sourced_nlp.judges.claude": "sourced_nlp.judges.backends.anthropic",
    "sourced_nlp.audit": "sourced_nlp.evaluation.audit",
}


#: module -> {name: the module it moved to}: names that left a module that stays
MOVED_NAMES = {
    "sourced_nlp.text.sources": dict.fromkeys(
        (
            "read_file_bytes",
            "_read_utf8",
            "parse_json",
            "load_source_file",
            "read_answer",
            "_decode",
            "read_stdin_bytes",
            "read_stdin",
        ),
        "sourced_nlp.files",
    ),
    "sourced_nlp.report.schema": {"validate_report": "sourced_nlp.report.model"},
}


def moved_name(module: str, name: str):
    """``name`` of ``module`` read from the module it moved to (:data:`MOVED_NAMES`), with a
    ``DeprecationWarning``.

    Raises:
        AttributeError: ``name`` did not move (the module has no such attribute).
    """
    new = MOVED_NAMES.get(module, {}).get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(
        f"{module}.{name} is now {new}.{name}; the old path goes in the next release", DeprecationWarning, stacklevel=3
    )
    return getattr(importlib.import_module(new), name)


class _OldPath(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module name of :data:`MOVED` and loads it as the module it is now."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} is now {new}; the old path goes in the next release", DeprecationWarning, stacklevel=2
        )
        return importlib.import_module(new)

    def exec_module(self, module) -> None:
        pass  # the module was run when it was imported under its own name


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _OldPath) for f in sys.meta_path):
        sys.meta_path.insert(0, _OldPath())
