"""The layers of ``docs/architecture.md`` as a test: every import of the package (at module level,
in a function, or for type checking only) is one that its folder may make, no module takes a
``_private`` name of another, no modules import each other in a circle (type-only imports count),
and the package faces read their names on first use in one way (:func:`sourced_nlp._lazy.lazy_face`).

Read from the source with :mod:`ast`; nothing of the package is imported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sourced_nlp"

#: A part of the package -> the parts it may import (each part may import itself). A part is a
#: folder (``text``) or a module at the top (``errors``); ``api`` and ``face`` (the package's
#: ``__init__``) are the public API. The table of docs/architecture.md, and the modules at the top
#: that it describes in words under it. ``_compat`` (the old import paths) and ``_lazy`` (the
#: package faces' ``__getattr__``) import nothing of the package: any module may use them.
MAY_IMPORT: dict[str, set[str]] = {
    "text": {"errors"},
    "report": set(),
    "verdict": {"text"},
    "citing": {"text", "report", "verdict"},
    "judges": {"text", "citing", "errors", "usercode"},
    "components": {"text", "verdict", "citing", "report", "judges", "errors"},
    "batch": {"text", "report", "errors", "api", "face"},
    "evaluation": {"text", "report", "judges", "files", "errors", "usercode", "api", "face"},
    "integrations": {"text", "report", "errors", "api", "face"},
    "cli": {"text", "report", "citing", "judges", "batch", "evaluation", "files", "errors", "api", "face"},
    # the modules at the top
    "errors": {"report"},  # a type only (NotGroundedError.report)
    "usercode": {"errors"},
    "files": {"text", "errors", "usercode"},
    "api": {"text", "report", "verdict", "citing", "judges", "components", "batch", "errors"},
    "face": {"text", "report", "citing", "components", "errors", "api"},
    "_compat": set(),
    "_lazy": set(),
}
#: Anyone may import these (see :data:`MAY_IMPORT`).
FREE = {"_compat", "_lazy"}

#: The narrower grants of the table: (importing module, imported module) allowed across parts
#: that may not otherwise meet. ``cli/strict.py`` reads the strict level's default and check.
GRANTS = {("sourced_nlp.cli.strict", "sourced_nlp.verdict.precision")}

#: Modules whose ``_private`` names other modules of their part still take, and why: helpers
#: shared within one part that were never meant for users. Making them public is a rename over
#: many modules at once (the guard's finders, the command line), left to one commit of its own.
PRIVATE_SHARED = {
    "sourced_nlp.verdict.tree": "the walks of the parse (_text, _children, _clause, ...) every guard finder reads",
    "sourced_nlp.verdict.wordalign": "_is_content, the content-word test the guard's finders share",
    "sourced_nlp.components.quantity_tokens": "the token tests of sourced_quantities, cut out of quantities.py",
    "sourced_nlp.cli._util": "the command line's shared options and output",
    "sourced_nlp.cli.outputs": "the command line's refused outputs and its click errors",
    "sourced_nlp.cli.gate": "the command line's gate",
    "sourced_nlp.cli.signals": "the command line's signal handling",
    "sourced_nlp.files": "the readers' byte bound and decoding, which the web app reads uploads with",
    "sourced_nlp.text.sources": "the source shapes that files.py reads as sources.py does",
}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    """``sourced_nlp.text.quantity`` -> ``text``; ``sourced_nlp.files`` -> ``files``;
    ``sourced_nlp`` -> ``face``."""
    rest = module.split(".")[1:]
    return rest[0] if rest else "face"


def imports(path: Path, root: Path = ROOT) -> list[tuple[str, str, int]]:
    """Every import of the package in ``path``: ``(module imported, name taken or "", line)``.
    ``from . import judges`` imports the module ``sourced_nlp.judges``."""
    mod = module_name(path, root)
    package = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
    top = package[0] if package else mod
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, "", node.lineno) for a in node.names if a.name.split(".")[0] == top]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != top:
                continue
            for a in node.names:
                sub = path_of(f"{base}.{a.name}", root)
                found.append((f"{base}.{a.name}", "", node.lineno) if sub else (base, a.name, node.lineno))
    return found


def path_of(module: str, root: Path = ROOT) -> Path | None:
    """The file of ``module`` (a module or a package) under ``root``, or None."""
    base = root.joinpath(*module.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def layer_breaks(root: Path = ROOT, package: str = "sourced_nlp") -> list[str]:
    """``"file:line: part imports part (module)"`` for each import a part may not make."""
    bad = []
    for path in sorted((root / package).rglob("*.py")):
        mod = module_name(path, root)
        mine = part_of(mod)
        for target, _, line in imports(path, root):
            theirs = part_of(target)
            if theirs == mine or theirs in FREE or theirs in MAY_IMPORT.get(mine, set()) or (mod, target) in GRANTS:
                continue
            bad.append(f"{path.relative_to(root)}:{line}: {mine} imports {theirs} ({target})")
    return bad


def private_takes(root: Path = ROOT, package: str = "sourced_nlp") -> list[str]:
    """``"file:line: _name of module"`` for each ``_private`` name taken from another module."""
    bad = []
    for path in sorted((root / package).rglob("*.py")):
        for target, name, line in imports(path, root):
            if name.startswith("_") and not name.startswith("__") and target not in PRIVATE_SHARED:
                bad.append(f"{path.relative_to(root)}:{line}: {name} of {target}")
    return bad


def circles(root: Path = ROOT, package: str = "sourced_nlp") -> list[list[str]]:
    """The modules that import each other in a circle, each circle sorted (Tarjan's strongly
    connected components). A package's ``__init__`` importing its own submodules is no edge."""
    graph: dict[str, set[str]] = {}
    for path in sorted((root / package).rglob("*.py")):
        mod = module_name(path, root)
        graph[mod] = {
            target
            for target, _, _ in imports(path, root)
            if path_of(target, root) is not None and not (path.name == "__init__.py" and target.startswith(mod + "."))
        }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            circle = stack[stack.index(v) :]
            del stack[stack.index(v) :]
            if len(circle) > 1:
                found.append(sorted(circle))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_import_is_one_its_folder_may_make():
    assert layer_breaks() == []


