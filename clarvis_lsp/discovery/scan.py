"""Scanning one skill root, and re-reading one skill directory of it without rescanning the rest.

A root is scanned into a ``RootScan``: one ``DirScan`` per directory that produced something (a skill, a
malformed SKILL.md, a warning), plus the within-root duplicate resolution (the first directory in sorted order
keeps the name). ``RootScan`` is immutable; ``RootScan.replace_skill_dir`` re-reads a single ``<root>/<dir>`` and
returns a new ``RootScan`` sharing everything else, which is what the language server does on a keystroke or a
file-watcher event: the cost is that one directory plus a few dictionary copies, never a walk of the workspace.

Robustness rules (SPEC §9): nothing here raises for anything found on disk. Permission errors, files that vanish
between listing and reading, broken symlinks and invalid UTF-8 become warnings or malformed skills. With
``follow_symlinks`` false no symlink is ever followed or read: entries are classified from ``os.scandir`` data
(``lstat`` semantics) and SKILL.md is opened with ``O_NOFOLLOW``. With it true, resource directories are walked
with a set of visited ``(st_dev, st_ino)`` pairs, so a symlink cycle is seen once and never looped through.
Only ``strict`` raises, and only ``SkillError``, for exactly the two cases the seed names.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from clarvis_lsp.discovery.errors import SkillError
from clarvis_lsp.discovery.fs import is_within, reason
from clarvis_lsp.discovery.io import (
    OS_READER,
    SEQUENTIAL,
    DirectoryReader,
    DirectoryVisit,
    DirectoryWork,
    ScanStrategy,
)
from clarvis_lsp.discovery.layered import LayeredMap
from clarvis_lsp.discovery.resources import collect_resources
from clarvis_lsp.discovery.skill_config import SkillConfig, SkillRoot
from clarvis_lsp.discovery.skills import RESOURCE_DIRS, DirScan, DiscoveryWarning, SkillInfo, SkippedSkill, WarningKind
from clarvis_lsp.documents.skill import SkillDocument, UnparsedSkill, parse_skill
from clarvis_lsp.documents.skill_identity import NamePlace, simple_identity_at
from clarvis_lsp.documents.text import decode, strip_bom
from clarvis_lsp.knowledge.layout import SKILL_FILE

_RESOURCE_NAMES = frozenset(RESOURCE_DIRS)


def normalise_overlay(overlay: Mapping[Path, str] | Mapping[str, str] | None) -> dict[str, str]:
    """Key the overlay by normalised absolute path strings, the spelling the scanner builds its paths in."""
    if not overlay:
        return {}
    return {os.path.normpath(os.path.abspath(os.fspath(path))): text for path, text in overlay.items()}


class RootScan:
    """The immutable result of scanning one root: its directories, and which copy of each name it keeps.

    ``skills`` maps each name to the copy this root contributes (the first directory in sorted order that
    declares it). ``skipped`` and ``warnings`` are derived on first use. Build one with ``scan_root``; update one
    with ``replace_skill_dir`` (one directory re-read) instead of rescanning the root.
    """

    __slots__ = ("_by_name", "_dirs", "_kept", "_order", "_skipped", "_warnings", "root", "root_index", "root_warnings")

    def __init__(
        self,
        root: SkillRoot,
        root_index: int,
        dirs: Mapping[str, DirScan] | None = None,
        root_warnings: Iterable[DiscoveryWarning] = (),
    ) -> None:
        dirs = dict(dirs or {})
        order = sorted(dirs)
        by_name: dict[str, list[str]] = {}
        for dir_name in order:
            skill = dirs[dir_name].skill
            if skill is not None:
                by_name.setdefault(skill.name, []).append(dir_name)
        kept = {name: _skill_of(dirs[dir_names[0]]) for name, dir_names in by_name.items()}
        self._init(
            root, root_index, LayeredMap(dirs), order, LayeredMap(by_name), LayeredMap(kept), tuple(root_warnings)
        )

    def _init(
        self,
        root: SkillRoot,
        root_index: int,
        dirs: LayeredMap[str, DirScan],
        order: list[str],
        by_name: LayeredMap[str, list[str]],
        kept: LayeredMap[str, SkillInfo],
        root_warnings: tuple[DiscoveryWarning, ...],
    ) -> None:
        self.root = root
        self.root_index = root_index
        self.root_warnings = root_warnings
        self._dirs = dirs
        self._order = order
        self._by_name = by_name
        self._kept = kept
        self._skipped: tuple[SkippedSkill, ...] | None = None
        self._warnings: tuple[DiscoveryWarning, ...] | None = None

    @property
    def skills(self) -> Mapping[str, SkillInfo]:
        """Name → the copy this root contributes (within-root duplicates already resolved)."""
        return self._kept.view()

    @property
    def dir_names(self) -> tuple[str, ...]:
        """Directories that produced something, in sorted (scan) order."""
        return tuple(self._order)

    def dir_scan(self, dir_name: str) -> DirScan | None:
        return self._dirs.get(dir_name)

    def loaded(self) -> list[SkillInfo]:
        """Every copy this root contributes, in directory order."""
        result = []
        for dir_name in self._order:
            skill = self._dirs[dir_name].skill
            if skill is not None and self._kept.get(skill.name) is skill:
                result.append(skill)
        return result

    def declaring(self, name: str) -> tuple[SkillInfo, ...]:
        """Every copy of ``name`` this root read, the kept one first, then its within-root duplicates.

        Answered from the name index, so an editor asking after one keystroke does not pay for the whole root.
        """
        return tuple(_skill_of(self._dirs[dir_name]) for dir_name in self._by_name.get(name, ()))

    def is_kept(self, skill: SkillInfo) -> bool:
        return self._kept.get(skill.name) is skill

    @property
    def skipped(self) -> tuple[SkippedSkill, ...]:
        """Malformed SKILL.md files and within-root duplicates, in directory order."""
        if self._skipped is None:
            self._derive()
        assert self._skipped is not None
        return self._skipped

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Every warning of this root in scan order: the root's own, then each directory's."""
        if self._warnings is None:
            self._derive()
        assert self._warnings is not None
        return self._warnings

    def _derive(self) -> None:
        skipped: list[SkippedSkill] = []
        warnings: list[DiscoveryWarning] = list(self.root_warnings)
        for dir_name in self._order:
            entry = self._dirs[dir_name]
            warnings.extend(entry.warnings)
            if entry.malformed is not None:
                skipped.append(entry.malformed)
            skill = entry.skill
            if skill is not None:
                kept = self._kept[skill.name]
                if kept is not skill:
                    warning = _duplicate_warning(skill, kept)
                    warnings.append(warning)
                    skipped.append(SkippedSkill(skill.path, warning, skill))
        self._skipped = tuple(skipped)
        self._warnings = tuple(warnings)

    def replace_skill_dir(
        self, dir_name: str, config: SkillConfig, overlay: Mapping[Path, str] | None = None
    ) -> RootScan:
        """Re-read ``<root>/<dir_name>`` (created, edited, deleted or renamed) and return the updated scan.

        Only that directory is touched on disk. ``overlay`` is the editor's current buffers (the whole map is
        fine; only the entry for this SKILL.md matters). In strict mode the same ``SkillError`` a full scan
        would raise for this directory is raised here.
        """
        ov = normalise_overlay(overlay)
        dir_path = os.path.join(self.root.path, dir_name)
        try:
            info = os.lstat(dir_path)
        except OSError:
            new_entry: DirScan | None = None
        else:
            new_entry = read_skill_dir(
                self.root,
                self.root_index,
                config,
                dir_name,
                dir_path,
                is_link=stat.S_ISLNK(info.st_mode),
                is_dir=stat.S_ISDIR(info.st_mode),
                overlay=ov,
            )
        return self._with_entry(dir_name, new_entry, config.strict)

    def _with_entry(self, dir_name: str, new_entry: DirScan | None, strict: bool) -> RootScan:
        old_entry = self._dirs.get(dir_name)
        if old_entry is None and new_entry is None:
            return self
        # Copy-on-write: the old scan stays valid for whoever still holds it. Only the (at most two) names this
        # directory declared before and after are recomputed, and the indexes are layered maps: an update copies
        # its changes, not the root's 12,500 entries (``discovery/layered.py``).
        dirs = self._dirs
        order = self._order
        by_name = self._by_name
        kept = self._kept
        if old_entry is not None and old_entry.skill is not None:
            old_name = old_entry.skill.name
            remaining = [d for d in by_name[old_name] if d != dir_name]
            if remaining:
                by_name = by_name.set(old_name, remaining)
                kept = kept.set(old_name, _skill_of(dirs[remaining[0]]))
            else:
                by_name = by_name.without(old_name)
                kept = kept.without(old_name)
        if new_entry is None:
            dirs = dirs.without(dir_name)
            order = [d for d in order if d != dir_name]
        else:
            dirs = dirs.set(dir_name, new_entry)
            if old_entry is None:
                order = sorted([*order, dir_name])
            if new_entry.skill is not None:
                new_name = new_entry.skill.name
                names = sorted([*by_name.get(new_name, []), dir_name])
                by_name = by_name.set(new_name, names)
                kept = kept.set(new_name, _skill_of(dirs[names[0]]))
                if strict and len(names) > 1:
                    raise _duplicate_error(_skill_of(dirs[names[1]]), kept[new_name])
        result = RootScan.__new__(RootScan)
        result._init(self.root, self.root_index, dirs, order, by_name, kept, self.root_warnings)
        return result

    def at_index(self, root_index: int) -> RootScan:
        """The same scan as root number ``root_index`` (an enabled plugin added or removed a root below it): the
        skills are re-labelled with their new precedence, nothing is read again."""
        if root_index == self.root_index:
            return self
        dirs = {name: _reindexed(entry, root_index) for name, entry in self._dirs.items()}
        warnings = tuple(replace(warning, root_index=root_index) for warning in self.root_warnings)
        return RootScan(self.root, root_index, dirs, warnings)

    def __repr__(self) -> str:
        return f"RootScan({self.root.path!r}, index={self.root_index}, skills={len(self._kept)})"


