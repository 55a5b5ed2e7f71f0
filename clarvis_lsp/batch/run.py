"""``check_paths``: the headless check behind ``clarvis-lsp --check``, in four steps over the same engine as the
server.

1. **Plan** (``batch.plan``): the workspaces the given paths fall in, one engine each, their files.
2. **Walk**: every directory under the given paths is listed once (``batch.listings``), before any process is
   forked, so that the workers of the next step read their listings from what they inherit. Walked while the
   workers read, the tree was listed twice (the parent's walk and the workers' discovery each listed the same
   skill directories): 4 % more CPU at 20,000 skills, for 0.2 s less wall time (benchmarks/HISTORY.md).
3. **Discover**: each workspace's skill roots, a large root spread over processes (``batch.spread``), each
   SKILL.md under the given paths checked where it is read (``batch.ahead``).
4. **Check**: each file's findings through the one assembler both front ends use
   (``workspace.findings.file_findings``), a large set of files spread over processes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from clarvis_lsp.batch.ahead import CheckAhead
from clarvis_lsp.batch.plan import CheckRequest, Plan, UsageError
from clarvis_lsp.batch.processes import MIN_FILES_PER_PROCESS, map_in_processes, process_count
from clarvis_lsp.batch.spread import SpreadScan
from clarvis_lsp.config.project import ConfigLoad
from clarvis_lsp.discovery import discover_skills
from clarvis_lsp.findings import CheckResult, Diagnostic
from clarvis_lsp.output.paths import PathDisplay
from clarvis_lsp.rules.internal import RULE_FAILED
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.findings import file_findings

__all__ = ["CheckReport", "CheckRequest", "UsageError", "check_paths", "discover"]


@dataclass
class CheckReport:
    """A check's findings plus what the CLI needs beyond them (configuration errors, the engines for --list)."""

    result: CheckResult
    config_loads: list[ConfigLoad]
    engines: list[WorkspaceEngine]

    @property
    def config_failed(self) -> bool:
        return any(load.status == "error" for load in self.config_loads)


def check_paths(request: CheckRequest) -> CheckReport:
    """Check every recognised file under the requested paths. Raises ``StartupError`` and ``UsageError``."""
    plan = Plan(request)
    first = plan.first_engine()
    plan.walk()
    ahead = {first: discover(first, jobs=request.jobs, plan=plan)}
    for engine in plan.engines.values():
        if engine not in ahead:
            ahead[engine] = discover(engine, jobs=request.jobs, plan=plan)
    plan.add_discovered()

    diagnostics: list[Diagnostic] = []
    for engine in plan.engines.values():
        diagnostics.extend(_check_engine(plan, engine, ahead[engine]))
    for load in plan.loads:
        diagnostics.extend(load.diagnostics)
    diagnostics.sort(key=Diagnostic.sort_key)
    display = PathDisplay.for_arguments([(target.given, target.absolute) for target in plan.targets], request.cwd)
    diagnostics = [display.diagnostic(diagnostic) for diagnostic in diagnostics]
    result = CheckResult(files_checked=len(plan.files), diagnostics=diagnostics, display_path=display.path)
    return CheckReport(result, plan.loads, list(plan.engines.values()))


def discover(engine: WorkspaceEngine, *, jobs: int | None, plan: Plan | None = None) -> CheckAhead:
    """Discover ``engine``'s workspace as a headless run does: large roots spread over ``jobs`` processes, the
    SKILL.md files under ``plan``'s targets checked where they are read. Returns what was checked ahead. Raises
    ``StartupError``."""
    targets = [target.absolute for target in plan.targets] if plan is not None else []
    ahead = CheckAhead(engine, targets)
    context = engine.discovery_context()
    ahead.start(context.agents)
    registry = discover_skills(
        context.skill_config,
        overlay=engine.overlay,
        reader=engine.reader,
        strategy=SpreadScan(engine.reader, jobs, ahead.computed, follow_symlinks=context.skill_config.follow_symlinks),
        visit=ahead if targets else None,
    )
    engine.set_discovered(context.discovered(registry))
    return ahead


def _check_engine(plan: Plan, engine: WorkspaceEngine, ahead: CheckAhead) -> list[Diagnostic]:
    """The findings of the files ``engine`` checks, and the cross-file findings on paths no walk yields."""
    jobs = plan.request.jobs
    wanted = plan.files_of(engine)
    processes = process_count(_files_to_parse(engine, ahead, wanted, jobs), jobs)
    if processes > 1:
        engine.cross_by_path()  # computed once, before the fork, rather than once in every process
    found: list[Diagnostic] = []
    assemble = partial(file_findings, engine, own=ahead.own_findings)
    for findings_of_file in map_in_processes(assemble, wanted, processes).values():
        found.extend(findings_of_file)
    checked = set(wanted)
    elsewhere = [
        diagnostic
        for path, cross in engine.cross_by_path().items()
        if path not in checked
        for diagnostic in cross
        if diagnostic.code == RULE_FAILED.code or _ignored_link_finding(diagnostic, plan, engine)
    ]
    found.extend(engine.rules.apply(elsewhere))
    return found


def _files_to_parse(engine: WorkspaceEngine, ahead: CheckAhead, wanted: list[Path], jobs: int | None) -> int:
    """How many of ``wanted`` the check must still read and parse itself, which is the work worth spreading over
    processes: a SKILL.md checked where discovery read it is done, one that discovery loaded otherwise costs only
    its rules, and forking a process that holds every discovered document costs more than those save (measured:
    benchmarks/HISTORY.md). With ``--jobs`` chosen, every file not done yet counts."""
    pending = [path for path in wanted if not ahead.pending(path)]
    if jobs is not None or len(pending) < 2 * MIN_FILES_PER_PROCESS:
        return len(pending)
    registry = engine.discovered.registry
    return sum(1 for path in pending if registry.by_path(path) is None)


def _ignored_link_finding(diagnostic: Diagnostic, plan: Plan, engine: WorkspaceEngine) -> bool:
    """``discovery/symlink-ignored`` and ``discovery/unreadable`` sit on a path the walk does not yield (a link
    that is not followed, a directory, a broken link): reported when the path belongs to this run."""
    if diagnostic.code not in ("discovery/symlink-ignored", "discovery/unreadable"):
        return False
    return plan.ignored_link_here(diagnostic.path, engine)
