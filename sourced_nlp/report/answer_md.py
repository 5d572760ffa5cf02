"""An answer written in Markdown, rendered as Markdown in the HTML view, its claims still
highlighted (:func:`render_markdown_answer`, called by :mod:`.html`).

The answer is parsed with markdown-it (CommonMark, with GFM tables and strikethrough; raw HTML
is never passed through: ``html=False``, so ``<script>`` stays text) and its token stream
rendered here, not by markdown-it's renderer, so that every piece of text keeps its character
offsets in the answer: each text token is found in the source lines its block came from, in
order. A claim's highlight (``<mark>``) then wraps the rendered text of its offsets; it is cut
where an element it did not open closes (``**bold** text``), and at each block boundary, so a
claim across two paragraphs is highlighted in each; the claim's mark (``✔1``) follows its last
piece. Markup characters (``**``, ``#``, ``|``) are not shown, so they are not highlighted.

An answer with no Markdown syntax (paragraphs of plain text only) is not rendered here: the view
shows it as it always has, the text as written (:func:`render_markdown_answer` gives None).

Pure module (no spaCy, no network): links keep their text and an ``href`` markdown-it has
validated (no ``javascript:``); an image is shown as its alt text, never fetched.
"""

from __future__ import annotations

import html
from bisect import bisect_right
from functools import lru_cache
from typing import Any, Callable, Optional

__all__ = ["has_markdown", "render_markdown_answer"]

#: Tokens of an answer that is plain text: paragraphs of text and line breaks (an escape or an
#: entity reads the same either way).
_PLAIN_BLOCKS = frozenset({"paragraph_open", "paragraph_close", "inline"})
_PLAIN_INLINE = frozenset({"text", "softbreak", "hardbreak", "text_special"})

_MONO = "font-family:ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
#: Inline styles of the rendered elements (the view has no ``<style>`` block; see :mod:`.html`).
_STYLES = {
    "p": "margin:0 0 0.6em 0;",
    "h1": "font-size:1.4em; margin:0.2em 0 0.4em 0; line-height:1.5;",
    "h2": "font-size:1.25em; margin:0.2em 0 0.4em 0; line-height:1.5;",
    "h3": "font-size:1.1em; margin:0.2em 0 0.4em 0; line-height:1.5;",
    "h4": "font-size:1em; margin:0.2em 0 0.4em 0;",
    "h5": "font-size:1em; margin:0.2em 0 0.4em 0;",
    "h6": "font-size:1em; margin:0.2em 0 0.4em 0;",
    "ul": "margin:0 0 0.6em 0; padding-left:1.6em;",
    "ol": "margin:0 0 0.6em 0; padding-left:1.6em;",
    "blockquote": "margin:0 0 0.6em 0; padding-left:0.8em; border-left:3px solid #DDD; color:#333;",
    "table": "border-collapse:collapse; margin:0 0 0.6em 0;",
    "th": "border:1px solid #CCC; padding:2px 8px; background:#F6F6F6;",
    "td": "border:1px solid #CCC; padding:2px 8px;",
    "pre": f"{_MONO}; background:#F6F6F6; padding:6px 8px; border-radius:3px; white-space:pre-wrap; margin:0 0 0.6em 0;",
    "code": f"{_MONO}; font-size:0.9em;",
    "hr": "border:none; border-top:1px solid #DDD;",
}


@lru_cache(maxsize=1)
def _parser():
    """The markdown-it parser, made on first use (importing markdown-it costs start-up time
    that ``sourced --help`` need not pay)."""
    from markdown_it import MarkdownIt

    # text_join off: an escape (\\*) or an entity (&amp;) stays its own token, whose markup is
    # its source text, so that the text tokens around it keep their offsets
    return MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"]).disable("text_join")


def has_markdown(answer: str) -> bool:
    """Whether ``answer`` holds Markdown syntax (a heading, emphasis, a list, a table, a code
    span, a link...) beyond paragraphs of plain text."""
    return _has_markdown(_parser().parse(answer))


def _has_markdown(tokens: list) -> bool:
    for tok in tokens:
        if tok.type not in _PLAIN_BLOCKS or tok.hidden:
            return True
        if tok.type == "inline" and any(c.type not in _PLAIN_INLINE for c in tok.children or ()):
            return True
    return False


def _attrs(tag: str, attrs: dict) -> str:
    """The attributes of an element: markdown-it's (a link's ``href``, a list's ``start``, a
    cell's alignment) escaped, and the element's inline style."""
    out = []
    style = _STYLES.get(tag, "")
    for name, value in attrs.items():
        if name == "style":
            style = f"{style} {value};".strip()
        elif name in ("href", "title", "start"):
            out.append(f' {name}="{html.escape(str(value), quote=True)}"')
    if tag == "a":
        out.append(' rel="noopener noreferrer nofollow"')
    if style:
        out.append(f' style="{style}"')
    return "".join(out)


