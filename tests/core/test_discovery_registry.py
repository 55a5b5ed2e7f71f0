"""Discovery and precedence: what a skill is, which copy wins, what is skipped and why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    SkillConfig,
    SkillError,
    SkillRegistry,
    SkillRootInput,
    clarvis_skill_roots,
    create_agent_skills,
    discover_skills,
    resolve_config,
)
from clarvis_lsp.documents.skill import SkillDocument


def config_for(tree: Any, *roots: Path | SkillRootInput, strict: bool = False, follow: bool = True) -> SkillConfig:
    inputs = [root if isinstance(root, SkillRootInput) else SkillRootInput(str(root)) for root in roots]
    return resolve_config(
        AgentSkillsOptions(
            roots=inputs, workspace=str(tree.ws), home=str(tree.home), strict=strict, follow_symlinks=follow
        )
    )


def discover(tree: Any, *roots: Path | SkillRootInput, strict: bool = False, follow: bool = True) -> SkillRegistry:
    return discover_skills(config_for(tree, *roots, strict=strict, follow=follow))


def clarvis(tree: Any, strict: bool = False) -> SkillRegistry:
    return create_agent_skills(
        AgentSkillsOptions(
            roots=clarvis_skill_roots(workspace=str(tree.ws)),
            workspace=str(tree.ws),
            home=str(tree.home),
            strict=strict,
        )
    ).registry


# --- what a skill is ------------------------------------------------------------------------------------------


def test_a_skill_is_root_dir_skill_md_one_level_deep(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.skill(root, "top")
    discovery_tree.skill(root / "group", "nested")  # <root>/group/nested/SKILL.md: too deep
    discovery_tree.file(root / "SKILL.md", "---\nname: at-root\ndescription: d\n---\n")  # not in a directory
    discovery_tree.file(root / "notes" / "README.md", "hello")  # a directory without SKILL.md
    registry = discover(discovery_tree, root)
    assert registry.names() == ["top"]
    assert registry.warnings == ()


def test_identity_is_the_frontmatter_name_not_the_directory(discovery_tree: Any) -> None:
    discovery_tree.skill(discovery_tree.ws_clarvis, "dir-name", name="real-name")
    registry = discover(discovery_tree, discovery_tree.ws_clarvis)
    assert registry.names() == ["real-name"]
    assert registry.winner("dir-name") is None
    skill = registry.winner("real-name")
    assert skill is not None and skill.directory.name == "dir-name"


def test_skill_info_fields(discovery_tree: Any) -> None:
    path = discovery_tree.skill(
        discovery_tree.ws_clarvis, "review", description="Reviews code.", extra=["version: '1.0'", "license: MIT"]
    )
    registry = clarvis(discovery_tree)
    skill = registry.winner("review")
    assert skill is not None
    assert skill.name == "review"
    assert skill.description == "Reviews code."
    assert skill.path == path and skill.path.is_absolute()
    assert skill.directory == path.parent
    assert skill.root == registry.config.roots[3]
    assert skill.root_index == 3
    assert (skill.scope, skill.source) == ("workspace", "clarvis")
    assert skill.frontmatter == {"name": "review", "description": "Reviews code.", "version": "1.0", "license": "MIT"}
    assert isinstance(skill.document, SkillDocument) and skill.document.name == "review"
    assert skill.resources == ()


def test_resources_are_listed_from_the_conventional_directories_only(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "tool")
    directory = path.parent
    for relative in [
        "scripts/run.sh",
        "scripts/lib/util.py",
        "references/api.md",
        "assets/logo.png",
        "examples/one.md",
        "agents/openai.yaml",  # presentation metadata: never a resource
        "other/file.txt",  # not a conventional directory
        "README.md",
    ]:
        discovery_tree.file(directory / relative, "x")
    discovery_tree.file(directory / "scripts" / "..hidden", "x")
    skill = discover(discovery_tree, discovery_tree.ws_clarvis).winner("tool")
    assert skill is not None
    assert [p.relative_to(directory).as_posix() for p in skill.resources] == [
        "assets/logo.png",
        "examples/one.md",
        "references/api.md",
        "scripts/..hidden",
        "scripts/lib/util.py",
        "scripts/run.sh",
    ]


def test_a_resource_name_that_is_a_file_is_not_a_resource_directory(discovery_tree: Any) -> None:
    path = discovery_tree.skill(discovery_tree.ws_clarvis, "tool")
    discovery_tree.file(path.parent / "scripts", "not a directory")
    skill = discover(discovery_tree, discovery_tree.ws_clarvis).winner("tool")
    assert skill is not None and skill.resources == ()


# --- roots that contribute nothing ----------------------------------------------------------------------------


def test_missing_root_is_never_an_error(discovery_tree: Any) -> None:
    registry = discover(discovery_tree, discovery_tree.base / "nope", strict=True)
    assert registry.skills() == [] and registry.warnings == ()


def test_empty_root_contributes_nothing(discovery_tree: Any) -> None:
    discovery_tree.ws_clarvis.mkdir(parents=True)
    registry = discover(discovery_tree, discovery_tree.ws_clarvis, strict=True)
    assert registry.skills() == [] and registry.warnings == ()


def test_root_that_is_a_file_contributes_nothing(discovery_tree: Any) -> None:
    file = discovery_tree.file(discovery_tree.base / "root-file", "x")
    discovery_tree.skill(discovery_tree.ws_clarvis, "kept")
    registry = discover(discovery_tree, file, discovery_tree.ws_clarvis, strict=True)
    assert registry.names() == ["kept"] and registry.warnings == ()


def test_missing_roots_keep_their_index(discovery_tree: Any) -> None:
    discovery_tree.skill(discovery_tree.ws_clarvis, "only")
    registry = clarvis(discovery_tree)
    skill = registry.winner("only")
    assert skill is not None and skill.root_index == 3
    assert len(registry.scans) == 4


# --- precedence across roots ----------------------------------------------------------------------------------


def test_last_root_wins(discovery_tree: Any) -> None:
    a, b, c = (discovery_tree.base / name for name in ("a", "b", "c"))
    for index, root in enumerate((a, b, c)):
        discovery_tree.skill(root, "s", description=f"from {index}")
    registry = discover(discovery_tree, a, b, c)
    winner = registry.winner("s")
    assert winner is not None and winner.description == "from 2"
    assert discover(discovery_tree, c, b, a).winner("s").description == "from 0"  # type: ignore[union-attr]


def test_winner_shadowed_and_copies_order(discovery_tree: Any) -> None:
    roots = [discovery_tree.base / f"r{i}" for i in range(4)]
    for index in (0, 2, 3):
        discovery_tree.skill(roots[index], "s", description=f"r{index}")
    registry = discover(discovery_tree, *roots)
    assert [s.root_index for s in registry.copies("s")] == [3, 2, 0]
    assert [s.root_index for s in registry.shadowed("s")] == [2, 0]  # highest precedence first
    assert registry.winner("s") is registry.copies("s")[0]
    assert registry.shadowed("missing") == [] and registry.copies("missing") == []
    assert registry.winner("missing") is None


def test_shadowed_copies_are_kept_in_all_skills_not_in_skills(discovery_tree: Any) -> None:
    a, b = discovery_tree.base / "a", discovery_tree.base / "b"
    discovery_tree.skill(a, "s")
    discovery_tree.skill(a, "only-a")
    discovery_tree.skill(b, "s")
    registry = discover(discovery_tree, a, b)
    assert [(s.name, s.root_index) for s in registry.skills()] == [("only-a", 0), ("s", 1)]
    assert [(s.name, s.root_index) for s in registry.all_skills()] == [("only-a", 0), ("s", 0), ("s", 1)]
    assert registry.names() == ["only-a", "s"]
    assert "s" in registry and "nope" not in registry and len(registry) == 2


def test_scope_and_source_are_labels_only(discovery_tree: Any) -> None:
    # A "user" root listed after a "workspace" root still wins: only the order counts.
    first = SkillRootInput(str(discovery_tree.ws_clarvis), "workspace", "clarvis")
    second = SkillRootInput(str(discovery_tree.user_agents), "user", "agents")
    discovery_tree.skill(discovery_tree.ws_clarvis, "s", description="workspace")
    discovery_tree.skill(discovery_tree.user_agents, "s", description="user")
    registry = discover(discovery_tree, first, second)
    winner = registry.winner("s")
    assert winner is not None and winner.description == "user"
    assert (winner.scope, winner.source) == ("user", "agents")
    loser = registry.shadowed("s")[0]
    assert (loser.scope, loser.source) == ("workspace", "clarvis")


def test_cross_root_override_is_never_an_error_even_in_strict(discovery_tree: Any) -> None:
    for root in (discovery_tree.user_agents, discovery_tree.ws_agents, discovery_tree.user_clarvis):
        discovery_tree.skill(root, "s")
    registry = clarvis(discovery_tree, strict=True)
    assert registry.warnings == () and registry.skipped == ()
    assert len(registry.shadowed("s")) == 2


def test_by_path_finds_winning_and_shadowed_copies(discovery_tree: Any) -> None:
    low = discovery_tree.skill(discovery_tree.ws_agents, "s")
    high = discovery_tree.skill(discovery_tree.ws_clarvis, "s")
    registry = clarvis(discovery_tree)
    assert registry.by_path(high) is registry.winner("s")
    assert registry.by_path(low) is registry.shadowed("s")[0]
    assert registry.by_path(str(low)) is registry.shadowed("s")[0]
    assert registry.by_path(discovery_tree.ws / "nope" / "SKILL.md") is None


# --- within-root duplicates -----------------------------------------------------------------------------------


def test_within_root_duplicate_keeps_first_in_sorted_order_with_a_warning(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    b = discovery_tree.skill(root, "b-dir", name="dup", description="b")
    a = discovery_tree.skill(root, "a-dir", name="dup", description="a")
    c = discovery_tree.skill(root, "c-dir", name="dup", description="c")
    registry = discover(discovery_tree, root)
    winner = registry.winner("dup")
    assert winner is not None and winner.path == a
    assert registry.shadowed("dup") == []  # within-root losers are skipped, not shadowed
    assert [w.kind for w in registry.warnings] == ["duplicate", "duplicate"]
    assert [(w.path, w.other, w.root_index, w.name) for w in registry.warnings] == [
        (b, a, 0, "dup"),
        (c, a, 0, "dup"),
    ]
    assert "dup" in registry.warnings[0].message
    assert [(s.path, s.warning.kind) for s in registry.skipped] == [(b, "duplicate"), (c, "duplicate")]
    skipped = registry.skipped[0]
    assert skipped.skill is not None and skipped.skill.description == "b"
    assert registry.skipped_by_path(b) is skipped
    assert registry.by_path(b) is None
    assert [s.path for s in registry.all_skills()] == [a]


def test_sorted_order_is_by_code_point(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.skill(root, "a", name="dup")
    discovery_tree.skill(root, "B", name="dup")  # "B" < "a"
    winner = discover(discovery_tree, root).winner("dup")
    assert winner is not None and winner.directory.name == "B"


def test_within_root_duplicate_raises_skill_error_in_strict(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.skill(root, "a", name="dup")
    second = discovery_tree.skill(root, "b", name="dup")
    with pytest.raises(SkillError) as caught:
        discover(discovery_tree, root, strict=True)
    assert caught.value.kind == "duplicate"
    assert caught.value.path == second
    assert "dup" in str(caught.value)


def test_duplicates_in_two_roots_are_resolved_per_root(discovery_tree: Any) -> None:
    low, high = discovery_tree.ws_agents, discovery_tree.ws_clarvis
    discovery_tree.skill(low, "a", name="dup", description="low a")
    discovery_tree.skill(low, "b", name="dup", description="low b")
    discovery_tree.skill(high, "z", name="dup", description="high z")
    registry = discover(discovery_tree, low, high)
    assert [s.description for s in registry.copies("dup")] == ["high z", "low a"]
    assert [w.kind for w in registry.warnings] == ["duplicate"]


# --- malformed skills -----------------------------------------------------------------------------------------


MALFORMED = {
    "no-frontmatter": "# Just markdown\n",
    "unclosed": "---\nname: x\ndescription: y\n",
    "invalid-yaml": "---\nname: [unclosed\ndescription: y\n---\n",
    "not-a-mapping": "---\n- a\n- b\n---\n",
    "no-name": "---\ndescription: y\n---\n",
    "empty-name": "---\nname: ''\ndescription: y\n---\n",
    "non-string-name": "---\nname: 42\ndescription: y\n---\n",
    "no-description": "---\nname: x\n---\n",
    "blank-description": "---\nname: x\ndescription: '   '\n---\n",
    "empty-file": "",
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_skill_is_skipped_with_a_warning(discovery_tree: Any, case: str) -> None:
    root = discovery_tree.ws_clarvis
    path = discovery_tree.raw_skill(root, case, MALFORMED[case])
    discovery_tree.skill(root, "good")
    registry = discover(discovery_tree, root)
    assert registry.names() == ["good"]
    assert [(w.kind, w.path, w.root_index) for w in registry.warnings] == [("malformed", path, 0)]
    assert len(registry.skipped) == 1
    skipped = registry.skipped[0]
    assert skipped.path == path and skipped.skill is None
    assert skipped.document is not None and skipped.document.path == path
    assert registry.by_path(path) is None and registry.skipped_by_path(path) is skipped


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_skill_raises_skill_error_in_strict(discovery_tree: Any, case: str) -> None:
    path = discovery_tree.raw_skill(discovery_tree.ws_clarvis, case, MALFORMED[case])
    with pytest.raises(SkillError) as caught:
        discover(discovery_tree, discovery_tree.ws_clarvis, strict=True)
    assert caught.value.kind == "malformed" and caught.value.path == path


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("no-frontmatter", "no frontmatter"),
        ("unclosed", "never closed"),
        ("invalid-yaml", "not valid YAML"),
        ("not-a-mapping", "not a YAML mapping"),
        ("no-name", "no name"),
        ("no-description", "no description"),
    ],
)
def test_malformed_warning_says_why(discovery_tree: Any, case: str, words: str) -> None:
    discovery_tree.raw_skill(discovery_tree.ws_clarvis, case, MALFORMED[case])
    (warning,) = discover(discovery_tree, discovery_tree.ws_clarvis).warnings
    assert words in warning.message


def test_malformed_copy_does_not_take_part_in_duplicates(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.raw_skill(root, "a", "---\nname: dup\n---\n")  # no description: malformed
    good = discovery_tree.skill(root, "b", name="dup")
    registry = discover(discovery_tree, root, strict=False)
    assert registry.winner("dup") is not None and registry.winner("dup").path == good  # type: ignore[union-attr]
    assert [w.kind for w in registry.warnings] == ["malformed"]


def test_strict_raises_the_first_problem_in_scan_order(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    discovery_tree.skill(root, "a", name="dup")
    discovery_tree.skill(root, "b", name="dup")
    discovery_tree.raw_skill(root, "c", "no frontmatter")
    with pytest.raises(SkillError) as caught:
        discover(discovery_tree, root, strict=True)
    assert caught.value.kind == "duplicate"


def test_warnings_are_in_scan_order_across_roots(discovery_tree: Any) -> None:
    low, high = discovery_tree.ws_agents, discovery_tree.ws_clarvis
    discovery_tree.raw_skill(high, "a", "bad")
    discovery_tree.raw_skill(low, "z", "bad")
    discovery_tree.raw_skill(low, "b", "bad")
    registry = discover(discovery_tree, low, high)
    assert [(w.root_index, w.path.parent.name) for w in registry.warnings] == [(0, "b"), (0, "z"), (1, "a")]
