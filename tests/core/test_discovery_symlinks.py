"""Symlinks: ``follow_symlinks`` true follows skill directories, SKILL.md and resources without looping;
false ignores all three, reports each, and never reads or follows any link."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import clarvis_lsp.discovery.fs as fs_module
import clarvis_lsp.discovery.io as io_module
from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    SkillRegistry,
    SkillRootInput,
    clarvis_skill_roots,
    discover_skills,
    resolve_config,
)


def discover(tree: Any, *roots: Path, follow: bool, strict: bool = False) -> SkillRegistry:
    return discover_skills(
        resolve_config(
            AgentSkillsOptions(
                roots=[SkillRootInput(str(root)) for root in roots],
                workspace=str(tree.ws),
                home=str(tree.home),
                follow_symlinks=follow,
                strict=strict,
            )
        )
    )


@pytest.fixture
def linked_skill_dir(discovery_tree: Any) -> tuple[Path, Path]:
    """``<ws>/.clarvis/skills/linked`` → a skill directory outside the root."""
    target = discovery_tree.skill(discovery_tree.base / "elsewhere", "shared").parent
    root = discovery_tree.ws_clarvis
    root.mkdir(parents=True)
    link = root / "linked"
    link.symlink_to(target, target_is_directory=True)
    return root, link


def test_symlinked_skill_dir_is_followed_by_default(discovery_tree: Any, linked_skill_dir: tuple[Path, Path]) -> None:
    root, link = linked_skill_dir
    registry = discover(discovery_tree, root, follow=True)
    skill = registry.winner("shared")
    assert skill is not None
    assert skill.directory == link  # spelled as seen under the root
    assert skill.path == link / "SKILL.md"
    assert registry.warnings == ()


def test_symlinked_skill_dir_is_ignored_with_a_warning(
    discovery_tree: Any, linked_skill_dir: tuple[Path, Path]
) -> None:
    root, link = linked_skill_dir
    discovery_tree.skill(root, "plain")
    registry = discover(discovery_tree, root, follow=False, strict=True)  # a warning, never an error
    assert registry.names() == ["plain"]
    assert [(w.kind, w.path, w.root_index) for w in registry.warnings] == [("symlink-ignored", link, 0)]


def test_symlinked_skill_md_followed_or_ignored(discovery_tree: Any) -> None:
    real = discovery_tree.file(discovery_tree.base / "real.md", "---\nname: via-link\ndescription: d\n---\n")
    directory = discovery_tree.ws_clarvis / "via-link"
    directory.mkdir(parents=True)
    (directory / "SKILL.md").symlink_to(real)
    followed = discover(discovery_tree, discovery_tree.ws_clarvis, follow=True)
    assert followed.names() == ["via-link"]
    ignored = discover(discovery_tree, discovery_tree.ws_clarvis, follow=False)
    assert ignored.names() == []
    assert [(w.kind, w.path) for w in ignored.warnings] == [("symlink-ignored", directory / "SKILL.md")]


def test_symlinked_resources_followed_or_ignored(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "tool")
    directory = path.parent
    discovery_tree.file(directory / "scripts" / "own.sh", "x")
    shared = discovery_tree.file(discovery_tree.base / "shared" / "lib.sh", "x").parent
    discovery_tree.file(discovery_tree.base / "single.md", "x")
    (directory / "scripts" / "shared").symlink_to(shared, target_is_directory=True)
    (directory / "references").mkdir()
    (directory / "references" / "single.md").symlink_to(discovery_tree.base / "single.md")
    (directory / "assets").symlink_to(shared, target_is_directory=True)  # a whole resource directory

    followed = discover(discovery_tree, discovery_tree.ws_clarvis, follow=True).winner("tool")
    assert followed is not None
    assert [p.relative_to(directory).as_posix() for p in followed.resources] == [
        "assets/lib.sh",
        "references/single.md",
        "scripts/own.sh",
        "scripts/shared/lib.sh",
    ]

    registry = discover(discovery_tree, discovery_tree.ws_clarvis, follow=False)
    ignored = registry.winner("tool")
    assert ignored is not None
    assert [p.relative_to(directory).as_posix() for p in ignored.resources] == ["scripts/own.sh"]
    assert sorted((w.kind, w.path.relative_to(directory).as_posix()) for w in registry.warnings) == [
        ("symlink-ignored", "assets"),
        ("symlink-ignored", "references/single.md"),
        ("symlink-ignored", "scripts/shared"),
    ]
    assert registry.warnings_for(directory) == list(registry.warnings)


def test_symlink_cycle_in_resources_terminates(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "loopy")
    directory = path.parent
    discovery_tree.file(directory / "scripts" / "run.sh", "x")
    (directory / "scripts" / "up").symlink_to(directory, target_is_directory=True)  # -> the skill dir
    (directory / "scripts" / "self").symlink_to(directory / "scripts", target_is_directory=True)
    (directory / "references").mkdir()
    (directory / "references" / "a").symlink_to(directory / "references" / "b", target_is_directory=True)
    (directory / "references" / "b").symlink_to(directory / "references" / "a", target_is_directory=True)
    registry = discover(discovery_tree, discovery_tree.ws_clarvis, follow=True)
    skill = registry.winner("loopy")
    assert skill is not None
    assert [p.relative_to(directory).as_posix() for p in skill.resources] == ["scripts/run.sh"]
    # The a <-> b loop cannot be resolved at all: reported as unreadable, never followed forever.
    assert {w.path.name for w in registry.warnings if w.kind == "unreadable"} == {"a", "b"}


def test_skill_dir_cycle_back_to_the_root_terminates(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.skill(root, "real")
    (root / "again").symlink_to(root, target_is_directory=True)  # <root>/again/SKILL.md does not exist
    (root / "real" / "scripts").mkdir()
    (root / "real" / "scripts" / "root").symlink_to(root, target_is_directory=True)
    skill = discover(discovery_tree, root, follow=True).winner("real")
    assert skill is not None
    # The walk enters the root once through the link; both entries there lead back up its own path.
    assert skill.resources == ()


def test_two_links_to_one_skill_are_a_within_root_duplicate(discovery_tree: Any) -> None:
    target = discovery_tree.skill(discovery_tree.base / "elsewhere", "shared").parent
    root = discovery_tree.ws_clarvis
    root.mkdir(parents=True)
    (root / "one").symlink_to(target, target_is_directory=True)
    (root / "two").symlink_to(target, target_is_directory=True)
    registry = discover(discovery_tree, root, follow=True)
    winner = registry.winner("shared")
    assert winner is not None and winner.directory.name == "one"
    assert [w.kind for w in registry.warnings] == ["duplicate"]


def test_broken_symlinked_skill_dir_is_reported_not_raised(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    root.mkdir(parents=True)
    (root / "dangling").symlink_to(discovery_tree.base / "missing", target_is_directory=True)
    registry = discover(discovery_tree, root, follow=True, strict=True)
    assert registry.names() == []
    assert [(w.kind, w.path.name) for w in registry.warnings] == [("unreadable", "dangling")]


def test_symlinked_root_is_followed_or_ignored(discovery_tree: Any) -> None:
    real = discovery_tree.base / "dotfiles" / "skills"
    discovery_tree.skill(real, "mine")
    (discovery_tree.ws / ".clarvis").mkdir()
    discovery_tree.ws_clarvis.symlink_to(real, target_is_directory=True)
    assert discover(discovery_tree, discovery_tree.ws_clarvis, follow=True).names() == ["mine"]
    registry = discover(discovery_tree, discovery_tree.ws_clarvis, follow=False)
    assert registry.names() == []
    assert [(w.kind, w.path) for w in registry.warnings] == [("symlink-ignored", discovery_tree.ws_clarvis)]


def test_symlinked_config_dir_above_the_root_is_ignored_too(discovery_tree: Any) -> None:
    real = discovery_tree.base / "shared-config"
    discovery_tree.skill(real / "skills", "mine")
    (discovery_tree.ws / ".clarvis").symlink_to(real, target_is_directory=True)
    registry = discover(discovery_tree, discovery_tree.ws_clarvis, follow=False)
    assert registry.names() == []
    assert [(w.kind, w.path) for w in registry.warnings] == [("symlink-ignored", discovery_tree.ws / ".clarvis")]


def test_no_symlink_is_ever_followed_or_read_with_follow_false(
    discovery_tree: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every kind of link at once; then any stat/open/scandir through a link fails the test.
    outside = discovery_tree.base / "outside"
    discovery_tree.skill(outside, "target")
    discovery_tree.file(outside / "file.md", "---\nname: f\ndescription: d\n---\n")
    root = discovery_tree.ws_clarvis
    path = discovery_tree.skill(root, "tool")
    (root / "dir-link").symlink_to(outside / "target", target_is_directory=True)
    (root / "file-link").symlink_to(outside / "file.md")
    (root / "md-link").mkdir()
    (root / "md-link" / "SKILL.md").symlink_to(outside / "file.md")
    (path.parent / "scripts").mkdir()
    (path.parent / "scripts" / "res-link").symlink_to(outside / "file.md")
    (path.parent / "assets").symlink_to(outside, target_is_directory=True)
    links = {str(p) for p in (root / "dir-link", root / "file-link", root / "md-link" / "SKILL.md")}
    links |= {str(path.parent / "scripts" / "res-link"), str(path.parent / "assets")}

    def guard(name: str, real: Any) -> Any:
        def wrapper(target: Any, *args: Any, **kwargs: Any) -> Any:
            text = os.fspath(target) if not isinstance(target, int) else ""
            if any(text == link or text.startswith(link + os.sep) for link in links):
                raise AssertionError(f"{name} through a symlink: {text}")
            return real(target, *args, **kwargs)

        return wrapper

    for name in ("stat", "scandir", "open", "readlink", "listdir"):
        real = getattr(os, name)
        monkeypatch.setattr(os, name, guard(name, real))
    registry = discover(discovery_tree, root, follow=False)
    assert registry.names() == ["tool"]
    assert sorted(str(w.path) for w in registry.warnings) == sorted(links)
    assert all(w.kind == "symlink-ignored" for w in registry.warnings)


def test_skill_md_swapped_for_a_symlink_after_listing_is_refused(
    discovery_tree: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # O_NOFOLLOW closes the window between the directory listing and the open.
    root = discovery_tree.ws_clarvis
    path = discovery_tree.skill(root, "racy")
    secret = discovery_tree.file(discovery_tree.base / "secret.md", "---\nname: stolen\ndescription: d\n---\n")
    real_read = fs_module.read_regular_file

    def swap_then_read(target: str, follow: bool) -> tuple[bytes | None, str]:
        if target == str(path):
            path.unlink()
            path.symlink_to(secret)
        return real_read(target, follow)

    monkeypatch.setattr(io_module, "read_regular_file", swap_then_read)
    registry = discover(discovery_tree, root, follow=False)
    assert registry.names() == []
    assert [w.kind for w in registry.warnings] == ["unreadable"]


def test_preset_roots_with_follow_false_scan_normally_without_links(discovery_tree: Any) -> None:
    discovery_tree.skill(discovery_tree.user_clarvis, "personal")
    discovery_tree.skill(discovery_tree.ws_agents, "shared")
    registry = discover_skills(
        resolve_config(
            AgentSkillsOptions(
                roots=clarvis_skill_roots(workspace=str(discovery_tree.ws)),
                workspace=str(discovery_tree.ws),
                home=str(discovery_tree.home),
                follow_symlinks=False,
            )
        )
    )
    assert registry.names() == ["personal", "shared"] and registry.warnings == ()
