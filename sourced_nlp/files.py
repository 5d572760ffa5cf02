"""Reading what the user gives: answer and source files, standard input, JSON, each with a
bound and one clear error naming the file.

Pure module (no spaCy). Every reader raises :class:`~sourced_nlp.errors.SourceError` (exit 2 on
the command line) for a missing, unreadable, non-UTF-8, empty or malformed input.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
import sys
from collections.abc import Mapping
from typing import Any

from .errors import SourceError, TooLargeError
from .text.sources import (
    _document_keys,
    _id_without_text,
    _is_mapping_source,
    _no_text,
    _unwrap,
    linearize,
    unpaired_surrogate,
)

#: the most characters of an answer the command line reads: what the language model reads at once
#: (spaCy's default ``nlp.max_length``); a source may have ``MAX_SOURCE_CHARS``
MAX_ANSWER_CHARS = 1_000_000

__all__ = [
    "read_file_bytes",
    "parse_json",
    "load_source_file",
    "source_from_bytes",
    "read_answer",
    "read_stdin",
    "read_stdin_bytes",
]


def _byte_bound(max_chars: int) -> int:
    """The most bytes ``max_chars`` characters of UTF-8 text take (4 a character, and a BOM)."""
    return 4 * max_chars + 3


def _read_bounded(fh, max_chars: int | None, where: str, bound: str):
    """All of ``fh`` (bytes or text), or, with ``max_chars``, no more than the bytes
    ``max_chars`` characters can take: past them the text is longer than it may be whatever it
    holds, and it is refused without reading the rest (an endless ``yes |`` or ``/dev/zero``
    never fills the memory).

    Raises:
        SourceError: ``"<where>: more than N bytes, so more than the L characters <bound> (not
            read further)"``.
    """
    if max_chars is None:
        return fh.read()
    most = _byte_bound(max_chars)
    data = fh.read(most + 1)
    if len(data) > most:
        raise TooLargeError(
            f"{where}: more than {most:,} bytes, so more than the {max_chars:,} characters {bound} (not read further)"
        )
    return data


def _limit(what: str) -> tuple[int, str]:
    """The most characters of an answer or a source, and what the bound is, as messages say it."""
    from .text.sources import MAX_SOURCE_CHARS

    if what == "source":
        return MAX_SOURCE_CHARS, "a source may have"
    return MAX_ANSWER_CHARS, "the language model reads at once"


def read_file_bytes(
    path: str, noun: str, kind: str | None = None, max_chars: int | None = None, bound: str = ""
) -> bytes:
    """The bytes of the file ``path``, which the messages call ``noun`` ("batch file"); with
    ``max_chars``, refused once it is longer in bytes than that many characters can be (``bound``
    says what the limit is), without reading the rest.

    Raises:
        SourceError: ``"<noun> not found: PATH"``, ``"<kind> is a directory, not a file: PATH"``
            (``kind`` defaults to ``noun``), or ``"cannot read <noun> PATH: <reason>"`` (the
            system's words: a symbolic link loop is "Too many levels of symbolic links", a folder
            that may not be entered "Permission denied"; neither is "not found").
    """
    try:
        is_dir = stat.S_ISDIR(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        raise SourceError(f"{noun} not found: {path}") from None
    except OSError as err:
        raise SourceError(f"cannot read {noun} {path}: {err.strerror or err}") from None
    if is_dir:
        raise SourceError(f"{kind or noun} is a directory, not a file: {path}")
    try:
        with open(path, "rb") as fh:
            return _read_bounded(fh, max_chars, f"{noun} {path}", bound)
    except OSError as err:
        raise SourceError(f"cannot read {noun} {path}: {err.strerror or err}") from err


def _read_utf8(path: str, what: str) -> str:
    most, bound = _limit(what) if what in ("answer", "source") else (None, "")
    return _file_text(read_file_bytes(path, f"{what} file", what, most, bound), path, what)


def _file_text(data: bytes, path: str, what: str) -> str:
    """The text of the ``what`` file ``path`` whose bytes are ``data``.

    Raises:
        SourceError: not UTF-8, empty (whitespace only) or binary (NUL bytes), naming the file.
    """
    text = _decode(data, f"{what} file {path}")
    if not text.strip():
        raise SourceError(f"{what} file is empty: {path}")
    if "\x00" in text:
        raise SourceError(f"{what} file {path} is binary, not text (it holds NUL bytes)")
    return text


class DuplicateKey(ValueError):
    """A JSON object gives one key twice (:func:`unique_keys`)."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """``object_pairs_hook`` for :func:`json.loads`: the object as a dict, refusing a key given
    twice, which JSON parsers otherwise settle silently (the last one wins).

    Raises:
        DuplicateKey: ``the key 'output' is given twice in one object (give it once)``.
    """
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise DuplicateKey(f"the key {twice!r} is given twice in one object (give it once)")
    return out


def parse_json(text: str, where: str) -> Any:
    """Parse JSON text read from ``where`` (named in the error).

    Raises:
        SourceError: malformed JSON (with line and column), nesting too deep to read, a string
            holding an unpaired surrogate escape (``"\\ud800"``, no character of text), or an
            object that gives one key twice (``"output"`` twice: which one is meant?).
    """
    try:
        value = json.loads(text, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as err:
        raise SourceError(f"malformed JSON in {where}: {err.msg} (line {err.lineno}, column {err.colno})") from err
    except RecursionError as err:
        raise SourceError(f"JSON in {where} is nested too deeply to read") from err
    except DuplicateKey as err:
        raise SourceError(f"ambiguous JSON in {where}: {err}") from err
    problem = unpaired_surrogate(value)
    if problem:
        raise SourceError(f"malformed JSON in {where}: {problem}")
    return value


def load_source_file(path: str) -> dict:
    """Read one source file.

    Plain text files are used as they are. A ``.json`` file is parsed: a JSON string is used as
    the text; a ``{"text": str, "id"?: ...}`` mapping (or a LangChain/LlamaIndex/Haystack document
    mapping, a LlamaIndex ``NodeWithScore`` or a LangChain serialised document: see
    :func:`normalize_sources`) gives its text (and its id, when set);
    any other value is structured and linearised with :func:`linearize`.

    Args:
        path: the file path.

    Returns:
        ``{"id": str, "text": str, "structured": bool}``; ``id`` is the file's base name
        unless a JSON mapping names its own id.

    Raises:
        SourceError: naming the file, when it is missing, a directory, unreadable, not UTF-8,
            empty (or whitespace only), malformed JSON (with line and column), a JSON mapping
            with an ``"id"`` but no ``"text"``, or JSON that linearises to nothing.
    """
    return _source_of(_read_utf8(path, "source"), path)


def source_from_bytes(data: bytes, name: str) -> dict:
    """A source file that came as bytes (uploaded to ``sourced serve``), named ``name``: read
    as :func:`load_source_file` reads a file of that name, with the same bound and messages.

    Raises:
        SourceError: as :func:`load_source_file`; more bytes than a source may take is
            :class:`~sourced_nlp.errors.TooLargeError`.
    """
    most, bound = _limit("source")
    if len(data) > _byte_bound(most):
        raise TooLargeError(
            f"source file {name}: more than {_byte_bound(most):,} bytes, so more than the {most:,} characters {bound}"
        )
    return _source_of(_file_text(data, name, "source"), name)


def _source_of(text: str, path: str) -> dict:
    """The source of :func:`load_source_file` whose text, read from ``path``, is ``text``."""
    sid = os.path.basename(path)
    if not path.lower().endswith(".json"):
        return {"id": sid, "text": text, "structured": False}
    value = _unwrap(parse_json(text, f"source file {path}"), f"source file {path}")
    if isinstance(value, str):
        out = {"id": sid, "text": value, "structured": False}
    elif isinstance(value, Mapping) and _is_mapping_source(value):
        text_key, id_key = _document_keys(value)
        if not isinstance(value[text_key], str):
            raise SourceError(f"source file {path}: {text_key!r} must be a string")
        if id_key:
            sid = str(value[id_key])
        out = {"id": sid, "text": value[text_key], "structured": False}
    elif _id_without_text(value):
        raise SourceError(f"source file {path}: {_no_text(value, 'the source')}")
    elif value is None:
        raise SourceError(f"source file {path} holds JSON null")
    else:
        out = {"id": sid, "text": linearize(value), "structured": True}
    if not out["text"].strip():
        raise SourceError(f"source file {path} has no text")
    return out


def read_answer(arg: str) -> str:
    """Read the answer to check.

    Args:
        arg: ``"-"`` for standard input, else a file path. A path that does not exist is an
            error; it is never taken as the answer text itself.

    Returns:
        The answer text (UTF-8 decoded; a BOM is dropped).

    Raises:
        SourceError: a missing file, a directory, unreadable or non-UTF-8 bytes, or an empty
            (whitespace-only) answer.
    """
    if arg == "-":
        return read_stdin("answer")
    return _read_utf8(arg, "answer")


#: The byte-order marks that say a text is in another Unicode encoding than UTF-8, longest first
#: (UTF-32's little-endian mark begins with UTF-16's).
_OTHER_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _decode(data: bytes, where: str) -> str:
    """UTF-8 (a BOM dropped); SourceError naming ``where`` and the offset of the first bad byte,
    or the encoding a UTF-16 or UTF-32 byte-order mark names."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        other = next((name for bom, name in _OTHER_BOMS if data.startswith(bom)), None)
        if other is not None:
            raise SourceError(
                f"{where} is {other} text (its byte-order mark says so), not UTF-8: save it as UTF-8"
            ) from err
        raise SourceError(f"{where} is not UTF-8 text (invalid byte at offset {err.start})") from err


