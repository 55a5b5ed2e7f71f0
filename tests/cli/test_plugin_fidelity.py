"""A plugin whose ``name`` differs from its directory is not loaded by Clarvis (SPEC §3.5: the name "must equal"
the directory), so ``--list`` says its skills are not loaded instead of listing them as winners; and unknown
fields of plugin.json's ``author`` object are reported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SKILL = "---\nname: {name}\ndescription: Does {name} things.\n---\n"


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "clarvis_lsp", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Two enabled plugins with a skill "lint" each: "late" comes later in enabledPlugins (so it would win), but
    its plugin.json names it "late-plugin"."""
    write(tmp_path, ".clarvis/settings.json", json.dumps({"enabledPlugins": ["early", "late"]}))
    write(tmp_path, ".clarvis/plugins/early/plugin.json", '{"name": "early"}')
    write(tmp_path, ".clarvis/plugins/early/skills/lint/SKILL.md", SKILL.format(name="lint"))
    write(tmp_path, ".clarvis/plugins/late/plugin.json", '{"name": "late-plugin"}')
    write(tmp_path, ".clarvis/plugins/late/skills/lint/SKILL.md", SKILL.format(name="lint"))
    write(tmp_path, ".clarvis/plugins/late/skills/only-here/SKILL.md", SKILL.format(name="only-here"))
    return tmp_path


def test_list_says_the_skills_of_a_misnamed_plugin_are_not_loaded(workspace: Path) -> None:
    result = run(workspace, "--list", ".", "--no-user", "--trusted")
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines() if not line.startswith("#")]
    reason = (
        'not loaded: plugin.json names the plugin "late-plugin", not "late" (its directory), so Clarvis does not '
        "load it"
    )
    assert rows == [
        ["lint", ".clarvis/plugins/early/skills/lint/SKILL.md", "workspace/plugin:early"],
        ["(not loaded)", ".clarvis/plugins/late/skills/lint/SKILL.md", "workspace/plugin:late", reason],
        ["(not loaded)", ".clarvis/plugins/late/skills/only-here/SKILL.md", "workspace/plugin:late", reason],
    ]
    assert "#   root 0: .clarvis/plugins/early/skills (workspace/plugin:early)" in result.stdout
    assert "plugins/late/skills (" not in result.stdout  # discovery does not scan it


def test_the_skills_of_a_misnamed_plugin_shadow_nothing(workspace: Path) -> None:
    result = run(workspace, "--check", ".", "--no-user", "--format", "json")
    codes = [(finding["path"], finding["code"]) for finding in json.loads(result.stdout)["diagnostics"]]
    assert (".clarvis/plugins/late/plugin.json", "plugin/name-directory-mismatch") in codes
    assert not [code for _, code in codes if code.startswith("discovery/")]  # no shadowing of the early copy


def test_a_matching_name_loads_the_plugin_again(workspace: Path) -> None:
    write(workspace, ".clarvis/plugins/late/plugin.json", '{"name": "late"}')
    listing = run(workspace, "--list", ".", "--no-user", "--trusted").stdout
    rows = [line.split("\t")[:3] for line in listing.splitlines()]
    assert ["lint", ".clarvis/plugins/late/skills/lint/SKILL.md", "workspace/plugin:late"] in rows
    assert ["  shadows", ".clarvis/plugins/early/skills/lint/SKILL.md", "workspace/plugin:early"] in rows


def test_unknown_fields_of_the_author_object_are_reported(tmp_path: Path) -> None:
    manifest = '{\n  "name": "kit",\n  "author": {"name": "Ada", "email": "ada@example.com", "nmae": "x"}\n}\n'
    write(tmp_path, ".clarvis/plugins/kit/plugin.json", manifest)
    result = run(tmp_path, "--check", ".", "--no-user", "--format", "json")
    found = [
        (finding["line"], finding["column"], finding["message"])
        for finding in json.loads(result.stdout)["diagnostics"]
        if finding["code"] == "plugin/unknown-field"
    ]
    assert found == [
        (
            3,
            29,
            'Unknown field "email" in "author": author takes a string or {"name": …}, and Clarvis ignores the rest.',
        ),
        (
            3,
            57,
            'Unknown field "nmae" in "author": author takes a string or {"name": …}, and Clarvis ignores the rest. '
            'Did you mean "name"?',
        ),
    ]
    assert result.returncode == 0  # warnings only
