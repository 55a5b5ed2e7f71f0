"""Plainly laid out resources are listed without the general walk (issue: speed), with the same result.

``_collect_resources`` walks ``references/``, ``scripts/`` and ``assets/`` with cycle checks, link policy and a
budget; when each is a real directory of regular files only, a plain listing gives the same files
(``PLAIN_RESOURCES_FAST_PATH``). Checked here on every layout the fast path must hand over to the walk: links,
subdirectories, a FIFO, a file where a directory is expected, an unreadable directory, and the budget.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.discovery import AgentSkillsOptions, SkillRootInput, discover_skills, resolve_config, resources
from clarvis_lsp.discovery.io import OS_READER


def _layouts(root: Path, tree: Any) -> None:
    plain = tree.skill(root, "plain").parent
    for directory, names in (("references", ("b.md", "a.md")), ("scripts", ("run.py",)), ("assets", ("x.png",))):
        (plain / directory).mkdir()
        for name in names:
            (plain / directory / name).write_text("x", encoding="utf-8")
    nested = tree.skill(root, "nested").parent
    (nested / "references" / "deep").mkdir(parents=True)
    (nested / "references" / "deep" / "c.md").write_text("x", encoding="utf-8")
    (nested / "references" / "top.md").write_text("x", encoding="utf-8")
    linked = tree.skill(root, "linked").parent
    (linked / "references").mkdir()
    (linked / "references" / "to-plain.md").symlink_to(plain / "references" / "a.md")
    (linked / "references" / "dangling.md").symlink_to(linked / "nowhere.md")
    (linked / "scripts").symlink_to(plain / "scripts")
    fifo = tree.skill(root, "fifo").parent
    (fifo / "references").mkdir()
    os.mkfifo(fifo / "references" / "pipe")
    (fifo / "references" / "real.md").write_text("x", encoding="utf-8")
    as_file = tree.skill(root, "as-file").parent
    (as_file / "scripts").write_text("not a directory", encoding="utf-8")
    many = tree.skill(root, "many").parent
    (many / "assets").mkdir()
    for index in range(10):
        (many / "assets" / f"{index}.png").write_text("x", encoding="utf-8")
    unreadable = tree.skill(root, "unreadable").parent
    (unreadable / "references").mkdir()
    (unreadable / "references" / "r.md").write_text("x", encoding="utf-8")
    (unreadable / "references").chmod(0)


def _discovered(root: Path, workspace: Path, follow: bool) -> dict[str, Any]:
    options = AgentSkillsOptions(roots=[SkillRootInput(str(root))], workspace=str(workspace), follow_symlinks=follow)
    registry = discover_skills(resolve_config(options))
    found: dict[str, Any] = {
        str(skill.path): (skill.resource_paths, tuple(str(item) for item in skill.resources))
        for skill in registry.all_skills()
    }
    found["warnings"] = tuple(sorted((item.kind, str(item.path), item.message) for item in registry.warnings))
    return found


@pytest.mark.parametrize("follow", [True, False])
def test_the_fast_path_lists_what_the_walk_lists(
    discovery_tree: Any, monkeypatch: pytest.MonkeyPatch, follow: bool
) -> None:
    root = discovery_tree.ws_clarvis
    _layouts(root, discovery_tree)
    monkeypatch.setattr(resources, "MAX_RESOURCES", 8)  # "many" holds more than that, "plain" fewer
    try:
        fast = _discovered(root, discovery_tree.ws, follow)
        with monkeypatch.context() as patch:
            patch.setattr(resources, "PLAIN_RESOURCES_FAST_PATH", False)
            walked = _discovered(root, discovery_tree.ws, follow)
    finally:
        (root / "unreadable" / "references").chmod(0o755)
    assert fast == walked
    plain = str(root / "plain" / "SKILL.md")
    assert fast[plain][0] == tuple(
        str(root / "plain" / relative)
        for relative in ("assets/x.png", "references/a.md", "references/b.md", "scripts/run.py")
    )
    assert len(fast[str(root / "many" / "SKILL.md")][0]) == 7  # the budget cut it (1 directory + 7 files)


def test_the_fast_path_answers_for_plain_resources(discovery_tree: Any) -> None:
    """It really is taken for the common layout (else the comparison above proves nothing)."""
    root = discovery_tree.ws_clarvis
    skill_dir = discovery_tree.skill(root, "plain").parent
    (skill_dir / "references").mkdir()
    (skill_dir / "references" / "guide.md").write_text("x", encoding="utf-8")
    present = [entry for entry in os.scandir(skill_dir) if entry.name == "references"]
    assert resources._plain_resources(present, OS_READER) == (str(skill_dir / "references" / "guide.md"),)
