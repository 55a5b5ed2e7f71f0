"""The ``discovery/*`` rules and ``skill/unknown-agent`` through ``check_paths``: who wins, who is shadowed, and
which copy a finding points at (``related``), across personal, workspace, plugin and nested-workspace roots.

Every workspace lives in ``tmp_path/ws`` and the personal configuration in ``tmp_path/home``; the real home
directory is never read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.batch.run import CheckReport, CheckRequest, check_paths
from clarvis_lsp.findings import Diagnostic, Range, Related, Severity

# -- helpers ---------------------------------------------------------------------------------------------------


def write(base: Path, files: Mapping[str, str]) -> None:
    for relative, content in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))


def skill_md(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: Does {name} things.\n{extra}---\n# {name}\n"


def run(tmp_path: Path, paths: tuple[str, ...] = (".",), **request: Any) -> CheckReport:
    (tmp_path / "ws").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    return check_paths(CheckRequest(paths=list(paths), cwd=tmp_path / "ws", home=tmp_path / "home", **request))


def by_code(report: CheckReport, *prefixes: str) -> list[Diagnostic]:
    return [d for d in report.result.diagnostics if d.code.startswith(prefixes)]


def name_range(name: str) -> Range:
    """Where ``skill_md(name)`` writes the name's value."""
    return Range.of(1, 6, 1, 6 + len(name))


# -- the four clarvis roots --------------------------------------------------------------------------------------

# Ascending precedence (clarvis preset): ~/.agents/skills (#0), <ws>/.agents/skills (#1), ~/.clarvis/skills (#2),
# <ws>/.clarvis/skills (#3).
ROOTS = {
    "user-agents": "home/.agents/skills",
    "ws-agents": "ws/.agents/skills",
    "user-clarvis": "home/.clarvis/skills",
    "ws-clarvis": "ws/.clarvis/skills",
}
PLACEMENT = {
    "alpha": ["user-agents", "ws-agents", "user-clarvis", "ws-clarvis"],
    "beta": ["user-agents", "user-clarvis"],
    "gamma": ["ws-agents", "user-clarvis"],
    "delta": ["user-agents"],
    "epsilon": ["ws-clarvis"],
    "zeta": ["ws-agents", "ws-clarvis"],
}
WINNER = {
    "alpha": "ws-clarvis",
    "beta": "user-clarvis",
    "gamma": "user-clarvis",  # a personal .clarvis skill beats the workspace's .agents copy
    "delta": "user-agents",
    "epsilon": "ws-clarvis",
    "zeta": "ws-clarvis",
}


@pytest.fixture
def four_roots(tmp_path: Path) -> Path:
    files = {f"{ROOTS[root]}/{name}/SKILL.md": skill_md(name) for name, roots in PLACEMENT.items() for root in roots}
    write(tmp_path, files)
    return tmp_path


def at(tmp_path: Path, root: str, name: str) -> Path:
    return tmp_path / ROOTS[root] / name / "SKILL.md"


@pytest.mark.parametrize("name", sorted(PLACEMENT))
def test_the_last_root_wins_for_every_name(four_roots: Path, name: str) -> None:
    report = run(four_roots)
    registry = report.engines[0].discovered.registry
    winner = registry.winner(name)
    assert winner is not None
    assert winner.path == at(four_roots, WINNER[name], name)
    losers = [root for root in reversed(PLACEMENT[name]) if root != WINNER[name]]
    assert [copy.path for copy in registry.shadowed(name)] == [at(four_roots, root, name) for root in losers]


def test_a_shadowed_workspace_copy_points_at_the_winner(four_roots: Path) -> None:
    report = run(four_roots)
    shadowed = by_code(report, "discovery/shadowed")
    # Only copies inside the checked tree are reported: the personal copies are context, not findings.
    assert [d.path for d in shadowed] == [
        at(four_roots, "ws-agents", "alpha"),
        at(four_roots, "ws-agents", "gamma"),
        at(four_roots, "ws-agents", "zeta"),
    ]
    for diagnostic in shadowed:
        name = diagnostic.path.parent.name
        winner = at(four_roots, WINNER[name], name)
        assert diagnostic.severity is Severity.WARNING
        assert diagnostic.range == name_range(name)
        assert diagnostic.related == (Related(winner, name_range(name), f'the winning copy of "{name}"'),)
        # The message shows the winner as the output shows paths: relative to the tree given (".", the workspace),
        # absolute outside it (the personal copies).
        workspace = four_roots / "ws"
        shown = winner.relative_to(workspace) if workspace in winner.parents else winner
        assert f"Shadowed by {shown} (" in diagnostic.message
        assert f'this copy of "{name}" is never loaded' in diagnostic.message
        assert diagnostic.data == {"winner": str(winner)}
    # The personal .clarvis copy wins over the workspace's .agents copy, and the message says which root it is.
    gamma = shadowed[1]
    assert "(user/clarvis root #2)" in gamma.message


