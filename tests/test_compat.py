"""The import paths of the previous layout, kept for one release (``sourced_nlp/_compat.py``):
each old module name gives the module it is now, the same object, with a DeprecationWarning
naming the new path; a name that left a module that stays is read from its new module."""

from __future__ import annotations

import importlib
import sys

import pytest

from sourced_nlp._compat import MOVED, MOVED_NAMES


@pytest.mark.parametrize("old, new", sorted(MOVED.items()))
def test_an_old_module_path_is_the_new_module(old, new):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        got = importlib.import_module(old)
    assert got is importlib.import_module(new)


@pytest.mark.parametrize(
    "module, name, new", [(m, n, new) for m, names in MOVED_NAMES.items() for n, new in sorted(names.items())]
)
def test_a_moved_name_is_read_from_its_new_module(module, name, new):
    with pytest.warns(DeprecationWarning, match=f"{new}.{name}"):
        got = getattr(importlib.import_module(module), name)
    assert got is getattr(importlib.import_module(new), name)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = importlib.import_module("sourced_nlp.text.sources").no_such_name


def test_old_paths_in_a_from_import():
    """The forms users wrote: ``from sourced_nlp.batching import results`` and the like."""
    for old in ("sourced_nlp.batching", "sourced_nlp.meaning", "sourced_nlp.meaning.model"):
        sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning):
        from sourced_nlp.batching import results  # noqa: F401
    with pytest.warns(DeprecationWarning):
        from sourced_nlp.meaning.model import MeaningModel
    from sourced_nlp.verdict.meaning.model import MeaningModel as now

    assert MeaningModel is now


def test_the_audit_log_moved_into_evaluation():
    """``sourced_nlp/audit.py`` is ``sourced_nlp/evaluation/audit.py``: ``from sourced_nlp import
    audit`` (the form the tests used) still gives it, with the warning."""
    import sourced_nlp

    sys.modules.pop("sourced_nlp.audit", None)
    sourced_nlp.__dict__.pop("audit", None)
    with pytest.warns(DeprecationWarning, match=r"sourced_nlp\.evaluation\.audit"):
        from sourced_nlp import audit
    from sourced_nlp.evaluation import audit as now

    assert audit is now and audit.SCHEMA == "sourced.audit/1"
