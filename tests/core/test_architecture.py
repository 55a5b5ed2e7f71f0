"""The rooms of the package and what each may import (README's Layout, each package's ``__init__`` docstring).

Only ``server/`` knows the protocol; ``discovery/`` is the seed's algorithm and knows nothing of processes,
pickling, rules or the headless run; nothing below the front ends imports them, and the headless run and the server
import nothing of each other; no import circle, counting the imports made inside functions and for the type
checker as well; no module over 700 lines.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "clarvis_lsp"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_nothing_outside_server_imports_the_protocol() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "server" not in path.relative_to(PACKAGE).parts and {"pygls", "lsprotocol"} & imported_modules(path)
    ]
    assert offenders == []


def test_the_knowledge_layer_reads_the_schemas_with_the_standard_library_only() -> None:
    """No protocol and no validator on the path every rule and the ``--check`` start-up go through (``regex``
    only: schema patterns are ECMAScript, with Unicode property classes Python's ``re`` lacks; and ``re2``, which
    matches a long text in linear time, imported only when one is matched)."""
    import sys

    modules = sorted((PACKAGE / "knowledge").glob("*.py"))
    assert {path.stem for path in modules} >= {"schemas", "hooks", "mcp", "skill", "settings", "plugin", "layout"}
    for path in modules:
        outside = imported_modules(path) - {"clarvis_lsp", "__future__"}
        allowed = sys.stdlib_module_names | {"regex", "re2"}
        assert outside <= allowed, (path.name, outside - allowed)
        assert not {"pygls", "lsprotocol", "jsonschema", "referencing"} & imported_modules(path), path.name


def test_the_server_does_import_the_protocol() -> None:
    # Guards the test above against silently scanning nothing.
    assert "pygls" in imported_modules(PACKAGE / "server" / "app.py")


def test_every_package_is_shipped() -> None:
    """pyproject lists packages explicitly (schemas/ is mapped in): a new subpackage must be listed too."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # the package's own fallback on 3.10
        import tomli as tomllib

    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(PACKAGE.parent).parts) for init in PACKAGE.rglob("__init__.py")} | {
        "clarvis_lsp.schemas"
    }
    assert found == listed


FRONT_ENDS = {"batch", "server", "cli", "__main__"}
"""The rooms that run the engine for a user (a headless run, the language server, the command line)."""

APART: dict[str, set[str]] = {"batch": {"server", "cli"}, "server": {"batch", "cli"}}
"""The front ends that never import the named others: a headless run never needs the server, and the server never
needs the headless run (what both use lives below them, as ``memory`` does)."""

MAX_MODULE_LINES = 700


def _room(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def package_imports(path: Path) -> set[str]:
    """The package's modules ``path`` imports anywhere in it (inside functions and ``TYPE_CHECKING`` blocks too):
    ``from a.b import c`` is an import of ``a.b.c`` when that is a module, else of ``a.b``."""
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in MODULES:
                    found.add(submodule)
                elif base in MODULES:
                    found.add(base)
    found.discard(me)
    return found


def _rooms_imported(path: Path) -> set[str]:
    return {name.split(".")[1] for name in package_imports(path) if name.count(".") >= 1} - {_room(path)}


LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"knowledge", "findings"}),
    frozenset({"documents", "schema_docs"}),
    frozenset({"discovery"}),
    frozenset({"rules"}),
    frozenset({"config", "output", "rule_pages", "fixes"}),
    frozenset({"workspace"}),
    frozenset({"effective", "listing"}),
    frozenset({"editor"}),
    frozenset({"memory"}),  # the collector's policy: above the library, which never decides it; under the front ends
    frozenset({"batch"}),
    frozenset({"server"}),
    frozenset({"cli"}),
    frozenset({"__main__"}),
)
"""The rooms from the bottom up (README's Layout): a room imports only rooms of the layers below its own."""


def test_each_room_imports_only_the_layers_below_it() -> None:
    layer_of = {room: index for index, rooms in enumerate(LAYERS) for room in rooms}
    rooms_found = {_room(path) for path in PACKAGE.rglob("*.py")} - {"__init__"}
    assert rooms_found == set(layer_of), "a room of the package is missing from LAYERS (or is gone)"
    offenders = [
        (str(path.relative_to(PACKAGE)), room)
        for path in sorted(PACKAGE.rglob("*.py"))
        if _room(path) != "__init__"
        for room in sorted(_rooms_imported(path) - {"__init__"})
        if layer_of[room] >= layer_of[_room(path)]
    ]
    assert offenders == []


def test_discovery_is_the_seeds_algorithm_and_nothing_else() -> None:
    """``discovery/`` imports no process, pickling or rule module, and nothing of the headless run: read it and
    you read SPEC §2. How directories are read and how work is mapped over them come in as abstractions
    (``discovery/io.py``)."""
    forbidden_stdlib = {"multiprocessing", "concurrent", "pickle", "subprocess", "signal", "threading"}
    forbidden_calls = {"fork", "getpid", "_exit", "waitpid"}
    for path in sorted((PACKAGE / "discovery").glob("*.py")):
        assert not imported_modules(path) & forbidden_stdlib, path.name
        rooms = _rooms_imported(path)
        assert rooms <= {"documents", "knowledge", "findings"}, (path.name, rooms)
        calls = {
            node.attr
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os"
        }
        assert not calls & forbidden_calls, (path.name, calls & forbidden_calls)


def test_only_the_front_ends_import_the_front_ends() -> None:
    """The library (discovery, rules, the engine, editor features, the effective model…) works without the
    headless run, the server and the command line; and the headless run and the server never need each other."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        room = _room(path)
        rooms = _rooms_imported(path)
        if room not in FRONT_ENDS and rooms & FRONT_ENDS:
            offenders.append((str(path.relative_to(PACKAGE)), sorted(rooms & FRONT_ENDS)))
        if rooms & APART.get(room, set()):
            offenders.append((str(path.relative_to(PACKAGE)), sorted(rooms & APART[room])))
    assert offenders == []


def test_the_headless_run_never_sees_the_command_line() -> None:
    """``batch/`` takes requests (``CheckRequest``, ``EffectiveRequest``): only ``cli.py`` reads argparse."""
    batch = sorted((PACKAGE / "batch").glob("*.py"))
    assert len(batch) > 5
    assert [path.name for path in batch if "argparse" in imported_modules(path)] == []


def test_the_engine_does_not_import_the_rooms_above_it() -> None:
    for path in sorted((PACKAGE / "workspace").glob("*.py")):
        assert not _rooms_imported(path) & {"editor", "effective", *FRONT_ENDS}, path.name


def test_no_import_circle() -> None:
    """Strongly connected components of the import graph (every import counts, wherever it is written)."""
    graph = {name: package_imports(path) for name, path in MODULES.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph is a few hundred modules deep at most
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    assert circles == []


def test_the_import_graph_sees_imports_inside_functions() -> None:
    # Guards the test above against an empty graph: cli imports the server inside a function.
    assert "clarvis_lsp.server" in package_imports(PACKAGE / "cli.py")


def test_no_module_is_over_700_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_every_package_says_what_it_holds() -> None:
    """Each package's ``__init__.py`` starts with a docstring (what the room holds, what it may not import)."""
    for init in sorted(PACKAGE.rglob("__init__.py")):
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert docstring and len(docstring) > 40, init.relative_to(PACKAGE)