def test_a_winner_lists_every_copy_it_overrides(four_roots: Path) -> None:
    report = run(four_roots)
    overrides = by_code(report, "discovery/overrides")
    assert [d.path for d in overrides] == [at(four_roots, "ws-clarvis", "alpha"), at(four_roots, "ws-clarvis", "zeta")]
    alpha = overrides[0]
    assert alpha.severity is Severity.INFORMATION
    assert alpha.range == name_range("alpha")
    assert alpha.related == (
        Related(at(four_roots, "user-clarvis", "alpha"), name_range("alpha"), "shadowed copy (user/clarvis root #2)"),
        Related(at(four_roots, "ws-agents", "alpha"), name_range("alpha"), "shadowed copy (workspace/agents root #1)"),
        Related(at(four_roots, "user-agents", "alpha"), name_range("alpha"), "shadowed copy (user/agents root #0)"),
    )
    assert alpha.message.startswith('Overrides 3 lower-precedence copies of "alpha": ')
    zeta = overrides[1]
    assert zeta.message.startswith('Overrides 1 lower-precedence copy of "zeta": ')
    assert zeta.related == (
        Related(at(four_roots, "ws-agents", "zeta"), name_range("zeta"), "shadowed copy (workspace/agents root #1)"),
    )


def test_a_name_in_one_root_only_has_no_discovery_finding(four_roots: Path) -> None:
    report = run(four_roots)
    epsilon = at(four_roots, "ws-clarvis", "epsilon")
    assert [d for d in report.result.diagnostics if d.path == epsilon] == []
    # Nothing at all is reported on the personal roots.
    assert [d for d in report.result.diagnostics if four_roots / "home" in d.path.parents] == []
    assert {d.code for d in report.result.diagnostics} == {"discovery/shadowed", "discovery/overrides"}


def test_without_personal_roots_the_workspace_copies_win(four_roots: Path) -> None:
    report = run(four_roots, overrides={"includeUser": False})
    registry = report.engines[0].discovered.registry
    assert registry.winner("gamma").path == at(four_roots, "ws-agents", "gamma")  # type: ignore[union-attr]
    assert registry.winner("beta") is None
    alpha = by_code(report, "discovery/overrides")[0]
    assert alpha.path == at(four_roots, "ws-clarvis", "alpha")
    assert [related.path for related in alpha.related] == [at(four_roots, "ws-agents", "alpha")]
    assert [d.path for d in by_code(report, "discovery/shadowed")] == [
        at(four_roots, "ws-agents", "alpha"),
        at(four_roots, "ws-agents", "zeta"),
    ]


def test_a_shadowed_copy_is_still_checked_by_its_own_rules(four_roots: Path) -> None:
    # A shadowed copy is still a SKILL.md: its own findings are reported next to the shadowing.
    write(four_roots, {"ws/.agents/skills/alpha/SKILL.md": skill_md("alpha", "user-invokable: false\n")})
    report = run(four_roots)
    path = at(four_roots, "ws-agents", "alpha")
    assert sorted(d.code for d in report.result.diagnostics if d.path == path) == [
        "discovery/shadowed",
        "skill/unknown-field",
    ]


# -- discovery/duplicate-name ------------------------------------------------------------------------------------


@pytest.fixture
def duplicates(tmp_path: Path) -> Path:
    write(
        tmp_path,
        {
            "ws/.clarvis/skills/review-a/SKILL.md": skill_md("review"),
            "ws/.clarvis/skills/review-b/SKILL.md": skill_md("review"),
            "ws/.clarvis/skills/review-c/SKILL.md": skill_md("review"),
            "ws/.agents/skills/review/SKILL.md": skill_md("review"),
            # Duplicates in a personal root are never reported: that file is not being checked.
            "home/.clarvis/skills/x1/SKILL.md": skill_md("mine"),
            "home/.clarvis/skills/x2/SKILL.md": skill_md("mine"),
        },
    )
    return tmp_path


