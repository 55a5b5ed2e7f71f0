"""README.md is the first thing a user runs: its commands and its rule list must match the product."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_starts_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block is not None
    commands = block.group(1).strip().splitlines()
    assert commands == [
        "pip install . && clarvis-lsp --check examples --no-user",
        "pip install -e '.[test]' && python -m pytest",
    ]
    assert "python -m pytest" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_rule_table_matches_the_catalogue() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    embedded = text.split("<!-- rules:start -->\n", 1)[1].split("<!-- rules:end -->", 1)[0]
    listed = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--list-rules"], capture_output=True, text=True, check=True
    ).stdout
    assert embedded == listed, "regenerate the README table with `clarvis-lsp --list-rules`"


def test_example_workspace_shows_findings() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", "examples", "--no-user"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    codes = set(re.findall(r"\[([a-z]+/[a-z-]+)\]", result.stdout))
    assert {"skill/unknown-field", "discovery/shadowed", "discovery/duplicate-name", "skill/invalid-yaml"} <= codes
