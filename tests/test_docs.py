"""The documentation: the MkDocs site builds with no warning, every relative link of the README
and of the pages points to a file that exists, and docs/rules.md lists every rule name the code
gives, each once, with the module that gives it."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))


def test_mkdocs_builds_strict_with_no_warning(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is in the dev extra (pip install -e '.[dev]')")
    pytest.importorskip("material", reason="mkdocs-material is in the dev extra (pip install -e '.[dev]')")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # the theme's banner about MkDocs 2.0, not a build warning
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    warnings = [line for line in out.splitlines() if line.lstrip().startswith(("WARNING", "ERROR"))]
    assert warnings == [], out
    assert (tmp_path / "site" / "rules" / "index.html").is_file()


def test_every_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert [p.name for p in PAGES if f" {p.name}" not in nav] == []


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)  # not inside code blocks
    return [m for m in LINK.findall(text) if not re.match(r"[a-z]+:", m) and not m.startswith("#")]


@pytest.mark.parametrize("path", [ROOT / "README.md", ROOT / "bench" / "RESULTS.md", *PAGES], ids=lambda p: p.name)
def test_relative_links_point_to_files_that_exist(path):
    missing = [link for link in _links(path) if not (path.parent / link.split("#")[0]).exists()]
    assert missing == [], f"{path.relative_to(ROOT)}: {missing}"


def test_readme_links_to_every_page_and_stays_short():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 12 * 1024
    assert readme.startswith("# sourced-nlp\n\n```bash\nmake run ")
    assert [p.name for p in PAGES if p.name != "index.md" and f"(docs/{p.name})" not in readme] == []


def test_the_readme_python_quick_start_runs_as_written():
    """The README's first Python block runs as a new user pastes it: its names are defined, the
    counts are those its comment gives, and its last line raises as its comment says."""
    import sourced_nlp

    block = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S).group(1)
    ns: dict = {}
    with pytest.raises(sourced_nlp.NotGroundedError):
        exec(compile(block, "README.md", "exec"), ns)
    assert ns["report"].counts == {"grounded": 1, "contradicted": 1, "unverified": 0}


# ------------------------------------------------------------------ the rule table of docs/rules.md

RULE = re.compile(r"^(grounded|contradicted|unverified)\.[a-z_]+$")


def _rule_names_in_code() -> dict[str, set[str]]:
    """Every rule name the code gives, with the files that give it: each module's ``DECIDES``,
    every string literal that is a rule name assigned to ``rule``, and the judge tier's
    ``<verdict>.judge``."""
    found: dict[str, set[str]] = {}
    import sourced_nlp.verdict as verdict

    for mod in pkgutil.walk_packages(verdict.__path__, "sourced_nlp.verdict."):
        decides = getattr(importlib.import_module(mod.name), "DECIDES", ())
        for name in decides:
            found.setdefault(name, set()).add(mod.name.replace(".", "/") + ".py")
    for path in (ROOT / "sourced_nlp").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            value = None
            if isinstance(node, ast.keyword) and node.arg == "rule":
                value = node.value
            elif isinstance(node, ast.Call) and node.args:
                value = node.args[-1]
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and RULE.match(value.value):
                found.setdefault(value.value, set()).add(rel)
            if isinstance(value, ast.JoinedStr) and rel.endswith("judges/tier.py"):
                tail = "".join(v.value for v in value.values if isinstance(v, ast.Constant))
                if tail == ".judge":
                    for verdict_name in ("grounded", "contradicted"):
                        found.setdefault(f"{verdict_name}.judge", set()).add(rel)
    return found


def _rule_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in (DOCS / "rules.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| `([a-z_.]+)` \| `([^`]+)` \|", line)
        if m:
            rows.setdefault(m.group(1), []).append(m.group(2))
    return rows


def test_rules_table_lists_every_rule_name_once_with_its_module():
    code = _rule_names_in_code()
    rows = _rule_rows()
    assert {"grounded.passage", "unverified.too_little", "grounded.judge", "unverified.no_sources"} <= set(code)
    assert sorted(set(code) - set(rows)) == [], "rule names missing from docs/rules.md"
    assert sorted(set(rows) - set(code)) == [], "docs/rules.md names rules the code does not give"
    assert {name: paths for name, paths in rows.items() if len(paths) != 1} == {}, "listed more than once"
    for name, (path,) in rows.items():
        assert (ROOT / path).is_file(), path
        assert path in code[name], f"{name}: {path} does not give it (the code: {sorted(code[name])})"


def test_the_dev_extra_installs_the_site_builder():
    """``make test`` installs ``.[dev,notebook]``: the build test above must not skip there."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dev = re.search(r"^dev = \[(.*?)\]$", text, flags=re.M | re.S).group(1)  # the list may wrap lines
    assert '"mkdocs>=1.6"' in dev and '"mkdocs-material>=9.5"' in dev, dev


def test_the_readme_says_how_to_install_from_a_clone_or_a_wheel():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = readme.split("## Install", 1)[1].split("\n## ", 1)[0]
    assert "pip install ." in install and "python -m build --wheel" in install and "pip install dist/" in install
