"""``sourced serve`` end to end: a real ``sourced serve --port 0`` process (waited for by its
ready line), and headless Chromium driven by Playwright pasting the bundled example's answer and
source into the page, sending it, and reading the verdicts off the report it shows; they must be
the JSON API's verdicts for the same input, the example's contradicted claim among them.

The browser is the system's (``/usr/bin/chromium``, Debian's package, which ``.ci/run``
installs), launched through ``executable_path``: Playwright downloads nothing. Without it (or
without Playwright) the test skips with the reason, unless ``SOURCED_REQUIRE_BROWSER=1`` (set
in CI), where it fails. The screenshot of the page is written to ``tests/artifacts/serve.png``
(ignored by git) and to the test's tmp path.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from chromium import find_chromium

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
READY = re.compile(r"ready at (http://\S+)")
START_TIMEOUT = 240  # seconds to the ready line: the pipeline loads first, on loaded cores too


def _require(reason: str) -> None:
    """Skip with ``reason``, or fail under ``SOURCED_REQUIRE_BROWSER=1``."""
    if os.environ.get("SOURCED_REQUIRE_BROWSER") == "1":
        pytest.fail(f"SOURCED_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium() -> str:
    path = find_chromium()
    if path is None:
        _require("headless Chromium not found at /usr/bin/chromium (Debian: apt-get install chromium)")
    for module, extra in (("playwright", "dev"), ("starlette", "serve"), ("uvicorn", "serve"), ("multipart", "serve")):
        if importlib.util.find_spec(module) is None:
            _require(f"{module} is not installed (the {extra} extra: pip install -e '.[dev]')")
    return path


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line)
    into.put(None)


@pytest.fixture(scope="module")
def server(chromium, tmp_path_factory):
    """``(url, process)`` of a ``sourced serve --port 0`` process, once its ready line is out."""
    err = tmp_path_factory.mktemp("serve") / "stderr.txt"
    with open(err, "w", encoding="utf-8") as err_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "sourced_nlp.cli", "serve", "--port", "0"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=err_file,
            text=True,
            env=dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1"),
        )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
    url, deadline = None, time.monotonic() + START_TIMEOUT
    try:
        while url is None:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"sourced serve ended before it was ready: {err.read_text()}"
            m = READY.search(line)
            url = m.group(1) if m else None
    except queue.Empty:
        proc.kill()
        pytest.fail(f"no ready line from sourced serve in {START_TIMEOUT} s: {err.read_text()}")
    assert url.startswith("http://127.0.0.1:"), url  # localhost by default
    yield url, proc
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("sourced serve did not stop on SIGINT") from None
    assert code == 130, err.read_text()  # stopped by Ctrl-C, as every command is
    assert "Traceback" not in err.read_text()


def _api_verdicts(url: str, answer: str, source: str) -> list[str]:
    body = json.dumps({"answer": answer, "sources": [{"id": "pasted 1", "text": source}]}).encode()
    request = urllib.request.Request(url + "check", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return [c["verdict"] for c in json.load(response)["claims"]]


def test_paste_an_answer_and_a_source_and_read_the_verdicts(server, chromium, tmp_path):
    from playwright.sync_api import sync_playwright

    url, _ = server
    answer = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")
    source = (EXAMPLES / "source.txt").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(url)
            page.fill("#answer", answer)
            page.fill("#source-1", source)
            page.click("#submit")
            page.wait_for_selector("#result li.sourced-card", timeout=120_000)
            cards = page.eval_on_selector_all(
                "#result li.sourced-card",
                "els => els.map(e => [...e.classList].find(c => c.startsWith('sourced-') && c !== 'sourced-card'))",
            )
            badges = page.inner_text("#result .sourced-counts")
            shown_answer = page.input_value("#answer")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(tmp_path / "serve.png"), full_page=True)
            shutil.copyfile(tmp_path / "serve.png", ARTIFACTS / "serve.png")
        finally:
            browser.close()
    verdicts = [c.removeprefix("sourced-") for c in cards]
    assert "contradicted" in verdicts  # the bundled example: 12% where the source says 8%
    assert verdicts == _api_verdicts(url, answer, source)
    assert f"{verdicts.count('contradicted')} contradicted" in badges
    assert shown_answer.strip() == answer.strip()  # the form keeps what was pasted
    assert (ARTIFACTS / "serve.png").stat().st_size > 10_000