def test_within_root_duplicates_are_reported_on_the_skipped_copies(duplicates: Path) -> None:
    report = run(duplicates)
    kept = duplicates / "ws/.clarvis/skills/review-a/SKILL.md"
    found = by_code(report, "discovery/duplicate-name")
    assert [d.path for d in found] == [
        duplicates / "ws/.clarvis/skills/review-b/SKILL.md",
        duplicates / "ws/.clarvis/skills/review-c/SKILL.md",
    ]
    for diagnostic in found:
        assert diagnostic.severity is Severity.WARNING
        assert diagnostic.range == name_range("review")
        assert diagnostic.related == (Related(kept, name_range("review"), "the copy that is kept"),)
        assert "review-a/ in the same root declares the same name" in diagnostic.message
        assert "this copy is skipped" in diagnostic.message
    # The kept copy is the winner; the skipped ones neither win nor appear as shadowed copies.
    registry = report.engines[0].discovered.registry
    assert registry.winner("review").path == kept  # type: ignore[union-attr]
    assert [copy.path for copy in registry.shadowed("review")] == [duplicates / "ws/.agents/skills/review/SKILL.md"]
    overrides = by_code(report, "discovery/overrides")
    assert [(d.path, [r.path for r in d.related]) for d in overrides] == [
        (kept, [duplicates / "ws/.agents/skills/review/SKILL.md"])
    ]
    assert all(duplicates / "home" not in d.path.parents for d in report.result.diagnostics)


def test_strict_makes_a_duplicate_an_error(duplicates: Path) -> None:
    report = run(duplicates, overrides={"strict": True})
    found = by_code(report, "discovery/duplicate-name")
    assert len(found) == 2
    assert {d.severity for d in found} == {Severity.ERROR}
    # Cross-root overrides are never errors, strict or not.
    assert {d.severity for d in by_code(report, "discovery/shadowed")} == {Severity.WARNING}


def test_strict_from_the_project_file(duplicates: Path) -> None:
    write(duplicates, {"ws/.clarvis-lsp.toml": "strict = true\n"})
    report = run(duplicates)
    assert {d.severity for d in by_code(report, "discovery/duplicate-name")} == {Severity.ERROR}


def test_distinct_names_in_one_root_are_no_duplicates(tmp_path: Path) -> None:
    write(tmp_path, {f"ws/.clarvis/skills/{n}/SKILL.md": skill_md(n) for n in ("one", "two", "three")})
    assert run(tmp_path).result.diagnostics == []


# -- discovery/symlink-ignored -----------------------------------------------------------------------------------


@pytest.fixture
def symlinks(tmp_path: Path) -> Path:
    write(
        tmp_path,
        {
            "shared/linked/SKILL.md": skill_md("linked", "user-invokable: false\n"),
            "shared/file-skill.md": skill_md("filelinked"),
            "shared/notes.md": "# Notes\n",
            "ws/.clarvis/skills/real/SKILL.md": skill_md("real"),
            "ws/.agents/skills/linked/SKILL.md": skill_md("linked"),
        },
    )
    skills = tmp_path / "ws/.clarvis/skills"
    os.symlink(tmp_path / "shared/linked", skills / "linked", target_is_directory=True)
    (skills / "filelinked").mkdir()
    os.symlink(tmp_path / "shared/file-skill.md", skills / "filelinked/SKILL.md")
    (skills / "real/references").mkdir()
    os.symlink(tmp_path / "shared/notes.md", skills / "real/references/notes.md")
    return tmp_path


