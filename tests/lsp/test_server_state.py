"""A long-lived server accumulates nothing per rescan: no object frozen out of the collector's reach (``gc.freeze``
made each configuration change's scan permanent), and no first-scan state left behind by engines that were
replaced (that state was keyed by ``id(engine)``: a later engine reusing a freed id inherited it).

The server runs with ``CLARVIS_LSP_TEST_REQUESTS=1``, which adds the test-only request
``clarvis/test/serverState`` (no editor can reach it without that environment variable)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, open_document
from lsprotocol import types


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    return ["env", "CLARVIS_LSP_TEST_REQUESTS=1", sys.executable, "-m", "clarvis_lsp"]


async def server_state(client: ClarvisClient) -> dict[str, Any]:
    answer: Any = await client.protocol.send_request_async("clarvis/test/serverState", {})  # type: ignore[no-untyped-call]
    state: dict[str, Any] = answer if isinstance(answer, dict) else answer._asdict()  # pygls answers a named tuple
    return state


async def test_configuration_changes_rescan_without_freezing_or_keeping_scan_state(
    client: ClarvisClient, workspace: Path
) -> None:
    open_document(client, workspace / ".clarvis/skills/review/SKILL.md")
    await client.quiesce()
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
