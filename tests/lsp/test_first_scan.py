"""The first scan never blocks: with thousands of skills, a hover sent right after opening a file is answered while
the scan still runs (before its progress ends; the client holds the scan's progress token so this holds on any
machine), the progress is reported, and the cross-file findings arrive when the scan ends."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, items_of, open_document, write_file, write_numbered_skills
from lsprotocol import types

SKILLS = 4000


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("big") / "ws"
    write_numbered_skills(ws, SKILLS)
    write_file(ws, ".agents/skills/skill-00000/SKILL.md", "---\nname: skill-00000\ndescription: Shared.\n---\n")
    return ws


@pytest.fixture
def workspace(big_workspace: Path) -> Path:
    return big_workspace


@pytest.fixture(scope="module")
def client_configuration() -> dict[str, object]:
    return {"includeUser": False}


async def shown_codes(client: ClarvisClient, path: Path) -> list[str]:
    """What the client shows for ``path`` once the cross-file finding is there: pulled by Neovim (the server makes
    a pull wait for the scan, as Neovim cannot be asked to pull again), pushed to VS Code."""
    if is_neovim(client):
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        return [str(item.code) for item in items_of(report)]

    def pushed() -> list[str]:
        return [str(item.code) for item in client.diagnostics.get(path.as_uri(), [])]

    await client.wait_for(lambda: "discovery/shadowed" in pushed(), timeout=60)
    return pushed()


def _scan_ended(client: ClarvisClient) -> bool:
    return any(
        isinstance(report, types.WorkDoneProgressEnd)
        for token, reports in client.progress_reports.items()
        if str(token).startswith("clarvis-scan-")
        for report in reports
    )


async def test_hover_is_answered_while_the_first_scan_runs(client: ClarvisClient, workspace: Path) -> None:
    """Deterministic, whatever the machine's speed: the client holds its answer to the scan's
    ``window/workDoneProgress/create`` until the hover is answered, so the scan, begun by the open, cannot end
    before (a hover that waited for the scan would never be answered). Then the scan runs to its end."""
    loser = workspace / ".agents/skills/skill-00000/SKILL.md"
    window = client.capabilities.window if client.capabilities else None
    shows_progress = window is not None and bool(window.work_done_progress)
    gate = client.progress_gate = asyncio.Event()
    try:
        open_document(client, loser)
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(loser.as_uri()), types.Position(2, 3))
        )
        assert hover is not None and "description" in str(hover.contents).lower()
        if shows_progress:
            assert client.progress_requests == 1  # the scan had begun: it asked for its progress token...
            assert not _scan_ended(client)  # ...and is still waiting for it
    finally:
        client.progress_gate = None
        gate.set()
    assert await shown_codes(client, loser) == ["discovery/shadowed"]  # the cross-file finding
    if shows_progress:
        reports = [report for key, values in client.progress_reports.items() for report in values]
        assert any(isinstance(report, types.WorkDoneProgressBegin) for report in reports)
        assert any("Discovering skills…" in (getattr(report, "message", "") or "") for report in reports)
        await client.wait_for(lambda: _scan_ended(client))  # the progress ends after the findings are published
        assert _scan_ended(client)


async def test_unchanged_settings_do_not_start_a_second_scan(client: ClarvisClient, workspace: Path) -> None:
    """Settings that change nothing arrive while the first scan of the opened file's workspace runs (the answer to
    ``workspace/configuration`` after ``initialized`` often comes then): that scan goes on, and no second one starts
    beside it (that cost twice the time and the memory). The workspace is scanned once."""
    loser = workspace / ".agents/skills/skill-00000/SKILL.md"
    open_document(client, loser)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"clarvis": {"includeUser": False}})
    )
    assert await shown_codes(client, loser) == ["discovery/shadowed"]
    window = client.capabilities.window if client.capabilities else None
    if window is None or not window.work_done_progress:
        pytest.skip("the client shows no work-done progress")
    await client.wait_for(lambda: _scan_ended(client))
    begun = [
        report
        for token, reports in client.progress_reports.items()
        if str(token).startswith("clarvis-scan-")
        for report in reports
        if isinstance(report, types.WorkDoneProgressBegin)
    ]
    assert len(begun) == 1, begun


async def test_a_scan_the_settings_made_obsolete_stops(client: ClarvisClient, workspace: Path) -> None:
    """Settings that do change arrive while the first scan runs: that scan stops (its progress ends saying why)
    instead of running to its end beside the new one, and the file still gets its cross-file finding from the
    scan under the new settings.

    Deterministic, whatever the machine's speed: the client holds its answers to ``window/workDoneProgress/create``
    until the scan under the new settings has asked for its own token, so the first scan cannot end before the
    settings replaced it (a scan whose reading ended first is stopped all the same: what it read is obsolete)."""
    loser = workspace / ".agents/skills/skill-00000/SKILL.md"
    window = client.capabilities.window if client.capabilities else None
    shows_progress = window is not None and bool(window.work_done_progress)
    gate = client.progress_gate = asyncio.Event() if shows_progress else None
    changed = {"includeUser": False, "rules": {"skill/name-directory-mismatch": "off"}}
    asked_before = client.progress_requests
    try:
        open_document(client, loser)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"clarvis": changed}))
        if shows_progress:
            await client.wait_for(lambda: client.progress_requests == asked_before + 2)  # the second scan began
    finally:
        client.progress_gate = None
        if gate is not None:
            gate.set()
    assert await shown_codes(client, loser) == ["discovery/shadowed"]
    if not shows_progress:
        pytest.skip("the client shows no work-done progress")

    def ends() -> list[str]:
        return [
            getattr(report, "message", "") or ""
            for token, reports in client.progress_reports.items()
            if str(token).startswith("clarvis-scan-")
            for report in reports
            if isinstance(report, types.WorkDoneProgressEnd)
        ]

    await client.wait_for(lambda: len(ends()) == 2)
    assert sorted(ends()) == ["4000 skills", "stopped: the settings changed"]


async def test_the_first_scan_can_be_cancelled(client: ClarvisClient, workspace: Path) -> None:
    """The scan's progress is cancellable: cancelled from the client (VS Code's Cancel button on the notification),
    the scan stops and says so, the opened file keeps what it shows on its own and its requests are answered, and a
    save of a file of the workspace starts discovery again, which brings the cross-file finding."""
    window = client.capabilities.window if client.capabilities else None
    if window is None or not window.work_done_progress:
        pytest.skip("the client shows no work-done progress")
    loser = workspace / ".agents/skills/skill-00000/SKILL.md"

    def begun() -> list[tuple[types.ProgressToken, types.WorkDoneProgressBegin]]:
        found: list[tuple[types.ProgressToken, types.WorkDoneProgressBegin]] = []
        for token, reports in client.progress_reports.items():
            for report in reports:
                if str(token).startswith("clarvis-scan-") and isinstance(report, types.WorkDoneProgressBegin):
                    found.append((token, report))
        return found

    open_document(client, loser)
    await client.wait_for(lambda: bool(begun()))
    token, begin = begun()[0]
    assert begin.cancellable is True
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    await client.wait_for(lambda: _scan_ended(client))
    end = client.progress_reports[token][-1]
    assert isinstance(end, types.WorkDoneProgressEnd) and (end.message or "").startswith("cancelled"), end
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(loser.as_uri()), types.Position(2, 3))
    )
    assert hover is not None
    if is_neovim(client):  # pulled: what the file shows on its own, no wait for a scan that does not come
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=loser.as_uri()))
        )
        assert "discovery/shadowed" not in [str(item.code) for item in items_of(report)]
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(loser.as_uri())))
    assert await shown_codes(client, loser) == ["discovery/shadowed"]
