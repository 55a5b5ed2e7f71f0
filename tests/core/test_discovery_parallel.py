"""A skill root read in several processes gives the registry one process gives (issue: speed).

A headless run's ``SpreadScan`` strategy reads a share of the skill directories in each forked child; a child sends each
directory back in a compact form and the parent rebuilds the records, the documents parsed again only if asked
for. Checked here on a root with everything discovery reports (within-root duplicates, malformed and unreadable
SKILL.md files, symlinked directories, resources with a cycle): the same names, winners, paths, skipped copies,
warnings, resources and parsed documents, and what a ``DirectoryVisit`` computed that arrives from the
children; and the same registry when plainly simple frontmatter is read without a parse.
"""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from registry_shape import registry_shape

from clarvis_lsp.batch import processes as parallel
from clarvis_lsp.batch.spread import SpreadScan
from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    SkillConfig,
    SkillRootInput,
    discover_skills,
    resolve_config,
)
from clarvis_lsp.discovery.io import OS_READER
from clarvis_lsp.discovery.portable import portable
from clarvis_lsp.discovery.scan import read_again
from clarvis_lsp.discovery.skills import DirScan
from clarvis_lsp.documents import skill_identity
from clarvis_lsp.documents.skill import UnparsedSkill
from clarvis_lsp.documents.text import decode

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="a root is read in several processes only with fork")


def _root(tree: Any, follow: bool = True) -> tuple[Path, SkillConfig]:
    root = tree.ws_clarvis
    for index in range(30):
        tree.skill(root, f"skill-{index:02d}", name=f"name-{index % 12:02d}")  # within-root duplicates
    tree.raw_skill(root, "no-frontmatter", "just text\n")
    tree.raw_skill(root, "bad-yaml", "---\nname: [\n---\n")
    tree.raw_skill(root, "latin-1", b"---\nname: caf\xe9\ndescription: d\n---\n")
    with_resources = tree.skill(root, "with-resources", name="with-resources").parent
    (with_resources / "references").mkdir()
    (with_resources / "references" / "guide.md").write_text("# Guide\n")
    (with_resources / "scripts").mkdir()
    (with_resources / "scripts" / "loop").symlink_to(with_resources, target_is_directory=True)
    (with_resources / "scripts" / "dangling").symlink_to(tree.base / "missing")
    target = tree.skill(tree.base / "elsewhere", "linked", name="linked").parent
    (root / "linked").symlink_to(target, target_is_directory=True)
    unreadable = tree.skill(root, "unreadable", name="unreadable")
    unreadable.chmod(0)
    config = resolve_config(
        AgentSkillsOptions(
            roots=[SkillRootInput(str(root))], workspace=str(tree.ws), home=str(tree.home), follow_symlinks=follow
        )
    )
    return root, config


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
@pytest.mark.parametrize("follow", [True, False])
def test_a_root_read_in_several_processes_gives_the_same_registry(discovery_tree: Any, follow: bool) -> None:
    _root_path, config = _root(discovery_tree, follow)
    alone = discover_skills(config)
    assert alone.warnings and alone.skipped  # the root really has problems to report
    for jobs in (2, 3):
        spread = discover_skills(config, strategy=SpreadScan(OS_READER, jobs, {}))
        assert registry_shape(spread) == registry_shape(alone)


def test_the_same_registry_when_the_files_can_be_read(discovery_tree: Any) -> None:
    """As above for a user who can read every file (the test above needs a file that cannot be read)."""
    root, config = _root(discovery_tree)
    (root / "unreadable" / "SKILL.md").chmod(0o644)
    alone = discover_skills(config)
    spread = discover_skills(config, strategy=SpreadScan(OS_READER, 2, {}))
    assert registry_shape(spread) == registry_shape(alone)


def test_copies_read_in_a_child_arrive_as_text_and_parse_on_first_use(discovery_tree: Any) -> None:
    _root_path, config = _root(discovery_tree)
    spread = discover_skills(config, strategy=SpreadScan(OS_READER, 2, {}))
    arrived = [skill for skill in spread.all_skills() if isinstance(skill.parsed, UnparsedSkill)]
    assert arrived, "the second share, read in a child, comes back as text"
    skill = arrived[0]
    document = skill.document
    assert document.name == skill.name
    assert skill.parsed is document  # parsed once, then kept


def _parent_waits_once(parent: int, computed: dict[str, Any]) -> None:
    """The parent waits at its first directory before it reads a share of its own, so the child claims some on a
    loaded machine too."""
    if os.getpid() == parent and not computed:
        time.sleep(0.5)