def test_with_symlinks_off_each_ignored_link_is_reported(symlinks: Path) -> None:
    report = run(symlinks, overrides={"followSymlinks": False})
    skills = symlinks / "ws/.clarvis/skills"
    found = by_code(report, "discovery/symlink-ignored")
    assert [d.path for d in found] == [
        skills / "filelinked/SKILL.md",
        skills / "linked",
        skills / "real/references/notes.md",
    ]
    for diagnostic in found:
        assert diagnostic.severity is Severity.INFORMATION
        assert diagnostic.range == Range.point(0, 0)
        assert "is a symlink" in diagnostic.message
        assert "followSymlinks is false" in diagnostic.message
    registry = report.engines[0].discovered.registry
    assert registry.winner("filelinked") is None
    # The linked copy is not loaded, so the .agents copy is not shadowed.
    assert registry.winner("linked").path == symlinks / "ws/.agents/skills/linked/SKILL.md"  # type: ignore[union-attr]
    assert by_code(report, "discovery/shadowed", "discovery/overrides", "skill/") == []


def test_with_symlinks_followed_linked_skills_are_loaded_and_checked(symlinks: Path) -> None:
    report = run(symlinks)
    skills = symlinks / "ws/.clarvis/skills"
    assert by_code(report, "discovery/symlink-ignored") == []
    registry = report.engines[0].discovered.registry
    assert registry.winner("linked").path == skills / "linked/SKILL.md"  # type: ignore[union-attr]
    assert registry.winner("filelinked").path == skills / "filelinked/SKILL.md"  # type: ignore[union-attr]
    # The linked skill is checked like any other (spelled as seen under the root) and shadows the .agents copy.
    linked = skills / "linked/SKILL.md"
    assert sorted((d.code, d.path) for d in report.result.diagnostics) == [
        ("discovery/overrides", linked),
        ("discovery/shadowed", symlinks / "ws/.agents/skills/linked/SKILL.md"),
        ("skill/unknown-field", linked),
    ]


# -- plugin skills -----------------------------------------------------------------------------------------------


@pytest.fixture
def plugins(tmp_path: Path) -> Path:
    write(
        tmp_path,
        {
            "ws/.clarvis/settings.json": '{"enabledPlugins": ["p", "q", "r"]}\n',
            "ws/.clarvis/plugins/p/plugin.json": '{"name": "p"}\n',
            "ws/.clarvis/plugins/p/skills/review/SKILL.md": skill_md("review"),
            "ws/.clarvis/plugins/p/skills/shared/SKILL.md": skill_md("shared"),
            "ws/.clarvis/plugins/p/skills/pdf/SKILL.md": skill_md("pdf"),
            "ws/.clarvis/plugins/q/plugin.json": '{"name": "q"}\n',
            "ws/.clarvis/plugins/q/skills/shared/SKILL.md": skill_md("shared"),
            "ws/.clarvis/plugins/off/plugin.json": '{"name": "off"}\n',
            "ws/.clarvis/plugins/off/skills/review/SKILL.md": skill_md("review"),
            "home/.clarvis/plugins/r/plugin.json": '{"name": "r"}\n',
            "home/.clarvis/plugins/r/skills/review/SKILL.md": skill_md("review"),
            "ws/.agents/skills/review/SKILL.md": skill_md("review"),
        },
    )
    return tmp_path


def test_plugin_skills_sit_below_every_standalone_root(plugins: Path) -> None:
    report = run(plugins, trusted=True)  # the workspace's enabledPlugins counts once it is trusted
    engine = report.engines[0]
    roots = [(root.path, root.source) for root in engine.discovered.skill_config.roots]
    assert roots[:3] == [
        (str(plugins / "ws/.clarvis/plugins/p/skills"), "plugin:p"),
        (str(plugins / "ws/.clarvis/plugins/q/skills"), "plugin:q"),
        (str(plugins / "home/.clarvis/plugins/r/skills"), "plugin:r"),
    ]
    registry = engine.discovered.registry
    ws_review = plugins / "ws/.agents/skills/review/SKILL.md"
    assert registry.winner("review").path == ws_review  # type: ignore[union-attr]
    assert [copy.path for copy in registry.shadowed("review")] == [
        plugins / "home/.clarvis/plugins/r/skills/review/SKILL.md",
        plugins / "ws/.clarvis/plugins/p/skills/review/SKILL.md",
    ]
    # Among plugins, a later enabledPlugins entry wins.
    assert registry.winner("shared").path == plugins / "ws/.clarvis/plugins/q/skills/shared/SKILL.md"  # type: ignore[union-attr]
    # A plugin-only skill is simply the winner.
    assert registry.winner("pdf").path == plugins / "ws/.clarvis/plugins/p/skills/pdf/SKILL.md"  # type: ignore[union-attr]


