"""The family table (``clarvis_lsp/rules/families.py``): every code, by family and declaring module, known without
importing the modules that run the checks, and equal to what those modules declare."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from clarvis_lsp.rules import catalogue
from clarvis_lsp.rules.families import FAMILIES

RULES_DIR = Path(catalogue.__file__).parent


def declared_in_source() -> dict[str, set[str]]:
    """The codes each module of ``clarvis_lsp/rules/`` declares, read from its ``rule("…", …)`` calls."""
    found: dict[str, set[str]] = {}
    for path in sorted(RULES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "rule"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(f"clarvis_lsp.rules.{path.stem}", set()).add(node.args[0].value)
    return found


def test_the_table_is_what_the_modules_declare() -> None:
    table = {module: set(codes) for module, codes in catalogue.MODULE_CODES.items()}
    assert table == declared_in_source()
    for family, by_module in FAMILIES.items():
        assert all(code.split("/", 1)[0] == family for codes in by_module.values() for code in codes), family


def test_importing_every_module_declares_exactly_the_tables_codes() -> None:
    rules = catalogue.all_rules()
    assert {declared.code for declared in rules} == catalogue.KNOWN_CODES
    assert catalogue.families() == sorted({declared.family for declared in rules})


# Run in a fresh interpreter: in this one, other tests have imported whatever they imported.
PROBE = """
import json, sys
from clarvis_lsp.rules import catalogue
from clarvis_lsp.rules.families import FAMILIES
loaded = sorted(name for name in sys.modules if name.startswith("clarvis_lsp.rules."))
before = {family: catalogue.family_codes(family) for family in FAMILIES}
catalogue.load_all()
after = {family: catalogue.family_codes(family) for family in FAMILIES}
print(json.dumps({"loaded": loaded, "before": before, "after": after, "declared": sorted(catalogue.RULES)}))
"""


def test_a_familys_codes_do_not_depend_on_what_was_imported() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True)
    found = json.loads(done.stdout)
    assert "clarvis_lsp.rules.hooks" not in found["loaded"]  # no rule module was loaded before the first answer
    assert found["before"] == found["after"]
    assert found["before"]["hooks"] == sorted(code for codes in FAMILIES["hooks"].values() for code in codes)
    assert len(found["before"]["hooks"]) > 1
    assert sorted(code for codes in found["after"].values() for code in codes) == found["declared"]