def _link_end(source: str, pos: int) -> int:
    """Past the destination of an inline link or image whose text ends at ``pos``
    (``](url "title")``), so that its words are not looked for in the URL; ``pos`` when none."""
    if not source.startswith("](", pos):
        return pos
    depth = 0
    i = pos + 1
    while i < len(source):
        ch = source[i]
        if ch == "\\":  # an escaped character counts for nothing
            i += 2
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        elif ch == "\n" and source.startswith("\n", i + 1):  # a blank line: no destination ends here
            break
        i += 1
    return pos


class _Renderer:
    """One pass over the token stream: ``pieces`` of HTML, with the text pieces kept apart with
    their offsets in the answer, so that the marks can be put in a second pass."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = [0] + [i + 1 for i, ch in enumerate(source) if ch == "\n"]
        self.cursor = 0
        # ("tag", html, +1 | -1 | 0) | ("text", shown, start | None, end | None) | ("break", html) | ("end",):
        # an inline element's tag, text with its offsets in the answer, a block's tag, the end of a block's text
        self.pieces: list[tuple] = []

    def _line_start(self, line: int) -> int:
        return self.lines[line] if line < len(self.lines) else len(self.source)

    def _find(self, text: str, end: int) -> Optional[int]:
        """``text``'s offset in the answer at or after the cursor, before ``end``; None when not there."""
        if not text:
            return None
        i = self.source.find(text, self.cursor, end)
        if i < 0:
            return None
        self.cursor = i + len(text)
        return i

    def _text(self, shown: str, end: int, found: Optional[str] = None) -> None:
        """A text piece: ``shown`` (escaped when written), found in the answer as ``found``
        (default: as shown); a piece shown otherwise than written (an entity) is never cut."""
        if not shown:
            return
        found = shown if found is None else found
        start = self._find(found, end)
        self.pieces.append(("text", shown, start, None if start is None else start + len(found)))

    def block(self, tok) -> None:
        if tok.map:
            self.cursor = max(self.cursor, self._line_start(tok.map[0]))
        if tok.type == "inline":
            end = self._line_start(tok.map[1]) if tok.map else len(self.source)
            self.inline(tok.children or [], end)
            self.pieces.append(("end",))
        elif tok.type in ("fence", "code_block"):
            self.code(tok)
        elif tok.type == "hr":
            self.pieces.append(("break", f"<hr{_attrs('hr', {})}>"))
        elif tok.hidden or not tok.tag:
            return
        elif tok.nesting == 1:
            self.pieces.append(("break", f"<{tok.tag}{_attrs(tok.tag, tok.attrs)}>"))
        elif tok.nesting == -1:
            self.pieces.append(("break", f"</{tok.tag}>"))

    def code(self, tok) -> None:
        first = tok.map[0] + (1 if tok.type == "fence" else 0) if tok.map else 0
        self.cursor = max(self.cursor, self._line_start(first))
        end = self._line_start(tok.map[1]) if tok.map else len(self.source)
        self.pieces.append(("break", f'<pre style="{_STYLES["pre"]}"><code>'))
        for line in tok.content.splitlines(keepends=True):
            body = line.rstrip("\n")
            if body:
                self._text(body, end)
            if line.endswith("\n"):
                self.pieces.append(("text", "\n", None, None))
        self.pieces.append(("end",))
        self.pieces.append(("break", "</code></pre>"))

    def inline(self, children: list, end: int) -> None:
        for c in children:
            if c.type == "text":
                self._text(c.content, end)
            elif c.type == "text_special":  # an escape (\\*) or an entity (&amp;): shown as its character
                self._text(c.content, end, c.markup)
            elif c.type == "softbreak":
                self.pieces.append(("text", "\n", None, None))
            elif c.type == "hardbreak":
                self.pieces.append(("tag", "<br>", 0))
            elif c.type == "code_inline":
                self.pieces.append(("tag", f"<code{_attrs('code', {})}>", 1))
                self._text(c.content, end)
                self.pieces.append(("tag", "</code>", -1))
            elif c.type == "image":  # its alt text, never the picture
                self._text(c.content, end)
                self.cursor = _link_end(self.source, self.cursor)
            elif c.nesting == 1 and c.tag:
                self.pieces.append(("tag", f"<{c.tag}{_attrs(c.tag, c.attrs)}>", 1))
            elif c.nesting == -1 and c.tag:
                self.pieces.append(("tag", f"</{c.tag}>", -1))
                if c.type == "link_close":
                    self.cursor = _link_end(self.source, self.cursor)


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _last_ends(pieces: list[tuple], items: list[tuple[int, int, Any]]) -> dict[int, int]:
    """Item index -> the answer offset where its last shown piece ends (where its mark goes)."""
    starts = [s for s, _, _ in items]
    last: dict[int, int] = {}
    for p in pieces:
        if p[0] != "text" or p[2] is None:
            continue
        a, b = p[2], p[3]
        k = bisect_right(starts, a) - 1
        if len(p[1]) != b - a:  # an entity: whole, in the item its source starts in
            if k >= 0 and items[k][1] > a:
                last[k] = max(last.get(k, 0), b)
            continue
        k = max(k, 0)
        while k < len(items) and items[k][0] < b:
            if items[k][1] > a:
                last[k] = max(last.get(k, 0), min(b, items[k][1]))
            k += 1
    return last


