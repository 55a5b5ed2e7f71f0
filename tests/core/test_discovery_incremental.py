"""Open buffers override disk, and updates are incremental: one skill directory is re-read, not the workspace."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest

import clarvis_lsp.discovery.registry as registry_module
import clarvis_lsp.discovery.scan as scan_module
from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    SkillConfig,
    SkillError,
    SkillRegistry,
    clarvis_skill_roots,
    create_agent_skills,
    discover_skills,
    resolve_config,
    scan_root,
)


def clarvis_config(tree: Any, strict: bool = False) -> SkillConfig:
    return resolve_config(
        AgentSkillsOptions(
            roots=clarvis_skill_roots(workspace=str(tree.ws)),
            workspace=str(tree.ws),
            home=str(tree.home),
            strict=strict,
        )
    )


def frontmatter(name: str, description: str = "d") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nbody\n"


def same_result(left: SkillRegistry, right: SkillRegistry) -> None:
    """Two registries agree on everything a caller can observe."""
    assert left.names() == right.names()
    for name in left.names():
        assert [s.path for s in left.copies(name)] == [s.path for s in right.copies(name)]
    assert [(w.kind, w.path, w.other) for w in left.warnings] == [(w.kind, w.path, w.other) for w in right.warnings]
    assert [s.path for s in left.skipped] == [s.path for s in right.skipped]
    assert [s.path for s in left.all_skills()] == [s.path for s in right.all_skills()]


# --- overlay --------------------------------------------------------------------------------------------------


def test_overlay_replaces_disk_content(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "s", description="on disk")
    registry = discover_skills(clarvis_config(discovery_tree), overlay={path: frontmatter("s", "in buffer")})
    skill = registry.winner("s")
    assert skill is not None and skill.description == "in buffer"
    assert skill.document.text == frontmatter("s", "in buffer")


def test_renaming_a_skill_in_the_overlay_changes_the_shadowing(discovery_tree: Any) -> None:
    low = discovery_tree.skill(discovery_tree.ws_agents, "s")
    high = discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    config = clarvis_config(discovery_tree)
    before = discover_skills(config)
    assert [s.path for s in before.shadowed("s")] == [low]

    after = discover_skills(config, overlay={high: frontmatter("renamed")})
    assert after.shadowed("s") == []
    winner = after.winner("s")
    assert winner is not None and winner.path == low
    assert after.winner("renamed") is not None


def test_overlay_can_make_a_skill_malformed_and_back(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    config = clarvis_config(discovery_tree)
    broken = discover_skills(config, overlay={path: "---\nname: s\n"})
    assert broken.names() == [] and [w.kind for w in broken.warnings] == ["malformed"]
    assert discover_skills(config, overlay={}).names() == ["s"]


def test_overlay_for_a_skill_md_not_yet_on_disk(discovery_tree: Any) -> None:
    directory = discovery_tree.ws_clarvis / "new"
    directory.mkdir(parents=True)
    registry = discover_skills(clarvis_config(discovery_tree), overlay={directory / "SKILL.md": frontmatter("new")})
    assert registry.names() == ["new"]


def test_overlay_keys_are_normalised(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    spelled = Path(str(path.parent) + "/./../" + path.parent.name + "/SKILL.md")
    registry = discover_skills(clarvis_config(discovery_tree), overlay={spelled: frontmatter("other")})
    assert registry.names() == ["other"]


def test_overlay_does_not_resurrect_an_ignored_symlink(discovery_tree: Any) -> None:
    real = discovery_tree.file(discovery_tree.base / "real.md", frontmatter("linked"))
    directory = discovery_tree.ws_clarvis / "linked"
    directory.mkdir(parents=True)
    (directory / "SKILL.md").symlink_to(real)
    config = dataclasses.replace(clarvis_config(discovery_tree), follow_symlinks=False)
    registry = discover_skills(config, overlay={directory / "SKILL.md": frontmatter("linked")})
    assert registry.names() == [] and [w.kind for w in registry.warnings] == ["symlink-ignored"]


# --- incremental building blocks ------------------------------------------------------------------------------


def test_registry_from_scans_equals_discover(discovery_tree: Any) -> None:
    discovery_tree.skill(discovery_tree.ws_agents, "s")
    discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    discovery_tree.skill(discovery_tree.user_clarvis, "t")
    config = clarvis_config(discovery_tree)
    scans = [scan_root(root, index, config) for index, root in enumerate(config.roots)]
    same_result(SkillRegistry.from_scans(config, scans), discover_skills(config))


def test_from_scans_needs_one_scan_per_root(discovery_tree: Any) -> None:
    config = clarvis_config(discovery_tree)
    with pytest.raises(ValueError):
        SkillRegistry.from_scans(config, [])


def test_refresh_reads_only_the_changed_skill_directory(discovery_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(20):
        discovery_tree.skill(discovery_tree.ws_clarvis, f"skill-{index:02d}")
    edited = discovery_tree.skill(discovery_tree.ws_agents, "skill-05")
    config = clarvis_config(discovery_tree)
    registry = discover_skills(config)
    assert [s.path for s in registry.shadowed("skill-05")] == [edited]

    reads: list[str] = []
    real_read = scan_module.read_skill_dir

    def counting(*args: Any, **kwargs: Any) -> Any:
        reads.append(args[4])
        return real_read(*args, **kwargs)

    monkeypatch.setattr(scan_module, "read_skill_dir", counting)
    monkeypatch.setattr(registry_module, "scan_root", lambda *a, **k: pytest.fail("full rescan"))
    updated = registry.refresh([edited], overlay={edited: frontmatter("brand-new")})
    assert reads == [str(edited.parent)]
    assert updated.shadowed("skill-05") == []
    assert updated.winner("brand-new") is not None
    # The old registry is untouched (immutable), so a reader holding it sees a consistent snapshot.
    assert [s.path for s in registry.shadowed("skill-05")] == [edited]


def test_refresh_matches_a_full_rescan_for_every_kind_of_change(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.skill(discovery_tree.ws_agents, "a")
    discovery_tree.skill(root, "a")
    discovery_tree.skill(root, "b")
    discovery_tree.skill(root, "c", name="b")  # within-root duplicate of b
    config = clarvis_config(discovery_tree)
    registry = discover_skills(config)

    # Edit: "b" renamed to "a" on disk -> c becomes the kept "b", and "a" in the root is now a duplicate.
    (root / "b" / "SKILL.md").write_text(frontmatter("a"))
    registry = registry.refresh([root / "b" / "SKILL.md"])
    same_result(registry, discover_skills(config))

    # Create a new skill directory.
    created = discovery_tree.skill(root, "0-first", name="b")
    registry = registry.refresh([created.parent])
    same_result(registry, discover_skills(config))

    # Delete a skill directory.
    (root / "c" / "SKILL.md").unlink()
    (root / "c").rmdir()
    registry = registry.refresh([root / "c"])
    same_result(registry, discover_skills(config))

    # A resource change re-reads the skill it belongs to.
    discovery_tree.file(root / "a" / "scripts" / "run.sh")
    registry = registry.refresh([root / "a" / "scripts" / "run.sh"])
    same_result(registry, discover_skills(config))
    assert [p.name for p in registry.by_path(root / "a" / "SKILL.md").resources] == ["run.sh"]  # type: ignore[union-attr]

    # A whole root appearing (its parent changed) is rescanned.
    discovery_tree.skill(discovery_tree.user_agents, "z")
    registry = registry.refresh([discovery_tree.home / ".agents"])
    same_result(registry, discover_skills(config))

    # The workspace directory itself: every workspace root is rescanned.
    discovery_tree.skill(discovery_tree.ws_agents, "y")
    registry = registry.refresh([discovery_tree.ws])
    same_result(registry, discover_skills(config))


def test_refresh_of_an_unrelated_path_returns_the_same_registry(discovery_tree: Any) -> None:
    discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    registry = discover_skills(clarvis_config(discovery_tree))
    assert registry.refresh([discovery_tree.ws / "src" / "main.py"]) is registry
    assert registry.refresh([]) is registry


def test_refresh_with_a_closed_buffer_falls_back_to_disk(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    config = clarvis_config(discovery_tree)
    registry = discover_skills(config, overlay={path: frontmatter("typed")})
    assert registry.names() == ["typed"]
    assert registry.refresh([path], overlay={}).names() == ["s"]


def test_replace_skill_dir_in_strict_mode_raises_like_a_scan(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.skill(root, "a")
    path = discovery_tree.skill(root, "b")
    config = clarvis_config(discovery_tree, strict=True)
    scan = scan_root(config.roots[3], 3, config)
    with pytest.raises(SkillError) as duplicate:
        scan.replace_skill_dir("b", config, {path: frontmatter("a")})
    assert duplicate.value.kind == "duplicate" and duplicate.value.path == path
    with pytest.raises(SkillError) as malformed:
        scan.replace_skill_dir("b", config, {path: "nothing"})
    assert malformed.value.kind == "malformed"


def test_replace_skill_dir_of_a_directory_sorting_first_takes_over_the_name(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    kept = discovery_tree.skill(root, "m", name="dup")
    config = clarvis_config(discovery_tree)
    scan = scan_root(config.roots[3], 3, config)
    new = discovery_tree.skill(root, "a", name="dup")
    updated = scan.replace_skill_dir("a", config)
    assert updated.skills["dup"].path == new
    assert [(w.kind, w.path, w.other) for w in updated.warnings] == [("duplicate", kept, new)]
    assert scan.skills["dup"].path == kept  # the original scan is unchanged


def test_with_scan_replaces_one_root(discovery_tree: Any) -> None:
    discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    config = clarvis_config(discovery_tree)
    registry = discover_skills(config)
    discovery_tree.skill(discovery_tree.ws_agents, "s")
    updated = registry.with_scan(1, scan_root(config.roots[1], 1, config))
    assert len(updated.shadowed("s")) == 1 and registry.shadowed("s") == []
    assert updated.scans[3] is registry.scans[3]


def test_agent_skills_refresh_and_rediscover(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    skills = create_agent_skills(
        AgentSkillsOptions(
            roots=clarvis_skill_roots(workspace=str(discovery_tree.ws)),
            workspace=str(discovery_tree.ws),
            home=str(discovery_tree.home),
        )
    )
    skills.refresh([path], overlay={path: frontmatter("t")})
    assert skills.names() == ["t"] and skills.registry.names() == ["t"]
    os.unlink(path)
    skills.rediscover()
    assert skills.names() == [] and skills.skills() == []