def test_a_shadowed_plugin_skill_points_at_the_standalone_winner(plugins: Path) -> None:
    report = run(plugins, trusted=True)
    p_review = plugins / "ws/.clarvis/plugins/p/skills/review/SKILL.md"
    ws_review = plugins / "ws/.agents/skills/review/SKILL.md"
    shadowed = {d.path: d for d in by_code(report, "discovery/shadowed")}
    assert set(shadowed) == {p_review, plugins / "ws/.clarvis/plugins/p/skills/shared/SKILL.md"}
    assert shadowed[p_review].related == (Related(ws_review, name_range("review"), 'the winning copy of "review"'),)
    assert "(workspace/agents root #4)" in shadowed[p_review].message
    p_shared = shadowed[plugins / "ws/.clarvis/plugins/p/skills/shared/SKILL.md"]
    assert p_shared.related[0].path == plugins / "ws/.clarvis/plugins/q/skills/shared/SKILL.md"
    assert "(workspace/plugin:q root #1)" in p_shared.message
    overrides = {d.path: d for d in by_code(report, "discovery/overrides")}
    assert [related.path for related in overrides[ws_review].related] == [
        plugins / "home/.clarvis/plugins/r/skills/review/SKILL.md",
        p_review,
    ]
    assert overrides[ws_review].related[0].message == "shadowed copy (user/plugin:r root #2)"


def test_a_plugin_that_is_not_enabled_contributes_no_skills(plugins: Path) -> None:
    report = run(plugins)
    off = plugins / "ws/.clarvis/plugins/off/skills/review/SKILL.md"
    registry = report.engines[0].discovered.registry
    assert off not in [copy.path for copy in registry.copies("review")]
    assert [d for d in report.result.diagnostics if d.path == off and d.code.startswith("discovery/")] == []


# -- skill/unknown-agent -----------------------------------------------------------------------------------------

AGENTS = {
    "ws/.clarvis/settings.json": '{"enabledPlugins": ["p"]}\n',
    "ws/.clarvis/agents/reviewer.md": "# Reviewer\n",
    "home/.clarvis/agents/mentor.md": "# Mentor\n",
    "ws/.clarvis/plugins/p/plugin.json": '{"name": "p"}\n',
    "ws/.clarvis/plugins/p/agents/helper.md": "# Helper\n",
    "ws/.clarvis/plugins/q/plugin.json": '{"name": "q"}\n',
    "ws/.clarvis/plugins/q/agents/auditor.md": "# Auditor\n",
}


def agent_case(tmp_path: Path, agent: str, **request: Any) -> tuple[Path, list[Diagnostic]]:
    write(tmp_path, AGENTS)
    path = tmp_path / "ws/.clarvis/skills/demo/SKILL.md"
    write(tmp_path, {"ws/.clarvis/skills/demo/SKILL.md": skill_md("demo", f"agent: {agent}\n")})
    report = run(tmp_path, **request)
    return path, [d for d in report.result.diagnostics if d.path == path]


@pytest.mark.parametrize("agent", ["reviewer", "p:helper", "mentor"])
def test_a_discovered_agent_is_known(tmp_path: Path, agent: str) -> None:
    _, diagnostics = agent_case(tmp_path, agent)
    assert diagnostics == []


@pytest.mark.parametrize(
    ("agent", "meant", "file"),
    [
        ("reviewr", "reviewer", "ws/.clarvis/agents/reviewer.md"),
        ("p:helpr", "p:helper", "ws/.clarvis/plugins/p/agents/helper.md"),
        ("helper", "p:helper", "ws/.clarvis/plugins/p/agents/helper.md"),
        ("mentr", "mentor", "home/.clarvis/agents/mentor.md"),
    ],
)
def test_a_misspelled_agent_suggests_the_near_one(tmp_path: Path, agent: str, meant: str, file: str) -> None:
    _, diagnostics = agent_case(tmp_path, agent)
    assert [d.code for d in diagnostics] == ["skill/unknown-agent"]
    found = diagnostics[0]
    assert found.severity is Severity.WARNING
    assert found.range == Range.of(3, 7, 3, 7 + len(agent))
    assert f'No agent named "{agent}"' in found.message
    assert f'Did you mean "{meant}"?' in found.message
    assert found.related == (Related(tmp_path / file, Range.point(0, 0), f'the agent "{meant}"'),)


