"""Discovery survives whatever is on disk (SPEC §9): unreadable directories, files vanishing mid-scan, bytes
that are not UTF-8, special files. Nothing raises; problems become warnings or malformed skills."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

import pytest

import clarvis_lsp.discovery.io as io_module
import clarvis_lsp.discovery.resources as resources_module
from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    SkillRegistry,
    SkillRootInput,
    discover_skills,
    resolve_config,
)
from clarvis_lsp.discovery.fs import read_regular_file


def discover(tree: Any, *roots: Path, strict: bool = False, follow: bool = True) -> SkillRegistry:
    return discover_skills(
        resolve_config(
            AgentSkillsOptions(
                roots=[SkillRootInput(str(root)) for root in roots],
                workspace=str(tree.ws),
                home=str(tree.home),
                strict=strict,
                follow_symlinks=follow,
            )
        )
    )


def deny_scandir(monkeypatch: pytest.MonkeyPatch, denied: Path, error: type[OSError] = PermissionError) -> None:
    """Make ``os.scandir`` fail for one path, as chmod 000 would for a non-root user (tests run as root)."""
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if os.fspath(path) == str(denied):
            raise error(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_unreadable_skill_directory_is_a_warning(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    root = discovery_tree.ws_clarvis
    locked = discovery_tree.skill(root, "locked").parent
    discovery_tree.skill(root, "open")
    deny_scandir(monkeypatch, locked)
    registry = discover(discovery_tree, root, strict=True)
    assert registry.names() == ["open"]
    (warning,) = registry.warnings
    assert (warning.kind, warning.path, warning.root_index) == ("unreadable", locked, 0)
    assert "Permission denied" in warning.message


def test_unreadable_root_is_a_warning(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = discovery_tree.ws_agents
    discovery_tree.skill(locked, "hidden")
    discovery_tree.skill(discovery_tree.ws_clarvis, "visible")
    deny_scandir(monkeypatch, locked)
    registry = discover(discovery_tree, locked, discovery_tree.ws_clarvis, strict=True)
    assert registry.names() == ["visible"]
    assert [(w.kind, w.path, w.root_index) for w in registry.warnings] == [("unreadable", locked, 0)]


def test_unreadable_resource_directory_is_a_warning(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "tool")
    discovery_tree.file(path.parent / "scripts" / "a.sh")
    discovery_tree.file(path.parent / "assets" / "b.png")
    deny_scandir(monkeypatch, path.parent / "scripts")
    registry = discover(discovery_tree, discovery_tree.ws_clarvis)
    skill = registry.winner("tool")
    assert skill is not None and [p.name for p in skill.resources] == ["b.png"]
    assert [(w.kind, w.path) for w in registry.warnings] == [("unreadable", path.parent / "scripts")]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads through chmod 000")
def test_chmod_000_skill_directory(discovery_tree: Any) -> None:  # pragma: no cover - only as non-root
    locked = discovery_tree.skill(discovery_tree.ws_clarvis, "locked").parent
    locked.chmod(0)
    try:
        registry = discover(discovery_tree, discovery_tree.ws_clarvis)
    finally:
        locked.chmod(0o755)
    assert [w.kind for w in registry.warnings] == ["unreadable"]


def test_unreadable_skill_md_is_a_warning(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "secret")
    real_open = os.open

    def fake_open(target: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(target) == str(path):
            raise PermissionError(13, "Permission denied", os.fspath(target))
        return real_open(target, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    registry = discover(discovery_tree, discovery_tree.ws_clarvis, strict=True)
    assert registry.names() == []
    assert [(w.kind, w.path) for w in registry.warnings] == [("unreadable", path)]


def test_skill_md_vanishing_between_listing_and_reading(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    root = discovery_tree.ws_clarvis
    gone = discovery_tree.skill(root, "gone")
    discovery_tree.skill(root, "stays")
    real_read = read_regular_file  # the function the OS reader uses, patched there below

    def vanish_then_read(target: str, follow: bool) -> tuple[bytes | None, str]:
        if target == str(gone):
            os.unlink(target)
        return real_read(target, follow)

    monkeypatch.setattr(io_module, "read_regular_file", vanish_then_read)
    registry = discover(discovery_tree, root, strict=True)
    assert registry.names() == ["stays"]
    (warning,) = registry.warnings
    assert (warning.kind, warning.path) == ("unreadable", gone)
    assert "disappeared" in warning.message


def test_skill_directory_vanishing_between_listing_and_reading(
    discovery_tree: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = discovery_tree.ws_clarvis
    gone = discovery_tree.skill(root, "gone").parent
    discovery_tree.skill(root, "stays")
    deny_scandir(monkeypatch, gone, FileNotFoundError)
    registry = discover(discovery_tree, root, strict=True)
    assert registry.names() == ["stays"]
    assert [(w.kind, w.path) for w in registry.warnings] == [("unreadable", gone)]


def test_invalid_utf8_is_decoded_with_replacement_not_raised(discovery_tree: Any) -> None:
    path = discovery_tree.raw_skill(
        discovery_tree.ws_clarvis, "bytes", b"---\nname: bytes\ndescription: caf\xe9 \xff\n---\nbody \x80\n"
    )
    registry = discover(discovery_tree, discovery_tree.ws_clarvis)
    skill = registry.winner("bytes")
    assert skill is not None and skill.path == path
    assert "\ufffd" in skill.description


def test_invalid_utf8_in_the_name_still_never_raises(discovery_tree: Any) -> None:
    discovery_tree.raw_skill(discovery_tree.ws_clarvis, "x", b"---\nname: \xff\xfe\ndescription: d\n---\n")
    registry = discover(discovery_tree, discovery_tree.ws_clarvis)
    assert len(registry.skills()) + len(registry.skipped) == 1


def test_bom_crlf_and_nul_bytes(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.raw_skill(root, "bom", b"\xef\xbb\xbf---\r\nname: bom\r\ndescription: d\r\n---\r\nbody\r\n")
    discovery_tree.raw_skill(root, "nul", b"---\nname: nul\ndescription: d\x00\n---\n")
    registry = discover(discovery_tree, root)
    assert "bom" in registry.names()
    assert len(registry.skills()) + len(registry.skipped) == 2


def test_yaml_alias_bomb_does_not_expand(discovery_tree: Any) -> None:
    lines = ["---", "name: bomb", "description: d", 'a: &a ["x","x","x","x","x","x","x","x","x"]']
    previous = "a"
    for level in "bcdefghij":
        lines.append(f"{level}: &{level} [" + ",".join(f"*{previous}" for _ in range(9)) + "]")
        previous = level
    lines.append("---")
    discovery_tree.raw_skill(discovery_tree.ws_clarvis, "bomb", "\n".join(lines) + "\n")
    skill = discover(discovery_tree, discovery_tree.ws_clarvis).winner("bomb")
    assert skill is not None and skill.description == "d"


def test_skill_md_that_is_a_directory_or_fifo_is_unreadable_not_fatal(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    (root / "dir" / "SKILL.md").mkdir(parents=True)
    (root / "fifo").mkdir(parents=True)
    os.mkfifo(root / "fifo" / "SKILL.md")  # opening it for reading must not block the scan
    discovery_tree.skill(root, "ok")
    registry = discover(discovery_tree, root, strict=True)
    assert registry.names() == ["ok"]
    assert sorted((w.kind, w.path.parent.name) for w in registry.warnings) == [
        ("unreadable", "dir"),
        ("unreadable", "fifo"),
    ]


def test_files_in_a_root_are_ignored(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.file(root / "README.md", "# skills")
    discovery_tree.file(root / ".DS_Store", "")
    discovery_tree.skill(root, "ok")
    registry = discover(discovery_tree, root)
    assert registry.names() == ["ok"] and registry.warnings == ()


def test_large_skill_md_is_read_whole(discovery_tree: Any) -> None:
    body = ("x" * 1023 + "\n") * 2048  # 2 MiB: more than one read() call
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "big", body=body)
    skill = discover(discovery_tree, discovery_tree.ws_clarvis).winner("big")
    assert skill is not None and skill.document.text == path.read_text()


def test_resources_are_capped(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "many")
    for index in range(10):
        discovery_tree.file(path.parent / "assets" / f"{index}.bin")
    monkeypatch.setattr(resources_module, "MAX_RESOURCES", 4)
    skill = discover(discovery_tree, discovery_tree.ws_clarvis).winner("many")
    assert skill is not None and len(skill.resources) <= 4


def test_resource_link_fan_out_stays_bounded(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each level links twice to the next: 2**12 paths without a bound.
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "fan")
    levels = [discovery_tree.base / "levels" / str(i) for i in range(13)]
    for level in levels:
        level.mkdir(parents=True)
    discovery_tree.file(levels[-1] / "leaf.txt")
    for upper, lower in itertools.pairwise(levels):
        (upper / "l").symlink_to(lower, target_is_directory=True)
        (upper / "r").symlink_to(lower, target_is_directory=True)
    (path.parent / "assets").symlink_to(levels[0], target_is_directory=True)
    monkeypatch.setattr(resources_module, "MAX_RESOURCES", 500)
    skill = discover(discovery_tree, discovery_tree.ws_clarvis).winner("fan")
    assert skill is not None and 0 < len(skill.resources) <= 500
