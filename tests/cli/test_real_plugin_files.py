"""Plugins as public repositories write them, through ``--check``: a hooks file named by plugin.json (any name), a
skill naming its own plugin's agent by the bare name, a plugin kept inside another, and a Claude Code hooks file
with a ``description``. Each mistake gets one finding that names the right plugin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

CLAUDE_HOOKS = {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "./fmt.sh"}]}]}


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def write(root: Path, relative: str, content: object) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content) + "\n", encoding="utf-8")
    return path


def findings(root: Path, *paths: str) -> list[dict[str, Any]]:
    result = run(root, "--format", "json", *(paths or (".",)))
    assert result.returncode in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)["diagnostics"]
    return found


def codes(found: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return sorted((item["path"], item["code"]) for item in found)


# -- a Claude Code hooks file with its own top-level keys --------------------------------------------------------


def test_a_claude_code_hooks_file_gets_no_unknown_field_for_its_description_or_schema(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/plugins/fmt/plugin.json", {"name": "fmt"})
    document = {"$schema": "https://json.schemastore.org/claude-code-hooks", "description": "Formats.", "hooks": {}}
    document["hooks"] = CLAUDE_HOOKS
    write(tmp_path, ".clarvis/plugins/fmt/hooks/hooks.json", document)
    assert codes(findings(tmp_path)) == [(".clarvis/plugins/fmt/hooks/hooks.json", "hooks/foreign-format")]
    document["hooks"] = [{"event": "run_end", "command": "./n.sh"}]  # Clarvis's shape: the keys are unknown again
    write(tmp_path, ".clarvis/plugins/fmt/hooks/hooks.json", document)
    assert codes(findings(tmp_path)) == [(".clarvis/plugins/fmt/hooks/hooks.json", "hooks/unknown-field")] * 2
