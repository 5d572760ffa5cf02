"""Sources and answers as text: normalising source lists (linearising a JSON record is
:mod:`sourced_nlp.text.linearize`, re-exported here; reading them from files is
:mod:`sourced_nlp.files`).

Pure module (no spaCy). Every source ends up as ``{"id": str, "text": str, "structured": bool}``;
evidence offsets in a report are character offsets into that ``text`` (for a structured source,
into its linearised statements).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import SourceError, TextTooLongError
from .linearize import linearize

__all__ = [
    "SourceError",
    "TextTooLongError",
    "Sources",
    "normalize_sources",
    "linearize",
    "unpaired_surrogate",
    "MAX_SOURCE_CHARS",
]

#: the longest source checked (characters): a longer one is refused before any parse (by
#: :func:`sourced_nlp.check`, the file readers and the web app). Where the number comes from: the
#: passage records of a parsed source are kept (cached) for re-checks; measured
#: (``bench/RESULTS.md``, "Large sources"), the peak memory of ``sourced check`` is 577 MB at
#: 1.06 MB of prose and 761 MB at 5 MB, about 47 bytes a character more, so a source at this
#: bound peaks near 1 GB (and its first check takes about half an hour on 2 cores).
MAX_SOURCE_CHARS = 10_000_000


#: The keys of the text, in the order they are looked for: ``{"id", "text"}`` mappings and
#: LlamaIndex documents and nodes (``text``), LangChain documents (``page_content``), Haystack
#: documents and most search APIs (``content``).
TEXT_KEYS = ("text", "page_content", "content")
#: The keys of an id, in order: ``id`` (LangChain, Haystack), ``id_``, ``doc_id``, ``node_id``
#: (LlamaIndex).
ID_KEYS = ("id", "id_", "doc_id", "node_id")
#: Other keys a document mapping of those libraries carries (``Document.dict()``,
#: ``model_dump()``, ``to_dict()``); they say nothing to check and are left out.
_DOCUMENT_KEYS = frozenset(
    {
        "metadata",
        "meta",
        "type",
        "class_name",
        "structured",
        "embedding",
        "score",
        "relationships",
        "hash",
        "mimetype",
        "start_char_idx",
        "end_char_idx",
        "excluded_embed_metadata_keys",
        "excluded_llm_metadata_keys",
        "metadata_template",
        "metadata_seperator",
        "metadata_separator",
        "text_template",
        "lc",
        "kwargs",
        "blob",
        "sparse_embedding",
        "dataframe",
        # LlamaIndex 0.12+ Document: the text is also under text_resource ({"text", "path", ...})
        "text_resource",
        "image_resource",
        "audio_resource",
        "video_resource",
    }
)


def _document_keys(item: Mapping) -> tuple[str | None, str | None]:
    """``(text key, id key)`` of a mapping that is a source document (an ``{"id", "text"}``
    mapping, or the mapping of a LangChain, LlamaIndex or Haystack document: one text key of
    :data:`TEXT_KEYS`, the other keys among :data:`ID_KEYS` and the libraries' own), else
    ``(None, None)``: a structured record."""
    keys = set(map(str, item.keys()))
    text_keys = [k for k in TEXT_KEYS if k in keys]
    if len(text_keys) != 1 or not keys <= {text_keys[0], *ID_KEYS, *_DOCUMENT_KEYS}:
        return None, None
    id_key = next((k for k in ID_KEYS if item.get(k) is not None), None)
    return text_keys[0], id_key


def _is_mapping_source(item: Mapping) -> bool:
    return _document_keys(item)[0] is not None


def _no_text(item: Mapping, fallback: str) -> str:
    """The message for a document mapping without its text."""
    sid = next((item[k] for k in ID_KEYS if item.get(k) is not None), None)
    name = f"source {str(sid)!r}" if sid is not None else fallback
    what = "an id" if sid is not None else "metadata"
    return f"{name} has {what} but no text (give it as {', '.join(repr(k) for k in TEXT_KEYS)})"


def _attr(item: Any, name: str) -> Any:
    """``getattr(item, name, None)``, None also when the attribute raises (LlamaIndex's
    ``NodeWithScore.text`` raises ValueError for a node that is not a TextNode)."""
    try:
        return getattr(item, name, None)
    except Exception:  # a property of a third-party class: any error means "not this attribute"
        return None


def _document_object(item: Any) -> tuple[Any, Any] | None:
    """``(text, id)`` of a document object of LangChain (``page_content``, ``id``), LlamaIndex
    (``text`` or ``get_content()``, ``id_``/``doc_id``/``node_id``) or Haystack (``content``,
    ``id``), else None."""
    for attr in TEXT_KEYS:
        text = _attr(item, attr)
        if isinstance(text, str):
            break
    else:
        get = _attr(item, "get_content")
        try:
            text = get() if callable(get) else None
        except Exception:  # as in _attr: a document class whose content cannot be had as text
            text = None
        if not isinstance(text, str):
            return None
    sid = next((v for v in (_attr(item, k) for k in ID_KEYS) if v is not None), None)
    return text, sid


_JSON_CONTAINERS = (Mapping, list, tuple)
#: The keys of a LlamaIndex ``NodeWithScore`` in dict form (``to_dict()``, ``model_dump()``).
_WITH_SCORE_KEYS = frozenset({"node", "score", "class_name"})


def _lc_serialised(item: Any) -> str | None:
    """The class path (``langchain.schema.document.Document``) of a LangChain serialised object
    (``langchain_core.load.dumpd``: ``{"lc": 1, "type": "constructor", "id": [...], "kwargs":
    {...}}``), else None."""
    if (
        isinstance(item, Mapping)
        and isinstance(item.get("lc"), int)
        and not isinstance(item.get("lc"), bool)
        and isinstance(item.get("id"), list)
        and item["id"]
        and all(isinstance(p, str) for p in item["id"])
        and item.get("type") in ("constructor", "not_implemented", "secret")
    ):
        return ".".join(item["id"])
    return None


def _is_document(item: Any) -> bool:
    """A document mapping or a document object (not a structured record)."""
    if isinstance(item, Mapping):
        return _is_mapping_source(item)
    if isinstance(item, (*_JSON_CONTAINERS, *_JSON_SCALARS, bytes, bytearray)):
        return False
    return _document_object(item) is not None


def _unwrap(item: Any, name: str) -> Any:
    """The document inside the wrapper a retrieval library hands back, else ``item`` as it is:

    - a LangChain ``(Document, score)`` pair (``similarity_search_with_score``; a list of two
      from JSON too): the document (the score is left out, as metadata is);
    - a LlamaIndex ``NodeWithScore`` (what a retriever returns), as an object (``.node``,
      ``.score``) or in dict form ``{"node": {...}, "score": 0.87, "class_name": "NodeWithScore"}``:
      its node;
    - a LangChain serialised document (``langchain_core.load.dumpd``: ``{"lc": 1, "type":
      "constructor", "id": [..., "Document"], "kwargs": {"page_content", "metadata", "id"?}}``):
      its ``kwargs`` (any other serialised object, a message say, is refused);
    - a LlamaIndex ``Document`` in dict form whose text is only under ``text_resource``: that
      mapping with the text under ``"text"``.

    Args:
        item: one source as given.
        name: how the source is named in an error (``"source 3"``, ``"source file a.json"``).

    Raises:
        SourceError: a LangChain serialised object that is no document (named by its class path),
            or a pair of an object that is no document and a score (named by its type).
    """
    if isinstance(item, (str, *_JSON_SCALARS)):
        return item
    if isinstance(item, (list, tuple)):
        if len(item) == 2 and isinstance(item[1], (int, float)) and not isinstance(item[1], bool):
            first = _unwrap(item[0], name)
            if _is_document(first):
                return first
            if not isinstance(first, (*_JSON_CONTAINERS, *_JSON_SCALARS)):
                raise SourceError(
                    f"{name} is a ({type(first).__name__}, score) pair, and a {type(first).__name__} object is no "
                    f"document: give a str, an {{'id', 'text'}} mapping, or a LangChain, LlamaIndex or Haystack document"
                )
        return item
    if isinstance(item, Mapping):
        path = _lc_serialised(item)
        if path is not None:
            kwargs = item.get("kwargs")
            if (
                item.get("type") == "constructor"
                and item["id"][-1].endswith("Document")
                and isinstance(kwargs, Mapping)
                and isinstance(kwargs.get("page_content"), str)
                and _is_mapping_source(kwargs)
            ):
                return kwargs
            raise SourceError(
                f"{name} is a LangChain serialised {path} ({item.get('type')}), not a Document with a "
                f"'page_content': give the document's text"
            )
        if "node" in item and set(map(str, item.keys())) <= _WITH_SCORE_KEYS:
            return _unwrap(item["node"], name)
        resource = item.get("text_resource")
        if (
            "text" not in item
            and isinstance(resource, Mapping)
            and isinstance(resource.get("text"), str)
            and set(map(str, item.keys())) <= {*ID_KEYS, *_DOCUMENT_KEYS}
        ):
            return {**item, "text": resource["text"]}
        return item
    node = _attr(item, "node")
    if node is not None and hasattr(item, "score"):  # NodeWithScore
        return _unwrap(node, name)
    return item


_JSON_SCALARS = (str, int, float, bool, type(None))


def _id_without_text(item: Any) -> bool:
    """A mapping of document keys with an id or metadata and no text (``{"id": "a"}``,
    ``{"metadata": {...}}``): a source whose text was left out, not a structured record."""
    if not isinstance(item, Mapping):
        return False
    keys = set(map(str, item.keys()))
    return (
        bool(keys & {*ID_KEYS, "metadata", "meta"})
        and not keys & set(TEXT_KEYS)
        and keys <= {*ID_KEYS, *_DOCUMENT_KEYS}
    )


class Sources(list):
    """The list :func:`normalize_sources` returns, ``[{"id", "text", "structured"}]``: marked as
    normalised, so that normalising it again gives it back as it is. The sources of a check are
    normalised once, where they come in (the command line's files, a batch record, the argument
    of :func:`sourced_nlp.check`), and passed through after (``doc._.sources``,
    ``sourced_verify``). A plain list equal to it is normalised again, as any list is."""

    __slots__ = ()


def normalize_sources(sources: Any) -> list[dict]:
    """Normalise the sources of one check (once: a :class:`Sources` list this function returned
    is given back as it is).

    Args:
        sources: a list whose items are each
            - a ``str`` (its id is its index in the list, as a string: ``"0"``, ``"1"``, ...),
            - a mapping ``{"text": str, "id"?: Any}`` (``id`` is ``str()``'d; index when absent;
              a ``"structured"`` key is accepted so that the output normalises to itself); the
              text may also be under ``"page_content"`` (LangChain) or ``"content"`` (Haystack,
              search APIs) and the id under ``"id_"``, ``"doc_id"`` or ``"node_id"``
              (LlamaIndex); ``"metadata"``/``"meta"`` and the libraries' other keys are left out,
            - a LangChain ``Document``, a LlamaIndex ``Document``/``TextNode`` or a Haystack
              ``Document`` object (the same attributes),
            - a wrapper of such a document, read as the document (:func:`_unwrap`): a LangChain
              ``(Document, score)`` pair, a LlamaIndex ``NodeWithScore`` (object or dict form),
              a LangChain serialised document (``dumpd``: its ``kwargs``),
            - any other JSON value (a dict with other keys, a list, a number, a bool), which is
              a structured source, linearised with :func:`linearize`.

    Returns:
        ``[{"id": str, "text": str, "structured": bool}]`` in the order given (a :class:`Sources`). A text that starts
        with a byte-order mark (U+FEFF: a file read with ``encoding="utf-8"``) has it replaced
        by a space, so that offsets into it are those of the text given and no word carries it.

    Raises:
        SourceError: ``sources`` is not a list, or is empty; a source is null, or its text is
            empty or whitespace only; a mapping's text is not a str; a document mapping with an
            id or metadata but no text; an object that is neither a JSON value nor a document
            (named by its type), also as the first of a ``(object, score)`` pair; a LangChain
            serialised object that is no document (named by its class path); two ids are equal.
    """
    if type(sources) is Sources:
        return sources
    if isinstance(sources, (str, bytes, Mapping)) or not isinstance(sources, (list, tuple)):
        raise SourceError(f"sources must be a list, got {type(sources).__name__}")
    if not sources:
        raise SourceError("no sources given: need at least one source to check against")
    out: list[dict] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(sources):
        structured = False
        item = _unwrap(item, f"source {i}")
        if isinstance(item, str):
            sid, text = str(i), item
        elif isinstance(item, Mapping) and _is_mapping_source(item):
            text_key, id_key = _document_keys(item)
            text = item[text_key]
            if not isinstance(text, str):
                raise SourceError(f"source {i}: {text_key!r} must be a string, got {type(text).__name__}")
            sid = str(item[id_key]) if id_key else str(i)
            structured = bool(item.get("structured", False))
        elif item is None:
            raise SourceError(f"source {i} is null")
        elif _id_without_text(item):
            raise SourceError(_no_text(item, f"source {i}"))
        elif not isinstance(item, (Mapping, list, tuple, *_JSON_SCALARS)):
            if isinstance(item, (bytes, bytearray)):
                raise SourceError(f"source {i} is bytes, not text: decode it (e.g. .decode('utf-8')) first")
            doc = _document_object(item)
            if doc is None:
                raise SourceError(
                    f"source {i} is a {type(item).__name__} object, not a source: give a str, an "
                    f"{{'id', 'text'}} mapping, a LangChain, LlamaIndex or Haystack document, or a JSON value"
                )
            text, doc_id = doc
            sid = str(doc_id) if doc_id is not None else str(i)
        else:
            try:
                sid, text, structured = str(i), linearize(item), True
            except RecursionError as err:
                raise SourceError(f"source {i} is nested too deeply to linearise") from err
        if text.startswith("\ufeff"):  # a byte-order mark: a space, so that offsets stay those of the text given
            text = " " + text[1:]
        if not text.strip():
            raise SourceError(f"source {sid!r} is empty")
        problem = unpaired_surrogate(text)
        if problem:
            raise SourceError(f"source {sid!r}: {problem}")
        if sid in seen:
            raise SourceError(f"duplicate source id {sid!r} (sources {seen[sid]} and {i})")
        seen[sid] = i
        out.append({"id": sid, "text": text, "structured": structured})
    return Sources(out)


def unpaired_surrogate(value: Any) -> str | None:
    """What is wrong when a parsed JSON value holds a string with an unpaired surrogate escape
    (``"\\ud800"``: valid JSON, but no Unicode character, so no text to check), else None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return None
        except UnicodeEncodeError:
            pass
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as err:
        return f"a string holds the unpaired surrogate escape \\u{ord(err.object[err.start]):04x}, which is no character of text"
    return None


def __getattr__(name: str):
    """The file readers that moved to :mod:`sourced_nlp.files`, under their old path for one
    release (see :mod:`sourced_nlp._compat`)."""
    from .._compat import moved_name

    return moved_name(__name__, name)
