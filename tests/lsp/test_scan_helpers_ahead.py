"""The first scan's helper processes start when the client is ready (``initialized``), not when the first document
is opened: a helper's imports then overlap the server's own and its check of that document, and the helper reads
its share of the first large root from the start. They start only for a folder whose conventional skill roots are
large, and the first scan takes them and stops them when it ends.

The module's server is initialized with the large workspace as its folder (``initial_folder``; the shared one is
empty), runs with one helper whatever the machine's cores, and with ``CLARVIS_LSP_TEST_REQUESTS=1``, which
adds the test-only request ``clarvis/test/serverState``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, custom_request, diagnostics_for, open_document, write_file, write_numbered_skills
from pygls.workspace import Workspace as DocumentStore

from clarvis_lsp.server.helper_processes import MIN_DIRECTORIES, start_for_folders
from clarvis_lsp.server.session import Session

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the chunk queue is a file descriptor")

SKILLS = MIN_DIRECTORIES + 100


@pytest.fixture(scope="module")
def large_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace whose ``.clarvis/skills`` is large, and whose last skill shadows a copy in ``.agents/skills``."""
    ws = tmp_path_factory.mktemp("large") / "ws"
    write_numbered_skills(ws, SKILLS)
    last = f"skill-{SKILLS - 1:05d}"
    write_file(ws, f".agents/skills/{last}/SKILL.md", f"---\nname: {last}\ndescription: Shared.\n---\n")
    return ws


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    return ["env", "CLARVIS_LSP_TEST_REQUESTS=1", "CLARVIS_LSP_SCAN_HELPERS=1", sys.executable, "-m", "clarvis_lsp"]


@pytest.fixture(scope="module")
def initial_folder(large_workspace: Path) -> Path:
    return large_workspace


@pytest.fixture
def workspace(large_workspace: Path) -> Path:
    return large_workspace


async def test_the_helper_waits_from_initialized_and_the_first_scan_takes_it(
    client: ClarvisClient, workspace: Path
) -> None:
    before = await custom_request(client, "clarvis/test/serverState", {})
    assert before["helpersAhead"] == 1, before  # started at initialized: no document is open, no scan has run
    assert before["scans"] == 0, before
    last = f"skill-{SKILLS - 1:05d}"
    loser = workspace / f".agents/skills/{last}/SKILL.md"
    open_document(client, loser)
    found = await diagnostics_for(client, loser, lambda codes: "discovery/shadowed" in codes)
    shadowed = [item for item in found if item.code == "discovery/shadowed"]
    assert len(shadowed) == 1  # the scan the helper shared read the whole root: the winner was found
    related = shadowed[0].related_information
    assert related is not None
    assert related[0].location.uri == (workspace / f".clarvis/skills/{last}/SKILL.md").as_uri()
    await client.quiesce()
    after = await custom_request(client, "clarvis/test/serverState", {})
    assert after["helpersAhead"] == 0, after  # taken by the first scan, and stopped with it
    assert after["scans"] == 0, after


@pytest.mark.parametrize("linked", [False, True])
def test_no_helper_starts_for_small_roots_or_a_root_reached_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, large_workspace: Path, linked: bool
) -> None:
    """A folder whose conventional roots are small starts no helper; nor does a large root reached through a
    symbolic link, which a scan that follows no links would not read (the scan then decides for itself)."""
    monkeypatch.setenv("CLARVIS_LSP_SCAN_HELPERS", "1")
    small = tmp_path / "small"
    write_file(small, ".clarvis/skills/one/SKILL.md", "---\nname: one\ndescription: One.\n---\n")
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / ".clarvis").symlink_to(large_workspace / ".clarvis", target_is_directory=True)
    session = Session(lambda: DocumentStore(None), client=None)  # type: ignore[arg-type]
    session.home = tmp_path / "home"
    session.folders = [folder if linked else small]
    session.start_scan_helpers()
    assert session.helpers_ahead is None
    session.folders = [large_workspace]  # the same check, with a root that is large and reached without a link
    session.start_scan_helpers()
    ahead = session.helpers_ahead
    assert ahead is not None
    assert len(ahead.helpers) == 1
    ahead.close()


@pytest.mark.parametrize("error", [PermissionError(13, "Permission denied"), ValueError("embedded null byte")])
def test_a_root_that_cannot_be_looked_at_starts_no_helper_and_raises_nothing(
    monkeypatch: pytest.MonkeyPatch, large_workspace: Path, error: Exception
) -> None:
    """``initialized`` calls this before anything else: a home directory the server may not look into, or a folder
    whose name the system refuses, must not fail it."""
    monkeypatch.setenv("CLARVIS_LSP_SCAN_HELPERS", "1")

    def refused(_path: Path) -> bool:
        raise error

    monkeypatch.setattr(Path, "is_symlink", refused)
    assert start_for_folders([large_workspace], large_workspace.parent / "home") is None
