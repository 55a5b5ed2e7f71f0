"""The server's start-up imports are made with the collector paused and then frozen (``memory.started_up``): the
collections they triggered were a tenth of the time to the ``initialize`` answer. The server that answers has the
collector running again, and the start-up's objects out of its reach.

A module of its own: its server has run no scan (a later scan thaws what was frozen, ``kept_scan``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, custom_request


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    return ["env", "CLARVIS_LSP_TEST_REQUESTS=1", sys.executable, "-m", "clarvis_lsp"]


async def test_the_collector_runs_after_start_up_and_skips_its_imports(client: ClarvisClient, workspace: Path) -> None:
    state = await custom_request(client, "clarvis/test/serverState", {})
    assert state["gcEnabled"] is True, state  # the pause ended with the start-up
    assert state["gcFrozen"] > 10_000, state  # pygls's and lsprotocol's objects, and the handlers' table
    assert state["scans"] == 0, state
