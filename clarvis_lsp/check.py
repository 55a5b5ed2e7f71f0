"""``check_paths``: the headless check behind ``clarvis-lsp --check``, over the same engine as the server.

Each path given is split into workspaces (SPEC §2: the nearest ancestor holding ``.clarvis/`` or ``.agents/``,
and every nested one below it), each checked with its own roots and its own project configuration. Only files
under the given paths are reported; personal roots and plugins are read for context (who shadows whom) but
their own findings are not printed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from clarvis_lsp.discovery import Excludes, SkillRootInput, find_workspaces, markers_for, nearest_workspace
from clarvis_lsp.discovery.walk import Listings
from clarvis_lsp.findings import CheckResult, Diagnostic
from clarvis_lsp.output.paths import PathDisplay
from clarvis_lsp.parallel import MIN_FILES_PER_PROCESS, Once, map_in_processes, process_count
from clarvis_lsp.project_config import ConfigLoad, layered, load_project_config, symlinks_followed
from clarvis_lsp.rules.internal import RULE_FAILED
from clarvis_lsp.rules.selection import RuleSelection
from clarvis_lsp.workspace.engine import WorkspaceEngine


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


@dataclass
class CheckReport:
    """A check's findings plus what the CLI needs beyond them (configuration errors, the engines for --list)."""

    result: CheckResult
    config_loads: list[ConfigLoad]
    engines: list[WorkspaceEngine]

    @property
    def config_failed(self) -> bool:
        return any(load.status == "error" for load in self.config_loads)


@dataclass
class _Target:
    given: str  # as typed on the command line
    absolute: Path


