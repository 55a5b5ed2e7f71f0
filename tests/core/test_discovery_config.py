"""Configuration (seed page "Configuration"): every option, its default, and ``resolve_config``.

One test per sentence of the seed page, roughly in the page's order, so a behaviour change fails a test whose
name says which sentence it broke.
"""

from __future__ import annotations

import dataclasses
import gc
import os
from pathlib import Path
from typing import Any

import pytest

import clarvis_lsp.discovery as discovery
import clarvis_lsp.discovery.registry as registry_module
from clarvis_lsp.discovery import (
    DEFAULT_FOLLOW_SYMLINKS,
    DEFAULT_STRICT,
    AgentSkillsOptions,
    SkillConfig,
    SkillError,
    SkillRoot,
    SkillRootInput,
    StartupError,
    clarvis_skill_roots,
    create_agent_skills,
    discover_skills,
    resolve_config,
)

# --- Defaults -------------------------------------------------------------------------------------------------


def test_default_constants_are_exported_with_the_seed_values() -> None:
    assert DEFAULT_STRICT is False
    assert DEFAULT_FOLLOW_SYMLINKS is True
    assert "DEFAULT_STRICT" in discovery.__all__
    assert "DEFAULT_FOLLOW_SYMLINKS" in discovery.__all__


def test_option_defaults_are_the_exported_constants() -> None:
    options = AgentSkillsOptions(roots=[SkillRootInput("/r")])
    assert options.workspace is None
    assert options.cwd is None
    assert options.home is None
    assert options.strict is DEFAULT_STRICT
    assert options.follow_symlinks is DEFAULT_FOLLOW_SYMLINKS


def test_roots_is_required() -> None:
    with pytest.raises(TypeError):
        AgentSkillsOptions()  # type: ignore[call-arg]


def test_cwd_defaults_to_the_process_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("skills")], home="/home/me"))
    assert config.workspace_dir == str(tmp_path)
    assert config.roots[0].path == str(tmp_path / "skills")


def test_home_defaults_to_the_users_home() -> None:
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("~/skills")], cwd="/c"))
    assert config.home == os.path.expanduser("~")
    assert config.roots[0].path == os.path.join(os.path.expanduser("~"), "skills")


def test_no_environment_variable_configures_discovery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "This library reads no environment variables — the workspace is always an explicit option (else the cwd),
    # never inferred from the environment."
    monkeypatch.chdir(tmp_path)
    for name in ("PWD", "CLARVIS_WORKSPACE", "WORKSPACE", "CLARVIS_HOME", "INIT_CWD", "PROJECT_DIR"):
        monkeypatch.setenv(name, "/from/the/environment")
    monkeypatch.setenv("CLARVIS_STRICT", "true")
    monkeypatch.setenv("CLARVIS_FOLLOW_SYMLINKS", "false")
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], home="/home/me"))
    assert config.workspace_dir == str(tmp_path)
    assert config.home == "/home/me"
    assert config.strict is False
    assert config.follow_symlinks is True


# --- StartupError ---------------------------------------------------------------------------------------------


def test_empty_roots_raise_startup_error_saying_a_root_is_required() -> None:
    with pytest.raises(StartupError, match=r"(?i)at least one .*root.* required"):
        resolve_config(AgentSkillsOptions(roots=[]))


def test_create_agent_skills_requires_at_least_one_root() -> None:
    with pytest.raises(StartupError, match=r"(?i)at least one"):
        create_agent_skills(AgentSkillsOptions(roots=[]))


def test_missing_workspace_raises_startup_error_with_seed_message(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(StartupError) as caught:
        resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], workspace=str(missing)))
    assert str(caught.value) == f"Workspace does not exist: {missing}"


def test_workspace_that_is_a_file_raises_startup_error_with_seed_message(tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("x")
    with pytest.raises(StartupError) as caught:
        resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], workspace=str(file)))
    assert str(caught.value) == f"Workspace is not a directory: {file}"


def test_workspace_message_names_the_resolved_path(tmp_path: Path) -> None:
    with pytest.raises(StartupError, match=r"^Workspace does not exist: " + str(tmp_path / "rel")):
        resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], workspace="rel", cwd=str(tmp_path)))


def test_startup_error_is_an_exception_and_never_a_skill_error() -> None:
    assert issubclass(StartupError, Exception)
    assert not issubclass(StartupError, SkillError)
    assert not issubclass(SkillError, StartupError)


