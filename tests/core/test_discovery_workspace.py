"""Nested workspaces (SPEC §2): the nearest ``.clarvis``/``.agents`` ancestor, every workspace of a tree, and
the roots of one workspace."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.discovery import (
    SkillRootInput,
    StartupError,
    find_workspaces,
    is_workspace_dir,
    nearest_workspace,
    workspace_roots,
)


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    """repo/ (.clarvis) with packages/api (.agents) and packages/web (no config) and deep/nested/tool (.clarvis)."""
    repo = tmp_path / "repo"
    for directory in (
        repo / ".clarvis" / "skills",
        repo / "packages" / "api" / ".agents" / "skills" / "x",
        repo / "packages" / "web" / "src",
        repo / "deep" / "nested" / "tool" / ".clarvis",
        repo / "node_modules" / "dep" / ".clarvis",
        repo / ".git" / "modules" / ".clarvis",
        repo / "build" / "out" / ".clarvis",
    ):
        directory.mkdir(parents=True)
    (repo / "packages" / "api" / "src").mkdir()
    (repo / "packages" / "api" / "src" / "main.py").write_text("")
    return repo


def test_is_workspace_dir(monorepo: Path) -> None:
    assert is_workspace_dir(monorepo)
    assert is_workspace_dir(monorepo / "packages" / "api")
    assert not is_workspace_dir(monorepo / "packages" / "web")
    (monorepo / "packages" / "web" / ".clarvis").write_text("a file, not a directory")
    assert not is_workspace_dir(monorepo / "packages" / "web")


def test_nearest_workspace_in_a_nested_monorepo(monorepo: Path) -> None:
    api = monorepo / "packages" / "api"
    assert nearest_workspace(api / "src" / "main.py", monorepo) == api
    assert nearest_workspace(api / ".agents" / "skills" / "x" / "SKILL.md", monorepo) == api
    assert nearest_workspace(monorepo / "packages" / "web" / "src", monorepo) == monorepo
    tool = monorepo / "deep" / "nested" / "tool"
    assert nearest_workspace(tool / ".clarvis" / "settings.json", monorepo) == tool


def test_nearest_workspace_stops_at_the_ceiling(monorepo: Path) -> None:
    web = monorepo / "packages" / "web"
    # The repository root is a workspace, but above the ceiling: the ceiling is the answer.
    assert nearest_workspace(web / "src" / "index.ts", web) == web
    assert nearest_workspace(monorepo / "elsewhere.txt", monorepo / "packages") == monorepo / "packages"


def test_nearest_workspace_of_the_ceiling_itself(monorepo: Path) -> None:
    assert nearest_workspace(monorepo, monorepo) == monorepo


def test_find_workspaces_lists_nested_ones_and_skips_heavy_dirs(monorepo: Path) -> None:
    assert find_workspaces(monorepo, home=monorepo.parent / "home") == [
        monorepo,
        monorepo / "build" / "out",
        monorepo / "deep" / "nested" / "tool",
        monorepo / "packages" / "api",
    ]


def test_find_workspaces_puts_a_plain_tree_first(monorepo: Path) -> None:
    packages = monorepo / "packages"
    assert find_workspaces(packages, home=monorepo.parent / "home") == [packages, packages / "api"]


def test_find_workspaces_excludes_globs(monorepo: Path) -> None:
    home = monorepo.parent / "home"
    assert monorepo / "build" / "out" not in find_workspaces(monorepo, home=home, exclude=["build"])
    assert monorepo / "build" / "out" not in find_workspaces(monorepo, home=home, exclude=["b*/out"])
    assert monorepo / "deep" / "nested" / "tool" not in find_workspaces(monorepo, home=home, exclude=["deep/*"])


def test_find_workspaces_never_lists_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".clarvis" / "skills").mkdir(parents=True)  # the personal configuration
    project = home / "code" / "project"
    (project / ".clarvis").mkdir(parents=True)
    assert find_workspaces(home, home=home) == [project]
    assert find_workspaces(tmp_path, home=home) == [tmp_path, project]


def test_find_workspaces_does_not_follow_symlinked_dirs(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "proj" / ".clarvis").mkdir(parents=True)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link").symlink_to(outside, target_is_directory=True)
    (tree / "loop").symlink_to(tree, target_is_directory=True)
    assert find_workspaces(tree, home=tmp_path / "home") == [tree]


def test_a_symlinked_marker_still_makes_a_workspace(tmp_path: Path) -> None:
    # The workspace's own .clarvis may be a link to shared configuration; the walk does not enter it either way.
    shared = tmp_path / "shared-clarvis"
    (shared / "skills").mkdir(parents=True)
    tree = tmp_path / "tree"
    (tree / "app").mkdir(parents=True)
    (tree / "app" / ".clarvis").symlink_to(shared, target_is_directory=True)
    (tree / "lib" / ".agents").mkdir(parents=True)
    (tree / "dangling").mkdir()
    (tree / "dangling" / ".clarvis").symlink_to(tmp_path / "missing", target_is_directory=True)
    assert find_workspaces(tree, home=tmp_path / "home") == [tree, tree / "app", tree / "lib"]
    assert find_workspaces(tree, home=tmp_path / "home", exclude=["app/.clarvis"]) == [tree, tree / "lib"]


def test_find_workspaces_survives_unreadable_dirs(monorepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.scandir
    denied = str(monorepo / "deep")

    def scandir(path: Any = ".") -> Any:
        if os.fspath(path) == denied:
            raise PermissionError(13, "Permission denied", denied)
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = find_workspaces(monorepo, home=monorepo.parent / "home")
    assert monorepo / "deep" / "nested" / "tool" not in found
    assert monorepo / "packages" / "api" in found


def test_workspace_roots_clarvis_and_xcsh(tmp_path: Path) -> None:
    roots = workspace_roots("/w", "/h")
    assert [(r.path, r.scope) for r in roots] == [
        ("/h/.agents/skills", "user"),
        ("/w/.agents/skills", "workspace"),
        ("/h/.clarvis/skills", "user"),
        ("/w/.clarvis/skills", "workspace"),
    ]
    ws = tmp_path / "w"
    (ws / ".xcsh" / "skills").mkdir(parents=True)
    xcsh = workspace_roots(ws, tmp_path / "h", preset="xcsh")
    assert xcsh[-1] == SkillRootInput(str(ws / ".xcsh" / "skills"), "workspace", "native")


def test_workspace_roots_without_user_roots() -> None:
    roots = workspace_roots("/w", "/h", include_user=False)
    assert [r.path for r in roots] == ["/w/.agents/skills", "/w/.clarvis/skills"]
    assert all(r.scope == "workspace" for r in roots)


def test_workspace_roots_for_home_itself_keep_each_directory_once() -> None:
    roots = workspace_roots("/h", "/h")
    assert [(r.path, r.scope) for r in roots] == [
        ("/h/.agents/skills", "workspace"),
        ("/h/.clarvis/skills", "workspace"),
    ]


def test_unknown_preset_is_a_startup_error() -> None:
    with pytest.raises(StartupError, match="preset"):
        workspace_roots("/w", "/h", preset="cursor")
