"""What a judge backend tells the rest of the package: its ``--judge`` name, its factory
(registered in ``spacy.registry.misc`` as ``sourced.judge.NAME.v1``), how the command line's
``--judge-model``, ``--judge-concurrency`` and ``--judge-file`` (and the command-line options it
declares, such as ``--judge-base-url``) become its config, and what it checks before any work. A backend module makes one :class:`Backend`; :data:`BACKENDS` holds
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

#: The options a backend may declare (:attr:`Backend.options`), by keyword, with their flag.
OPTIONS = {"base_url": "--judge-base-url"}

#: What a judge is asked about (``--judge-scope``): the claims the rules left unverified, or
#: those and the claims the rules (or the meaning tier) grounded.
SCOPES = ("unverified", "all")


def _no_check(model: Optional[str], concurrency: int, file: Optional[str], **options: Any) -> None:
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
        options: the further command-line options it takes (keys of :data:`OPTIONS`:
            ``base_url`` is ``--judge-base-url``); ``config`` and ``check`` then take each as a
            keyword argument (None when not given). Another backend refuses them.
    """

    name: str
    factory: Callable[..., Any]
    config: Callable[..., dict]
    check: Callable[..., None] = _no_check
    options: tuple[str, ...] = ()

    @property
    def registry_name(self) -> str:
        return f"sourced.judge.{self.name}.v1"


def backend(
    name: str,
    factory: Callable[..., Any],
    config: Callable[..., dict],
    check: Callable[..., None] = _no_check,
    options: tuple[str, ...] = (),
) -> Backend:
    """Declare a backend: made once, by its module, and kept in :data:`BACKENDS`.

    Raises:
        ValueError: another backend has the name, or an option that is not in :data:`OPTIONS`.
    """
    if name in BACKENDS:
        raise ValueError(f"a judge backend named {name!r} exists already")
    unknown = [o for o in options if o not in OPTIONS]
    if unknown:
        raise ValueError(f"judge backend {name!r}: unknown options {unknown} (known: {', '.join(OPTIONS)})")
    BACKENDS[name] = made = Backend(name, factory, config, check, tuple(options))
    return made


def takes(option: str) -> str:
    """The names of the backends that declare ``option``, as a sentence lists them."""
    names = [b.name for b in BACKENDS.values() if option in b.options]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def names_text() -> str:
    """The backends' names as a sentence lists them: ``"anthropic, openai, replay or callable"``."""
    names = list(BACKENDS)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def register() -> None:
    """Put every backend's factory in ``spacy.registry.misc`` under its
    :attr:`~Backend.registry_name` (again on each call: registering is idempotent)."""
    import spacy

    for b in BACKENDS.values():
        spacy.registry.misc.register(b.registry_name, func=b.factory)


def recording(judge: Any, record: Optional[str], scope: str = "unverified") -> Any:
    """``judge`` with ``judge.record`` set (the tier appends its answers there) and
    ``judge.scope`` (one of :data:`SCOPES`: what the tier asks it about).

    Raises:
        ValueError: a scope not in :data:`SCOPES`.
    """
    if scope not in SCOPES:
        raise ValueError(f"judge scope must be one of {', '.join(SCOPES)}, got {scope!r}")
    judge.record = record or None
    judge.scope = scope
    return judge


def cache(cache_dir: Optional[str]) -> Optional[JudgmentCache]:
    """A judgment cache in ``cache_dir``, or None."""
    return JudgmentCache(cache_dir) if cache_dir else None
