"""A hover or a completion waits a moment for the first scan (``SCAN_PATIENCE``) in case it is about to end, but not
for a scan its progress shows to be long (``LONG_SCAN`` directories still to read): that wait could only delay an
answer that comes without the scan anyway. A pull, which has no patience, still waits for the scan to end.

The scan here is held, deterministically, by a reader that stops at its first SKILL.md until the test lets it go:
the session is driven as the server drives it, over a real workspace on disk, with no timing assumed."""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import replace
from pathlib import Path

from lsp_support import write_file
from pygls.workspace import Workspace as DocumentStore

from clarvis_lsp.discovery.io import OsReader
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.server.session import LONG_SCAN, Session
from clarvis_lsp.workspace.live import Workspace

SKILLS = LONG_SCAN + 500


class HeldReader(OsReader):
    """The operating system, except that the first SKILL.md read waits until ``release`` is set."""

    def __init__(self) -> None:
        super().__init__(rereads=True)
        self.reading = threading.Event()
        self.release = threading.Event()

    def read(self, path: str, follow_symlinks: bool) -> tuple[bytes | None, str]:
        if path.endswith("SKILL.md") and not self.reading.is_set():
            self.reading.set()
            self.release.wait(timeout=60)
        return super().read(path, follow_symlinks)


class Client:
    """What the session tells the client, kept: the progress it reports."""

    def __init__(self) -> None:
        self.ended: list[str] = []

    def show_error(self, message: str) -> None:
        raise AssertionError(message)

    def log_error(self, message: str) -> None:
        raise AssertionError(message)

    def config_file_checked(self, workspace: Workspace, path: Path, findings: list[Diagnostic]) -> None:
        pass

    async def begin_progress(self, title: str) -> str | None:
        return "scan"

    def report_progress(self, token: str, root_index: int, done: int, total: int) -> None:
        pass

    def end_progress(self, token: str, message: str) -> None:
        self.ended.append(message)

    def progress_cancelled(self, token: str) -> bool:
        return False

    def scan_ended(self, workspace: Workspace) -> None:
        pass


def held_session(
    tmp_path: Path, skills: int, client: Client | None = None, reader: HeldReader | None = None
) -> tuple[Session, Workspace, HeldReader]:
    ws = tmp_path / "ws"
    for index in range(skills):
        name = f"skill-{index:05d}"
        write_file(ws, f".clarvis/skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: Skill {index}.\n---\n")
    session = Session(lambda: DocumentStore(None), client or Client())
    session.home = tmp_path / "home"
    session.folders = [ws]
    workspace = session.workspace_for(ws / ".clarvis/skills/skill-00000/SKILL.md")
    reader = reader or HeldReader()
    workspace.replace_engine(replace(workspace.engine, reader=reader))
    return session, workspace, reader


async def test_a_request_with_a_patience_does_not_wait_for_a_long_scan(tmp_path: Path) -> None:
    session, workspace, reader = held_session(tmp_path, SKILLS)
    engine = workspace.engine
    try:
        assert not session.ready(engine)  # starts the scan in its worker thread
        assert await asyncio.to_thread(reader.reading.wait, 60)  # held at its first SKILL.md
        assert session.scan_left(engine) == SKILLS

        # Well inside the 60 s it is allowed: answered at once, without the scan, which is still held.
        assert await asyncio.wait_for(session.scanned(engine, at_most=60), timeout=30) is False
        assert not session.scans[engine].done()
    finally:
        reader.release.set()
    assert await asyncio.wait_for(session.scanned(engine), timeout=60) is True  # a pull waits for the end
    assert session.scan_left(engine) == 0
    assert len(engine.discovered.registry) == SKILLS


async def test_a_short_scan_is_waited_for(tmp_path: Path) -> None:
    """Under ``LONG_SCAN`` directories the patience holds: the request waits and gets the scan's answer."""
    session, workspace, reader = held_session(tmp_path, 20)
    engine = workspace.engine
    assert not session.ready(engine)
    assert await asyncio.to_thread(reader.reading.wait, 60)
    waiting = asyncio.ensure_future(session.scanned(engine, at_most=60))
    await asyncio.sleep(0)
    assert not waiting.done()  # waiting for the held scan
    reader.release.set()
    assert await asyncio.wait_for(waiting, timeout=60) is True


class HeldListing(HeldReader):
    """``HeldReader``, and before it the first root's listing waits until ``list_released`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.listing = threading.Event()
        self.list_released = threading.Event()

    def list_sorted(self, directory: str) -> list[os.DirEntry[str]]:
        if not self.listing.is_set():
            self.listing.set()
            self.list_released.wait(timeout=60)
        return super().list_sorted(directory)


async def test_a_request_sent_before_the_first_report_stops_waiting_when_it_comes(tmp_path: Path) -> None:
    """Before the scan has listed a root its length is unknown, so a request waits within its patience; the report
    that shows the scan long ends that wait, long before the patience would."""
    reader = HeldListing()
    session, workspace, _ = held_session(tmp_path, SKILLS, reader=reader)
    engine = workspace.engine
    try:
        assert not session.ready(engine)
        assert await asyncio.to_thread(reader.listing.wait, 60)  # the root not listed yet
        waiting = asyncio.ensure_future(session.scanned(engine, at_most=60))
        await asyncio.sleep(0.05)
        assert not waiting.done()  # the length is not known: within the patience, it waits
        reader.list_released.set()
        assert await asyncio.to_thread(reader.reading.wait, 60)  # listed, reported, then held at a SKILL.md
        assert await asyncio.wait_for(waiting, timeout=30) is False  # long: answered without the scan
        assert not session.scans[engine].done()
    finally:
        reader.list_released.set()
        reader.release.set()
    assert await asyncio.wait_for(session.scanned(engine), timeout=60) is True


async def test_the_scan_does_not_wait_for_the_client_to_create_its_progress(tmp_path: Path) -> None:
    """``window/workDoneProgress/create`` is a round trip to the client; the scan starts before its answer, and
    the progress is begun and ended all the same."""
    answered = asyncio.Event()

    class SlowClient(Client):
        async def begin_progress(self, title: str) -> str | None:
            await answered.wait()
            return "scan"

    client = SlowClient()
    session, workspace, reader = held_session(tmp_path, 20, client)
    engine = workspace.engine
    assert not session.ready(engine)
    assert await asyncio.to_thread(reader.reading.wait, 60)  # reading SKILL.md files while the client is silent
    reader.release.set()
    answered.set()
    assert await asyncio.wait_for(session.scanned(engine), timeout=60) is True
    assert client.ended == ["20 skills"]
