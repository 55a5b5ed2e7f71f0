"""The first scan's helper process (``server.scan_helper.HelperScan``): a large root read by the server and a
helper gives the registry the server alone gives, the helper really reads a share, an open buffer counts in the
helper's share too, a helper that fails costs nothing but time, and a scan that stops stops its helpers."""

from __future__ import annotations

import array
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, diagnostics_for, open_document, write_file
from lsprotocol import types
from registry_shape import registry_shape

from clarvis_lsp.discovery import (
    AgentSkillsOptions,
    SkillConfig,
    SkillRootInput,
    discover_skills,
    resolve_config,
)
from clarvis_lsp.discovery.io import REREADING_OS_READER
from clarvis_lsp.server import helper_processes
from clarvis_lsp.server.helper_processes import helpers_wanted, start_helpers
from clarvis_lsp.server.scan_helper import HelperScan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the chunk queue is a file descriptor")

DIRECTORIES = helper_processes.MIN_DIRECTORIES + 200


def _skill(root: Path, directory: str, text: str | bytes) -> Path:
    path = root / directory / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


@pytest.fixture(scope="module")
def large_root(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SkillConfig]:
    """A root over the helper's threshold with every kind of directory discovery tells apart, spread through it so
    that the helper's chunks hold some of each."""
    base = tmp_path_factory.mktemp("helper")
    ws, home = base / "ws", base / "home"
    home.mkdir()
    root = ws / ".clarvis" / "skills"
    for index in range(DIRECTORIES):
        directory = f"skill-{index:05d}"
        kind = index % 100
        if kind == 7:
            _skill(root, directory, f"---\nname: skill-{index - 1:05d}\ndescription: A duplicate.\n---\n")
        elif kind == 13:
            _skill(root, directory, "just text, no frontmatter\n")
        elif kind == 17:
            _skill(root, directory, "---\nname: [\n---\n")
        elif kind == 23:
            _skill(root, directory, f"---\nname: caf\xe9-{index}\ndescription: d\n---\n".encode("latin-1"))
        elif kind == 29:
            _skill(root, directory, f"---\nname: >-\n  folded-{index}\ndescription: |\n  Two\n  lines\n---\nBody\n")
        elif kind == 31:
            (root / directory).mkdir(parents=True)  # no SKILL.md
        else:
            path = _skill(root, directory, f"---\nname: {directory}\ndescription: Skill {index}.\n---\n# Body\n")
            if kind == 41:
                (path.parent / "references").mkdir()
                (path.parent / "references" / "guide.md").write_text("# Guide\n")
    (root / "a-file.md").write_text("not a directory\n")
    config = resolve_config(
        AgentSkillsOptions(roots=[SkillRootInput(str(root))], workspace=str(ws), home=str(home), follow_symlinks=True)
    )
    return root, config


class _Counted:
    """What each helper sent, counted on the way in (``Answers.arrived``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: set[str] = set()
        arrived = helper_processes.Answers.arrived

        def counted(answers: helper_processes.Answers, *, wait: bool) -> Any:
            found = arrived(answers, wait=wait)
            for chunk in found:
                self.sent.update(chunk)
            return found

        monkeypatch.setattr(helper_processes.Answers, "arrived", counted)


def _slow_start() -> Any:
    """A progress callback that holds the server's share back at its first directory, so the helper claims
    chunks on a loaded machine too."""
    calls: list[int] = []

    def progress(_root_index: int, _done: int, _total: int) -> None:
        if not calls:
            time.sleep(0.5)
        calls.append(1)

    return progress


def test_the_registry_is_the_one_the_server_reads_alone_and_the_helper_read_a_share(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    _root, config = large_root
    alone = discover_skills(config, reader=REREADING_OS_READER)
    assert alone.warnings and alone.skipped  # the root really has problems to report
    counted = _Counted(monkeypatch)
    with HelperScan({}, follow_symlinks=True, helpers=1) as helpers:
        shared = discover_skills(config, reader=REREADING_OS_READER, strategy=helpers, progress=_slow_start())
    assert counted.sent
    assert registry_shape(shared) == registry_shape(alone)


def test_helpers_started_ahead_read_the_share_of_helpers_started_by_the_scan(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server starts its helpers when the client is ready (``start_helpers``): a scan given them starts none
    of its own (``helpers=0``) and shares the root with them, and stops them at its end."""
    _root, config = large_root
    alone = discover_skills(config, reader=REREADING_OS_READER)
    ahead = start_helpers(1)
    assert ahead is not None
    started = list(ahead.helpers)
    counted = _Counted(monkeypatch)
    with HelperScan({}, follow_symlinks=True, helpers=0, ahead=ahead) as helpers:
        shared = discover_skills(config, reader=REREADING_OS_READER, strategy=helpers, progress=_slow_start())
    assert counted.sent
    assert registry_shape(shared) == registry_shape(alone)
    assert [helper.returncode for helper in started] == [0]  # stopped with the scan