ScanProgress = Callable[[int, int, int], None]
"""Called as ``progress(root_index, directories_done, directories_in_root)`` every ``PROGRESS_EVERY``
directories and at the end of each root; an editor shows it while the first scan runs."""
PROGRESS_EVERY = 500


def scan_root(
    root: SkillRoot,
    root_index: int,
    config: SkillConfig,
    overlay: Mapping[Path, str] | None = None,
    progress: ScanProgress | None = None,
    *,
    reader: DirectoryReader = OS_READER,
    strategy: ScanStrategy = SEQUENTIAL,
    visit: DirectoryVisit | None = None,
) -> RootScan:
    """Scan ``<root>/*/SKILL.md`` in sorted directory order.

    A missing root, an empty one and a root that is a file contribute nothing and are not errors. An unreadable
    root gives an ``unreadable`` warning. In strict mode the first malformed skill or within-root duplicate (in
    scan order) raises ``SkillError``, and the directories are always read in order, here (``SEQUENTIAL``).

    ``reader`` lists and reads, ``strategy`` maps the directories' work, ``visit`` sees each directory's result
    where it is read (``discovery.io``). ``progress`` is called from the work, wherever the strategy runs it.
    """
    ov = normalise_overlay(overlay)
    root_warnings: list[DiscoveryWarning] = []
    if not config.follow_symlinks:
        link = _symlinked_component(root.path, config)
        if link is not None:
            root_warnings.append(
                _warning(
                    "symlink-ignored",
                    link,
                    f"Skill root {root.path} is reached through the symlink {link}; follow_symlinks is off, so "
                    "the root is not scanned",
                    root_index,
                )
            )
            return RootScan(root, root_index, {}, root_warnings)
    try:
        entries = reader.list_sorted(root.path)
    except (FileNotFoundError, NotADirectoryError):
        return RootScan(root, root_index, {}, ())
    except OSError as error:
        root_warnings.append(
            _warning("unreadable", root.path, f"Skill root {root.path} cannot be read: {reason(error)}", root_index)
        )
        return RootScan(root, root_index, {}, root_warnings)

    by_name = {entry.name: entry for entry in entries}
    read_directories = _directory_work(root, root_index, config, by_name, ov, reader, progress, visit)
    mapped = (SEQUENTIAL if config.strict else strategy)(read_directories, list(by_name), root, root_index)
    dirs = {name: result for name, result in mapped.items() if result is not None}
    if progress is not None:
        progress(root_index, len(by_name), len(by_name))
    return RootScan(root, root_index, dirs, root_warnings)


