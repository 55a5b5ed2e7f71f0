"""The skill registry: which copy of each name wins, which copies it shadows, and what was skipped.

``discover_skills`` scans every root of a ``SkillConfig`` (``scan.scan_root``) and merges the per-root results in
a ``SkillRegistry``. Precedence is only the order of the roots: a later root overrides an earlier one, which is
never an error (strict neither), and the losers are kept so tools can say who shadows whom.

The registry is a thin, immutable view over its ``RootScan`` list: looking up a name asks each root (a handful
of dictionary lookups), so replacing one root's scan costs nothing to merge. That is how the language server
stays incremental: ``SkillRegistry.refresh(paths, overlay)`` re-reads only the skill directories those paths
fall in (a whole root only when the root itself changed) and returns a new registry; ``with_scan`` and
``RootScan.replace_skill_dir`` are the lower-level pieces.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from clarvis_lsp.discovery.fs import is_within, symlinked_directory
from clarvis_lsp.discovery.io import OS_READER, SEQUENTIAL, DirectoryReader, DirectoryVisit, ScanStrategy
from clarvis_lsp.discovery.scan import RootScan, ScanProgress, scan_root
from clarvis_lsp.discovery.skill_config import AgentSkillsOptions, SkillConfig, SkillRoot, SkillScope, resolve_config
from clarvis_lsp.discovery.skills import DiscoveryWarning, SkillInfo, SkippedSkill
from clarvis_lsp.knowledge.layout import SKILLS_DIR

__all__ = [
    "AgentSkills",
    "DiscoveryWarning",
    "SkillInfo",
    "SkillRegistry",
    "SkippedSkill",
    "create_agent_skills",
    "discover_skills",
]


class SkillRegistry:
    """Every discovered skill across the configured roots, merged by precedence (the last root wins)."""

    __slots__ = ("_config", "_names", "_roots_by_path", "_scans", "_skipped", "_warnings")

    def __init__(self, config: SkillConfig, scans: Sequence[RootScan]) -> None:
        if len(scans) != len(config.roots):
            raise ValueError(f"expected one scan per root ({len(config.roots)}), got {len(scans)}")
        self._config = config
        self._scans = tuple(scans)
        self._names: list[str] | None = None
        self._skipped: tuple[SkippedSkill, ...] | None = None
        self._warnings: tuple[DiscoveryWarning, ...] | None = None
        self._roots_by_path: dict[str, list[int]] | None = None

    @classmethod
    def from_scans(cls, config: SkillConfig, scans: Sequence[RootScan]) -> SkillRegistry:
        """Merge per-root results (one ``RootScan`` per ``config.roots`` entry, in the same order)."""
        return cls(config, scans)

    @property
    def config(self) -> SkillConfig:
        """The configuration that was scanned: exactly which roots, in which order."""
        return self._config

    @property
    def scans(self) -> tuple[RootScan, ...]:
        """The per-root results, indexed like ``config.roots``."""
        return self._scans

    def plugin_scan(
        self, plugin_dir: Path, overlay: Mapping[Path, str] | None = None, *, scope: SkillScope = "workspace"
    ) -> RootScan:
        """The scan of the plugin's ``skills/`` directory: this registry's when discovery scanned it (the plugin
        is enabled), else a scan of that directory alone under the same options, reading ``overlay`` (the open
        buffers) before the disk. ``scope`` is the plugin's, for a directory scanned here. Every view of a
        plugin's skills (completion, hover, the effective configuration, ``plugin/unknown-bootstrap-skill``)
        asks this, so they give one answer."""
        skills_dir = os.path.normpath(plugin_dir / SKILLS_DIR)
        for scan in self._scans:
            if os.path.normpath(scan.root.path) == skills_dir:
                return scan
        return scan_root(SkillRoot(skills_dir, scope, f"plugin:{plugin_dir.name}"), 0, self._config, overlay)

    # --- lookups by name -------------------------------------------------------------------------------------

    def winner(self, name: str) -> SkillInfo | None:
        """The copy that is loaded for ``name``: the one from the highest-precedence (last) root."""
        for scan in reversed(self._scans):
            skill = scan.skills.get(name)
            if skill is not None:
                return skill
        return None

    def copies(self, name: str) -> list[SkillInfo]:
        """Every loaded copy of ``name`` across roots, winner first, then by descending precedence."""
        return [scan.skills[name] for scan in reversed(self._scans) if name in scan.skills]

    def shadowed(self, name: str) -> list[SkillInfo]:
        """The copies of ``name`` that lose to the winner, highest precedence first."""
        return self.copies(name)[1:]

    def contested(self) -> list[str]:
        """The names loaded from more than one root, sorted: the only names with shadowed copies. One pass over
        each root's names, rather than asking every root about every name (a first scan's cross-file findings at
        10,000 skills spent a fifth of their time there)."""
        seen: set[str] = set()
        twice: set[str] = set()
        for scan in self._scans:
            names = scan.skills.keys()
            twice.update(seen.intersection(names))
            seen.update(names)
        return sorted(twice)

    def names(self) -> list[str]:
        """Every skill name with a winner, sorted."""
        if self._names is None:
            names: set[str] = set()
            for scan in self._scans:
                names.update(scan.skills)
            self._names = sorted(names)
        return list(self._names)

    def skills(self) -> list[SkillInfo]:
        """The winning copy of every name, sorted by name."""
        result = []
        for name in self.names():
            skill = self.winner(name)
            assert skill is not None
            result.append(skill)
        return result

    def all_skills(self) -> list[SkillInfo]:
        """Every loaded copy, shadowed ones included, in scan order (roots ascending, directories sorted).

        Within-root duplicates are not here: they were never loaded (see ``skipped``).
        """
        result: list[SkillInfo] = []
        for scan in self._scans:
            result.extend(scan.loaded())
        return result

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.winner(name) is not None

    def __len__(self) -> int:
        return len(self.names())

    # --- lookups by path -------------------------------------------------------------------------------------

    def by_path(self, path: Path | str) -> SkillInfo | None:
        """The loaded copy (winning or shadowed) whose SKILL.md is ``path``; None for skipped or unknown files."""
        for scan, dir_name, skill_md in self._locate(path):
            entry = scan.dir_scan(dir_name)
            skill = entry.skill if entry is not None else None
            if skill is not None and str(skill.path) == skill_md and scan.is_kept(skill):
                return skill
        return None

    def declaring(self, name: str) -> list[tuple[int, tuple[SkillInfo, ...]]]:
        """Per root (ascending), every copy of ``name`` it read: the kept one first, then within-root duplicates."""
        return [(scan.root_index, found) for scan in self._scans if (found := scan.declaring(name))]

    def declared_name(self, path: Path | str) -> str | None:
        """The name the SKILL.md at ``path`` declares, whether it was loaded or skipped as a duplicate."""
        for scan, dir_name, skill_md in self._locate(path):
            entry = scan.dir_scan(dir_name)
            if entry is not None and entry.skill is not None and str(entry.skill.path) == skill_md:
                return entry.skill.name
        return None

    def skipped_by_path(self, path: Path | str) -> SkippedSkill | None:
        """Why the SKILL.md at ``path`` was not loaded (within-root duplicate or malformed), if it was skipped."""
        for scan, _dir_name, skill_md in self._locate(path):
            for skipped in scan.skipped:
                if str(skipped.path) == skill_md:
                    return skipped
        return None

    def warnings_for(self, path: Path | str) -> list[DiscoveryWarning]:
        """Warnings whose path is ``path`` or lies inside it (a skill directory gives its resources' too)."""
        target = _normalise(path)
        prefix = target if target.endswith(os.sep) else target + os.sep
        return [w for w in self.warnings if str(w.path) == target or str(w.path).startswith(prefix)]

    def _locate(self, path: Path | str) -> list[tuple[RootScan, str, str]]:
        skill_md = _normalise(path)
        directory = os.path.dirname(skill_md)
        root_path = os.path.dirname(directory)
        indexes = self._root_index_by_path().get(root_path, [])
        return [(self._scans[i], os.path.basename(directory), skill_md) for i in reversed(indexes)]

    def _root_index_by_path(self) -> dict[str, list[int]]:
        if self._roots_by_path is None:
            mapping: dict[str, list[int]] = {}
            for index, root in enumerate(self._config.roots):
                mapping.setdefault(root.path, []).append(index)
            self._roots_by_path = mapping
        return self._roots_by_path

    # --- problems --------------------------------------------------------------------------------------------

    @property
    def skipped(self) -> tuple[SkippedSkill, ...]:
        """Within-root duplicates and malformed skills, in scan order, each with its warning."""
        if self._skipped is None:
            self._skipped = tuple(item for scan in self._scans for item in scan.skipped)
        return self._skipped

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Every warning, in scan order (roots ascending, directories sorted)."""
        if self._warnings is None:
            self._warnings = tuple(item for scan in self._scans for item in scan.warnings)
        return self._warnings

    # --- incremental updates ---------------------------------------------------------------------------------

    def with_scan(self, root_index: int, scan: RootScan) -> SkillRegistry:
        """A registry with root ``root_index``'s result replaced; the other roots' results are shared."""
        scans = list(self._scans)
        scans[root_index] = scan
        return SkillRegistry(self._config, scans)

    def refresh(self, paths: Iterable[Path | str], overlay: Mapping[Path, str] | None = None) -> SkillRegistry:
        """Re-read what changed at ``paths`` and return the updated registry (``self`` if nothing is affected).

        A path inside a root (a SKILL.md, a skill directory, a resource) re-reads only its skill directory; a
        root itself or one of its ancestors (a created or deleted ``.clarvis``) rescans that root; anything else
        is ignored. ``overlay`` is the editor's current open buffers: pass the whole map, so that a closed buffer
        (absent from it) falls back to the disk content. In strict mode ``SkillError`` propagates as in a scan.
        """
        rescan: set[int] = set()
        dirs: dict[int, set[str]] = {}
        for raw in paths:
            changed = _normalise(raw)
            for index, root in enumerate(self._config.roots):
                if is_within(root.path, changed):
                    rescan.add(index)
                elif is_within(changed, root.path):
                    first = os.path.relpath(changed, root.path).split(os.sep, 1)[0]
                    dirs.setdefault(index, set()).add(first)
        if not rescan and not dirs:
            return self
        if not self._config.follow_symlinks:
            # A root reached through a symlink (a symlinked ``.clarvis``) is not scanned, so an open buffer inside
            # it must not bring its skill directory in either: the root is scanned again, to its one warning.
            bases = (self._config.workspace_dir, self._config.home)
            rescan |= {index for index in dirs if symlinked_directory(self._config.roots[index].path, bases)}
        scans = list(self._scans)
        for index in sorted(rescan | set(dirs)):
            if index in rescan:
                scans[index] = scan_root(self._config.roots[index], index, self._config, overlay)
                continue
            scan = scans[index]
            for dir_name in sorted(dirs[index]):
                scan = scan.replace_skill_dir(dir_name, self._config, overlay)
            scans[index] = scan
        return SkillRegistry(self._config, scans)

    def with_roots(self, config: SkillConfig, overlay: Mapping[Path, str] | None = None) -> SkillRegistry:
        """The registry for ``config``'s roots, reusing the scan of every root it already had (re-labelled with its
        new precedence) and scanning only the new ones: enabling or disabling a plugin rescans that plugin's
        skills, not the workspace. ``self`` when the roots are the same."""
        if config == self._config:
            return self
        previous = {root: scan for root, scan in zip(self._config.roots, self._scans, strict=True)}
        if (config.strict, config.follow_symlinks) != (self._config.strict, self._config.follow_symlinks):
            previous = {}  # the scans depend on these options: start over
        scans = []
        for index, root in enumerate(config.roots):
            kept = previous.get(root)
            scans.append(kept.at_index(index) if kept is not None else scan_root(root, index, config, overlay))
        return SkillRegistry(config, scans)

    def __repr__(self) -> str:
        return f"SkillRegistry(roots={len(self._scans)}, names={len(self.names())})"


def discover_skills(
    config: SkillConfig,
    *,
    overlay: Mapping[Path, str] | None = None,
    progress: ScanProgress | None = None,
    reader: DirectoryReader = OS_READER,
    strategy: ScanStrategy = SEQUENTIAL,
    visit: DirectoryVisit | None = None,
) -> SkillRegistry:
    """Scan every root of ``config`` in order and merge them (seed: ``discoverSkills``).

    ``overlay`` maps absolute SKILL.md paths to unsaved editor text that replaces the file on disk. With
    ``config.strict`` the first malformed skill or within-root duplicate raises ``SkillError``; a cross-root
    override never does. A caller that wants strict *severities* but every problem reported (the linter) scans
    with ``dataclasses.replace(config, strict=False)`` and raises the severity itself. ``reader``, ``strategy`` and
    ``visit``: how directories are read, how each root's directory work is mapped, and what sees each directory
    where it is read (``discovery.io``); the defaults read here, in order.
    """
    scans = [
        scan_root(root, index, config, overlay, progress, reader=reader, strategy=strategy, visit=visit)
        for index, root in enumerate(config.roots)
    ]
    return SkillRegistry(config, scans)


class AgentSkills:
    """What ``create_agent_skills`` returns: the resolved ``config`` and the ``registry`` discovered from it."""

    __slots__ = ("_config", "_registry")

    def __init__(self, config: SkillConfig, registry: SkillRegistry) -> None:
        self._config = config
        self._registry = registry

    @property
    def config(self) -> SkillConfig:
        """The resolved configuration, so a caller can inspect exactly which roots were scanned."""
        return self._config

    @property
    def registry(self) -> SkillRegistry:
        return self._registry

    def skills(self) -> list[SkillInfo]:
        return self._registry.skills()

    def winner(self, name: str) -> SkillInfo | None:
        return self._registry.winner(name)

    def shadowed(self, name: str) -> list[SkillInfo]:
        return self._registry.shadowed(name)

    def copies(self, name: str) -> list[SkillInfo]:
        return self._registry.copies(name)

    def names(self) -> list[str]:
        return self._registry.names()

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        return self._registry.warnings

    def refresh(self, paths: Iterable[Path | str], overlay: Mapping[Path, str] | None = None) -> SkillRegistry:
        """Re-read what changed at ``paths`` (see ``SkillRegistry.refresh``) and keep the new registry."""
        self._registry = self._registry.refresh(paths, overlay)
        return self._registry

    def rediscover(self, overlay: Mapping[Path, str] | None = None) -> SkillRegistry:
        """Scan every root again, for when too much changed to refresh piecemeal."""
        self._registry = discover_skills(self._config, overlay=overlay)
        return self._registry


def create_agent_skills(options: AgentSkillsOptions, *, overlay: Mapping[Path, str] | None = None) -> AgentSkills:
    """Resolve ``options`` and discover skills (seed: ``createAgentSkills``).

    Raises ``StartupError`` for an unusable configuration, and ``SkillError`` in strict mode.
    """
    config = resolve_config(options)
    return AgentSkills(config, discover_skills(config, overlay=overlay))


def _normalise(path: Path | str) -> str:
    text = os.fspath(path)
    # abspath normalises already; an absolute path (every path the engine holds) needs no join with the cwd.
    return os.path.normpath(text) if os.path.isabs(text) else os.path.abspath(text)
