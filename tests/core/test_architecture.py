"""The rooms of the package and what each may import (README's Layout, each package's ``__init__`` docstring).

Only ``server/`` knows the protocol; ``discovery/`` is the seed's algorithm and knows nothing of processes,
pickling, rules or the headless run; nothing below the front ends imports them, and the headless run and the server
import nothing of each other; no room reaches into another's ``_private`` names; no import circle, counting the
imports made inside functions, for the type checker, and through ``importlib`` or ``__import__`` with a literal
name as well; no module over 700 lines.

Every check reads a ``Source`` (a module's text and where it sits), so each is also fed a small made-up module
that breaks its rule, proving it fires.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import sys
import textwrap
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "clarvis_lsp"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


@dataclass(frozen=True)
class Source:
    """One module's text and its place in the package."""

    text: str = field(repr=False)  # a failing assertion names the module, not its whole text
    module: str  # clarvis_lsp.discovery.scan; a package's own name for its __init__.py
    package: str  # where its relative imports start

    @classmethod
    def of(cls, path: Path) -> Source:
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        return cls(path.read_text(encoding="utf-8"), module, package)

    @classmethod
    def snippet(cls, text: str, module: str) -> Source:
        """A made-up module ``module`` (not a package) holding ``text``."""
        return cls(textwrap.dedent(text), module, module.rsplit(".", 1)[0])

    @property
    def room(self) -> str:
        """The top-level subpackage or module of clarvis_lsp it belongs to (``__init__`` for the package's own)."""
        parts = self.module.split(".")
        return parts[1] if len(parts) > 1 else "__init__"

    @cached_property
    def tree(self) -> ast.Module:
        return ast.parse(self.text)


SOURCES = {name: Source.of(path) for name, path in sorted(MODULES.items())}


def _from_base(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from … import`` names, with a relative one resolved against ``package``."""
    base = node.module or ""
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parts, base] if base else parts)
    return base


def _bindings(source: Source) -> dict[str, str]:
    """Each name an import binds anywhere in the module and the dotted name it stands for: ``import os as o``
    binds ``o`` to ``os``, ``from os import fork`` binds ``fork`` to ``os.fork``."""
    bound: dict[str, str] = {}
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                first = alias.name.split(".")[0]
                bound[alias.asname or first] = alias.name if alias.asname else first
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, source.package)
            bound.update({alias.asname or alias.name: f"{base}.{alias.name}" for alias in node.names})
    return bound


def _dotted(node: ast.expr, bound: dict[str, str]) -> str | None:
    """The dotted name an expression stands for (``o.fork`` → ``os.fork``), a builtin's as ``builtins.NAME``."""
    if isinstance(node, ast.Name):
        if node.id in bound:
            return bound[node.id]
        return f"builtins.{node.id}" if hasattr(builtins, node.id) else None
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, bound)
        return f"{base}.{node.attr}" if base else None
    return None


IMPORTERS = frozenset({"importlib.import_module", "importlib.__import__", "builtins.__import__"})
"""The functions that import a module named by a string, however they are imported or aliased."""

_PARAMETERS = {
    "importlib.import_module": ("name", "package"),
    "importlib.__import__": ("name", "globals", "locals", "fromlist", "level"),
    "builtins.__import__": ("name", "globals", "locals", "fromlist", "level"),
}