def _directory_work(
    root: SkillRoot,
    root_index: int,
    config: SkillConfig,
    by_name: Mapping[str, os.DirEntry[str]],
    overlay: Mapping[str, str],
    reader: DirectoryReader,
    progress: ScanProgress | None,
    visit: DirectoryVisit | None,
) -> DirectoryWork:
    """How the named directories of ``root`` are read, whichever share of them a strategy gives each call. A name
    missing from ``by_name`` (a directory another process listed and this one did not) gives no result: whoever
    asked reads it itself. ``progress`` counts the directories read here, over every call."""
    total = len(by_name)
    read_here = 0

    def read_directories(names: Sequence[str]) -> dict[str, DirScan | None]:
        nonlocal read_here
        read: dict[str, DirScan | None] = {}
        seen: dict[str, SkillInfo] = {}
        for name in names:
            entry = by_name.get(name)
            if entry is None:
                continue
            if progress is not None and read_here % PROGRESS_EVERY == 0:
                progress(root_index, read_here, total)
            read_here += 1
            parse_now = visit is not None and visit.reads_document(os.path.join(entry.path, SKILL_FILE))
            result = read[name] = _read_entry(root, root_index, config, entry, overlay, reader, parse_now)
            if result is None:
                continue
            if config.strict and result.skill is not None:  # sequential: the names come in order
                kept = seen.setdefault(result.skill.name, result.skill)
                if kept is not result.skill:
                    raise _duplicate_error(result.skill, kept)
            if visit is not None and (kept_instead := visit(result)) is not None:
                read[name] = kept_instead
        return read

    return read_directories


