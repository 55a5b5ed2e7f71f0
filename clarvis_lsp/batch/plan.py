"""The plan of a headless run: which workspaces the given paths fall in, their engines, and the files each checks.

Each path given is split into workspaces (SPEC §2: the nearest ancestor holding ``.clarvis/`` or ``.agents/``,
and every nested one below it), each checked with its own roots and its own project configuration. Only files
under the given paths are checked; personal roots and plugins are read for context (who shadows whom) but their
own findings are not printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from clarvis_lsp.batch.listings import Listings
from clarvis_lsp.config.project import ConfigLoad, layered, load_project_config, parse_roots, symlinks_followed
from clarvis_lsp.discovery import Excludes, SkillRootInput, find_workspaces, markers_for, nearest_workspace
from clarvis_lsp.discovery.skill_config import check_workspace
from clarvis_lsp.rules.selection import RuleSelection
from clarvis_lsp.workspace.engine import WorkspaceEngine


def explicit_roots(values: Sequence[str] | None) -> tuple[SkillRootInput, ...] | None:
    """The ``--root`` values as discovery's roots; None when none was given. Raises ``ValueError`` with one line
    (``config.project.parse_roots``)."""
    if not values:
        return None
    return tuple(SkillRootInput(spec.path, spec.scope, spec.source) for spec in parse_roots(values))


class UsageError(Exception):
    """A path that does not exist, or options that cannot work together: exit status 2."""


@dataclass(frozen=True)
class CheckRequest:
    """What to check and how: the CLI's arguments, already parsed."""

    paths: Sequence[str]
    cwd: Path
    home: Path
    overrides: Mapping[str, object] = field(default_factory=dict)  # CLI flags, as configuration keys
    explicit_roots: tuple[SkillRootInput, ...] | None = None
    workspace: Path | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    jobs: int | None = None  # processes for discovery's reads and the per-file work; None: one a core when it pays
    trusted: bool = False  # --trusted: the workspace is approved, its enabledPlugins' skills count


@dataclass(frozen=True)
class Target:
    """One path of the command line."""

    given: str  # as typed on the command line
    absolute: Path