def check_paths(request: CheckRequest) -> CheckReport:
    """Check every recognised file under the requested paths. Raises ``StartupError`` and ``UsageError``."""
    targets = [_target(given, request.cwd) for given in (request.paths or ["."])]
    engines: dict[Path, WorkspaceEngine] = {}
    loads: list[ConfigLoad] = []
    files: dict[Path, WorkspaceEngine] = {}
    read_configs: dict[Path, ConfigLoad] = {}
    # The nested-workspace search, each engine's file walk and its discovery list the same directories: once.
    listings = Listings()
    walked: list[tuple[WorkspaceEngine, _Target]] = []  # each (workspace, target) pair, in the order of the walk

    follow = symlinks_followed(request.overrides)  # the flag decides before a project file is opened

    def project_config(directory: Path) -> ConfigLoad:
        """Each directory's project file is read once, however many targets (pre-commit passes every file) ask."""
        if directory not in read_configs:
            read_configs[directory] = load_project_config(directory, follow_symlinks=follow)
        return read_configs[directory]

    def engine_for(
        directory: Path, nested: frozenset[Path], outer: Excludes | None = None, ceiling: Path | None = None
    ) -> WorkspaceEngine:
        engine = engines.get(directory)
        if engine is None:
            load = project_config(directory)
            loads.append(load)
            config = layered(load.config, request.overrides)
            engine = WorkspaceEngine(
                directory=directory,
                config=config,
                home=request.home,
                explicit_roots=request.explicit_roots,
                nested=nested,
                outer_excludes=outer,
                ceiling=ceiling,
                validate_workspace=request.workspace is not None,
                rules=RuleSelection(select=request.select, ignore=request.ignore),
                listings=listings,
                jobs=request.jobs,
                check_ahead=ahead,
            )
            engines[directory] = engine
        return engine

    # What ``--check`` checks: a SKILL.md under a directory given, or given itself, is checked where discovery reads
    # it (``check_ahead``), in the worker process that parsed it when a large root is spread over processes.
    ahead = tuple(
        str(target.absolute) + os.sep if target.absolute.is_dir() else str(target.absolute) for target in targets
    )

    first_nested_known = False

    def walk() -> None:
        """Find the nested workspaces and the recognised files of every target: each (workspace, target) pair."""
        nonlocal first_nested_known
        for target in targets:
            if request.workspace is not None:
                engine = engine_for(Path(os.path.abspath(request.workspace)), frozenset())
                _collect_walked(engine, target, files)
                walked.append((engine, target))
                continue
            ceiling = _ceiling(target.absolute, request.cwd)
            markers, top, top_excludes = _top_workspace(target, ceiling)
            if target.absolute.is_dir():
                excludes = top_excludes.below(_relative(target.absolute, top))
                found = find_workspaces(
                    target.absolute, home=request.home, exclude=excludes, markers=markers, listings=listings
                )
                nested = [path for path in found if path not in (target.absolute, top)]
                directories = [top, *nested]
            else:
                directories = [top]
            for directory in directories:
                below = frozenset(path for path in directories if path != directory and directory in path.parents)
                outer = top_excludes.below(_relative(directory, top)) if directory != top else None
                engine = engine_for(directory, below, outer, ceiling)
                if engine is first and not first_nested_known:
                    first.nested = below  # created before the walk, which is what finds the nested workspaces
                    first_nested_known = True
                _collect_walked(engine, target, files)
                walked.append((engine, target))

    def _top_workspace(target: _Target, ceiling: Path) -> tuple[tuple[str, ...], Path, Excludes]:
        preset = request.overrides.get("preset") or project_config(ceiling).config.preset
        markers = markers_for(str(preset))
        top = nearest_workspace(target.absolute, ceiling, markers)
        # The top workspace's exclude patterns hold for the whole tree, nested workspaces included.
        return markers, top, Excludes(tuple(project_config(top).config.exclude))

    # The first target's workspace is discovered first, and the tree is walked while worker processes read its
    # large roots (``meanwhile``): the walk no longer waits for discovery, nor discovery for the walk.
    first_target = targets[0]
    if request.workspace is not None:
        first = engine_for(Path(os.path.abspath(request.workspace)), frozenset())
    else:
        first_ceiling = _ceiling(first_target.absolute, request.cwd)
        first = engine_for(_top_workspace(first_target, first_ceiling)[1], frozenset(), None, first_ceiling)
    walk_once = Once(walk)
    first.discover_now(meanwhile=walk_once)
    walk_once()
    for engine, target in walked:
        _collect_discovered(engine, target, files)

    diagnostics: list[Diagnostic] = []
    for engine in engines.values():
        wanted = sorted(path for path, owner in files.items() if owner is engine)
        processes = process_count(_files_to_parse(engine, wanted, request.jobs), request.jobs)
        if processes > 1:
            engine.cross_by_path()  # computed once, before the fork, rather than once in every process
        for findings_of_file in map_in_processes(partial(file_findings, engine), wanted, processes).values():
            diagnostics.extend(findings_of_file)
        checked = set(wanted)
        elsewhere = [
            diagnostic
            for path, cross in engine.cross_by_path().items()
            if path not in checked
            for diagnostic in cross
            if diagnostic.code == RULE_FAILED.code or _ignored_symlink_here(diagnostic, engine, targets)
        ]
        diagnostics.extend(engine.rules.apply(elsewhere))
    for load in loads:
        diagnostics.extend(load.diagnostics)
    diagnostics.sort(key=Diagnostic.sort_key)
    display = PathDisplay.for_arguments([(target.given, target.absolute) for target in targets], request.cwd)
    diagnostics = [display.diagnostic(diagnostic) for diagnostic in diagnostics]
    result = CheckResult(files_checked=len(files), diagnostics=diagnostics, display_path=display.path)
    return CheckReport(result, loads, list(engines.values()))


def _files_to_parse(engine: WorkspaceEngine, wanted: list[Path], jobs: int | None) -> int:
    """How many of ``wanted`` the check must still read and parse itself, which is the work worth spreading over
    processes: a SKILL.md checked where discovery read it (``check_ahead``) is done, one that discovery loaded
    otherwise costs only its rules, and forking a process that holds every discovered document costs more than
    those save (measured: benchmarks/README.md). With ``--jobs`` chosen, every file not done yet counts."""
    pending = [path for path in wanted if not engine.checked_ahead(path)]
    if jobs is not None or len(pending) < 2 * MIN_FILES_PER_PROCESS:
        return len(pending)
    registry = engine.discovered.registry
    return sum(1 for path in pending if registry.by_path(path) is None)


def file_findings(
    engine: WorkspaceEngine, paths: Iterable[Path], *, alone: bool = False
) -> dict[Path, list[Diagnostic]]:
    """Each file's findings as both front ends report them: its own rules' plus the cross-file findings that concern
    it, at the configured severities, without the codes switched off or left out by ``--select``/``--ignore``,
    sorted by position. The one place that assembles findings: ``--check`` and the language server both call it.

    ``alone``: only what the file shows without discovery (``WorkspaceEngine.check_file_alone``), as the server
    publishes while the first scan runs or when the configuration cannot start discovery."""
    cross = {} if alone else engine.cross_by_path()
    found: dict[Path, list[Diagnostic]] = {}
    for path in paths:
        own = engine.check_file_alone(path) if alone else engine.check_file(path)
        items = [*cross.get(path, []), *own]
        kept = engine.rules.apply(items)
        found[path] = sorted(kept, key=Diagnostic.sort_key)
    return found


