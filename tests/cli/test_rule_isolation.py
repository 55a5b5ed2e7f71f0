"""SPEC §4, one failing rule never hides another, for the JSON files: ``clarvis-lsp --check`` of the examples with
one rule made to raise reports ``internal/rule-failed`` for it, and every other rule of the file still reports.

The check runs in this process (``main``), so a rule can be replaced with ``monkeypatch``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.cli import main
from clarvis_lsp.rules import runner

REPO = Path(__file__).resolve().parents[2]

Finding = tuple[str, str, int, int, str]  # path, code, line, column, message

JSON_FILES = {
    "settings": ".clarvis/settings.json",
    "plugin": ".clarvis/plugins/quality/plugin.json",
    "marketplace": "marketplace.json",
}


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of ``examples/`` (a settings.json, plugin, hooks file and marketplace with findings from most of their
    rules) and an empty home."""
    base = tmp_path_factory.mktemp("isolation")
    shutil.copytree(REPO / "examples", base / "ws")
    (base / "home").mkdir()
    return base / "ws", base / "home"


def check(examples: tuple[Path, Path]) -> list[Finding]:
    """The findings ``clarvis-lsp --check`` prints for the examples (in this process, so patches apply)."""
    ws, home = examples
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["--check", str(ws), "--no-user", "--home", str(home), "--format", "json"])
    assert status == 1
    report: dict[str, Any] = json.loads(out.getvalue())
    return [
        (Path(item["path"]).relative_to(ws).as_posix(), item["code"], item["line"], item["column"], item["message"])
        for item in report["diagnostics"]
    ]


@pytest.fixture(scope="module")
def baseline(examples: tuple[Path, Path]) -> list[Finding]:
    return check(examples)


def _raising(*args: object, **kwargs: object) -> None:
    raise IndexError("list index out of range")


def _schema_codes(kind: str) -> set[str]:
    """The codes the schema of ``kind`` reports (its ``x-clarvis-errors`` annotations): all the structural check of
    the file may report."""
    text = (REPO / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8")
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for entry in value.get("x-clarvis-errors", []):
                found.add(entry["code"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(text))
    return found


@pytest.mark.parametrize("family", sorted(JSON_FILES))
def test_a_raising_structural_check_leaves_the_other_rules_of_the_file(
    family: str,
    examples: tuple[Path, Path],
    baseline: list[Finding],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The schema-driven check of a settings.json, plugin.json or marketplace.json raises: only its own findings
    are missing. (It used to run in one step with every other rule of the family, which it took along.)"""
    monkeypatch.setattr(importlib.import_module(f"clarvis_lsp.rules.{family}"), "check_structure", _raising)
    found = check(examples)
    path = JSON_FILES[family]
    failed = [item for item in found if item[1] == "internal/rule-failed"]
    assert [item[0] for item in failed] == [path]
    assert "IndexError" in failed[0][4]
    kept = [item for item in baseline if item[0] != path or item[1] not in _schema_codes(family)]
    assert [item for item in baseline if item[0] == path and item in kept], "the file has findings of other rules"
    missing = [item for item in kept if item not in found]
    assert not missing, missing


def _json_steps() -> list[tuple[str, str]]:
    return [(kind.value, step.name) for kind, steps in runner.json_rules().items() for step in steps]


@pytest.mark.parametrize(("kind", "name"), _json_steps())
def test_each_json_rule_fails_alone(
    kind: str,
    name: str,
    examples: tuple[Path, Path],
    baseline: list[Finding],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every step of every JSON file kind, made to raise in turn: one ``internal/rule-failed`` naming it on each
    file of the kind, and every finding of a code the step does not report still printed."""
    table = runner.json_rules()
    steps = {file_kind: steps for file_kind, steps in table.items() if file_kind.value == kind}
    (file_kind,) = steps
    broken = next(step for step in steps[file_kind] if step.name == name)
    replaced = {
        **table,
        file_kind: tuple(
            dataclasses.replace(step, check=_raising) if step is broken else step for step in table[file_kind]
        ),
    }
    monkeypatch.setattr(runner, "json_rules", lambda: replaced)
    found = check(examples)
    failed = [item for item in found if item[1] == "internal/rule-failed"]
    assert failed and all(f"The {name} rule failed" in item[4] for item in failed), failed
    failed_paths = {item[0] for item in failed}
    missing = [
        item for item in baseline if item not in found and not (item[0] in failed_paths and item[1] in broken.codes)
    ]
    assert not missing, missing
    assert not [item for item in found if item not in baseline and item[1] != "internal/rule-failed"]
