"""Unsafe fixes produce valid YAML or are not offered (flow-style frontmatter, anchors still in use), and YAML's
extra line breaks (U+0085, U+2028, U+2029) never move a range off its line. Through ``--check``/``--fix``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

CHECK = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user"]


def _write(workspace: Path, text: str) -> Path:
    path = workspace / ".clarvis" / "skills" / "a" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _run(workspace: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CHECK, *arguments, "."], cwd=workspace, capture_output=True, text=True, check=False, encoding="utf-8"
    )


def _findings(workspace: Path) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(_run(workspace, "--format", "json").stdout)["diagnostics"]
    return found


def _frontmatter(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])


@pytest.mark.parametrize(
    "text",
    [
        "---\n{description: Keeps this text., foo: 1}\n---\nBody.\n",  # no name, an unknown field
        "---\n{name: a, foo: 1}\n---\nBody.\n",  # no description
        "---\n{name: a, description: Keeps this text., agents: x}\n---\nBody.\n",
    ],
)
def test_unsafe_fixes_keep_a_flow_mapping_valid_and_whole(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, text)
    before = _frontmatter(path)
    _run(tmp_path, "--fix", "--unsafe-fixes")
    after = _frontmatter(path)  # still parses
    assert isinstance(after, dict)
    for key, value in before.items():  # nothing the user wrote is lost, at most renamed
        assert value in after.values(), (key, after)


def test_a_field_whose_anchor_another_field_uses_is_not_removed_first(tmp_path: Path) -> None:
    path = _write(tmp_path, "---\nname: a\ndescription: &text Does things.\nsummary: *text\n---\nBody.\n")
    diff = _run(tmp_path, "--diff", "--unsafe-fixes").stdout
    assert "-summary: *text" in diff and "-description" not in diff
    path.write_text("---\nname: a\ndescription: d\nextra: &shared x\nnote: *shared\n---\n", encoding="utf-8")
    diff = _run(tmp_path, "--diff", "--unsafe-fixes").stdout
    assert "-note: *shared" in diff and "-extra: &shared x" not in diff  # the alias goes first
    _run(tmp_path, "--fix", "--unsafe-fixes")  # then, on the next pass, the anchor
    assert _frontmatter(path) == {"name": "a", "description": "d"}


@pytest.mark.parametrize("line_break", ["\u0085", "\u2028", "\u2029"])
def test_yaml_line_breaks_do_not_move_the_invalid_yaml_range(tmp_path: Path, line_break: str) -> None:
    _write(tmp_path, '---\nname: a\ndescription: "x"\nfoo: : bad\n---\n')
    [plain] = _findings(tmp_path)
    _write(tmp_path, f'---\nname: a\ndescription: "x{line_break}y"\nfoo: : bad\n---\n')
    [found] = _findings(tmp_path)
    assert found["code"] == plain["code"] == "skill/invalid-yaml"
    assert (found["line"], found["column"], found["end_line"], found["end_column"]) == (
        plain["line"],
        plain["column"],
        plain["end_line"],
        plain["end_column"],
    )
    assert found["line"] == found["end_line"] == 4


@pytest.mark.parametrize("line_break", ["\u0085", "\u2028", "\u2029"])
def test_yaml_line_breaks_are_content_as_in_yaml_1_2(line_break: str) -> None:
    from clarvis_lsp.documents.skill import parse_skill

    text = f'---\nname: a\ndescription: "x{line_break}y"\nnote: p{line_break}q\n---\n'
    document = parse_skill(Path("/ws/.clarvis/skills/a/SKILL.md"), text)
    values = {entry.key: entry.value for entry in document.entries}
    assert values == {"name": "a", "description": f"x{line_break}y", "note": f"p{line_break}q"}  # not folded


@pytest.mark.parametrize(
    "text",
    ["---\n  name: a\n---\nBody.\n", "---\n  description: Keeps this text.\n---\nBody.\n"],  # keys indented by two
)
def test_an_added_key_matches_the_indentation_of_the_others(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, text)
    _run(tmp_path, "--fix", "--unsafe-fixes")
    assert set(_frontmatter(path)) == {"name", "description"}
    assert [f["code"] for f in _findings(tmp_path)] == []
