"""Paths inside a finding's message read like the finding's own path (issue: "Shadowed by /abs/…" under a line
that starts with ".agents/…"), in every output format and when pre-commit passes single files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CHECK = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user"]


def _skill(root: Path, directory: str, name: str) -> Path:
    path = root / directory / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: Does things.\n---\nBody.\n", encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    _skill(repo / ".agents" / "skills", "review", "review")
    _skill(repo / ".clarvis" / "skills", "review", "review")
    return repo


def _run(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CHECK, *arguments], cwd=cwd, capture_output=True, text=True, check=False)


def _shadowed(output: str) -> dict[str, Any]:
    [finding] = [f for f in json.loads(output)["diagnostics"] if f["code"] == "discovery/shadowed"]
    found: dict[str, Any] = finding
    return found


@pytest.mark.parametrize(
    "arguments",
    [
        [".agents/skills/review/SKILL.md"],  # pre-commit: one file, the winner outside every argument
        ["."],
        [".agents", ".clarvis"],
    ],
)
def test_relative_arguments_give_relative_paths_in_messages(workspace: Path, arguments: list[str]) -> None:
    finding = _shadowed(_run(workspace, "--format", "json", *arguments).stdout)
    assert finding["path"] == ".agents/skills/review/SKILL.md"
    assert finding["message"].startswith("Shadowed by .clarvis/skills/review/SKILL.md (")
    assert [related["path"] for related in finding["related"]] == [".clarvis/skills/review/SKILL.md"]
    assert str(workspace) not in json.dumps(finding)


def test_an_argument_from_above_the_workspace_prefixes_every_path_alike(workspace: Path) -> None:
    finding = _shadowed(_run(workspace.parent, "--format", "json", "repo").stdout)
    assert finding["path"] == "repo/.agents/skills/review/SKILL.md"
    assert finding["message"].startswith("Shadowed by repo/.clarvis/skills/review/SKILL.md (")


def test_absolute_arguments_keep_absolute_paths(workspace: Path) -> None:
    finding = _shadowed(_run(workspace, "--format", "json", str(workspace / ".agents")).stdout)
    assert finding["path"] == str(workspace / ".agents/skills/review/SKILL.md")
    assert finding["message"].startswith(f"Shadowed by {workspace / '.clarvis/skills/review/SKILL.md'} (")


@pytest.mark.parametrize("output_format", ["text", "github", "sarif"])
def test_no_absolute_path_in_any_format_for_relative_arguments(workspace: Path, output_format: str) -> None:
    run = _run(workspace, "--format", output_format, ".agents/skills/review/SKILL.md")
    assert run.returncode == 0, run.stderr  # a shadowed copy is a warning
    shown = run.stdout
    if output_format == "sarif":  # the one absolute URI SARIF wants: the base the relative ones resolve against
        log = json.loads(shown)
        for sarif_run in log["runs"]:
            assert sarif_run.pop("originalUriBaseIds")["%SRCROOT%"]["uri"] == workspace.as_uri() + "/"
        shown = json.dumps(log)
    assert "Shadowed by .clarvis/skills/review/SKILL.md" in shown
    assert str(workspace) not in shown