class Plan:
    """The workspaces of a request, made once each: their project files, engines, nested workspaces and files.

    Every engine reads directories through the run's shared ``listings``. ``first_engine`` is the engine of the first
    path's top workspace, which the run discovers while ``walk`` finds the rest (``batch.run``)."""

    def __init__(self, request: CheckRequest) -> None:
        self.request = request
        self.targets = [_target(given, request.cwd) for given in (request.paths or ["."])]
        self.listings = Listings()
        self.loads: list[ConfigLoad] = []
        self.engines: dict[Path, WorkspaceEngine] = {}
        self.nested: dict[WorkspaceEngine, frozenset[Path]] = {}
        self.files: dict[Path, WorkspaceEngine] = {}  # every file to check, and the engine that checks it
        self._walked: list[tuple[WorkspaceEngine, Target]] = []  # each (workspace, target) pair, in walk order
        self._configs: dict[Path, ConfigLoad] = {}
        self._follow = symlinks_followed(request.overrides)  # the flag decides before a project file is opened
        if request.workspace is not None:
            check_workspace(os.path.abspath(request.workspace))

    def first_engine(self) -> WorkspaceEngine:
        if self.request.workspace is not None:
            return self._engine_for(Path(os.path.abspath(self.request.workspace)))
        target = self.targets[0]
        ceiling = lookup_ceiling(target.absolute, self.request.cwd)
        return self._engine_for(self._top_workspace(target, ceiling)[1], ceiling=ceiling)

    def walk(self) -> None:
        """Find the nested workspaces and the recognised files of every target: each (workspace, target) pair."""
        request = self.request
        for target in self.targets:
            if request.workspace is not None:
                self._walked_pair(self._engine_for(Path(os.path.abspath(request.workspace))), target)
                continue
            ceiling = lookup_ceiling(target.absolute, request.cwd)
            markers, top, top_excludes = self._top_workspace(target, ceiling)
            directories = [top]
            if target.absolute.is_dir():
                excludes = top_excludes.below(_relative(target.absolute, top))
                found = find_workspaces(
                    target.absolute, home=request.home, exclude=excludes, markers=markers, reader=self.listings
                )
                directories += [path for path in found if path not in (target.absolute, top)]
            nearest = _nearest_nested(directories)
            for directory in directories:
                below = nearest.get(directory, frozenset())
                outer = top_excludes.below(_relative(directory, top)) if directory != top else None
                engine = self._engine_for(directory, outer, ceiling)
                self.nested[engine] = self.nested.get(engine, frozenset()) | below
                self._walked_pair(engine, target)

    def add_discovered(self) -> None:
        """The SKILL.md files of each target that only discovery finds (run once every engine has discovered).

        The tree walk never follows a symlinked directory, but discovery does (followSymlinks, the default): a
        skill directory of a root that is a symlink holds a SKILL.md Clarvis loads, so it is checked too."""
        for engine, target in self._walked:
            if target.absolute.is_file():
                continue
            registry = engine.discovered.registry
            nested = self.nested.get(engine, frozenset())
            loaded = [skill.path for skill in registry.all_skills()] + [skipped.path for skipped in registry.skipped]
            for path in loaded:
                if (
                    path not in self.files
                    and _under(path, target.absolute)
                    and not _under(path, engine.home)
                    and not any(_under(path, directory) for directory in nested)
                ):
                    self.files[path] = engine

    def files_of(self, engine: WorkspaceEngine) -> list[Path]:
        return sorted(path for path, owner in self.files.items() if owner is engine)

    def ignored_link_here(self, path: Path, engine: WorkspaceEngine) -> bool:
        """Whether a finding on ``path``, which the walk does not yield (a link that is not followed, a directory,
        a broken link), belongs to this run: the path lies in a checked tree and in this engine's workspace (not in
        a nested one, which reports its own)."""
        if not any(target.absolute == path or target.absolute in path.parents for target in self.targets):
            return False
        nested = self.nested.get(engine, frozenset())
        return engine.directory in path.parents and not any(directory in path.parents for directory in nested)

    def _walked_pair(self, engine: WorkspaceEngine, target: Target) -> None:
        """The recognised files of ``target`` that ``engine`` checks, as the tree walk finds them."""
        self._walked.append((engine, target))
        if target.absolute.is_file():
            if engine.kind_of(target.absolute) is not None:
                self.files.setdefault(target.absolute, engine)
            return
        under = target.absolute if engine.directory in (target.absolute, *target.absolute.parents) else None
        for path in engine.files(under=under, nested=self.nested.get(engine, frozenset())):
            self.files.setdefault(path, engine)

    def _project_config(self, directory: Path) -> ConfigLoad:
        """Each directory's project file is read once, however many targets (pre-commit passes every file) ask."""
        if directory not in self._configs:
            self._configs[directory] = load_project_config(directory, follow_symlinks=self._follow)
        return self._configs[directory]

    def _engine_for(
        self, directory: Path, outer: Excludes | None = None, ceiling: Path | None = None
    ) -> WorkspaceEngine:
        engine = self.engines.get(directory)
        if engine is None:
            load = self._project_config(directory)
            self.loads.append(load)
            request = self.request
            engine = self.engines[directory] = WorkspaceEngine(
                directory=directory,
                config=layered(load.config, request.overrides),
                home=request.home,
                explicit_roots=request.explicit_roots,
                outer_excludes=outer,
                ceiling=ceiling,
                trusted=request.trusted,
                rules=RuleSelection(select=request.select, ignore=request.ignore),
                reader=self.listings,
            )
        return engine

    def _top_workspace(self, target: Target, ceiling: Path) -> tuple[tuple[str, ...], Path, Excludes]:
        preset = self.request.overrides.get("preset") or self._project_config(ceiling).config.preset
        markers = markers_for(str(preset))
        top = nearest_workspace(target.absolute, ceiling, markers)
        # The top workspace's exclude patterns hold for the whole tree, nested workspaces included.
        return markers, top, Excludes(tuple(self._project_config(top).config.exclude))


def _relative(path: Path, directory: Path) -> str:
    """``path`` relative to ``directory`` with ``/`` separators (empty for the directory itself)."""
    relative = os.path.relpath(path, directory)
    return "" if relative == "." else relative.replace(os.sep, "/")


def _target(given: str, cwd: Path) -> Target:
    absolute = Path(os.path.normpath(os.path.join(cwd, os.path.expanduser(given))))
    if not absolute.exists():
        raise UsageError(f"No such file or directory: {given}")
    return Target(given, absolute)


def lookup_ceiling(path: Path, cwd: Path) -> Path:
    """How far up to look for the nearest workspace: the working directory when the path is inside it
    (pre-commit passes file names from the repository root), else the path itself."""
    if path == cwd or cwd in path.parents:
        return cwd
    return path if path.is_dir() else path.parent


def _nearest_nested(directories: list[Path]) -> dict[Path, frozenset[Path]]:
    """Each workspace's nearest nested workspaces: the ones with no other workspace between. A file under a deeper
    one lies under one of these too, so they are all a walk needs to skip. Linear in the number of workspaces
    (each is pushed and popped once, in depth-first order); asking every pair with ``path.parents`` made a chain
    of 1,000 nested workspaces take minutes."""
    nested: dict[Path, set[Path]] = {}
    open_: list[Path] = []  # the workspaces that hold the current one, outermost first
    for directory in sorted(set(directories), key=lambda path: path.parts):
        while open_ and not _under(directory, open_[-1]):
            open_.pop()
        if open_:
            nested.setdefault(open_[-1], set()).add(directory)
        open_.append(directory)
    return {directory: frozenset(below) for directory, below in nested.items()}


def _under(path: Path, directory: Path) -> bool:
    """``path`` lies strictly inside ``directory`` (both absolute and normalised): a string test, because
    ``directory in path.parents`` builds every parent and dominates a check of thousands of files."""
    return str(path).startswith(str(directory).rstrip(os.sep) + os.sep)
