"""The judge backends: one module each, declaring its :class:`~.spec.Backend` (its ``--judge``
name, its registered factory ``sourced.judge.NAME.v1``, its options and its checks).

The imports below are the list of backends: a new backend is one new module here and one import
line below; the command line's ``--judge`` choices, its help, its config and its checks all read
:data:`~.spec.BACKENDS`. Nothing here imports spaCy or a backend's SDK: :func:`~.spec.register`
puts the factories in ``spacy.registry.misc`` when a pipeline is built. :mod:`.chat` is no
backend: what the backends over a chat API share (requests of ``max_claims`` claims, in flight
``concurrency`` at a time, a failed request failing its claims with the reason).
"""

from __future__ import annotations

# each import declares one backend, in --judge order
# isort: off
from . import anthropic  # noqa: F401
from . import openai  # noqa: F401
from . import replay  # noqa: F401
from . import function  # noqa: F401

# isort: on
from .function import CallableJudge, JudgeFunction, import_function, make_callable_judge
from .replay import ReplayJudge, make_replay_judge, read_recording, record_answers, replayed
from .spec import BACKENDS, Backend, backend, names_text, register

__all__ = [
    "BACKENDS",
    "Backend",
    "backend",
    "names_text",
    "register",
    "CallableJudge",
    "JudgeFunction",
    "import_function",
    "make_callable_judge",
    "ReplayJudge",
    "make_replay_judge",
    "read_recording",
    "record_answers",
    "replayed",
]
