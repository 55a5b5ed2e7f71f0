"""Agents (SPEC §2 extensions): personal, workspace (which wins) and ``<plugin>:<name>``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clarvis_lsp.discovery import discover_agents, discover_plugins
from clarvis_lsp.discovery.skills import DiscoveryWarning


def agent(directory: Path, name: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.md"
    path.write_text(f"# {name}\n")
    return path


def test_workspace_agent_beats_personal_agent(discovery_tree: Any) -> None:
    personal = agent(discovery_tree.home / ".clarvis" / "agents", "reviewer")
    local = agent(discovery_tree.ws / ".clarvis" / "agents", "reviewer")
    only_personal = agent(discovery_tree.home / ".clarvis" / "agents", "helper")
    agents = discover_agents(discovery_tree.ws, discovery_tree.home, {}, [])
    assert agents["reviewer"].path == local and agents["reviewer"].scope == "workspace"
    overridden = agents["reviewer"].overrides
    assert overridden is not None and overridden.path == personal
    assert agents["helper"].path == only_personal and agents["helper"].scope == "user"


def test_include_user_false_skips_personal_agents(discovery_tree: Any) -> None:
    agent(discovery_tree.home / ".clarvis" / "agents", "helper")
    assert discover_agents(discovery_tree.ws, discovery_tree.home, {}, [], include_user=False) == {}


def test_plugin_agents_are_qualified_and_marked_enabled(discovery_tree: Any) -> None:
    for name in ("on", "off"):
        directory = discovery_tree.ws / ".clarvis" / "plugins" / name
        agent(directory / "agents", "planner")
    plugins = discover_plugins(discovery_tree.ws, discovery_tree.home)
    agents = discover_agents(discovery_tree.ws, discovery_tree.home, plugins, ["on"])
    assert sorted(agents) == ["off:planner", "on:planner"]
    assert agents["on:planner"].plugin == "on" and agents["on:planner"].enabled is True
    assert agents["off:planner"].enabled is False
    assert "planner" not in agents  # a plugin agent is only reachable qualified


def test_only_markdown_files_are_agents(discovery_tree: Any) -> None:
    directory = discovery_tree.ws / ".clarvis" / "agents"
    agent(directory, "real")
    discovery_tree.file(directory / "notes.txt", "x")
    discovery_tree.file(directory / ".md", "x")
    (directory / "folder.md").mkdir()
    assert list(discover_agents(discovery_tree.ws, discovery_tree.home, {}, [])) == ["real"]


def test_symlinked_agent_is_left_out_without_follow(discovery_tree: Any) -> None:
    real = agent(discovery_tree.base / "elsewhere", "linked")
    directory = discovery_tree.ws / ".clarvis" / "agents"
    directory.mkdir(parents=True)
    (directory / "linked.md").symlink_to(real)
    assert "linked" in discover_agents(discovery_tree.ws, discovery_tree.home, {}, [])
    assert discover_agents(discovery_tree.ws, discovery_tree.home, {}, [], follow_symlinks=False) == {}


def test_symlinked_agents_directory_is_a_warning_without_follow(discovery_tree: Any) -> None:
    agent(discovery_tree.base / "elsewhere", "linked")
    (discovery_tree.ws / ".clarvis").mkdir(parents=True)
    link = discovery_tree.ws / ".clarvis" / "agents"
    link.symlink_to(discovery_tree.base / "elsewhere", target_is_directory=True)
    warnings: list[DiscoveryWarning] = []
    assert discover_agents(discovery_tree.ws, discovery_tree.home, {}, [], warnings=warnings) != {}
    assert warnings == []  # followed: read, nothing to say
    assert (
        discover_agents(discovery_tree.ws, discovery_tree.home, {}, [], follow_symlinks=False, warnings=warnings) == {}
    )
    assert [(warning.kind, warning.path) for warning in warnings] == [("symlink-ignored", link)]


def test_unsaved_agent_buffer_counts(discovery_tree: Any) -> None:
    path = discovery_tree.ws / ".clarvis" / "agents" / "draft.md"
    agents = discover_agents(discovery_tree.ws, discovery_tree.home, {}, [], overlay={path: "# draft"})
    assert agents["draft"].path == path