def test_a_copy_a_child_checked_comes_back_without_its_text_and_reads_it_when_asked(discovery_tree: Any) -> None:
    _root_path, config = _root(discovery_tree)

    parent = os.getpid()

    class Checked:  # a visit that computed something for every SKILL.md, as a --check's check-ahead does
        def reads_document(self, skill_md: str) -> bool:
            return True

        def __call__(self, scan: DirScan) -> None:
            _parent_waits_once(parent, computed)
            if scan.skill is not None:
                computed[str(scan.skill.path)] = scan.skill.name

    computed: dict[str, str] = {}
    spread = SpreadScan(OS_READER, 2, computed)
    registry = discover_skills(config, strategy=spread, visit=Checked())
    waiting = [
        skill
        for skill in registry.all_skills()
        if isinstance(skill.parsed, UnparsedSkill) and callable(skill.parsed.content)
    ]
    assert waiting, "the share a child read and checked comes back without its text"
    first, second = waiting[0], waiting[-1]
    assert first.document.text == decode(first.path.read_bytes()).text
    assert first.document.name == first.name
    second.path.unlink()  # gone before anything asked: read as empty text, no exception
    assert second.document.text == ""


def test_what_a_visit_computed_comes_back_from_every_process(discovery_tree: Any) -> None:
    _root_path, config = _root(discovery_tree)
    parent = os.getpid()

    computed: dict[str, tuple[bool, str]] = {}

    class WhereAndWhat:
        def reads_document(self, skill_md: str) -> bool:
            return True

        def __call__(self, scan: DirScan) -> None:
            _parent_waits_once(parent, computed)
            if scan.skill is not None:
                computed[str(scan.skill.path)] = (os.getpid() == parent, scan.skill.document.entries[0].key)

    spread = SpreadScan(OS_READER, 2, computed)
    registry = discover_skills(config, strategy=spread, visit=WhereAndWhat())
    loaded = {str(skill.path) for skill in registry.all_skills()}
    duplicates = {str(item.path) for item in registry.skipped if item.skill is not None}
    assert set(computed) == loaded | duplicates
    assert False in {in_parent for in_parent, _key in computed.values()}  # computed in the child, sent back
    assert {key for _in_parent, key in computed.values()} == {"name"}


def test_a_strict_scan_reads_in_one_process_and_stops_at_the_first_problem(discovery_tree: Any) -> None:
    root = discovery_tree.ws_clarvis
    for index in range(10):
        discovery_tree.skill(root, f"skill-{index}", name="same" if index in (3, 7) else f"n{index}")
    config = resolve_config(
        AgentSkillsOptions(roots=[SkillRootInput(str(root))], workspace=str(discovery_tree.ws), strict=True)
    )
    with pytest.raises(Exception) as one:
        discover_skills(config)
    with pytest.raises(Exception) as several:
        discover_skills(config, strategy=SpreadScan(OS_READER, 3, {}))
    assert str(several.value) == str(one.value)
    assert "skill-3" in str(one.value) and "skill-7" in str(one.value)


def test_a_caller_that_stops_leaves_no_child_behind() -> None:
    """An editor's first scan stops when the settings change under it: the children are killed and reaped."""

    def work(items: Sequence[int]) -> dict[int, int]:
        time.sleep(0.05)  # the children are still busy when the parent stops
        return {item: item for item in items}

    parent = os.getpid()

    def stopping(items: Sequence[int]) -> dict[int, int]:  # the parent stops at its first share
        if os.getpid() == parent:
            raise KeyboardInterrupt
        return work(items)

    with pytest.raises(KeyboardInterrupt):
        parallel.map_in_processes(stopping, list(range(10_000)), 3)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child of this process is left, running or unreaped


def test_a_registry_read_without_parsing_simple_frontmatter_is_the_same(
    discovery_tree: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discovery reads a plainly simple SKILL.md's name and description without a parse (``simple_identity``) and
    parses its document on first use: the registry is the one a parse of every file gives."""
    root, config = _root(discovery_tree)
    (root / "unreadable" / "SKILL.md").chmod(0o644)
    fast = discover_skills(config)
    assert any(isinstance(skill.parsed, UnparsedSkill) for skill in fast.all_skills())
    monkeypatch.setattr(skill_identity, "SIMPLE_IDENTITY", False)
    parsed = discover_skills(config)
    assert registry_shape(fast, name_at=False) == registry_shape(parsed, name_at=False)


def test_a_checked_copy_with_a_warning_travels_as_its_text(discovery_tree: Any) -> None:
    """A directory with a warning travels whole (``portable``); when the check-ahead has left its record a way to
    read the text again (a function, which does not pickle), the text travels instead."""
    _root_path, config = _root(discovery_tree)
    registry = discover_skills(config)
    [scan] = [
        scan
        for root_scan in registry.scans
        for name in root_scan.dir_names
        if (scan := root_scan.dir_scan(name)) is not None and scan.warnings and scan.skill is not None
    ]
    assert scan.skill is not None
    path = scan.skill.path
    checked = DirScan(
        scan.dir_name,
        replace(scan.skill, parsed=UnparsedSkill(path, read_again(OS_READER, str(path), True))),
        scan.malformed,
        scan.warnings,
    )
    received = pickle.loads(pickle.dumps(portable(checked)))
    assert received.skill is not None and received.skill.document.text == decode(path.read_bytes()).text
    assert received.warnings == scan.warnings
