"""``--check`` spread over several processes reports exactly what one process reports (issue: speed).

The per-file work of a large tree runs in forked children (``clarvis_lsp.batch.processes``); their findings come back
through a pipe. Checked here: the same findings in the same order, fixes and related locations included, for one
process and for several, on the corpus of the optimisation differential; and a child that dies loses nothing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from test_optimisations import _corpus

from clarvis_lsp.batch import processes as parallel
from clarvis_lsp.batch.plan import Plan
from clarvis_lsp.batch.run import CheckRequest, check_paths, discover
from clarvis_lsp.cli import main
from clarvis_lsp.config.project import layered, load_project_config
from clarvis_lsp.documents.skill import UnparsedSkill
from clarvis_lsp.documents.text import decode
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.host import available_cores
from clarvis_lsp.workspace.engine import WorkspaceEngine

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="checks in several processes only where fork is safe")


def _diagnostics(ws: Path, home: Path, jobs: int) -> list[Diagnostic]:
    return check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=home, jobs=jobs)).result.diagnostics


@pytest.mark.parametrize("seed", [1, 2])
def test_several_processes_report_what_one_reports(tmp_path: Path, seed: int) -> None:
    ws, home = _corpus(tmp_path, seed)
    alone = _diagnostics(ws, home, jobs=1)
    assert len(alone) > 20
    for jobs in (2, 3):
        spread = _diagnostics(ws, home, jobs=jobs)
        assert spread == alone
        assert [item.fixes for item in spread] == [item.fixes for item in alone]
        assert [item.data for item in spread] == [item.data for item in alone]


def test_a_child_that_dies_loses_no_result() -> None:
    parent = os.getpid()

    def work(items: Sequence[int]) -> dict[int, int]:
        if os.getpid() != parent:
            os._exit(3)  # as a child killed mid-work would end
        return {item: item * item for item in items}

    assert parallel.map_in_processes(work, list(range(50)), 3) == {item: item * item for item in range(50)}


def test_a_child_whose_work_raises_loses_no_result() -> None:
    parent = os.getpid()

    def work(items: Sequence[int]) -> dict[int, str]:
        if os.getpid() != parent:
            raise RuntimeError("only in the child")
        return {item: str(item) for item in items}

    assert parallel.map_in_processes(work, list(range(9)), 2) == {item: str(item) for item in range(9)}


def test_results_from_children_are_used() -> None:
    """The children's results really arrive (the fallback alone would also pass the tests above)."""
    parent = os.getpid()

    def work(items: Sequence[int]) -> dict[int, int]:
        time.sleep(0.002 * len(items))  # long enough that the child claims chunks before the parent drains them
        return {item: os.getpid() for item in items}

    pids = parallel.map_in_processes(work, list(range(200)), 2)
    assert sorted(pids) == list(range(200))
    assert parent in pids.values() and len(set(pids.values())) == 2


def test_a_slower_process_claims_fewer_items() -> None:
    """Items are claimed chunk by chunk: while this process is slow at its first chunk (a busy core), the child
    takes what it would otherwise wait for."""
    parent = os.getpid()
    first: list[bool] = []

    def work(items: Sequence[int]) -> dict[int, int]:
        if os.getpid() == parent and not first:
            first.append(True)
            time.sleep(0.5)
        time.sleep(0.005 * len(items))
        return {item: os.getpid() for item in items}

    pids = parallel.map_in_processes(work, list(range(200)), 2)
    here = sum(1 for pid in pids.values() if pid == parent)
    assert here < 200 - here  # the child did most of a second's work while this process was slow


def test_process_count_follows_the_size_of_the_tree_and_the_choice() -> None:
    assert parallel.process_count(10, None) == 1
    assert parallel.process_count(10, 4) == 4
    assert parallel.process_count(3, 8) == 3
    assert parallel.process_count(parallel.MIN_FILES_PER_PROCESS * 64, None) == available_cores()
    skills = parallel.MIN_SKILLS_PER_PROCESS
    assert parallel.process_count(2 * skills - 1, None, skills) == 1  # a root of 3,999 skills: one process
    assert parallel.process_count(skills * 64, None, skills) == available_cores()


def test_jobs_is_checked_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--check", "--jobs", "0", "."])
    assert stopped.value.code == 2
    assert "--jobs: expected a number of processes, 1 or more, not '0'" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_skill_is_checked_where_discovery_reads_it(
    tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--check`` runs a SKILL.md's own rules in the process that parsed it during discovery (``batch.ahead``);
    the findings are those of a check after discovery, and they are really the ones used. No worker fails on the
    way (the parent would redo its share, and hide why)."""
    collect = parallel._collect_child
    failed: list[int] = []

    def collected(pid: int, reader: int) -> object:
        received: object = collect(pid, reader)
        if received is None:
            failed.append(pid)
        return received

    monkeypatch.setattr(parallel, "_collect_child", collected)
    ws, home = _corpus(tmp_path, 1)
    skill_files = sorted(ws.glob(".clarvis/skills/*/SKILL.md")) + sorted(ws.glob(".agents/skills/*/SKILL.md"))
    assert len(skill_files) > 10

    config = layered(load_project_config(ws).config, {})
    engine = WorkspaceEngine(ws, config, home)
    plan = Plan(CheckRequest(paths=[str(ws)], cwd=ws, home=home, jobs=jobs))
    ahead = discover(engine, jobs=jobs, plan=plan)  # discovery runs the rules of the checked files
    after = WorkspaceEngine(ws, config, home)
    registry = engine.discovered.registry
    read_as_skills = {skill.path for skill in registry.all_skills()}
    read_as_skills |= {item.path for item in registry.skipped if item.skill is not None}  # within-root duplicates
    read_as_skills &= set(skill_files)  # not the personal or the plugin's skills
    assert 10 < len(read_as_skills) < len(skill_files)  # the rest are malformed: checked after discovery
    assert {path for path in skill_files if ahead.pending(path)} == read_as_skills
    for path in skill_files:
        assert ahead.own_findings(path) == after.check_file(path)
        assert not ahead.pending(path)  # taken, so a later check reads the file again
    assert any(after.check_file(path) for path in skill_files)
    # Once checked, a record keeps no parse: a way to read its text again (a cross-file finding may ask), or the
    # text a worker sent with a directory that has a warning.
    for skill in registry.all_skills():
        if skill.path in read_as_skills:
            assert isinstance(skill.parsed, UnparsedSkill)
            assert skill.document.text == decode(skill.path.read_bytes()).text
    assert not failed