def listed_work(
    root: SkillRoot, root_index: int, config: SkillConfig, overlay: Mapping[str, str], reader: DirectoryReader
) -> DirectoryWork:
    """The directory work of ``root`` as listed now, for a process that reads a share of a root another process
    scans (the language server's helper, ``server.scan_helper``): no progress, no visit. ``overlay`` is keyed as
    ``normalise_overlay`` keys it. An unreadable root gives no result for any name, which the scanning process
    then reads itself."""
    try:
        entries = reader.list_sorted(root.path)
    except OSError:
        entries = []
    return _directory_work(
        root, root_index, config, {entry.name: entry for entry in entries}, overlay, reader, None, None
    )


def _read_entry(
    root: SkillRoot,
    root_index: int,
    config: SkillConfig,
    entry: os.DirEntry[str],
    overlay: Mapping[str, str],
    reader: DirectoryReader,
    parse_now: bool,
) -> DirScan | None:
    try:
        is_link = entry.is_symlink()
        is_dir = not is_link and entry.is_dir(follow_symlinks=False)
    except OSError:  # pragma: no cover - DirEntry answers from d_type; only exotic filesystems stat here
        return None
    return read_skill_dir(
        root,
        root_index,
        config,
        entry.name,
        entry.path,
        is_link=is_link,
        is_dir=is_dir,
        overlay=overlay,
        reader=reader,
        parse_now=parse_now,
    )


