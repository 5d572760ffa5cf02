"""What a judge backend tells the rest of the package: its ``--judge`` name, its factory
(registered in ``spacy.registry.misc`` as ``sourced.judge.NAME.v1``), how the command line's
``--judge-model``, ``--judge-concurrency`` and ``--judge-file`` become its config, and what it
checks before any work. A backend module makes one :class:`Backend`; :data:`BACKENDS` holds
them in the order their modules are imported (``backends/__init__.py``).

Standard library only: the command line reads the backends for its ``--help`` without spaCy;
:func:`register` puts the factories in spaCy's registry when a pipeline is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..cache import JudgmentCache

#: The backends, by ``--judge`` name, in the order their modules were imported.
BACKENDS: dict[str, "Backend"] = {}


def _no_check(model: Optional[str], concurrency: int, file: Optional[str]) -> None:
    pass


@dataclass(frozen=True)
class Backend:
    """A judge backend.

    Attributes:
        name: the ``--judge`` name (``sourced.judge.NAME.v1`` in the registry).
        factory: the registered function that makes the judge from its config.
        config: ``(model, concurrency, file) -> dict``: the factory's arguments from the
            command line's ``--judge-model``, ``--judge-concurrency`` and ``--judge-file``.
        check: ``(model, concurrency, file) -> None``: raises ``ValueError`` (one line) when
            the options cannot work, before any input is read.
    """

    name: str
    factory: Callable[..., Any]
    config: Callable[[Optional[str], int, Optional[str]], dict]
    check: Callable[[Optional[str], int, Optional[str]], None] = _no_check

    @property
    def registry_name(self) -> str:
        return f"sourced.judge.{self.name}.v1"


def backend(name: str, factory: Callable[..., Any], config: Callable[[Optional[str], int, Optional[str]], dict],
            check: Callable[[Optional[str], int, Optional[str]], None] = _no_check) -> Backend:
    """Declare a backend: made once, by its module, and kept in :data:`BACKENDS`.

    Raises:
        ValueError: another backend has the name.
    """
    if name in BACKENDS:
        raise ValueError(f"a judge backend named {name!r} exists already")
    BACKENDS[name] = made = Backend(name, factory, config, check)
    return made


def names_text() -> str:
    """The backends' names as a sentence lists them: ``"anthropic, replay or callable"``."""
    names = list(BACKENDS)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def register() -> None:
    """Put every backend's factory in ``spacy.registry.misc`` under its
    :attr:`~Backend.registry_name` (again on each call: registering is idempotent)."""
    import spacy

    for b in BACKENDS.values():
        spacy.registry.misc.register(b.registry_name, func=b.factory)


def recording(judge: Any, record: Optional[str]) -> Any:
    """``judge`` with ``judge.record`` set: the tier appends its answers there."""
    judge.record = record or None
    return judge


def cache(cache_dir: Optional[str]) -> Optional[JudgmentCache]:
    """A judgment cache in ``cache_dir``, or None."""
    return JudgmentCache(cache_dir) if cache_dir else None