@pytest.mark.parametrize("workspace", ["missing", "file"])
def test_startup_error_is_raised_before_any_discovery_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workspace: str
) -> None:
    (tmp_path / "file").write_text("x")

    def no_scan(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("discovery ran")

    monkeypatch.setattr(registry_module, "scan_root", no_scan)
    options = AgentSkillsOptions(roots=[SkillRootInput("s")], workspace=str(tmp_path / workspace))
    with pytest.raises(StartupError):
        create_agent_skills(options)


def test_strict_workspace_errors_are_still_startup_errors(tmp_path: Path) -> None:
    with pytest.raises(StartupError):
        create_agent_skills(AgentSkillsOptions(roots=[SkillRootInput("s")], workspace=str(tmp_path / "x"), strict=True))


def test_cwd_fallback_is_trusted_and_never_validated(tmp_path: Path) -> None:
    missing = tmp_path / "does-not-exist"
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("skills")], cwd=str(missing)))
    assert config.workspace_dir == str(missing)
    # ... and discovery over it simply finds nothing.
    assert discover_skills(config).skills() == []


def test_cwd_that_is_a_file_is_not_validated_either(tmp_path: Path) -> None:
    file = tmp_path / "f"
    file.write_text("x")
    assert resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], cwd=str(file))).workspace_dir == str(file)


def test_existing_workspace_is_accepted(tmp_path: Path) -> None:
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], workspace=str(tmp_path)))
    assert config.workspace_dir == str(tmp_path)


# --- Root normalisation ---------------------------------------------------------------------------------------


def test_relative_root_resolves_against_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    config = resolve_config(
        AgentSkillsOptions(roots=[SkillRootInput("./.clarvis/skills")], workspace=str(ws), cwd="/elsewhere")
    )
    assert config.roots[0].path == str(ws / ".clarvis" / "skills")


def test_relative_root_resolves_against_cwd_without_a_workspace() -> None:
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("a/../skills")], cwd="/srv/project"))
    assert config.roots[0].path == "/srv/project/skills"


def test_relative_workspace_resolves_against_cwd(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], workspace="ws", cwd=str(tmp_path)))
    assert config.workspace_dir == str(tmp_path / "ws")
    assert config.roots[0].path == str(tmp_path / "ws" / "s")


def test_tilde_in_workspace_expands_to_home(tmp_path: Path) -> None:
    (tmp_path / "code").mkdir()
    config = resolve_config(
        AgentSkillsOptions(roots=[SkillRootInput("s")], workspace="~/code", home=str(tmp_path), cwd="/c")
    )
    assert config.workspace_dir == str(tmp_path / "code")


def test_tilde_root_expands_against_home_and_absolute_root_is_kept() -> None:
    config = resolve_config(
        AgentSkillsOptions(
            roots=[SkillRootInput("~/.agents/skills"), SkillRootInput("~"), SkillRootInput("/opt/skills")],
            home="/home/me",
            cwd="/srv/project",
        )
    )
    assert [root.path for root in config.roots] == ["/home/me/.agents/skills", "/home/me", "/opt/skills"]


def test_tilde_user_root_is_not_expanded() -> None:
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("~bob/s")], home="/home/me", cwd="/w"))
    assert config.roots[0].path == "/w/~bob/s"


def test_scope_defaults_to_workspace_and_source_to_empty() -> None:
    root = SkillRootInput("/r")
    assert (root.scope, root.source) == ("workspace", "")
    config = resolve_config(AgentSkillsOptions(roots=[root], cwd="/c", home="/h"))
    assert config.roots == (SkillRoot("/r", "workspace", ""),)


def test_scope_and_source_are_copied_onto_the_normalised_root() -> None:
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("~/x", "user", "mine")], cwd="/c", home="/h"))
    assert config.roots == (SkillRoot("/h/x", "user", "mine"),)


def test_invalid_scope_is_a_startup_error() -> None:
    with pytest.raises(StartupError, match="scope"):
        resolve_config(AgentSkillsOptions(roots=[SkillRootInput("/r", "global")], cwd="/c"))  # type: ignore[arg-type]


def test_roots_keep_their_order() -> None:
    inputs = [SkillRootInput(f"/r{i}") for i in (3, 1, 2)]
    config = resolve_config(AgentSkillsOptions(roots=inputs, cwd="/c", home="/h"))
    assert [root.path for root in config.roots] == ["/r3", "/r1", "/r2"]


