"""``hooks/invalid-regex`` through ``clarvis-lsp --check``: a ``match.args`` pattern is reported exactly when
Node.js would refuse to compile it. Two groups may share a name in different alternatives (ES2025, Node.js 24), a
modifier group may name a flag only once, and ``\\k`` must name a group once the pattern has named groups."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def check(workspace: Path, args: dict[str, str]) -> list[dict[str, Any]]:
    hooks = [
        {"event": "pre_tool_use", "command": "./guard.sh", "match": {"args": {name: value}}}
        for name, value in args.items()
    ]
    plugin = workspace / ".clarvis" / "plugins" / "guard"
    path = plugin / "hooks" / "hooks.json"
    path.parent.mkdir(parents=True)
    (plugin / "plugin.json").write_text('{"name": "guard"}\n', encoding="utf-8")
    path.write_text(json.dumps(hooks, indent=2) + "\n", encoding="utf-8")
    (workspace / "home").mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--home", "home", "--format", "json"],
        cwd=workspace,
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)["diagnostics"]
    return found


def test_what_node_compiles_passes_and_what_it_refuses_is_reported(tmp_path: Path) -> None:
    found = check(
        tmp_path,
        {
            "date": "(?<y>\\d{4})-\\d\\d|\\d\\d-(?<y>\\d{4})",
            "name": "(?<\u00e9t\u00e9>a)\\k<\u00e9t\u00e9>",
            "flags": "(?ii:x)",
            "reference": "(?<a>x)\\k",
            "twice": "(?<a>x)(?<a>y)",
        },
    )
    assert [(item["code"], item["line"]) for item in found] == [
        ("hooks/invalid-regex", 25),
        ("hooks/invalid-regex", 34),
        ("hooks/invalid-regex", 43),
    ]
    flags, reference, twice = (item["message"] for item in found)
    assert "names each of i, m and s at most once" in flags
    assert "\\k must be followed by <name>" in reference
    assert 'the group name "a" is used twice in one alternative' in twice