def read_skill_dir(
    root: SkillRoot,
    root_index: int,
    config: SkillConfig,
    dir_name: str,
    dir_path: str,
    *,
    is_link: bool,
    is_dir: bool,
    overlay: Mapping[str, str],
    reader: DirectoryReader = OS_READER,
    parse_now: bool = False,
) -> DirScan | None:
    """Read one candidate skill directory; None when it holds nothing to report (a plain file, no SKILL.md).

    ``is_link``/``is_dir`` describe the entry itself (``lstat``); ``overlay`` is keyed as ``normalise_overlay``
    keys it. Raises ``SkillError`` only for a malformed skill in strict mode. Unless ``parse_now``, a plainly
    simple SKILL.md is not parsed now (``simple_identity``): its ``SkillInfo.document`` is parsed when asked for.
    """
    follow = config.follow_symlinks
    warnings: list[DiscoveryWarning] = []
    if is_link:
        if not follow:
            # Not even stat'ed: with follow_symlinks off the link's target is never looked at.
            return DirScan(
                dir_name,
                warnings=(
                    _warning(
                        "symlink-ignored",
                        dir_path,
                        f"{dir_path} is a symlink; follow_symlinks is off, so it is not read as a skill",
                        root_index,
                    ),
                ),
            )
        try:
            target_mode = os.stat(dir_path).st_mode
        except OSError as error:
            return DirScan(
                dir_name,
                warnings=(
                    _warning(
                        "unreadable", dir_path, f"Symlink {dir_path} cannot be followed: {reason(error)}", root_index
                    ),
                ),
            )
        if not stat.S_ISDIR(target_mode):
            return None
    elif not is_dir:
        return None

    # One listing gives both SKILL.md's type (from d_type, without following it) and the resource directories.
    entry: os.DirEntry[str] | None = None
    resource_entries: list[os.DirEntry[str]] = []
    try:
        children = reader.list_sorted(dir_path)
        for child in children:
            if child.name == SKILL_FILE:
                entry = child
            elif child.name in _RESOURCE_NAMES:
                resource_entries.append(child)
    except FileNotFoundError:
        return DirScan(
            dir_name,
            warnings=(
                _warning("unreadable", dir_path, f"Skill directory {dir_path} disappeared during the scan", root_index),
            ),
        )
    except OSError as error:
        return DirScan(
            dir_name,
            warnings=(
                _warning(
                    "unreadable", dir_path, f"Skill directory {dir_path} cannot be read: {reason(error)}", root_index
                ),
            ),
        )

    skill_md = os.path.join(dir_path, SKILL_FILE)
    buffer = overlay.get(skill_md)
    if entry is None and buffer is None:
        return None
    if entry is not None and not follow and _is_symlink(entry):
        warnings.append(
            _warning(
                "symlink-ignored",
                skill_md,
                f"{skill_md} is a symlink; follow_symlinks is off, so it is not read",
                root_index,
            )
        )
        return DirScan(dir_name, warnings=tuple(warnings))

    content: str | bytes | Callable[[], str]  # what an unparsed copy keeps: the bytes read, or how to read them again
    if buffer is not None:
        content = text = strip_bom(buffer)
    else:
        data, why = reader.read(skill_md, follow)
        if data is None:
            warnings.append(_warning("unreadable", skill_md, why, root_index))
            return DirScan(dir_name, warnings=tuple(warnings))
        decoded = decode(data)
        text = decoded.text
        if decoded.invalid_utf8_offset is not None:
            content = text
        elif reader.rereads:
            content = read_again(reader, skill_md, follow)
        else:
            content = data[3:] if decoded.had_bom else data

    path = reader.path(skill_md)
    identity = None if parse_now else simple_identity_at(text)
    parsed: SkillDocument | UnparsedSkill
    name_at: NamePlace | None = None
    if identity is not None:  # a plainly simple frontmatter: its document is parsed when something asks for it
        name, description, name_at = identity
        parsed = UnparsedSkill(path, content)
    else:
        document = parsed = parse_skill(path, text)
        found_name, found_description = document.name, document.description
        problem = _problem(document, found_name, found_description)
        if problem is not None or found_name is None or found_description is None:
            message = f"{skill_md} is skipped: {problem}"
            if config.strict:
                raise SkillError(message, path=path, kind="malformed")
            warning = DiscoveryWarning("malformed", path, message, None, root_index, found_name)
            warnings.append(warning)
            return DirScan(dir_name, malformed=SkippedSkill(path, warning, None, document), warnings=tuple(warnings))
        name, description = found_name, found_description
        if not parse_now:  # the document gave the name and description; nothing asked for it: kept unparsed
            parsed = UnparsedSkill(path, content)

    resources = (
        collect_resources(dir_path, resource_entries, follow, warnings, root_index, reader) if resource_entries else ()
    )
    skill = skill_info(root, root_index, path, name, description, parsed, resources, name_at)
    return DirScan(dir_name, skill=skill, warnings=tuple(warnings))


def read_again(reader: DirectoryReader, path: str, follow: bool) -> Callable[[], str]:
    """How to read a SKILL.md's text again when its document is asked for, as it was read (a server's reader that
    keeps no bytes, a headless check that let go of a checked file), or as empty text if it has gone since."""

    def read() -> str:
        data, _why = reader.read(path, follow)
        return decode(data).text if data is not None else ""

    return read


