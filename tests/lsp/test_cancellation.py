"""Cancelling a long request (SPEC §9), through the protocol under both capability sets, in a workspace of 4,000
generated 44-line skills (``benchmarks/generate.py``): ``workspace/diagnostic`` and ``workspace/symbol`` sent while
the first scan runs, and ``workspace/diagnostic`` once it has ended (seconds of checking every file), are each
cancelled with ``$/cancelRequest`` right after they are sent. Each gets its answer promptly: ``RequestCancelled``
(-32800), since each is still running when the cancel arrives (a request that checked every file without letting
the event loop read the cancel would answer with its full result, late). The server goes on answering, the same
requests uncancelled included."""

from __future__ import annotations

import asyncio
import importlib.util
import time
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient
from lsprotocol import types
from pygls.exceptions import JsonRpcException

GENERATE = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"
SKILLS = 4000  # in the workspace's two roots (the generator writes as many again in the personal roots)
REQUEST_CANCELLED = -32800


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    spec = importlib.util.spec_from_file_location("benchmark_generate", GENERATE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    workspace, _home = module.generate(tmp_path_factory.mktemp("cancel") / "corpus", 2 * SKILLS)
    assert isinstance(workspace, Path)
    return workspace


@pytest.fixture
def workspace(big_workspace: Path) -> Path:
    return big_workspace


async def cancelled_at_once(client: ClarvisClient, method: str, params: Any, msg_id: str) -> tuple[Any, float]:
    """Send ``method`` and, right behind it, ``$/cancelRequest`` for it; the answer (a result, or the error) and
    how long after the cancel it came."""
    future = client.protocol.send_request(method, params, msg_id=msg_id)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
    sent = time.monotonic()
    try:
        answer: Any = await asyncio.wait_for(asyncio.wrap_future(future), 30)
    except JsonRpcException as error:
        answer = error
    return answer, time.monotonic() - sent


def error_code(answer: Any) -> int | None:
    return answer.code if isinstance(answer, JsonRpcException) else None


async def hover_answered(client: ClarvisClient, path: Path) -> bool:
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(1, 1)
            )
        ),
        10,
    )
    return hover is not None and "name" in str(hover.contents).lower()


async def test_long_requests_are_cancelled_promptly_and_the_server_goes_on(
    client: ClarvisClient, workspace: Path
) -> None:
    skill = next((workspace / ".clarvis/skills").glob("*/SKILL.md"))
    everything = types.WorkspaceDiagnosticParams(previous_result_ids=[])

    # While the first scan runs: the wait for the scan is what is cancelled (the scan itself goes on).
    during_scan, waited = await cancelled_at_once(client, types.WORKSPACE_DIAGNOSTIC, everything, "during-scan")
    assert error_code(during_scan) == REQUEST_CANCELLED, during_scan
    assert waited < 5
    symbols, waited = await cancelled_at_once(
        client, types.WORKSPACE_SYMBOL, types.WorkspaceSymbolParams(query="skill"), "symbols-during-scan"
    )
    assert error_code(symbols) == REQUEST_CANCELLED or isinstance(symbols, list), symbols
    assert waited < 5
    assert await hover_answered(client, skill)

    # Uncancelled, the pull checks every file: seconds of work.
    started = time.monotonic()
    full = await asyncio.wait_for(client.workspace_diagnostic_async(everything), 120)
    full_seconds = time.monotonic() - started
    assert len(full.items) >= SKILLS

    # Once the scan has ended, the checking itself is cancelled: between two slices of files the cancel is read.
    after_scan, waited = await cancelled_at_once(client, types.WORKSPACE_DIAGNOSTIC, everything, "after-scan")
    assert error_code(after_scan) == REQUEST_CANCELLED, f"answered {type(after_scan).__name__} after {waited:.2f} s"
    assert waited < max(1.0, full_seconds / 2), (waited, full_seconds)

    # The server keeps answering: a hover, symbols, and the same pull uncancelled.
    assert await hover_answered(client, skill)
    found = await asyncio.wait_for(client.workspace_symbol_async(types.WorkspaceSymbolParams(query="skill-000001")), 30)
    assert found and found[0].name == "skill-000001"
    again = await asyncio.wait_for(client.workspace_diagnostic_async(everything), 120)
    assert {item.uri for item in again.items} == {item.uri for item in full.items}