@dataclass(frozen=True)
class DynamicImport:
    """A call of one of the ``IMPORTERS``."""

    line: int
    argument: str  # the module's name as written (the importer's own, when it is passed on instead of called)
    modules: tuple[str, ...]  # what it imports when its name is literal; () when the name is computed


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _modules_imported(call: ast.Call, importer: str) -> tuple[str, ...]:
    """What a call of ``importer`` imports when everything that decides it is a literal: the name, the package of a
    relative name, the submodules of ``fromlist``; () when any of them is computed."""
    parameters = _PARAMETERS[importer]
    if len(call.args) > len(parameters) or any(isinstance(arg, ast.Starred) for arg in call.args):
        return ()
    arguments: dict[str | None, ast.expr] = dict(zip(parameters, call.args, strict=False))
    arguments.update({keyword.arg: keyword.value for keyword in call.keywords})
    name = _literal(arguments.get("name"))
    if name is None or None in arguments:  # a computed name, or **keywords
        return ()
    if importer == "importlib.import_module":
        package = _literal(arguments.get("package"))
        if name.startswith(".") and package is None:
            return ()
        try:
            return (importlib.util.resolve_name(name, package),)
        except (ImportError, ValueError):
            return ()
    level, fromlist = arguments.get("level"), arguments.get("fromlist")
    if level is not None and not (isinstance(level, ast.Constant) and level.value == 0):
        return ()  # relative to the caller's globals: not read here
    if fromlist is None:
        return (name,)
    if not isinstance(fromlist, (ast.List, ast.Tuple)):
        return ()
    items = [_literal(item) for item in fromlist.elts]
    return (name, *(f"{name}.{item}" for item in items if item)) if None not in items else ()


def dynamic_imports(source: Source) -> list[DynamicImport]:
    """Every ``importlib.import_module(…)``, ``importlib.__import__(…)`` and ``__import__(…)`` of the module, and
    every naming of those functions that does not call them (``load = importlib.import_module``): passed on, they
    are called where no name can be read, so such a naming counts as an import of a computed name."""
    bound = _bindings(source)
    called = {id(node.func) for node in ast.walk(source.tree) if isinstance(node, ast.Call)}
    found = []
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Call) and (importer := _dotted(node.func, bound)) in IMPORTERS:
            assert importer is not None
            written = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), node)
            found.append(DynamicImport(node.lineno, ast.unparse(written), _modules_imported(node, importer)))
        elif (
            isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in called and _dotted(node, bound) in IMPORTERS
        ):
            found.append(DynamicImport(node.lineno, ast.unparse(node), ()))
    return found


def imported_modules(source: Source) -> set[str]:
    """The top-level modules the module imports (absolute imports, and dynamic ones with a literal name)."""
    names: set[str] = set()
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    names.update(module.split(".")[0] for call in dynamic_imports(source) for module in call.modules)
    return names


def references(source: Source) -> set[str]:
    """Every dotted name the module reaches: what it imports (``from os import fork``: ``os.fork``), every
    attribute chain through an imported name (``o.fork`` after ``import os as o``: ``os.fork``) and the modules of
    its literal dynamic imports."""
    bound = _bindings(source)
    found: set[str] = set()
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, source.package)
            found.update({base} | {f"{base}.{alias.name}" for alias in node.names})
        elif isinstance(node, (ast.Name, ast.Attribute)) and (name := _dotted(node, bound)):
            found.add(name)
    found.update(module for call in dynamic_imports(source) for module in call.modules)
    return found


def package_imports(source: Source) -> set[str]:
    """The package's modules ``source`` imports anywhere in it (inside functions, ``TYPE_CHECKING`` blocks and
    dynamic imports with a literal name too): ``from a.b import c`` is an import of ``a.b.c`` when that is a
    module, else of ``a.b``."""
    found: set[str] = set()
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, source.package)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in MODULES:
                    found.add(submodule)
                elif base in MODULES:
                    found.add(base)
    found.update(module for call in dynamic_imports(source) for module in call.modules if module in MODULES)
    found.discard(source.module)
    return found


def rooms_imported(source: Source) -> set[str]:
    return {name.split(".")[1] for name in package_imports(source) if name.count(".") >= 1} - {source.room}


def test_nothing_outside_server_imports_the_protocol() -> None:
    offenders = [
        name
        for name, source in SOURCES.items()
        if source.room != "server" and {"pygls", "lsprotocol"} & imported_modules(source)
    ]
    assert offenders == []


