"""The package faces' names read on first use (PEP 562), written once for the four faces
(``sourced_nlp``, :mod:`sourced_nlp.report`, :mod:`sourced_nlp.judges`, :mod:`sourced_nlp.cli`).

A face imports nothing heavy when it is imported: ``import sourced_nlp``, ``sourced --help`` and
``--version`` pay neither for spaCy nor for modules they do not use. Imports nothing of the
package, so that any module may use it.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from typing import Any

__all__ = ["lazy_face"]


def lazy_face(
    namespace: MutableMapping[str, Any], where: Mapping[str, Iterable[str]] | None = None, search: Iterable[str] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the package whose globals are ``namespace``.

    ``__getattr__(name)`` gives, in this order: a name of ``where`` (``{"api": ("check", ...)}``,
    module paths relative to the package), read from its module; a submodule
    (``sourced_nlp.report.html``), imported; the first module of ``search`` (``(".model",
    ...)``) that has ``name`` (not None). A name read from a module is kept in ``namespace``, so
    the next use is a plain look-up. ``__dir__`` lists the package's globals and the names of
    ``where``.

    Raises (``__getattr__``):
        AttributeError: ``module 'sourced_nlp' has no attribute 'x'``: none of the three.
    """
    package = namespace["__name__"]
    module_of = {name: module for module, names in (where or {}).items() for name in names}
    search = tuple(search)

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is not None:
            value = getattr(importlib.import_module(f".{module}", package), name)
        elif not name.startswith("__") and importlib.util.find_spec(f"{package}.{name}") is not None:
            return importlib.import_module(f".{name}", package)
        else:
            for module in search:
                value = getattr(importlib.import_module(module, package), name, None)
                if value is not None:
                    break
            else:
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(module_of))

    return __getattr__, __dir__
