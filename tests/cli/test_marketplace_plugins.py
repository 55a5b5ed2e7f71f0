"""A ``plugin.json`` in a directory that a marketplace entry points to is a plugin (SPEC §3), wherever it sits:
``--check`` reports its mistakes. A relative ``source`` is read against the marketplace's directory, and for a
marketplace kept in ``.claude-plugin/`` against the repository directory above it too; a ``plugin.json`` that
no marketplace names, outside ``plugins/`` and the workspace root, stays unrecognised."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PLUGIN = '{"name": "kit", "colour": "red"}\n'


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def findings(workspace: Path) -> list[tuple[str, str]]:
    done = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--no-user", "--format", "json"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    return sorted((item["path"], item["code"]) for item in report["diagnostics"])


def marketplace(*sources: str) -> str:
    return json.dumps({"name": "shop", "plugins": [{"name": f"p{i}", "source": s} for i, s in enumerate(sources)]})


def test_a_plugin_a_marketplace_names_is_checked(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/settings.json", "{}")
    write(tmp_path, "marketplace.json", marketplace("./packages/kit"))
    write(tmp_path, "packages/kit/plugin.json", PLUGIN)
    write(tmp_path, "packages/other/plugin.json", PLUGIN)  # named by no marketplace
    assert ("packages/kit/plugin.json", "plugin/unknown-field") in findings(tmp_path)
    assert not [item for item in findings(tmp_path) if item[0].startswith("packages/other")]


def test_a_claude_plugin_marketplace_reads_sources_from_the_repository(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/settings.json", "{}")
    write(tmp_path, ".claude-plugin/marketplace.json", marketplace("./tools/kit"))
    write(tmp_path, "tools/kit/plugin.json", PLUGIN)
    write(tmp_path, "tools/kit/hooks/hooks.json", '[{"event": "PreToolUse", "command": "x"}]')
    found = findings(tmp_path)
    assert ("tools/kit/plugin.json", "plugin/unknown-field") in found
    assert ("tools/kit/hooks/hooks.json", "hooks/unknown-event") in found


def test_without_the_marketplace_entry_the_directory_is_no_plugin(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/settings.json", "{}")
    write(tmp_path, "marketplace.json", marketplace("https://example.com/kit.git"))
    write(tmp_path, "packages/kit/plugin.json", PLUGIN)
    assert not [item for item in findings(tmp_path) if item[0].startswith("packages/")]


def test_a_hostile_marketplace_names_nothing_and_breaks_nothing(tmp_path: Path) -> None:
    """Nested past any decoder's depth: the marketplace gets its own findings, and the plugin.json beside it is
    simply no plugin (the lookup asked about it must not fail the check)."""
    write(tmp_path, ".clarvis/settings.json", "{}")
    write(tmp_path, "marketplace.json", '{"plugins": ' + "[" * 100_000 + "]" * 100_000 + "}")
    write(tmp_path, "packages/kit/plugin.json", PLUGIN)
    found = findings(tmp_path)
    assert not [item for item in found if item[0].startswith("packages/") or item[1] == "internal/rule-failed"]