def test_an_agent_nothing_resembles_lists_the_known_ones(tmp_path: Path) -> None:
    _, diagnostics = agent_case(tmp_path, "zzz")
    found = diagnostics[0]
    assert found.code == "skill/unknown-agent"
    assert "Known agents: mentor, p:helper, reviewer." in found.message  # q is not enabled: q:auditor is no option


def test_an_agent_of_a_plugin_that_is_not_enabled_is_unknown(tmp_path: Path) -> None:
    _, diagnostics = agent_case(tmp_path, "q:auditor")
    assert [d.code for d in diagnostics] == ["skill/unknown-agent"]
    found = diagnostics[0]
    assert found.range == Range.of(3, 7, 3, 16)
    assert 'comes from the plugin "q", which is not in `enabledPlugins`' in found.message
    assert found.related[0].path == tmp_path / "ws/.clarvis/plugins/q/agents/auditor.md"


def test_a_personal_agent_is_unknown_without_personal_configuration(tmp_path: Path) -> None:
    # The personal agent is there only while personal configuration is read.
    _, diagnostics = agent_case(tmp_path, "mentor", overrides={"includeUser": False})
    assert [d.code for d in diagnostics] == ["skill/unknown-agent"]


# -- nested workspaces -------------------------------------------------------------------------------------------


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    write(
        tmp_path,
        {
            "ws/.clarvis/skills/review/SKILL.md": skill_md("review"),
            "ws/packages/a/.clarvis/skills/review/SKILL.md": skill_md("review"),
            "ws/packages/a/.agents/skills/review/SKILL.md": skill_md("review"),
            "ws/packages/b/.agents/skills/review/SKILL.md": skill_md("review"),
            "ws/packages/c/src/.keep": "",
            "home/.clarvis/skills/review/SKILL.md": skill_md("review"),
        },
    )
    return tmp_path


def test_each_nested_workspace_is_checked_with_its_own_roots(monorepo: Path) -> None:
    report = run(monorepo)
    ws = monorepo / "ws"
    home_review = monorepo / "home/.clarvis/skills/review/SKILL.md"
    assert [engine.directory for engine in report.engines] == [ws, ws / "packages/a", ws / "packages/b"]
    winners = {engine.directory: engine.discovered.registry.winner("review").path for engine in report.engines}  # type: ignore[union-attr]
    assert winners == {
        ws: ws / ".clarvis/skills/review/SKILL.md",
        ws / "packages/a": ws / "packages/a/.clarvis/skills/review/SKILL.md",
        ws / "packages/b": home_review,  # a personal .clarvis skill beats b's .agents copy
    }
    a_agents = ws / "packages/a/.agents/skills/review/SKILL.md"
    a_clarvis = ws / "packages/a/.clarvis/skills/review/SKILL.md"
    found = sorted((d.code, d.path, tuple(r.path for r in d.related)) for d in report.result.diagnostics)
    assert found == [
        ("discovery/overrides", ws / ".clarvis/skills/review/SKILL.md", (home_review,)),
        ("discovery/overrides", a_clarvis, (home_review, a_agents)),
        ("discovery/shadowed", a_agents, (a_clarvis,)),
        ("discovery/shadowed", ws / "packages/b/.agents/skills/review/SKILL.md", (home_review,)),
    ]


def test_checking_inside_a_nested_workspace_uses_only_its_roots(monorepo: Path) -> None:
    ws = monorepo / "ws"
    report = run(monorepo, paths=("packages/a",))
    assert [engine.directory for engine in report.engines] == [ws / "packages/a"]
    assert sorted(d.path.relative_to(ws).as_posix() for d in report.result.diagnostics) == [
        "packages/a/.agents/skills/review/SKILL.md",
        "packages/a/.clarvis/skills/review/SKILL.md",
    ]
    single = run(monorepo, paths=("packages/b/.agents/skills/review/SKILL.md",))
    assert [engine.directory for engine in single.engines] == [ws / "packages/b"]
    assert [(d.code, d.related[0].path) for d in single.result.diagnostics] == [
        ("discovery/shadowed", monorepo / "home/.clarvis/skills/review/SKILL.md")
    ]


