"""The core never imports pygls or lsprotocol: only ``clarvis_lsp/server/`` knows the protocol."""

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
