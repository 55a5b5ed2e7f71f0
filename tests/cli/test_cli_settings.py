"""``clarvis-lsp --check --format json`` on a settings.json with ten different mistakes: ten findings, ten lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SETTINGS = """\
{
  "enabledPlugin": ["lint"],
  "model": 3,
  "marketplaces": ["github.com/acme/plugins"],
  "enabledPlugins": [
    "nope",
    "nope"
  ],
  "hooks": [
    {"event": "PreToolUse", "command": "./guard.sh"},
    {"event": "run_end", "command": "./notify.sh", "on_failure": "deny"},
    {"event": "session_start", "command": "./context.sh", "timeout_ms": 0}
  ],
  "mcpServers": {
    "github.com": {"command": "gh-mcp"},
    "docs": {"type": "http"}
  }
}
"""

EXPECTED = [
    (2, 3, 2, 18, "error", "settings/unknown-field"),
    (3, 12, 3, 13, "error", "settings/invalid-value"),
    (4, 20, 4, 45, "error", "settings/invalid-marketplace"),
    (6, 5, 6, 11, "warning", "settings/unknown-plugin"),
    (7, 5, 7, 11, "warning", "settings/duplicate-plugin"),
    (10, 15, 10, 27, "error", "hooks/unknown-event"),
    (11, 66, 11, 72, "error", "hooks/deny-on-non-control-event"),
    (12, 73, 12, 74, "error", "hooks/invalid-timeout"),
    (15, 5, 15, 17, "warning", "mcp/invalid-server-name"),
    (16, 5, 16, 11, "error", "mcp/missing-url"),
]


def test_ten_mistakes_give_ten_findings_on_ten_lines(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    (ws / ".clarvis").mkdir(parents=True)
    home.mkdir()
    (ws / ".clarvis" / "settings.json").write_text(SETTINGS, encoding="utf-8")
    command = [sys.executable, "-m", "clarvis_lsp", "--check", "ws", "--format", "json", "--no-user"]
    command += ["--ignore", "settings/requires-trust", "--home", str(home)]
    completed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 1, completed.stderr
    output = json.loads(completed.stdout)
    found = [
        (d["line"], d["column"], d["end_line"], d["end_column"], d["severity"], d["code"])
        for d in output["diagnostics"]
    ]
    assert found == EXPECTED
    assert len({line for line, *_ in found}) == 10
    assert {d["path"] for d in output["diagnostics"]} == {str(Path("ws/.clarvis/settings.json"))}
    assert output["summary"] == {"error": 7, "warning": 3, "information": 0, "hint": 0}