def test_a_nested_workspace_reads_its_own_project_file(monorepo: Path) -> None:
    write(monorepo, {"ws/packages/a/.clarvis-lsp.toml": '[rules]\n"discovery/*" = "off"\n'})
    report = run(monorepo)
    ws = monorepo / "ws"
    assert not any(ws / "packages/a" in d.path.parents for d in report.result.diagnostics)
    assert [d.path.relative_to(ws).as_posix() for d in report.result.diagnostics] == [
        ".clarvis/skills/review/SKILL.md",
        "packages/b/.agents/skills/review/SKILL.md",
    ]


# -- --select / --ignore and project configuration ---------------------------------------------------------------


@pytest.fixture
def mixed(four_roots: Path) -> Path:
    write(
        four_roots,
        {
            "ws/.clarvis/skills/epsilon/SKILL.md": skill_md("epsilon", "user-invokable: false\n") + "[x](missing.md)\n",
        },
    )
    return four_roots


def codes_of(report: CheckReport) -> list[str]:
    return sorted({d.code for d in report.result.diagnostics})


ALL_CODES = ["discovery/overrides", "discovery/shadowed", "skill/broken-link", "skill/unknown-field"]


def test_everything_is_reported_by_default(mixed: Path) -> None:
    assert codes_of(run(mixed)) == ALL_CODES


@pytest.mark.parametrize(
    ("select", "ignore", "expected"),
    [
        (("discovery",), (), ["discovery/overrides", "discovery/shadowed"]),
        (("discovery/*",), (), ["discovery/overrides", "discovery/shadowed"]),
        (("discovery/shadowed",), (), ["discovery/shadowed"]),
        (("skill/", "discovery/overrides"), (), ["discovery/overrides", "skill/broken-link", "skill/unknown-field"]),
        ((), ("discovery",), ["skill/broken-link", "skill/unknown-field"]),
        ((), ("skill/unknown-field", "discovery/overrides"), ["discovery/shadowed", "skill/broken-link"]),
        (("discovery",), ("discovery/overrides",), ["discovery/shadowed"]),
    ],
)
def test_select_and_ignore(mixed: Path, select: tuple[str, ...], ignore: tuple[str, ...], expected: list[str]) -> None:
    assert codes_of(run(mixed, select=select, ignore=ignore)) == expected


def test_the_project_file_turns_rules_off_and_changes_severities(mixed: Path) -> None:
    write(
        mixed,
        {
            "ws/.clarvis-lsp.toml": (
                "[rules]\n"
                '"skill/unknown-field" = "off"\n'
                '"skill/broken-link" = "error"\n'
                '"discovery/*" = "hint"\n'
                '"discovery/overrides" = "off"\n'
            )
        },
    )
    report = run(mixed)
    assert report.config_loads[0].status == "ok"
    assert sorted({(d.code, d.severity) for d in report.result.diagnostics}) == [
        ("discovery/shadowed", Severity.HINT),
        ("skill/broken-link", Severity.ERROR),
    ]


def test_cli_rule_settings_layer_over_the_project_file(mixed: Path) -> None:
    write(mixed, {"ws/.clarvis-lsp.toml": '[rules]\n"skill/unknown-field" = "off"\n"skill/broken-link" = "hint"\n'})
    report = run(mixed, overrides={"rules": {"skill/unknown-field": "error"}})
    severities = {d.code: d.severity for d in report.result.diagnostics}
    assert severities["skill/unknown-field"] is Severity.ERROR
    assert severities["skill/broken-link"] is Severity.HINT  # merged code by code, not replaced


def test_an_invalid_project_file_is_reported_and_the_defaults_apply(mixed: Path) -> None:
    write(mixed, {"ws/.clarvis-lsp.toml": '[rules]\n"skill/unknown-feild" = "off"\n'})
    report = run(mixed)
    assert report.config_failed
    invalid = by_code(report, "config/invalid")
    assert [d.path for d in invalid] == [mixed / "ws/.clarvis-lsp.toml"]
    assert invalid[0].range == Range.of(1, 0, 1, 21)
    assert 'did you mean "skill/unknown-field"?' in invalid[0].message
    assert "skill/unknown-field" in codes_of(report)
