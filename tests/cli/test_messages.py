"""Messages and fixes a user can trust (issue 9 item 6), through ``--check``, ``--diff`` and ``--fix``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

CHECK = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user"]


def _skill(workspace: Path, frontmatter: str) -> Path:
    path = workspace / ".clarvis" / "skills" / "a" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: a\ndescription: Does things.\n{frontmatter}---\nBody.\n", encoding="utf-8")
    return path


def _findings(workspace: Path) -> list[dict[str, Any]]:
    run = subprocess.run([*CHECK, "--format", "json", "."], cwd=workspace, capture_output=True, text=True, check=False)
    found: list[dict[str, Any]] = json.loads(run.stdout)["diagnostics"]
    return found


def _run(workspace: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CHECK, *arguments, "."], cwd=workspace, capture_output=True, text=True, check=False)


def test_a_flow_list_item_read_as_a_mapping_says_to_quote_it(tmp_path: Path) -> None:
    skill = _skill(tmp_path, "argument-hint: [optional: date]\n")
    [finding] = _findings(tmp_path)
    assert finding["code"] == "skill/invalid-field-type"
    assert (finding["line"], finding["column"], finding["end_column"]) == (4, 17, 31)  # on `optional: date`
    assert "the item `optional: date` is a mapping" in finding["message"]
    assert 'Quote the item ("optional: date") or the whole argument-hint.' in finding["message"]
    assert "+++ b/" not in _run(tmp_path, "--diff").stdout  # the fix is unsafe: a list becomes one string
    _run(tmp_path, "--fix", "--unsafe-fixes")
    assert 'argument-hint: "[optional: date]"\n' in skill.read_text(encoding="utf-8")
    assert _findings(tmp_path) == []


def test_a_block_list_item_read_as_a_mapping_is_underlined_alone(tmp_path: Path) -> None:
    _skill(tmp_path, "argument-hint:\n  - optional: date\n  - '<file>'\n")
    [finding] = _findings(tmp_path)
    assert (finding["line"], finding["column"], finding["end_line"], finding["end_column"]) == (5, 5, 5, 19)
    assert finding["message"].endswith('Quote the item ("optional: date").')  # no whole-value fix for a block list


def test_a_list_holding_something_else_keeps_the_general_message(tmp_path: Path) -> None:
    _skill(tmp_path, "argument-hint: [1, 2]\n")
    [finding] = _findings(tmp_path)
    assert finding["message"] == "`argument-hint` must be a string or a list of strings, not a list."


def test_a_near_miss_of_another_type_gets_no_rename_fix(tmp_path: Path) -> None:
    skill = _skill(tmp_path, "agents: [reviewer]\nuser-invokable: 3\n")
    messages = [finding["message"] for finding in _findings(tmp_path)]
    assert messages == [
        'Unknown frontmatter field "agents": Clarvis ignores it. Did you mean "agent"? It takes a string, not a list.',
        'Unknown frontmatter field "user-invokable": Clarvis ignores it. Did you mean "user-invocable"? '
        "It takes a boolean, not an integer.",
    ]
    assert "+++ b/" not in _run(tmp_path, "--diff").stdout  # a rename would leave `agent: [reviewer]`, wrongly typed
    before = skill.read_text(encoding="utf-8")
    _run(tmp_path, "--fix")
    assert skill.read_text(encoding="utf-8") == before


def test_a_near_miss_of_the_right_type_is_still_renamed(tmp_path: Path) -> None:
    skill = _skill(tmp_path, "user-invokable: false\n")
    _run(tmp_path, "--fix")
    assert "\nuser-invocable: false\n" in skill.read_text(encoding="utf-8")


def test_unsafe_fixes_never_create_a_duplicate_plugin(tmp_path: Path) -> None:
    (tmp_path / ".clarvis" / "plugins" / "quality").mkdir(parents=True)
    (tmp_path / ".clarvis" / "plugins" / "quality" / "plugin.json").write_text('{"name": "quality"}\n')
    settings = tmp_path / ".clarvis" / "settings.json"
    settings.write_text('{\n  "enabledPlugins": ["quality", "qualty", "quality"]\n}\n', encoding="utf-8")
    [typo] = [f for f in _findings(tmp_path) if f["code"] == "settings/unknown-plugin"]
    assert typo["message"].endswith('Did you mean "quality"? It is already enabled.')
    run = _run(tmp_path, "--fix", "--unsafe-fixes")
    assert json.loads(settings.read_text(encoding="utf-8"))["enabledPlugins"] == ["quality"]
    assert "settings/duplicate-plugin" not in run.stdout and "settings/unknown-plugin" not in run.stdout
    assert "Fixed 2 findings in .clarvis/settings.json" in run.stderr  # over two passes, counted once


def test_fix_repeats_until_overlapping_fixes_are_all_applied(tmp_path: Path) -> None:
    (tmp_path / ".clarvis" / "plugins" / "quality").mkdir(parents=True)
    (tmp_path / ".clarvis" / "plugins" / "quality" / "plugin.json").write_text('{"name": "quality"}\n')
    settings = tmp_path / ".clarvis" / "settings.json"
    settings.write_text('{"enabledPlugins": ["quality", "quality", "quality", "quality"]}\n', encoding="utf-8")
    _run(tmp_path, "--fix")
    assert json.loads(settings.read_text(encoding="utf-8"))["enabledPlugins"] == ["quality"]


def test_list_shows_skipped_duplicates_rejected_names_and_unloadable_skills() -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    run = subprocess.run([*CHECK[:-2], "--list", "--no-user", "."], cwd=examples, capture_output=True, text=True)
    rows = [line.split("\t") for line in run.stdout.splitlines()]
    assert run.returncode == 0, run.stderr
    # Untrusted, the plugin only the workspace enables contributes no root: its skills are listed as held back.
    assert ["#   root 1: .clarvis/skills (workspace/clarvis)"] in rows  # roots read like the other paths
    assert ["deploy helper", ".clarvis/skills/deploy/SKILL.md", "workspace/clarvis", "not loaded: invalid name"] in rows
    assert [
        "  skipped",
        ".clarvis/skills/release-notes-draft/SKILL.md",
        "workspace/clarvis",
        "duplicate: .clarvis/skills/release-notes/SKILL.md comes first",
    ] in rows
    unloaded = {row[1]: row[3] for row in rows if row[0] == "(not loaded)"}
    assert unloaded[".clarvis/skills/changelog/SKILL.md"].startswith("its frontmatter has no description")
    assert unloaded[".clarvis/skills/broken-yaml/SKILL.md"].startswith("its frontmatter is not valid YAML")