def test_the_knowledge_layer_reads_the_schemas_with_the_standard_library_only() -> None:
    """No protocol and no validator on the path every rule and the ``--check`` start-up go through (``regex``
    only: schema patterns are ECMAScript, with Unicode property classes Python's ``re`` lacks; and ``re2``, which
    matches a long text in linear time, imported only when one is matched)."""
    modules = [source for source in SOURCES.values() if source.room == "knowledge"]
    assert {source.module.rsplit(".", 1)[1] for source in modules} >= {
        "schemas",
        "hooks",
        "mcp",
        "skill",
        "settings",
        "plugin",
        "layout",
    }
    for source in modules:
        outside = imported_modules(source) - {"clarvis_lsp", "__future__"}
        allowed = sys.stdlib_module_names | {"regex", "re2"}
        assert outside <= allowed, (source.module, outside - allowed)
        assert not {"pygls", "lsprotocol", "jsonschema", "referencing"} & imported_modules(source), source.module


def test_the_server_does_import_the_protocol() -> None:
    # Guards the test above against silently scanning nothing.
    assert "pygls" in imported_modules(SOURCES["clarvis_lsp.server.app"])


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
needs the headless run (what both use lives below them, as ``memory`` and ``host`` do)."""

MAX_MODULE_LINES = 700

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"knowledge", "findings"}),
    frozenset({"documents", "schema_docs"}),
    frozenset({"discovery"}),
    frozenset({"rules"}),
    frozenset({"config", "output", "rule_pages", "fixes"}),
    frozenset({"workspace"}),
    frozenset({"effective", "listing"}),
    frozenset({"editor"}),
    # The collector's policy and the cores: above the library, which never decides them; under the front ends.
    frozenset({"memory", "host"}),
    frozenset({"batch"}),
    frozenset({"server"}),
    frozenset({"cli"}),
    frozenset({"__main__"}),
)
"""The rooms from the bottom up (README's Layout): a room imports only rooms of the layers below its own."""

LAYER_OF = {room: index for index, rooms in enumerate(LAYERS) for room in rooms}


def layer_offences(source: Source) -> set[str]:
    """The rooms ``source`` imports that are not in a layer below its own."""
    return {room for room in rooms_imported(source) - {"__init__"} if LAYER_OF[room] >= LAYER_OF[source.room]}


def front_end_offences(source: Source) -> set[str]:
    """The front ends ``source`` imports and may not: any, from the library; the ones ``APART`` names, from those."""
    rooms = rooms_imported(source)
    return rooms & (FRONT_ENDS if source.room not in FRONT_ENDS else APART.get(source.room, set()))


def test_each_room_imports_only_the_layers_below_it() -> None:
    rooms_found = {source.room for source in SOURCES.values()} - {"__init__"}
    assert rooms_found == set(LAYER_OF), "a room of the package is missing from LAYERS (or is gone)"
    offenders = [
        (name, room)
        for name, source in SOURCES.items()
        if source.room != "__init__"
        for room in sorted(layer_offences(source))
    ]
    assert offenders == []


PROCESS_MODULES = frozenset(
    {"multiprocessing", "concurrent", "pickle", "subprocess", "signal", "threading", "_thread", "_posixsubprocess"}
    | {"posix", "nt", "pty"}  # os's process functions under their own module's name; pty forks
)
PROCESS_FUNCTIONS = frozenset({"getpid", "getppid", "_exit", "kill", "killpg", "system", "popen", "register_at_fork"})
PROCESS_PREFIXES = ("fork", "exec", "spawn", "posix_spawn", "wait")  # os.fork, os.execv, os.spawnl, os.waitpid…


def process_names(source: Source) -> set[str]:
    """What in the module makes, ends, signals or waits for processes: a process module (``subprocess``,
    ``multiprocessing``…) or an ``os`` process function, however it is reached (``from os import fork``,
    ``o.fork`` after ``import os as o``, ``importlib.import_module("subprocess")``)."""
    found = set()
    for name in references(source):
        module, _, function = name.partition(".")
        if module in PROCESS_MODULES:
            found.add(module)
        elif module == "os" and (function in PROCESS_FUNCTIONS or function.startswith(PROCESS_PREFIXES)):
            found.add(name)
    return found


def test_discovery_is_the_seeds_algorithm_and_nothing_else() -> None:
    """``discovery/`` imports no process, pickling or rule module, and nothing of the headless run: read it and
    you read SPEC §2. How directories are read and how work is mapped over them come in as abstractions
    (``discovery/io.py``)."""
    modules = [source for source in SOURCES.values() if source.room == "discovery"]
    assert len(modules) > 10
    for source in modules:
        found = process_names(source)
        assert not found, (source.module, found)
        rooms = rooms_imported(source)
        assert rooms <= {"documents", "knowledge", "findings"}, (source.module, rooms)


def test_the_process_check_sees_the_processes_the_headless_run_makes() -> None:
    # Guards the test above against scanning for nothing: batch/processes.py forks and waits with os.
    assert {"os.fork", "os.waitpid", "os._exit"} <= process_names(SOURCES["clarvis_lsp.batch.processes"])


def test_only_the_front_ends_import_the_front_ends() -> None:
    """The library (discovery, rules, the engine, editor features, the effective model…) works without the
    headless run, the server and the command line; and the headless run and the server never need each other."""
    offenders = [(name, sorted(rooms)) for name, source in SOURCES.items() if (rooms := front_end_offences(source))]
    assert offenders == []


def test_the_headless_run_never_sees_the_command_line() -> None:
    """``batch/`` takes requests (``CheckRequest``, ``EffectiveRequest``): only ``cli.py`` reads argparse."""
    batch = [source for source in SOURCES.values() if source.room == "batch"]
    assert len(batch) > 5
    assert [source.module for source in batch if "argparse" in imported_modules(source)] == []


def test_the_engine_does_not_import_the_rooms_above_it() -> None:
    for source in SOURCES.values():
        if source.room == "workspace":
            assert not rooms_imported(source) & {"editor", "effective", *FRONT_ENDS}, source.module


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def private_reaches(source: Source) -> set[str]:
    """The ``_private`` modules, and the ``_private`` names of a module, of another room that ``source`` reaches:
    imported, or as an attribute of a module it imports (``from clarvis_lsp.rules import base; base._helper``).
    A room keeps its underscores to itself; what another room needs is public, with a docstring."""
    found = set()
    for name in references(source):
        parts = name.split(".")
        if parts[0] != "clarvis_lsp" or len(parts) < 2 or parts[1] == source.room:
            continue
        end = max((end for end in range(1, len(parts) + 1) if ".".join(parts[:end]) in MODULES), default=1)
        if any(_private(part) for part in parts[1 : end + 1]):  # the module's path, and the one name taken from it
            found.add(".".join(parts[: end + 1]))
    return found


def test_no_room_reaches_into_another_rooms_private_names() -> None:
    offenders = [(name, sorted(reached)) for name, source in SOURCES.items() if (reached := private_reaches(source))]
    assert offenders == []


COMPUTED_IMPORTS_ALLOWED = {
    # Each rule module of the family table, imported so that it declares its rules (the names are checked below).
    # Not an edge of the import graph: the modules import the catalogue back, and that circle is the design.
    ("clarvis_lsp.rules.catalogue", "module"),
    # The schemas' package, a constant: data files and a docstring, no code (checked below).
    ("clarvis_lsp.knowledge.schemas", "SCHEMA_PACKAGE"),
    # Each LSP method's handler module, imported on its first call so that ``initialize`` needs none of them: a
    # module of the server's own features/ (checked below).
    ("clarvis_lsp.server.methods", "f'{FEATURES}.{module}'"),
}
"""The dynamic imports whose module's name is computed, so that no rule above can read it, by module and argument."""


def computed_imports(source: Source) -> list[str]:
    """The dynamic imports of ``source`` whose module's name is computed, and not in ``COMPUTED_IMPORTS_ALLOWED``."""
    return [
        f"line {call.line}: {call.argument}"
        for call in dynamic_imports(source)
        if not call.modules and (source.module, call.argument) not in COMPUTED_IMPORTS_ALLOWED
    ]


def test_every_dynamic_import_names_its_module() -> None:
    """A module imported by a name made at run time escapes every rule of this file: only the ones listed, each
    checked, may exist (the front ends' lazy imports are plain ``import`` statements, read like the others)."""
    offenders = [(name, found) for name, source in SOURCES.items() if (found := computed_imports(source))]
    assert offenders == []
    computed = {
        (name, call.argument)
        for name, source in SOURCES.items()
        for call in dynamic_imports(source)
        if not call.modules
    }
    assert computed == COMPUTED_IMPORTS_ALLOWED, "an allowed computed import is gone: remove it from the list"


def test_the_allowed_computed_imports_stay_where_they_are_listed() -> None:
    from clarvis_lsp.knowledge.schemas import SCHEMA_PACKAGE
    from clarvis_lsp.rules.families import FAMILIES

    modules = {module for by_module in FAMILIES.values() for module in by_module}
    assert modules and all(module in MODULES and module.split(".")[1] == "rules" for module in modules)
    assert SCHEMA_PACKAGE == "clarvis_lsp.schemas"
    code = [path.name for path in (PACKAGE.parent / "schemas").glob("*.py")]
    assert code == ["__init__.py"]  # and that holds a docstring only: importing the package runs nothing
    body = ast.parse((PACKAGE.parent / "schemas" / "__init__.py").read_text(encoding="utf-8")).body
    assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    from clarvis_lsp.server.methods import FEATURES, METHODS

    assert FEATURES == "clarvis_lsp.server.features"
    handlers = {method.handler.rpartition(".")[0] for method in METHODS}
    assert handlers and all(f"{FEATURES}.{module}" in MODULES for module in handlers)


def test_no_import_circle() -> None:
    """Strongly connected components of the import graph (every import counts, wherever it is written)."""
    graph = {name: package_imports(source) for name, source in SOURCES.items()}
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
    assert "clarvis_lsp.server" in package_imports(SOURCES["clarvis_lsp.cli"])


def test_no_module_is_over_700_lines() -> None:
    long = {
        name: lines for name, source in SOURCES.items() if (lines := len(source.text.splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_every_package_says_what_it_holds() -> None:
    """Each package's ``__init__.py`` starts with a docstring (what the room holds, what it may not import)."""
    for init in sorted(PACKAGE.rglob("__init__.py")):
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert docstring and len(docstring) > 40, init.relative_to(PACKAGE)


# Each check above, fed a made-up module that breaks its rule: the test that fails when the rule is bypassed.

IN_DISCOVERY = "clarvis_lsp.discovery.made_up"


@pytest.mark.parametrize(
    "text",
    [
        'import importlib\nimportlib.import_module("clarvis_lsp.server.app")',
        'import importlib\nimportlib.__import__("clarvis_lsp.server.app")',
        '__import__("clarvis_lsp.server.app")',
        'from importlib import import_module\nimport_module("clarvis_lsp.server.app")',
        'from importlib import import_module as load\ndef later():\n    load(name="clarvis_lsp.server.app")',
        'import importlib as loader\nloader.import_module(".app", package="clarvis_lsp.server")',
        'import builtins\nbuiltins.__import__("clarvis_lsp.server", None, None, ["app"], 0)',
    ],
)
def test_a_dynamic_import_with_a_literal_name_counts_as_an_import(text: str) -> None:
    source = Source.snippet(text, IN_DISCOVERY)
    assert package_imports(source) >= {"clarvis_lsp.server.app"}
    assert layer_offences(source) == {"server"}
    assert front_end_offences(source) == {"server"}
    assert computed_imports(source) == []


def test_a_dynamic_import_of_the_protocol_is_seen() -> None:
    source = Source.snippet('import importlib\nimportlib.import_module("pygls.server")', "clarvis_lsp.rules.made_up")
    assert "pygls" in imported_modules(source)


@pytest.mark.parametrize(
    "text",
    [
        "import importlib\ndef load(name):\n    return importlib.import_module(name)",
        'from importlib import import_module\nimport_module("clarvis_lsp." + "server")',
        'room = "server"\n__import__(f"clarvis_lsp.{room}")',
        'import importlib\nimportlib.import_module(".app", package=__package__)',
        '__import__("app", globals(), None, (), 1)',
        'import builtins\nbuiltins.__import__("clarvis_lsp.server", fromlist=names)',
        "import importlib\nimportlib.__import__(*names)",
        'import importlib\nload = importlib.import_module\nload("clarvis_lsp.server")',
        "from importlib import import_module\nloaders = [import_module]",
    ],
)
def test_a_dynamic_import_with_a_computed_name_is_reported(text: str) -> None:
    source = Source.snippet(text, IN_DISCOVERY)
    assert len(computed_imports(source)) == 1


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("from os import fork", {"os.fork"}),
        ("from os import execv as run, scandir", {"os.execv"}),
        ("import os as o\no.fork()", {"os.fork"}),
        ("import os\npid = os.getpid", {"os.getpid"}),
        ("import os\nos.waitpid(0, 0)\nos._exit(0)", {"os.waitpid", "os._exit"}),
        ("from os import posix_spawn, spawnl, kill", {"os.posix_spawn", "os.spawnl", "os.kill"}),
        ("from subprocess import run", {"subprocess"}),
        ("from multiprocessing import Pool as P", {"multiprocessing"}),
        ("import concurrent.futures as cf", {"concurrent"}),
        ("from posix import fork", {"posix"}),
        ('import importlib\nimportlib.import_module("subprocess")', {"subprocess"}),
    ],
)
def test_a_process_function_is_found_however_it_is_reached(text: str, found: set[str]) -> None:
    assert process_names(Source.snippet(text, IN_DISCOVERY)) == found


def test_the_process_check_leaves_the_rest_of_os_alone() -> None:
    text = "import os\nfrom os import path, scandir as listing\nos.stat('.')\nos.path.join('a', 'b')"
    assert process_names(Source.snippet(text, IN_DISCOVERY)) == set()


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("from clarvis_lsp.workspace.engine import _helper", {"clarvis_lsp.workspace.engine._helper"}),
        ("from clarvis_lsp.workspace import _hidden", {"clarvis_lsp.workspace._hidden"}),
        ("import clarvis_lsp.workspace._hidden.part", {"clarvis_lsp.workspace._hidden"}),
        ("from ..workspace.engine import _helper as helper", {"clarvis_lsp.workspace.engine._helper"}),
        ("from clarvis_lsp.workspace import engine\nengine._helper()", {"clarvis_lsp.workspace.engine._helper"}),
        ("import clarvis_lsp.findings as f\nf._order", {"clarvis_lsp.findings._order"}),
        ('__import__("clarvis_lsp.workspace._hidden")', {"clarvis_lsp.workspace._hidden"}),
    ],
)
def test_a_private_name_of_another_room_is_found(text: str, found: set[str]) -> None:
    assert private_reaches(Source.snippet(text, "clarvis_lsp.editor.made_up")) == found


def test_a_rooms_own_private_names_and_the_dunders_are_its_own() -> None:
    text = (
        "from clarvis_lsp import __version__\nfrom clarvis_lsp.editor.common import _own\n"
        "from clarvis_lsp.workspace.engine import WorkspaceEngine\nWorkspaceEngine.__init__"
    )
    assert private_reaches(Source.snippet(text, "clarvis_lsp.editor.made_up")) == set()


def test_the_server_and_the_headless_run_stay_apart() -> None:
    server = Source.snippet("from clarvis_lsp.batch.run import check_paths", "clarvis_lsp.server.made_up")
    batch = Source.snippet("def serve():\n    from clarvis_lsp.server import serve", "clarvis_lsp.batch.made_up")
    assert front_end_offences(server) == {"batch"}
    assert front_end_offences(batch) == {"server"}
