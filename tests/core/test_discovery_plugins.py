"""Plugins (SPEC §2 extensions, seed extensions reference): where they are installed, which are enabled, and
where their skills sit in the precedence order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    create_agent_skills,
    discover_plugins,
    effective_enabled_plugins,
    effective_skill_roots,
    plugin_skill_roots,
    read_enabled_plugins,
    scan_plugins,
)


def plugin(base: Path, name: str, manifest: bool = True) -> Path:
    directory = base / ".clarvis" / "plugins" / name
    directory.mkdir(parents=True)
    if manifest:
        (directory / "plugin.json").write_text(json.dumps({"name": name}))
    return directory


def settings(base: Path, data: Any) -> Path:
    path = base / ".clarvis" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_plugins_are_found_in_personal_and_workspace_locations(discovery_tree: Any) -> None:
    personal = plugin(discovery_tree.home, "p-only")
    local = plugin(discovery_tree.ws, "w-only", manifest=False)
    found = discover_plugins(discovery_tree.ws, discovery_tree.home)
    assert sorted(found) == ["p-only", "w-only"]
    assert found["p-only"].scope == "user" and found["p-only"].directory == personal
    assert found["p-only"].manifest == personal / "plugin.json"
    assert found["w-only"].scope == "workspace" and found["w-only"].manifest is None
    assert found["w-only"].skills_dir == local / "skills"
    assert found["w-only"].agents_dir == local / "agents"


def test_workspace_plugin_hides_personal_plugin_of_the_same_name(discovery_tree: Any) -> None:
    personal = plugin(discovery_tree.home, "tools")
    local = plugin(discovery_tree.ws, "tools")
    scan = scan_plugins(discovery_tree.ws, discovery_tree.home)
    assert scan.plugins["tools"].directory == local
    hidden = scan.plugins["tools"].hides
    assert hidden is not None and hidden.directory == personal and hidden.scope == "user"
    assert [p.directory for p in scan.hidden] == [personal]


def test_include_user_false_ignores_personal_plugins(discovery_tree: Any) -> None:
    plugin(discovery_tree.home, "mine")
    assert discover_plugins(discovery_tree.ws, discovery_tree.home, include_user=False) == {}


def test_files_in_the_plugins_directory_are_not_plugins(discovery_tree: Any) -> None:
    discovery_tree.file(discovery_tree.ws / ".clarvis" / "plugins" / "README.md", "x")
    assert discover_plugins(discovery_tree.ws, discovery_tree.home) == {}


def test_symlinked_plugin_is_ignored_without_follow(discovery_tree: Any) -> None:
    real = plugin(discovery_tree.base, "linked")
    plugins_dir = discovery_tree.ws / ".clarvis" / "plugins"
    plugins_dir.mkdir(parents=True)
    (plugins_dir / "linked").symlink_to(real, target_is_directory=True)
    assert "linked" in discover_plugins(discovery_tree.ws, discovery_tree.home)
    scan = scan_plugins(discovery_tree.ws, discovery_tree.home, follow_symlinks=False)
    assert scan.plugins == {}
    assert [(w.kind, w.path) for w in scan.warnings] == [("symlink-ignored", plugins_dir / "linked")]


def test_read_enabled_plugins_is_tolerant(discovery_tree: Any) -> None:
    path = settings(discovery_tree.ws, {"enabledPlugins": ["a", 3, "b", "a"]})
    assert read_enabled_plugins(path) == ["a", "b"]
    for broken in ("{not json", "[1, 2]", '{"enabledPlugins": "a"}', "", "[" * 100_000):
        settings(discovery_tree.ws, broken)
        assert read_enabled_plugins(path) == []
    assert read_enabled_plugins(discovery_tree.base / "missing.json") == []


def test_read_enabled_plugins_prefers_the_open_buffer(discovery_tree: Any) -> None:
    path = settings(discovery_tree.ws, {"enabledPlugins": ["disk"]})
    assert read_enabled_plugins(path, {path: '\ufeff{"enabledPlugins": ["buffer"]}'}) == ["buffer"]


def test_workspace_enabled_plugins_override_personal_when_present(discovery_tree: Any) -> None:
    settings(discovery_tree.home, {"enabledPlugins": ["personal"]})
    assert effective_enabled_plugins(discovery_tree.ws, discovery_tree.home) == ["personal"]
    settings(discovery_tree.ws, {"hooks": []})  # no enabledPlugins field: personal stays in force
    assert effective_enabled_plugins(discovery_tree.ws, discovery_tree.home) == ["personal"]
    settings(discovery_tree.ws, {"enabledPlugins": []})  # present, even empty: it wins
    assert effective_enabled_plugins(discovery_tree.ws, discovery_tree.home) == []
    settings(discovery_tree.ws, {"enabledPlugins": ["local"]})
    assert effective_enabled_plugins(discovery_tree.ws, discovery_tree.home) == ["local"]
    assert effective_enabled_plugins(discovery_tree.ws, discovery_tree.home, include_user=False) == ["local"]


def test_include_user_false_ignores_personal_settings(discovery_tree: Any) -> None:
    settings(discovery_tree.home, {"enabledPlugins": ["personal"]})
    assert effective_enabled_plugins(discovery_tree.ws, discovery_tree.home, include_user=False) == []


def test_plugin_skill_roots_follow_enabled_plugins_order(discovery_tree: Any) -> None:
    plugin(discovery_tree.home, "first")
    plugin(discovery_tree.ws, "second")
    plugins = discover_plugins(discovery_tree.ws, discovery_tree.home)
    roots = plugin_skill_roots(plugins, ["first", "not-installed", "second", "first"])
    assert [(r.path, r.scope, r.source) for r in roots] == [
        (str(plugins["first"].skills_dir), "user", "plugin:first"),
        (str(plugins["second"].skills_dir), "workspace", "plugin:second"),
    ]


def test_later_enabled_plugin_wins_and_plugins_stay_below_standalone_roots(discovery_tree: Any) -> None:
    first = plugin(discovery_tree.ws, "first")
    second = plugin(discovery_tree.ws, "second")
    disabled = plugin(discovery_tree.ws, "disabled")
    settings(discovery_tree.ws, {"enabledPlugins": ["first", "second"]})
    discovery_tree.skill(first / "skills", "both")
    discovery_tree.skill(second / "skills", "both")
    discovery_tree.skill(first / "skills", "overridden")
    discovery_tree.skill(discovery_tree.user_agents, "overridden")  # the lowest standalone root
    discovery_tree.skill(disabled / "skills", "never")

    roots = effective_skill_roots(discovery_tree.ws, discovery_tree.home)
    assert [r.source for r in roots] == ["plugin:first", "plugin:second", "agents", "agents", "clarvis", "clarvis"]
    skills = create_agent_skills(AgentSkillsOptions(roots=roots, home=str(discovery_tree.home)))
    both = skills.winner("both")
    assert both is not None and both.source == "plugin:second"
    assert [s.source for s in skills.shadowed("both")] == ["plugin:first"]
    overridden = skills.winner("overridden")
    assert overridden is not None and overridden.source == "agents" and overridden.scope == "user"
    assert [s.source for s in skills.shadowed("overridden")] == ["plugin:first"]
    assert skills.winner("never") is None


def test_workspace_that_is_home_scans_its_plugins_and_roots_once(discovery_tree: Any) -> None:
    plugin(discovery_tree.home, "mine")
    found = scan_plugins(discovery_tree.home, discovery_tree.home)
    assert list(found.plugins) == ["mine"] and found.hidden == ()
    roots = effective_skill_roots(discovery_tree.home, discovery_tree.home)
    assert len({r.path for r in roots}) == len(roots) == 2
    discovery_tree.skill(discovery_tree.user_clarvis, "s")
    skills = create_agent_skills(AgentSkillsOptions(roots=roots, home=str(discovery_tree.home)))
    assert skills.shadowed("s") == []  # a skill never shadows itself