# --- SkillConfig ----------------------------------------------------------------------------------------------


def test_skill_config_fields_are_all_concrete(tmp_path: Path) -> None:
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput("s")], workspace=str(tmp_path), home="/h"))
    assert [field.name for field in dataclasses.fields(SkillConfig)] == [
        "home",
        "workspace_dir",
        "roots",
        "strict",
        "follow_symlinks",
    ]
    for field in dataclasses.fields(config):
        assert getattr(config, field.name) is not None
    assert os.path.isabs(config.workspace_dir)
    assert all(os.path.isabs(root.path) for root in config.roots)
    assert isinstance(config.strict, bool) and isinstance(config.follow_symlinks, bool)


def test_strict_and_follow_symlinks_pass_through() -> None:
    config = resolve_config(
        AgentSkillsOptions(roots=[SkillRootInput("/r")], cwd="/c", home="/h", strict=True, follow_symlinks=False)
    )
    assert (config.strict, config.follow_symlinks) == (True, False)


# --- createAgentSkills ----------------------------------------------------------------------------------------


def test_create_agent_skills_exposes_the_resolved_config(discovery_tree: Any) -> None:
    options = AgentSkillsOptions(
        roots=clarvis_skill_roots(workspace=str(discovery_tree.ws)),
        workspace=str(discovery_tree.ws),
        home=str(discovery_tree.home),
    )
    skills = create_agent_skills(options)
    assert skills.config == resolve_config(options)
    assert skills.registry.config is skills.config
    # "so a caller can inspect exactly which roots were scanned"
    assert [root.path for root in skills.config.roots] == [
        str(discovery_tree.user_agents),
        str(discovery_tree.ws_agents),
        str(discovery_tree.user_clarvis),
        str(discovery_tree.ws_clarvis),
    ]


def test_seed_example_strict_no_symlinks(discovery_tree: Any) -> None:
    # createAgentSkills({ roots: clarvisSkillRoots({ workspace }), strict: true, followSymlinks: false })
    discovery_tree.skill(discovery_tree.ws_clarvis, "review")
    skills = create_agent_skills(
        AgentSkillsOptions(
            roots=clarvis_skill_roots(workspace=str(discovery_tree.ws), home=str(discovery_tree.home)),
            home=str(discovery_tree.home),
            strict=True,
            follow_symlinks=False,
        )
    )
    assert skills.config.strict is True
    assert skills.config.follow_symlinks is False
    winner = skills.winner("review")
    assert winner is not None and winner.root_index == 3
    assert [skill.name for skill in skills.skills()] == ["review"]


def test_resolve_config_then_discover_skills_is_what_create_agent_skills_does(discovery_tree: Any) -> None:
    # "createAgentSkills calls it internally; call it yourself when driving discoverSkills directly."
    discovery_tree.skill(discovery_tree.ws_agents, "s")
    discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    discovery_tree.skill(discovery_tree.user_clarvis, "t")
    options = AgentSkillsOptions(
        roots=clarvis_skill_roots(workspace=str(discovery_tree.ws)),
        workspace=str(discovery_tree.ws),
        home=str(discovery_tree.home),
    )
    direct = discover_skills(resolve_config(options))
    skills = create_agent_skills(options)
    assert skills.names() == direct.names() == ["s", "t"]
    assert [s.path for s in skills.skills()] == [s.path for s in direct.skills()]
    assert [s.path for s in skills.copies("s")] == [s.path for s in direct.copies("s")]
    assert [s.path for s in skills.shadowed("s")] == [s.path for s in direct.shadowed("s")]
    assert skills.winner("t") is not None and skills.warnings == direct.warnings == ()


def test_discovery_restores_the_garbage_collector(discovery_tree: Any) -> None:
    discovery_tree.skill(discovery_tree.ws_clarvis, "a", name="dup")
    discovery_tree.skill(discovery_tree.ws_clarvis, "b", name="dup")
    options = AgentSkillsOptions(roots=[SkillRootInput(str(discovery_tree.ws_clarvis))], strict=True)
    assert gc.isenabled()
    with pytest.raises(SkillError):
        create_agent_skills(options)
    assert gc.isenabled()
    gc.disable()
    try:
        create_agent_skills(dataclasses.replace(options, strict=False))
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
