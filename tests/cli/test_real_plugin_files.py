"""Plugins as public repositories write them, through ``--check``: a hooks file named by plugin.json (any name), a
skill naming its own plugin's agent by the bare name, a plugin kept inside another, and a Claude Code hooks file
with a ``description``. Each mistake gets one finding that names the right plugin."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
CLAUDE_HOOKS = {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "./fmt.sh"}]}]}
BAD_HOOK = [{"event": "PreTool", "command": "./guard.sh"}]


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


# -- a hooks file named by plugin.json ---------------------------------------------------------------------------


def test_the_hooks_file_an_installed_plugins_manifest_names_is_checked_whatever_its_name(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/plugins/guard/plugin.json", {"name": "guard", "hooks": "./config/my-hooks.json"})
    write(tmp_path, ".clarvis/plugins/guard/config/my-hooks.json", BAD_HOOK)
    write(tmp_path, ".clarvis/plugins/guard/config/other.json", BAD_HOOK)  # named by nothing: not a hooks file
    found = findings(tmp_path)
    assert codes(found) == [(".clarvis/plugins/guard/config/my-hooks.json", "hooks/unknown-event")]
    assert 'Did you mean "pre_tool_use"?' in found[0]["message"]
    result = run(tmp_path, ".clarvis/plugins/guard/config/my-hooks.json")  # as pre-commit passes a changed file
    assert result.returncode == 1
    assert "my-hooks.json:1:12: error[hooks/unknown-event]" in result.stdout


def test_a_plugin_developed_at_the_root_has_its_hooks_json_beside_the_manifest_checked(tmp_path: Path) -> None:
    write(tmp_path, "plugin.json", {"name": tmp_path.name, "hooks": "./hooks.json"})
    write(tmp_path, "hooks.json", {"hooks": [{"event": "run_end", "command": "./n.sh", "on_failure": "deny"}]})
    assert codes(findings(tmp_path)) == [("hooks.json", "hooks/deny-on-non-control-event")]


def test_a_named_hooks_file_outside_the_plugin_is_reported_on_the_manifest_and_never_checked(tmp_path: Path) -> None:
    write(tmp_path, "shared/hooks.json", BAD_HOOK)
    write(tmp_path, "shared/x.json", BAD_HOOK)
    write(tmp_path, ".clarvis/plugins/a/plugin.json", {"name": "a", "hooks": "../../../shared/x.json"})
    assert codes(findings(tmp_path)) == [(".clarvis/plugins/a/plugin.json", "plugin/path-escapes")]


def test_the_named_hooks_file_follows_the_exclude_patterns(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/plugins/guard/plugin.json", {"name": "guard", "hooks": "config/my-hooks.json"})
    write(tmp_path, ".clarvis/plugins/guard/config/my-hooks.json", BAD_HOOK)
    write(tmp_path, ".clarvis-lsp.toml", 'exclude = ["config/"]\n')
    assert findings(tmp_path) == []


def test_pre_commit_passes_a_hooks_file_a_manifest_names(tmp_path: Path) -> None:
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    pattern = re.compile(str(hook["files"]))
    for name in ("plugins/guard/hooks.json", "plugins/guard/config/my-hooks.json", "p/pre-hook.json"):
        assert pattern.search(name), name
    assert not pattern.search("package.json") and not pattern.search("tsconfig.json")


# -- a bare agent name of the skill's own plugin -----------------------------------------------------------------

SKILL = "---\nname: review\ndescription: Reviews a change.\nagent: rev\n---\nBody.\n"


def test_a_bare_agent_name_of_the_skills_own_plugin_says_the_qualified_name_and_fixes_it(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/settings.json", {"enabledPlugins": ["code-quality-kit"]})
    plugin = ".clarvis/plugins/code-quality-kit"
    write(tmp_path, f"{plugin}/plugin.json", {"name": "code-quality-kit"})
    write(tmp_path, f"{plugin}/agents/rev.md", "---\nname: rev\n---\nReview.\n")
    skill = write(tmp_path, f"{plugin}/skills/review/SKILL.md", SKILL)
    [found] = [item for item in findings(tmp_path) if item["code"] == "skill/unknown-agent"]
    assert found["message"] == (
        'No agent is named "rev": the agents of a plugin are named after it, so this plugin\'s agent "rev" is '
        '"code-quality-kit:rev". Write `agent: code-quality-kit:rev`.'
    )
    assert found["related"][0]["path"] == f"{plugin}/agents/rev.md"
    diff = run(tmp_path, "--diff", ".").stdout  # a safe fix: shown and applied without --unsafe-fixes
    assert "-agent: rev\n+agent: code-quality-kit:rev\n" in diff
    run(tmp_path, "--fix", ".")
    assert "agent: code-quality-kit:rev\n" in skill.read_text(encoding="utf-8")
    assert [item for item in findings(tmp_path) if item["code"] == "skill/unknown-agent"] == []


def test_a_plugin_in_a_repository_gets_the_same_advice_from_its_agent_file(tmp_path: Path) -> None:
    write(tmp_path, "plugins/kit/plugin.json", {"name": "kit"})
    write(tmp_path, "plugins/kit/agents/rev.md", "---\nname: rev\n---\nReview.\n")
    write(tmp_path, "plugins/kit/skills/review/SKILL.md", SKILL)
    write(tmp_path, "plugins/other/skills/review/SKILL.md", SKILL)  # no plugin.json: no plugin, no advice
    found = {item["path"]: item["message"] for item in findings(tmp_path) if item["code"] == "skill/unknown-agent"}
    assert found["plugins/kit/skills/review/SKILL.md"].endswith("Write `agent: kit:rev`.")
    assert found["plugins/other/skills/review/SKILL.md"].startswith('No agent named "rev" was found')


# -- a plugin inside another -------------------------------------------------------------------------------------


def test_a_plugin_kept_inside_an_installed_plugin_has_one_owner_the_installed_one(tmp_path: Path) -> None:
    outer = ".clarvis/plugins/outer"
    write(tmp_path, ".clarvis/settings.json", {"enabledPlugins": ["outer"]})
    write(tmp_path, f"{outer}/plugin.json", {"name": "outer"})
    write(tmp_path, f"{outer}/plugins/inner/plugin.json", {"name": "inner", "hooks": {"hooks": CLAUDE_HOOKS}})
    write(tmp_path, f"{outer}/plugins/inner/hooks/hooks.json", [{"event": "run_end", "command": "x"}] * 65)
    found = findings(tmp_path)
    named = {
        item["code"]: re.findall(r'[Pp]lugin "([^"]+)"', item["message"])
        for item in found
        if item["code"] in ("hooks/foreign-format", "hooks/too-many")
    }
    assert named == {"hooks/foreign-format": ["outer"], "hooks/too-many": ["outer"]}


# -- a Claude Code hooks file with its own top-level keys --------------------------------------------------------


def test_a_claude_code_hooks_file_gets_no_unknown_field_for_its_description_or_schema(tmp_path: Path) -> None:
    write(tmp_path, ".clarvis/plugins/fmt/plugin.json", {"name": "fmt"})
    document: dict[str, object] = {"$schema": "https://json.schemastore.org/claude-code-hooks", "description": "x"}
    document["hooks"] = CLAUDE_HOOKS
    write(tmp_path, ".clarvis/plugins/fmt/hooks/hooks.json", document)
    assert codes(findings(tmp_path)) == [(".clarvis/plugins/fmt/hooks/hooks.json", "hooks/foreign-format")]
    document["hooks"] = [{"event": "run_end", "command": "./n.sh"}]  # Clarvis's shape: the keys are unknown again
    write(tmp_path, ".clarvis/plugins/fmt/hooks/hooks.json", document)
    assert codes(findings(tmp_path)) == [(".clarvis/plugins/fmt/hooks/hooks.json", "hooks/unknown-field")] * 2
