"""The user's Python named on the command line: ``sourced eval run --target``, the
``--judge-model`` of ``--judge callable``.

Pure module (no spaCy); imports only :mod:`sourced_nlp.errors` of the package, so that the judge
backends and the evaluation can both use it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from types import ModuleType

from .errors import SourceError

__all__ = ["import_user_module"]


def import_user_module(name: str, what: str = "module") -> ModuleType:
    """The module ``name``: a path to a ``.py`` file (it has a ``/`` or ends with ``.py``), or a
    dotted name importable from the working directory (put on ``sys.path`` for it, as
    ``python -m`` does). A file is imported once per process (under the name
    ``_sourced_target_<stem>``) and kept.

    Raises:
        SourceError: ``"<what> file not found: PATH"`` for a path that is no file. An error of
            the module itself (ImportError, SyntaxError, anything its code raises) propagates.
    """
    if name.endswith(".py") or os.sep in name or "/" in name:
        if not os.path.isfile(name):
            raise SourceError(f"{what} file not found: {name}")
        mod_name = "_sourced_target_" + os.path.splitext(os.path.basename(name))[0]
        path = os.path.realpath(name)
        known = sys.modules.get(mod_name)
        if known is not None and getattr(known, "__file__", None) == path:
            return known
        spec = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(mod_name, None)
            raise
        return module
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    return importlib.import_module(name)