def read_stdin_bytes(what: str, max_chars: int | None = None, bound: str = "") -> bytes | str:
    """Everything on standard input, as bytes (as str when ``sys.stdin`` has no byte buffer);
    with ``max_chars``, refused once it is longer than that many characters can be (``bound``
    says what the limit is), without reading the rest.

    Raises:
        SourceError: standard input is closed (``<&-``) or cannot be read, naming ``what``.
    """
    if sys.stdin is None:
        raise SourceError(f"cannot read the {what} from standard input: it is closed")
    stream = getattr(sys.stdin, "buffer", None)
    try:
        return _read_bounded(stream if stream is not None else sys.stdin, max_chars, f"{what} on standard input", bound)
    except SourceError:
        raise
    except (OSError, ValueError) as err:  # a closed or unreadable descriptor
        raise SourceError(
            f"cannot read the {what} from standard input: {getattr(err, 'strerror', None) or err}"
        ) from err


def read_stdin(what: str) -> str:
    """Standard input as UTF-8 text (a BOM dropped) for the input ``what`` ("answer", "JSON
    input", ...).

    Raises:
        SourceError: closed, not UTF-8, or empty (whitespace only); the message says it is
            ``what`` on standard input.
    """
    data = read_stdin_bytes(what, *(_limit(what) if what in ("answer", "source") else (None, "")))
    if isinstance(data, bytes):
        data = _decode(data, f"{what} on standard input")
    if not data.strip():
        raise SourceError(f"{what} on standard input is empty")
    return data