class _Marks:
    """The second pass: the pieces written out, each item's wrapper opened and closed around
    its text, always well nested (an element open inside a wrapper that closes is closed before
    it and opened again after it; a wrapper inside an element that closes is closed first)."""

    def __init__(self, items, opener, closer, last) -> None:
        self.items, self.opener, self.closer, self.last = items, opener, closer, last
        self.starts = [s for s, _, _ in items]
        self.out: list[str] = []
        self.stack: list[tuple[str, str]] = []  # the inline elements open: (opening tag, closing tag)
        self.open_k: Optional[int] = None  # the item whose wrapper is open
        self.open_depth = 0  # len(stack) when it opened

    def close(self, at: Optional[int] = None) -> None:
        k = self.open_k
        if k is None:
            return
        inner = self.stack[self.open_depth :]
        self.out.extend(close for _, close in reversed(inner))
        self.out.append(self.closer(self.items[k][2], at is not None and at == self.last.get(k)))
        self.out.extend(open_ for open_, _ in inner)
        self.open_k = None

    def open(self, k: int) -> None:
        if self.open_k != k:
            self.close()
            self.out.append(self.opener(self.items[k][2]))
            self.open_k, self.open_depth = k, len(self.stack)

    def tag(self, html_: str, change: int) -> None:
        if change < 0:
            if self.open_k is not None and len(self.stack) == self.open_depth:
                self.close()  # the element closing holds the wrapper's start: the wrapper closes first
            if self.stack:
                self.stack.pop()
        elif change > 0:
            self.stack.append((html_, "</" + html_[1:].split(">")[0].split()[0] + ">"))
        self.out.append(html_)

    def block(self, html_: Optional[str]) -> None:
        self.close()
        self.stack = []
        if html_:
            self.out.append(html_)

    def text(self, shown: str, a: Optional[int], b: Optional[int]) -> None:
        if a is None:  # no offsets: outside every wrapper, but a line break inside one
            if shown != "\n":
                self.close()
            self.out.append(_esc(shown))
            return
        items = self.items
        if len(shown) != b - a:  # an entity: one piece, in the item its source starts in
            k = bisect_right(self.starts, a) - 1
            if k >= 0 and items[k][1] > a:
                self.open(k)
                self.out.append(_esc(shown))
                if b >= self.last.get(k, b + 1):
                    self.close(self.last[k])
            else:
                self.close()
                self.out.append(_esc(shown))
            return
        pos = a
        k = max(bisect_right(self.starts, a) - 1, 0)
        while pos < b:
            while k < len(items) and items[k][1] <= pos:
                k += 1
            inside = k < len(items) and items[k][0] <= pos
            stop = min(b, items[k][1]) if inside else (min(b, items[k][0]) if k < len(items) else b)
            if inside:
                self.open(k)
            else:
                self.close()
            self.out.append(_esc(shown[pos - a : stop - a]))
            if inside and stop == self.last.get(k):
                self.close(stop)
            pos = stop


def render_markdown_answer(
    answer: str, items: list[tuple[int, int, Any]], opener: Callable[[Any], str], closer: Callable[[Any, bool], str]
) -> Optional[str]:
    """``answer`` rendered as Markdown with its spans wrapped, or None when it has no Markdown.

    Args:
        answer: the answer as written (the claims' offsets are into it).
        items: ``(start, end, item)`` per span to wrap (a claim, a skipped segment), in order and
            not overlapping.
        opener: the opening tag of an item's wrapper (one per piece of it).
        closer: ``closer(item, last)``: the closing tag of a piece; ``last`` for its last piece.

    Returns:
        The HTML of the answer's blocks (every text escaped), or None.
    """
    tokens = _parser().parse(answer)
    if not _has_markdown(tokens):
        return None
    r = _Renderer(answer)
    for tok in tokens:
        r.block(tok)
    marks = _Marks(items, opener, closer, _last_ends(r.pieces, items))
    for piece in r.pieces:
        if piece[0] == "tag":
            marks.tag(piece[1], piece[2])
        elif piece[0] == "break":
            marks.block(piece[1])
        elif piece[0] == "end":
            marks.block(None)
        else:
            marks.text(piece[1], piece[2], piece[3])
    marks.close()
    return "".join(marks.out)
