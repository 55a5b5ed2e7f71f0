"""``agent/requires-trust`` through ``--check``: workspace agents are held back until ``/workspace-trust`` (seed
``clarvis-extensions-reference``); personal and plugin agents are not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_only_workspace_agents_get_the_trust_notice(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    for path in (
        ws / ".clarvis/agents/reviewer.md",
        ws / ".clarvis/plugins/quality/agents/helper.md",
        home / ".clarvis/agents/mine.md",
    ):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("---\nname: x\n---\nAn agent.\n", encoding="utf-8")
    (ws / ".clarvis/plugins/quality/plugin.json").write_text('{"name": "quality"}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", str(ws), "--home", str(home), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = [item for item in json.loads(done.stdout)["diagnostics"] if item["code"] == "agent/requires-trust"]
    assert [(item["path"], item["line"], item["severity"]) for item in found] == [
        (f"{ws}/.clarvis/agents/reviewer.md", 1, "information")
    ]
    assert "/workspace-trust" in found[0]["message"]
    explained = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--explain", "agent/requires-trust"], capture_output=True, text=True
    )
    assert explained.returncode == 0 and "personal agents" in explained.stdout