def skill_info(
    root: SkillRoot,
    root_index: int,
    path: Path,
    name: str,
    description: str,
    parsed: SkillDocument | UnparsedSkill,
    resources: tuple[str, ...],
    name_at: NamePlace | None = None,
) -> SkillInfo:
    """The record of a skill read at ``path`` under ``root``: here, and where a worker process's compact copy
    arrives (``batch.spread``)."""
    return SkillInfo(
        name=name,
        description=description,
        path=path,
        directory=path.parent,
        root=root,
        root_index=root_index,
        scope=root.scope,
        source=root.source,
        parsed=parsed,
        resource_paths=resources,
        name_at=name_at,
    )


def malformed_reason(document: SkillDocument) -> str | None:
    """Why a parsed SKILL.md cannot be a skill (seed: no frontmatter, invalid YAML, no name or description)."""
    return _problem(document, document.name, document.description)


def _problem(document: SkillDocument, name: str | None, description: str | None) -> str | None:
    # The name and description are passed in because computing them builds values from YAML nodes, and the
    # scanner needs them anyway: on 20,000 skills that repetition is measurable.
    if not document.has_frontmatter:
        return "it has no frontmatter (the first line must be '---')"
    if not document.frontmatter_closed:
        return "its frontmatter is never closed by a '---' line"
    if document.yaml_problem is not None:
        return f"its frontmatter is not valid YAML ({document.yaml_problem.message})"
    if document.not_a_mapping is not None:
        return "its frontmatter is not a YAML mapping"
    if name is None:
        return "its frontmatter has no name (a non-empty string is required)"
    if description is None:
        return "its frontmatter has no description (a non-empty string is required)"
    return None


def _is_symlink(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:  # pragma: no cover - d_type based
        return False


def _symlinked_component(root_path: str, config: SkillConfig) -> str | None:
    """The first symlink on the way to a root, checked below the workspace or home that contains it.

    With ``follow_symlinks`` off a workspace must not be able to redirect ``.clarvis/skills`` elsewhere with a
    symlink. Components above the workspace and the home are the caller's choice (a home on a symlinked mount)
    and are not checked; a root outside both has only its own last component checked.
    """
    base: str | None = None
    for candidate in (config.workspace_dir, config.home):
        if is_within(root_path, candidate) and (base is None or len(candidate) > len(base)):
            base = candidate
    if base is None:
        base = os.path.dirname(root_path)
    if root_path == base:
        return None
    relative = os.path.relpath(root_path, base)
    current = base
    for part in relative.split(os.sep):
        current = os.path.join(current, part)
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return current
        except OSError:
            return None
    return None


def _reindexed(entry: DirScan, root_index: int) -> DirScan:
    skill = replace(entry.skill, root_index=root_index) if entry.skill is not None else None
    malformed = entry.malformed
    if malformed is not None:
        malformed = replace(malformed, warning=replace(malformed.warning, root_index=root_index))
    warnings = tuple(replace(warning, root_index=root_index) for warning in entry.warnings)
    return DirScan(entry.dir_name, skill, malformed, warnings)


def _skill_of(entry: DirScan) -> SkillInfo:
    # Only called for directories listed under a name, which by construction hold a skill.
    assert entry.skill is not None
    return entry.skill


def _duplicate_warning(skipped: SkillInfo, kept: SkillInfo) -> DiscoveryWarning:
    return DiscoveryWarning(
        "duplicate",
        skipped.path,
        f"Skill '{skipped.name}' at {skipped.path} is skipped: {kept.path} in the same root declares the same "
        "name and comes first in sorted order",
        kept.path,
        skipped.root_index,
        skipped.name,
    )


def _duplicate_error(skipped: SkillInfo, kept: SkillInfo) -> SkillError:
    return SkillError(
        f"Duplicate skill name '{skipped.name}' in root {skipped.root.path}: {kept.path} and {skipped.path}",
        path=skipped.path,
        kind="duplicate",
    )


def _warning(kind: WarningKind, path: str, message: str, root_index: int) -> DiscoveryWarning:
    return DiscoveryWarning(kind, Path(path), message, None, root_index)
