"""A long-lived server accumulates nothing per rescan: no object frozen out of the collector's reach (the first
scan's records are frozen, and the next scan thaws them: freezing each configuration change's scan made it
permanent), and no first-scan state left behind by engines that were replaced (that state was keyed by
``id(engine)``: a later engine reusing a freed id inherited it). And it holds one copy of each open document, the
client's: the text the features read is the document pygls holds.

The server runs with ``CLARVIS_LSP_TEST_REQUESTS=1``, which adds the test-only request
``clarvis/test/serverState`` (no editor can reach it without that environment variable)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, open_document, write_file
from lsprotocol import types


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    return ["env", "CLARVIS_LSP_TEST_REQUESTS=1", sys.executable, "-m", "clarvis_lsp"]


async def server_state(client: ClarvisClient, uri: str | None = None) -> dict[str, Any]:
    params = {} if uri is None else {"uri": uri}
    answer: Any = await client.protocol.send_request_async("clarvis/test/serverState", params)  # type: ignore[no-untyped-call]
    state: dict[str, Any] = answer if isinstance(answer, dict) else answer._asdict()  # pygls answers a named tuple
    return state


async def test_configuration_changes_rescan_without_freezing_or_keeping_scan_state(
    client: ClarvisClient, workspace: Path
) -> None:
    open_document(client, workspace / ".clarvis/skills/review/SKILL.md")
    await client.quiesce()
    first = await server_state(client)
    assert first["gcFrozen"] > 0, first  # the first scan's records: never walked by the collector again
    for strict in (True, False, True, False):
        # Each change replaces the workspace's engine, whose first scan runs again in the background.
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"clarvis": {"includeUser": False, "strict": strict}})
        )
        await client.quiesce()
    state = await server_state(client)
    assert state["gcFrozen"] == 0, state
    assert (state["scans"], state["scanWaiting"], state["scanFailed"]) == (0, 0, 0), state
    assert state["engines"] >= 1, state


async def test_one_copy_of_each_open_document_equal_to_the_clients(client: ClarvisClient, workspace: Path) -> None:
    """An edit below a lone CR and a U+2028 (where ``str.splitlines`` counts lines LSP does not) lands where the
    client put it, in the one copy the server holds; a README.md is synced but is no buffer; a closed document is
    held nowhere."""
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    readme = write_file(workspace, "README.md", "# Notes\n")
    text = "---\nname: review\ndescription: Reviews changes.\n---\nOne\u2028two\rthree\u0085four\n"
    open_document(client, skill, text)
    open_document(client, readme)
    at = types.Position(line=5, character=5)  # after "three", on the line the lone CR starts
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=skill.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="X")],
        )
    )
    held = await server_state(client, skill.as_uri())
    assert held["text"] == "---\nname: review\ndescription: Reviews changes.\n---\nOne\u2028two\rthreeX\u0085four\n"
    assert (held["version"], held["copies"]) == (2, 1), held
    assert (held["openDocuments"], held["buffers"]) == (2, 1), held
    other = await server_state(client, readme.as_uri())
    assert (other["text"], other["version"], other["copies"]) == (None, 1, 1), other  # pygls's copy alone
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=skill.as_uri()))
    )
    closed = await server_state(client, skill.as_uri())
    assert (closed["text"], closed["version"], closed["copies"]) == (None, None, 0), closed
    assert (closed["openDocuments"], closed["buffers"]) == (1, 0), closed
