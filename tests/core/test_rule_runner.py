"""The rule runner: a raising rule becomes ``internal/rule-failed`` and hides nothing else; switched-off rules never
run. Driven through ``--check`` (a real process) and through the engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.config.project import config_from_mapping
from clarvis_lsp.rules import runner
from clarvis_lsp.rules.base import RuleStep
from clarvis_lsp.rules.selection import RuleSelection
from clarvis_lsp.workspace.engine import WorkspaceEngine

SKILL = "---\nname: review\ndescription: Reviews.\nuser-invokable: true\n---\nSee [the guide](missing.md).\n"

BROKEN_SERVER = Path(__file__).parent.parent / "support" / "broken_link_rule.py"


def _workspace(tmp_path: Path) -> Path:
    skill = tmp_path / "ws/.clarvis/skills/review/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL, encoding="utf-8")
    return tmp_path / "ws"


def test_check_reports_a_raising_rule_and_keeps_the_others(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    done = subprocess.run(
        [sys.executable, str(BROKEN_SERVER), "--check", str(ws), "--no-user", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    found = json.loads(done.stdout)["diagnostics"]
    codes = sorted(item["code"] for item in found)
    assert codes == ["internal/rule-failed", "skill/unknown-field"]  # the broken link is the lost finding
    failed = next(item for item in found if item["code"] == "internal/rule-failed")
    assert failed["path"].endswith("review/SKILL.md") and (failed["line"], failed["column"]) == (1, 1)
    assert "skill/links" in failed["message"] and "IndexError" in failed["message"]
    assert "rule skill/links failed" in done.stderr  # logged too, with the traceback


def test_unbroken_check_finds_the_link(tmp_path: Path) -> None:
    """The same file without the break: the finding the broken rule lost is a real one."""
    ws = _workspace(tmp_path)
    engine = WorkspaceEngine(directory=ws, config=config_from_mapping({"includeUser": False}), home=tmp_path)
    codes = sorted(item.code for item in engine.check_file(ws / ".clarvis/skills/review/SKILL.md"))
    assert codes == ["skill/broken-link", "skill/unknown-field"]


@pytest.mark.parametrize(
    ("rules", "runs"),
    [
        ({"skill/broken-link": "off", "skill/root-relative-link": "off"}, False),
        ({"skill/broken-link": "off"}, True),  # the step's other code is still on
        ({"skill/broken-link": "hint"}, True),
        ({"skill/*": "off"}, False),
    ],
)
def test_switched_off_rules_are_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: dict[str, str], runs: bool
) -> None:
    ws = _workspace(tmp_path)
    calls: list[str] = []
    steps: tuple[RuleStep[Any, Any], ...] = tuple(
        RuleStep(step.name, step.codes, lambda *args, name=step.name: calls.append(name)) for step in runner.SKILL_RULES
    )
    monkeypatch.setattr(runner, "SKILL_RULES", steps)
    config = config_from_mapping({"includeUser": False, "rules": rules})
    WorkspaceEngine(directory=ws, config=config, home=tmp_path).check_file(ws / ".clarvis/skills/review/SKILL.md")
    assert ("skill/links" in calls) is runs


def test_select_and_ignore_skip_rules_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _workspace(tmp_path)
    calls: list[str] = []
    steps: tuple[RuleStep[Any, Any], ...] = tuple(
        RuleStep(step.name, step.codes, lambda *args, name=step.name: calls.append(name)) for step in runner.SKILL_RULES
    )
    monkeypatch.setattr(runner, "SKILL_RULES", steps)
    config = config_from_mapping({"includeUser": False})
    engine = WorkspaceEngine(
        directory=ws,
        config=config,
        home=tmp_path,
        rules=RuleSelection(select=("skill/missing-name",), ignore=("skill/broken-link",)),
    )
    engine.check_file(ws / ".clarvis/skills/review/SKILL.md")
    assert "skill/name" in calls and "skill/links" not in calls


def test_a_raising_cross_file_rule_keeps_the_file_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _workspace(tmp_path)
    from clarvis_lsp.workspace import engine as engine_module

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise KeyError("name")

    monkeypatch.setattr(engine_module, "check_discovery", broken)
    engine = WorkspaceEngine(directory=ws, config=config_from_mapping({"includeUser": False}), home=tmp_path)
    cross = engine.cross_file()
    assert [item.code for item in cross] == ["internal/rule-failed"]
    assert "discovery" in cross[0].message
    assert {item.code for item in engine.check_file(ws / ".clarvis/skills/review/SKILL.md")} == {
        "skill/broken-link",
        "skill/unknown-field",
    }


SETTINGS = """{
  "hooks": [{"event": "PreToolUse", "command": "lint"}],
  "marketplaces": ["not a url"],
  "enabledPlugin": ["lint"]
}
"""

PLUGIN = '{"name": "kit", "version": "one", "homepage": "https://example.com"}\n'


def _raising(*args: object, **kwargs: object) -> None:
    raise KeyError("boom")


def test_a_raising_json_rule_hides_none_of_the_other_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each JSON rule is its own step of the runner: the settings marketplace rule raising still leaves the unknown
    field and the hook's event reported, and the plugin version rule the plugin's unknown field."""
    from clarvis_lsp.rules import plugin, settings

    ws = tmp_path / "ws"
    settings_file = ws / ".clarvis/settings.json"
    plugin_file = ws / ".clarvis/plugins/kit/plugin.json"
    plugin_file.parent.mkdir(parents=True)
    settings_file.write_text(SETTINGS, encoding="utf-8")
    plugin_file.write_text(PLUGIN, encoding="utf-8")
    engine = WorkspaceEngine(directory=ws, config=config_from_mapping({"includeUser": False}), home=tmp_path)
    assert {"settings/invalid-marketplace", "settings/unknown-field", "hooks/unknown-event"} <= {
        item.code for item in engine.check_file(settings_file)
    }
    assert {"plugin/invalid-value", "plugin/unknown-field"} <= {item.code for item in engine.check_file(plugin_file)}

    monkeypatch.setattr(settings, "_check_marketplaces", _raising)
    monkeypatch.setattr(plugin, "check_version", _raising)
    engine = WorkspaceEngine(directory=ws, config=config_from_mapping({"includeUser": False}), home=tmp_path)
    found = engine.check_file(settings_file)
    codes = [item.code for item in found]
    assert "settings/invalid-marketplace" not in codes
    assert {"settings/unknown-field", "hooks/unknown-event", "internal/rule-failed"} <= set(codes), codes
    assert "settings/marketplaces" in next(item for item in found if item.code == "internal/rule-failed").message
    plugin_codes = {item.code for item in engine.check_file(plugin_file)}
    assert {"plugin/unknown-field", "internal/rule-failed"} <= plugin_codes, plugin_codes
