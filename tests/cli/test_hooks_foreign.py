"""``hooks/foreign-format``: Claude Code's hooks shape in hooks/hooks.json, plugin.json and settings.json, through
``--check``, ``--fix --unsafe-fixes`` and ``--explain``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PLUGIN = ".clarvis/plugins/fmt"

CLAUDE_HOOKS = {
    "PreToolUse": [
        {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "./fmt.sh", "timeout": 30}]},
        {"matcher": "Notebook.*", "hooks": [{"type": "command", "command": "./nb.sh"}]},
    ],
    "PostToolUse": [{"hooks": [{"type": "command", "command": "./after.sh"}]}],
    "SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "./hello.sh", "timeout": 1.5}]}],
}
CONVERTED = [
    {"event": "pre_tool_use", "command": "./fmt.sh", "match": {"tool": ["Write", "Edit"]}, "timeout_ms": 30000},
    {"event": "pre_tool_use", "command": "./nb.sh", "match": {"tool": "Notebook*"}},
    {"event": "post_tool_use", "command": "./after.sh"},
    {"event": "session_start", "command": "./hello.sh", "timeout_ms": 1500},
]


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "clarvis_lsp", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def write(root: Path, relative: str, data: object, indent: int | None = 2) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=indent) + "\n", encoding="utf-8")
    return path


def findings(root: Path, *args: str) -> list[dict[str, Any]]:
    result = run(root, "--check", ".", "--no-user", "--format", "json", *args)
    assert result.returncode in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)["diagnostics"]
    return found


def test_a_claude_code_hooks_file_gets_one_finding_that_says_what_each_entry_becomes(tmp_path: Path) -> None:
    write(tmp_path, f"{PLUGIN}/plugin.json", {"name": "fmt"})
    write(tmp_path, f"{PLUGIN}/hooks/hooks.json", {"hooks": CLAUDE_HOOKS})
    found = findings(tmp_path)
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("hooks/foreign-format", 2, 3)]
    message = found[0]["message"]
    assert message.startswith(
        "This is Claude Code's hooks format; Clarvis expects an array of hook objects, so none of the hooks of "
        'plugin "fmt" runs. Each entry becomes: PreToolUse "Write|Edit" → pre_tool_use, match.tool ["Write", '
        '"Edit"], timeout_ms 30000; PreToolUse "Notebook.*" → pre_tool_use, match.tool "Notebook*"; '
        "PostToolUse → post_tool_use; SessionStart → session_start, timeout_ms 1500."
    )
    assert "must be an array" not in json.dumps(found)


def test_the_unsafe_fix_converts_the_whole_file(tmp_path: Path) -> None:
    write(tmp_path, f"{PLUGIN}/plugin.json", {"name": "fmt"})
    hooks = write(tmp_path, f"{PLUGIN}/hooks/hooks.json", {"hooks": CLAUDE_HOOKS})
    safe = run(tmp_path, "--check", ".", "--no-user", "--fix")
    assert safe.returncode == 1 and json.loads(hooks.read_text())["hooks"] == CLAUDE_HOOKS  # unsafe: not by --fix
    fixed = run(tmp_path, "--check", ".", "--no-user", "--fix", "--unsafe-fixes")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "No findings" in fixed.stdout
    text = hooks.read_text()
    assert json.loads(text) == {"hooks": CONVERTED}
    assert text.startswith('{\n  "hooks": [\n    {\n      "event": "pre_tool_use",\n')  # laid out as the file was


def test_in_plugin_json_entries_without_a_same_meaning_event_are_named_and_no_fix_is_offered(tmp_path: Path) -> None:
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}],
        "Notification": [{"hooks": [{"type": "command", "command": "./ping.sh"}]}],
    }
    manifest = write(tmp_path, f"{PLUGIN}/plugin.json", {"name": "fmt", "hooks": hooks})
    before = manifest.read_text()
    [found] = findings(tmp_path)
    assert found["code"] == "hooks/foreign-format"
    assert (found["line"], found["column"]) == (3, 3)  # the "hooks" key
    message = found["message"]
    assert 'PreToolUse "Bash" → pre_tool_use, match.tool "Bash"' in message
    assert "Not converted: Stop has no Clarvis event of the same meaning (the closest is pre_finalize" in message
    assert "Notification has no Clarvis event of the same meaning (Clarvis has no notification event)" in message
    assert message.endswith("Convert those by hand (no quick fix is offered).")
    assert "unknown-field" not in json.dumps(findings(tmp_path))  # no advice about fields named after events
    run(tmp_path, "--check", ".", "--no-user", "--fix", "--unsafe-fixes")
    assert manifest.read_text() == before


def test_settings_hooks_in_claude_code_shape_are_converted_on_one_line(tmp_path: Path) -> None:
    settings = tmp_path / ".clarvis" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./g.sh"}]}]}}\n',
        encoding="utf-8",
    )
    found = findings(tmp_path, "--select", "hooks,settings/invalid-value")
    assert [f["code"] for f in found] == ["hooks/foreign-format"]  # not also "must be an array"
    assert run(tmp_path, "--check", ".", "--no-user", "--fix", "--unsafe-fixes", "--select", "hooks").returncode == 0
    assert settings.read_text() == (
        '{"hooks": [{"event": "pre_tool_use", "command": "./g.sh", "match": {"tool": "Bash"}}]}\n'
    )


def test_what_does_not_map_is_said_entry_by_entry(tmp_path: Path) -> None:
    hooks = {
        "PreToolUse": [
            {"matcher": "Bash(git *)", "hooks": [{"type": "command", "command": "./a.sh"}]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "./b.sh", "timeout": 120}]},
            {"matcher": "Edit", "hooks": [{"type": "prompt", "prompt": "Is this safe?"}]},
        ],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "./c.sh"}]}],
    }
    write(tmp_path, f"{PLUGIN}/plugin.json", {"name": "fmt"})
    write(tmp_path, f"{PLUGIN}/hooks/hooks.json", hooks)
    [found] = findings(tmp_path)
    message = found["message"]
    assert (found["line"], found["column"]) == (1, 1)  # a whole file in Claude Code's shape: its opening brace
    assert 'PreToolUse: the matcher "Bash(git *)" is a regular expression that match.tool cannot say' in message
    assert 'PreToolUse "Edit": the timeout 120 s is not 1 to 60000 ms in Clarvis' in message
    assert 'PreToolUse "Edit": the hook field prompt has no Clarvis counterpart' in message
    assert 'SessionStart: the matcher "startup" (Clarvis\'s session_start has no match)' in message
    assert "No entry converts." in message


def test_explain_documents_the_mapping_table() -> None:
    from clarvis_lsp.knowledge.claude_hooks import EVENTS

    result = run(Path.cwd(), "--explain", "hooks/foreign-format")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    for event in EVENTS.values():
        assert f"{event.name} → {event.clarvis or 'no event of the same meaning'} ({event.note})" in text
    assert "`matcher` becomes `match.tool`" in text and "`timeout` in seconds becomes `timeout_ms`" in text
