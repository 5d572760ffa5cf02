"""The page of ``sourced serve`` (:mod:`.web` serves it): a form where a person pastes an answer,
pastes sources or picks source files, chooses ``check`` or ``cite``, and, once sent, the HTML
report of ``sourced check --format html`` under it (:func:`sourced_nlp.report.html.render_html`,
the same view), or the one message that refused the input.

Pure string building: every piece of user text goes through :func:`html.escape`. The page works
without its one script (which only adds another box for a pasted source) and fetches nothing.
"""

from __future__ import annotations

import html
from typing import Sequence

#: The file types a source may be uploaded as, as ``sourced check`` reads them (``.json``
#: parsed and linearised, the others plain text).
UPLOAD_SUFFIXES = (".txt", ".md", ".json")

_STYLE = """
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
       color: #1A1A1A; background: #FAFAFA; margin: 0; padding: 16px 24px; }
h1 { font-size: 1.3em; margin: 0 0 4px 0; }
.lede { color: #555; margin: 0 0 14px 0; }
form { background: #FFFFFF; border: 1px solid #DDD; border-radius: 6px; padding: 12px 16px; }
label { font-weight: 600; display: block; margin: 8px 0 4px 0; }
textarea { width: 100%; box-sizing: border-box; font: inherit; padding: 6px; border: 1px solid #BBB;
           border-radius: 4px; }
.row { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; margin-top: 10px; }
button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid #0072B2; cursor: pointer; }
button[type=submit] { background: #0072B2; color: #FFFFFF; font-weight: 600; }
button[type=button] { background: #FFFFFF; color: #0072B2; }
.error { background: #FBE3D6; border-left: 5px solid #D55E00; padding: 8px 12px; margin: 12px 0;
         border-radius: 3px; }
.result { margin-top: 16px; background: #FFFFFF; border: 1px solid #DDD; border-radius: 6px; }
.hint { color: #555; font-size: 0.9em; }
"""

#: Adds another pasted-source box; the form works without it (one box, and any number of files).
_SCRIPT = """
document.getElementById('add-source').addEventListener('click', function () {
  var boxes = document.getElementById('sources');
  var n = boxes.querySelectorAll('textarea').length + 1;
  var area = document.createElement('textarea');
  area.name = 'source'; area.rows = 6; area.id = 'source-' + n;
  area.setAttribute('aria-label', 'Source ' + n);
  area.placeholder = 'Source ' + n + ': paste a passage, a document, or JSON';
  boxes.appendChild(area);
  area.focus();
});
"""


def _source_boxes(sources: Sequence[str]) -> str:
    texts = [s for s in sources if s.strip()] or [""]
    boxes = []
    for n, text in enumerate(texts, start=1):
        boxes.append(
            f'<textarea name="source" id="source-{n}" rows="6" aria-label="Source {n}" '
            f'placeholder="Source {n}: paste a passage, a document, or JSON">{html.escape(text)}</textarea>'
        )
    return "".join(boxes)


def _mode_choice(mode: str) -> str:
    options = []
    for value, words in (
        ("check", "check: every claim against every source"),
        ("cite", 'cite: each claim against the sources it cites ([1], [S2: "quote"])'),
    ):
        checked = " checked" if value == mode else ""
        options.append(
            f'<label style="font-weight:normal; display:inline;"><input type="radio" name="mode" '
            f'value="{value}"{checked}> {html.escape(words)}</label>'
        )
    return " ".join(options)


def render_page(
    answer: str = "",
    sources: Sequence[str] = (),
    mode: str = "check",
    report_html: str = "",
    error: str = "",
    judge: str = "",
) -> str:
    """The whole page: the form (refilled with ``answer``, the pasted ``sources`` and ``mode``),
    then ``error`` (one message, escaped) or ``report_html`` (the report's HTML fragment, as
    :func:`~sourced_nlp.report.html.render_html` wrote it). ``judge``: the judge the server asks
    (``sourced serve --judge``), named where the page otherwise says nothing leaves the machine."""
    accept = ",".join(UPLOAD_SUFFIXES)
    where = (
        f"The claims the rules leave unverified are put to the {html.escape(judge)} judge."
        if judge
        else "Nothing leaves this machine."
    )
    notice = f'<div class="error" id="error" role="alert">{html.escape(error)}</div>' if error else ""
    result = f'<section class="result" id="result">{report_html}</section>' if report_html else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sourced: check an answer against its sources</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>sourced</h1>
<p class="lede">Check an LLM answer against its sources, claim by claim: grounded, contradicted or
unverified, with evidence. {where}</p>
<form method="post" action="/" enctype="multipart/form-data">
<label for="answer">Answer</label>
<textarea name="answer" id="answer" rows="8" placeholder="Paste the answer to check">{html.escape(answer)}</textarea>
<label>Sources</label>
<div id="sources">{_source_boxes(sources)}</div>
<div class="row">
<button type="button" id="add-source">Add a pasted source</button>
<span><label for="files" style="display:inline;">or upload files</label>
<input type="file" name="file" id="files" multiple accept="{accept}"></span>
<span class="hint">{html.escape(", ".join(UPLOAD_SUFFIXES))} files; a .json file is read as data</span>
</div>
<div class="row">{_mode_choice(mode)}</div>
<div class="row"><button type="submit" id="submit">Check</button></div>
</form>
{notice}{result}
<script>{_SCRIPT}</script>
</body>
</html>
"""