def check_text(
    path: Path,
    text: str,
    *,
    home: Path,
    overrides: Mapping[str, object] | None = None,
    open_buffers: Mapping[Path, str] | None = None,
    ceiling: Path | None = None,
) -> list[Diagnostic]:
    """The findings of one buffer as an editor holds it (``text``, unsaved), in the workspace nearest to ``path``,
    with the project configuration found there under ``overrides``. ``open_buffers`` are other unsaved files that
    override the disk, for discovery too. The workspace is looked for up to ``ceiling`` (default: the file
    system's root), as the editor looks up to its workspace folder."""
    path = Path(os.path.abspath(path))
    directory = nearest_workspace(path, ceiling or Path(path.anchor))
    load = load_project_config(directory, follow_symlinks=symlinks_followed(overrides or {}))
    engine = WorkspaceEngine(
        directory=directory,
        config=layered(load.config, overrides or {}),
        home=home,
        overlay={**(open_buffers or {}), path: text},
    )
    return file_findings(engine, [path])[path]


def _ignored_symlink_here(diagnostic: Diagnostic, engine: WorkspaceEngine, targets: list[_Target]) -> bool:
    """``discovery/symlink-ignored`` and ``discovery/unreadable`` sit on a path the walk does not yield (a link
    that is not followed, a directory, a broken link): report them when that path lies in a checked tree and in
    this engine's workspace (not in a nested one, which reports its own)."""
    if diagnostic.code not in ("discovery/symlink-ignored", "discovery/unreadable"):
        return False
    path = diagnostic.path
    if not any(target.absolute == path or target.absolute in path.parents for target in targets):
        return False
    return engine.directory in path.parents and not any(nested in path.parents for nested in engine.nested)


def _relative(path: Path, directory: Path) -> str:
    """``path`` relative to ``directory`` with ``/`` separators (empty for the directory itself)."""
    relative = os.path.relpath(path, directory)
    return "" if relative == "." else relative.replace(os.sep, "/")


def _target(given: str, cwd: Path) -> _Target:
    absolute = Path(os.path.normpath(os.path.join(cwd, os.path.expanduser(given))))
    if not absolute.exists():
        raise UsageError(f"No such file or directory: {given}")
    return _Target(given, absolute)


def _ceiling(path: Path, cwd: Path) -> Path:
    """How far up to look for the nearest workspace: the working directory when the path is inside it
    (pre-commit passes file names from the repository root), else the path itself."""
    if path == cwd or cwd in path.parents:
        return cwd
    return path if path.is_dir() else path.parent


def _collect_walked(engine: WorkspaceEngine, target: _Target, files: dict[Path, WorkspaceEngine]) -> None:
    """The recognised files of ``target`` that ``engine`` checks, as the tree walk finds them."""
    if target.absolute.is_file():
        if engine.kind_of(target.absolute) is not None:
            files.setdefault(target.absolute, engine)
        return
    under = target.absolute if engine.directory in (target.absolute, *target.absolute.parents) else None
    for path in engine.files(under=under):
        files.setdefault(path, engine)


def _collect_discovered(engine: WorkspaceEngine, target: _Target, files: dict[Path, WorkspaceEngine]) -> None:
    """The SKILL.md files of ``target`` that only discovery finds.

    The tree walk never follows a symlinked directory, but discovery does (followSymlinks, the default): a skill
    directory of a root that is a symlink holds a SKILL.md Clarvis loads, so it is checked too."""
    if target.absolute.is_file():
        return
    registry = engine.discovered.registry
    for path in [skill.path for skill in registry.all_skills()] + [skipped.path for skipped in registry.skipped]:
        if (
            path not in files
            and _under(path, target.absolute)
            and not _under(path, engine.home)
            and not any(_under(path, nested) for nested in engine.nested)
        ):
            files[path] = engine


def _under(path: Path, directory: Path) -> bool:
    """``path`` lies strictly inside ``directory`` (both absolute and normalised): a string test, because
    ``directory in path.parents`` builds every parent and dominates a check of thousands of files."""
    return str(path).startswith(str(directory).rstrip(os.sep) + os.sep)