def test_no_module_takes_a_private_name_of_another():
    assert private_takes() == []


def test_no_modules_import_each_other_in_a_circle():
    assert circles() == []


def test_every_package_face_reads_its_names_through_lazy_face():
    """No ``__init__.py`` writes its own ``__getattr__``: each that has one takes it from
    :func:`sourced_nlp._lazy.lazy_face`."""
    own = [
        str(p.relative_to(ROOT))
        for p in PACKAGE.rglob("__init__.py")
        if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in ast.parse(p.read_text()).body)
    ]
    faces = [str(p.relative_to(ROOT)) for p in PACKAGE.rglob("__init__.py") if "lazy_face(" in p.read_text()]
    assert own == [] and len(faces) == 4


def test_every_part_of_the_package_is_in_the_table():
    parts = {part_of(module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert parts == set(MAY_IMPORT)


def test_the_table_is_the_documented_one():
    """Each folder of docs/architecture.md's table, and the parts it may import, as here."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf8")
    rows = re.findall(r"^\| `(\w+)/` \|.*\| ([^|]*) \|$", doc, flags=re.M)
    assert {folder for folder, _ in rows} == {p for p in MAY_IMPORT if (PACKAGE / p).is_dir()}
    for folder, cell in rows:
        named = {m.rstrip("/").removesuffix(".py") for m in re.findall(r"`([\w/.]+)`", cell)}
        named |= {"api", "face"} if "public API" in cell else set()
        if cell.startswith("every folder above but"):  # cli/: the folders above it, less those named
            above = [f for f, _ in rows][: [f for f, _ in rows].index(folder)]
            named = {"api", "face", "files", "errors"} | (set(above) - named)
        assert MAY_IMPORT[folder] == named, folder


@pytest.mark.parametrize(
    "source, broken",
    [
        # a pure folder that imports upwards, in a function
        ("def f():\n    from ..components import parts\n", ["pkg/report/view.py:2: report imports components"]),
        # for type checking only: still an import
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..cli import app\n",
            ["pkg/report/view.py:3: report imports cli"],
        ),
        ("from . import marks\n", []),  # its own folder
        ("from .._compat import moved_name\n", []),  # free to all
    ],
)
def test_the_layer_check_finds_an_import_a_folder_may_not_make(tmp_path, source, broken):
    for folder in ("pkg", "pkg/report", "pkg/components", "pkg/cli"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "pkg" / "report" / "marks.py").write_text("")
    (tmp_path / "pkg" / "components" / "parts.py").write_text("")
    (tmp_path / "pkg" / "_compat.py").write_text("")
    (tmp_path / "pkg" / "report" / "view.py").write_text(source)
    assert [b.split(" (")[0] for b in layer_breaks(tmp_path, "pkg")] == broken


def test_the_circle_check_finds_a_circle_of_type_only_imports(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from . import a\n")  # a face and its own module: no circle
    (tmp_path / "pkg" / "a.py").write_text("from .b import view\n")
    (tmp_path / "pkg" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import Model\n"
    )
    (tmp_path / "pkg" / "c.py").write_text("from . import a\n")
    assert circles(tmp_path, "pkg") == [["pkg.a", "pkg.b"]]


def test_the_private_check_finds_a_private_name_taken(tmp_path):
    (tmp_path / "pkg" / "text").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "text" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "text" / "a.py").write_text("_secret = 1\n")
    (tmp_path / "pkg" / "text" / "b.py").write_text("from .a import _secret, __doc__\n")
    assert private_takes(tmp_path, "pkg") == ["pkg/text/b.py:1: _secret of pkg.text.a"]