def test_an_open_buffer_counts_in_the_helpers_share(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, config = large_root
    # Every 50th directory has an unsaved buffer: whichever chunks the helper claims on this machine, it holds some.
    edited = [root / f"skill-{index:05d}" / "SKILL.md" for index in range(1, DIRECTORIES, 50)]
    overlay = {path: f"---\nname: renamed-{path.parent.name}\ndescription: Unsaved.\n---\n" for path in edited}
    alone = discover_skills(config, overlay=overlay, reader=REREADING_OS_READER)
    counted = _Counted(monkeypatch)
    with HelperScan(overlay, follow_symlinks=True, helpers=1) as helpers:
        shared = discover_skills(
            config, overlay=overlay, reader=REREADING_OS_READER, strategy=helpers, progress=_slow_start()
        )
    read_by_helper = [path for path in edited if path.parent.name in counted.sent]
    assert read_by_helper  # the helper read some of those directories, from their buffers
    assert all(f"renamed-{path.parent.name}" in shared.names() for path in read_by_helper)
    assert registry_shape(shared) == registry_shape(alone)


def test_a_helper_that_fails_leaves_the_server_to_read_it_all(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    _root, config = large_root
    alone = discover_skills(config, reader=REREADING_OS_READER)
    monkeypatch.setattr(sys, "executable", "/bin/false")  # starts, then exits at once
    with HelperScan({}, follow_symlinks=True, helpers=1) as helpers:
        shared = discover_skills(config, reader=REREADING_OS_READER, strategy=helpers, progress=_slow_start())
    assert registry_shape(shared) == registry_shape(alone)


def test_a_helper_never_imports_a_clarvis_lsp_found_where_the_server_started(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An editor may start the server in a workspace it does not trust; ``python -m`` looks in the working
    directory first, so a ``clarvis_lsp`` there would run in the helper unless the helper starts elsewhere."""
    _root, config = large_root
    planted = tmp_path / "untrusted"
    marker = tmp_path / "ran"
    for package in ("clarvis_lsp", "clarvis_lsp/server"):
        (planted / package).mkdir(parents=True)
        (planted / package / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (planted / "clarvis_lsp/server/scan_helper.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.chdir(planted)
    alone = discover_skills(config, reader=REREADING_OS_READER)
    counted = _Counted(monkeypatch)
    with HelperScan({}, follow_symlinks=True, helpers=1) as helpers:
        shared = discover_skills(config, reader=REREADING_OS_READER, strategy=helpers, progress=_slow_start())
    assert not marker.exists()
    assert counted.sent  # the helper ran, this package's
    assert registry_shape(shared) == registry_shape(alone)


def test_a_helper_is_never_held_by_the_servers_own_chunk(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper's answers are read as it writes them, not only between the server's chunks: the server holds its
    first chunk until the helper has claimed every other one, which a helper waiting for a full pipe to be read
    never does (its chunks' answers together are several times what a pipe holds)."""
    _root, config = large_root
    alone = discover_skills(config, reader=REREADING_OS_READER)
    counted = _Counted(monkeypatch)
    helpers = HelperScan({}, follow_symlinks=True, helpers=1)
    held: list[bool] = []

    def progress(_root_index: int, _done: int, _total: int) -> None:
        if held:
            return
        assert helpers.queue is not None
        deadline = time.monotonic() + 20
        while _queued_bytes(helpers.queue[0]) > 4 and time.monotonic() < deadline:  # 4: the server's end mark
            time.sleep(0.01)
        held.append(_queued_bytes(helpers.queue[0]) <= 4)

    with helpers:
        shared = discover_skills(config, reader=REREADING_OS_READER, strategy=helpers, progress=progress)
    assert held == [True]  # the helper claimed every chunk but the server's first
    assert len(counted.sent) > DIRECTORIES * 0.9
    assert registry_shape(shared) == registry_shape(alone)


def _queued_bytes(descriptor: int) -> int:
    """How many bytes wait in the pipe ``descriptor`` reads."""
    import fcntl
    import termios

    waiting = array.array("i", [0])
    fcntl.ioctl(descriptor, termios.FIONREAD, waiting)
    return waiting[0]


_LEAVES_AFTER_ONE_CHUNK = """
import os, sys
from clarvis_lsp.server import scan_helper

write = scan_helper._write_frame

def once(out, frame):
    write(out, frame)
    os._exit(3)  # gone mid-root, after one chunk's answer, with chunks it claimed and never read

scan_helper._write_frame = once
scan_helper.serve(int(sys.argv[-1]), sys.stdin.buffer, sys.stdout.buffer)
"""


def test_a_helper_that_leaves_mid_root_leaves_the_server_the_rest(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The chunk it sent counts; the ones it claimed and never sent, and the rest of the scan, the server reads."""
    _root, config = large_root
    alone = discover_skills(config, reader=REREADING_OS_READER)
    wrapper = tmp_path / "helper.py"
    wrapper.write_text(_LEAVES_AFTER_ONE_CHUNK)
    launcher = tmp_path / "python"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{wrapper}" "$@"\n')
    launcher.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(launcher))
    counted = _Counted(monkeypatch)
    with HelperScan({}, follow_symlinks=True, helpers=1) as helpers:
        shared = discover_skills(config, reader=REREADING_OS_READER, strategy=helpers, progress=_slow_start())
    assert 0 < len(counted.sent) < DIRECTORIES // 2  # one chunk's worth
    assert registry_shape(shared) == registry_shape(alone)


class _Stopped(Exception):
    pass


def test_a_scan_that_stops_stops_its_helpers(
    large_root: tuple[Path, SkillConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    _root, config = large_root
    started: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def recorded(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        helper: subprocess.Popen[bytes] = popen(*args, **kwargs)
        started.append(helper)
        return helper

    monkeypatch.setattr(subprocess, "Popen", recorded)

    def progress(_root_index: int, done: int, _total: int) -> None:
        if done > 0:
            raise _Stopped  # the settings changed, or the user cancelled

    helpers = HelperScan({}, follow_symlinks=True, helpers=1)
    with pytest.raises(_Stopped):
        discover_skills(config, reader=REREADING_OS_READER, strategy=helpers, progress=progress)
    assert len(started) == 1
    assert started[0].poll() is not None  # gone, and reaped
    # The strategy reads alone afterwards: no helper is started again for the next root.
    assert discover_skills(config, reader=REREADING_OS_READER, strategy=helpers).names()
    assert len(started) == 1


def test_a_small_root_starts_no_helper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "skills"
    _skill(root, "one", "---\nname: one\ndescription: d\n---\n")
    config = resolve_config(AgentSkillsOptions(roots=[SkillRootInput(str(root))], workspace=str(tmp_path)))

    def refused(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("no helper for a small root")

    monkeypatch.setattr(subprocess, "Popen", refused)
    with HelperScan({}, follow_symlinks=True, helpers=1) as helpers:
        assert discover_skills(config, strategy=helpers).names() == ["one"]


@pytest.mark.parametrize(
    ("value", "wanted"), [("0", 0), ("2", 2), (" 1 ", 1), ("many", None), ("-1", None), ("", None)]
)
def test_the_environment_sets_how_many_helpers(value: str, wanted: int | None) -> None:
    default = helpers_wanted({})
    assert 0 <= default <= helper_processes.MAX_HELPERS
    assert helpers_wanted({helper_processes.HELPERS_VARIABLE: value}) == (default if wanted is None else wanted)


SERVED = helper_processes.MIN_DIRECTORIES + 200


@pytest.fixture(scope="module")
def served_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace whose big root a served scan shares with a helper: the last directories, which the helper
    claims as the server opens its files, hold a copy that shadows another root's and a within-root duplicate."""
    ws = tmp_path_factory.mktemp("served") / "ws"
    for index in range(SERVED):
        name = f"skill-{index:05d}"
        write_file(ws, f".clarvis/skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: Skill {index}.\n---\n")
    last, before = f"skill-{SERVED - 1:05d}", f"skill-{SERVED - 2:05d}"
    write_file(ws, f".clarvis/skills/{before}-again/SKILL.md", f"---\nname: {before}\ndescription: Again.\n---\n")
    write_file(ws, f".agents/skills/{last}/SKILL.md", f"---\nname: {last}\ndescription: Shared.\n---\n")
    return ws


@pytest.fixture
def workspace(served_workspace: Path) -> Path:
    return served_workspace


@pytest.fixture(scope="module")
def client_configuration() -> dict[str, object]:
    return {"includeUser": False}


async def test_the_served_scan_finds_what_the_helper_read(client: ClarvisClient, workspace: Path) -> None:
    """Through the editor: the shadowed copy points at the winner's name, which the helper read without a parse,
    and the within-root duplicate is reported against the copy that keeps the name."""
    last, before = f"skill-{SERVED - 1:05d}", f"skill-{SERVED - 2:05d}"
    loser = workspace / f".agents/skills/{last}/SKILL.md"
    duplicate = workspace / f".clarvis/skills/{before}-again/SKILL.md"
    open_document(client, loser)
    open_document(client, duplicate)
    shadowed = [
        item
        for item in await diagnostics_for(client, loser, lambda codes: "discovery/shadowed" in codes)
        if item.code == "discovery/shadowed"
    ]
    assert len(shadowed) == 1
    related = shadowed[0].related_information
    assert related is not None
    winner = workspace / f".clarvis/skills/{last}/SKILL.md"
    assert related[0].location.uri == winner.as_uri()
    assert related[0].location.range == types.Range(types.Position(1, 6), types.Position(1, 6 + len(last)))
    found = await diagnostics_for(client, duplicate, lambda codes: "discovery/duplicate-name" in codes)
    assert "discovery/duplicate-name" in [str(item.code) for item in found]
