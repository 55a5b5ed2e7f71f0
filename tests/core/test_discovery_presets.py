"""Presets: the clarvis four-root convention (seed) and the xcsh provider order (SPEC §2 decision)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    SkillRootInput,
    clarvis_skill_roots,
    create_agent_skills,
    resolve_config,
    xcsh_skill_roots,
)

# --- clarvis --------------------------------------------------------------------------------------------------


def test_clarvis_preset_is_exactly_the_seed_table() -> None:
    assert clarvis_skill_roots(workspace="/srv/project") == [
        SkillRootInput("~/.agents/skills", "user", "agents"),
        SkillRootInput("/srv/project/.agents/skills", "workspace", "agents"),
        SkillRootInput("~/.clarvis/skills", "user", "clarvis"),
        SkillRootInput("/srv/project/.clarvis/skills", "workspace", "clarvis"),
    ]


def test_clarvis_preset_scans_the_seed_paths() -> None:
    # "scans ~/.agents/skills, /srv/project/.agents/skills, ~/.clarvis/skills, /srv/project/.clarvis/skills"
    config = resolve_config(
        AgentSkillsOptions(roots=clarvis_skill_roots(workspace="/srv/project"), home="/home/me", cwd="/srv/project")
    )
    assert [(root.path, root.scope, root.source) for root in config.roots] == [
        ("/home/me/.agents/skills", "user", "agents"),
        ("/srv/project/.agents/skills", "workspace", "agents"),
        ("/home/me/.clarvis/skills", "user", "clarvis"),
        ("/srv/project/.clarvis/skills", "workspace", "clarvis"),
    ]


def test_clarvis_preset_with_explicit_home_writes_user_paths_out() -> None:
    roots = clarvis_skill_roots(workspace="/srv/project", home="/home/me")
    assert [root.path for root in roots] == [
        "/home/me/.agents/skills",
        "/srv/project/.agents/skills",
        "/home/me/.clarvis/skills",
        "/srv/project/.clarvis/skills",
    ]


def test_clarvis_preset_workspace_falls_back_to_cwd_and_resolves_against_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert clarvis_skill_roots(cwd="/srv/x")[1].path == "/srv/x/.agents/skills"
    assert clarvis_skill_roots(workspace="sub", cwd="/srv/x")[3].path == "/srv/x/sub/.clarvis/skills"
    assert clarvis_skill_roots(workspace="~/p", home="/home/me")[1].path == "/home/me/p/.agents/skills"
    monkeypatch.chdir(tmp_path)
    assert clarvis_skill_roots()[3].path == str(tmp_path / ".clarvis" / "skills")


def test_clarvis_preset_returns_a_new_plain_list() -> None:
    first = clarvis_skill_roots(workspace="/w")
    first.append(SkillRootInput("/extra"))
    assert len(clarvis_skill_roots(workspace="/w")) == 4


@pytest.mark.parametrize(
    ("present", "winner_index"),
    [
        # any .clarvis skill overrides any .agents skill; within one source the workspace copy wins.
        ((0, 1), 1),
        ((2, 3), 3),
        ((1, 2), 2),  # user .clarvis beats workspace .agents: source-primary
        ((0, 2), 2),
        ((1, 3), 3),
        ((0, 1, 2, 3), 3),
        ((0, 1, 2), 2),
    ],
)
def test_clarvis_preset_is_source_primary_scope_tiebreak(
    discovery_tree: Any, present: tuple[int, ...], winner_index: int
) -> None:
    roots = [
        discovery_tree.user_agents,
        discovery_tree.ws_agents,
        discovery_tree.user_clarvis,
        discovery_tree.ws_clarvis,
    ]
    for index in present:
        discovery_tree.skill(roots[index], "deploy", description=f"copy {index}")
    skills = create_agent_skills(
        AgentSkillsOptions(
            roots=clarvis_skill_roots(workspace=str(discovery_tree.ws)),
            workspace=str(discovery_tree.ws),
            home=str(discovery_tree.home),
        )
    )
    winner = skills.winner("deploy")
    assert winner is not None
    assert winner.root_index == winner_index
    assert winner.description == f"copy {winner_index}"
    assert [copy.root_index for copy in skills.shadowed("deploy")] == sorted(
        (i for i in present if i != winner_index), reverse=True
    )


def test_the_library_holds_no_opinion_only_array_order(discovery_tree: Any) -> None:
    # Reverse the preset: now the user .agents copy wins.
    discovery_tree.skill(discovery_tree.user_agents, "deploy", description="user agents")
    discovery_tree.skill(discovery_tree.ws_clarvis, "deploy", description="workspace clarvis")
    roots = list(reversed(clarvis_skill_roots(workspace=str(discovery_tree.ws))))
    skills = create_agent_skills(AgentSkillsOptions(roots=roots, home=str(discovery_tree.home)))
    winner = skills.winner("deploy")
    assert winner is not None and winner.description == "user agents"


# --- xcsh -----------------------------------------------------------------------------------------------------

XCSH_ORDER = [
    ("~/.gemini/skills", "user", "gemini"),
    ("/w/.gemini/skills", "workspace", "gemini"),
    ("~/.codex/skills", "user", "codex"),
    ("/w/.codex/skills", "workspace", "codex"),
    ("~/.agents/skills", "user", "agents"),
    ("/w/.agents/skills", "workspace", "agents"),
    ("~/.claude/skills", "user", "claude"),
    ("/w/.claude/skills", "workspace", "claude"),
    ("~/.xcsh/agent/skills", "user", "native"),
    ("/w/.xcsh/skills", "workspace", "native"),
]


def test_xcsh_preset_is_the_provider_order_ascending() -> None:
    assert [(r.path, r.scope, r.source) for r in xcsh_skill_roots(workspace="/w")] == XCSH_ORDER


def test_xcsh_native_paths() -> None:
    roots = xcsh_skill_roots(workspace="/w", home="/home/me")
    assert roots[-2].path == "/home/me/.xcsh/agent/skills"
    assert roots[-1].path == "/w/.xcsh/skills"


# xcsh's own model: providers sorted by priority (higher first; ties in registration order), each provider
# listing its project directory before its user one, and "same key => the first item wins".
_XCSH_PRIORITY = {"native": 100, "claude": 80, "agents": 70, "codex": 70, "gemini": 60}
_XCSH_REGISTRATION = ["native", "claude", "agents", "codex", "gemini"]


def _xcsh_first_wins(copies: list[tuple[str, str]]) -> tuple[str, str]:
    """The copy xcsh loads among (provider, level) pairs."""
    ordered = sorted(
        copies,
        key=lambda copy: (
            -_XCSH_PRIORITY[copy[0]],
            _XCSH_REGISTRATION.index(copy[0]),
            0 if copy[1] == "workspace" else 1,
        ),
    )
    return ordered[0]


_PROVIDER_DIRS = {
    "gemini": (".gemini/skills", ".gemini/skills"),
    "codex": (".codex/skills", ".codex/skills"),
    "agents": (".agents/skills", ".agents/skills"),
    "claude": (".claude/skills", ".claude/skills"),
    "native": (".xcsh/agent/skills", ".xcsh/skills"),
}
_ALL_COPIES = [(provider, level) for provider in _PROVIDER_DIRS for level in ("user", "workspace")]


@pytest.mark.parametrize(
    "copies",
    [
        *[list(pair) for pair in itertools.combinations(_ALL_COPIES, 2)],
        _ALL_COPIES,
        [("gemini", "workspace"), ("codex", "user"), ("claude", "user")],
        [("agents", "user"), ("codex", "workspace")],
    ],
    ids=lambda copies: "+".join(f"{p}:{lv[0]}" for p, lv in copies),
)
def test_xcsh_preset_picks_the_same_winner_as_xcsh(discovery_tree: Any, copies: list[tuple[str, str]]) -> None:
    for provider, level in copies:
        user_dir, workspace_dir = _PROVIDER_DIRS[provider]
        base = discovery_tree.home / user_dir if level == "user" else discovery_tree.ws / workspace_dir
        discovery_tree.skill(base, "shared", description=f"{provider}/{level}")
    skills = create_agent_skills(
        AgentSkillsOptions(
            roots=xcsh_skill_roots(workspace=str(discovery_tree.ws), home=str(discovery_tree.home)),
            home=str(discovery_tree.home),
        )
    )
    winner = skills.winner("shared")
    assert winner is not None
    provider, level = _xcsh_first_wins(copies)
    assert winner.description == f"{provider}/{level}"
    assert (winner.source, winner.scope) == (provider, level)
    assert len(skills.shadowed("shared")) == len(copies) - 1
