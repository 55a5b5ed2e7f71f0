"""Every request answered: malformed params get ``InvalidParams``, requests after ``shutdown`` get
``InvalidRequest``, ``exit`` without ``shutdown`` exits 1, and an out-of-date ``didChange`` is ignored."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, items_of, open_document, write_file
from lsp_wire import frame
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol.json_rpc import JsonRPCRequestMessage

SKILL = "---\nname: review\ndescription: Reviews.\nuser-invokable: true\n---\n"


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    return [sys.executable, "-m", "clarvis_lsp", "--stdio"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", SKILL)
    return ws


async def send_unchecked(client: ClarvisClient, method: str, params: Any) -> Any:
    """Send a request exactly as given: pytest-lsp and pygls would check and type its params first."""
    protocol = client.protocol
    msg_id = str(uuid.uuid4())
    future: Future[Any] = Future()
    protocol._request_futures[msg_id] = future
    protocol._send_data(JsonRPCRequestMessage(id=msg_id, method=method, jsonrpc="2.0", params=params))
    return await asyncio.wait_for(asyncio.wrap_future(future), 30)


def _malformed(uri: str) -> list[tuple[str, str, Any]]:
    """Eleven request shapes a confused or fuzzing client sends, each of which pygls alone never answered."""
    at = {"line": 0, "character": 0}
    return [
        ("missing position", types.TEXT_DOCUMENT_HOVER, {"textDocument": {"uri": uri}}),
        ("null params", types.TEXT_DOCUMENT_HOVER, None),
        (
            "negative line",
            types.TEXT_DOCUMENT_HOVER,
            {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}},
        ),
        (
            "negative character",
            types.TEXT_DOCUMENT_COMPLETION,
            {"textDocument": {"uri": uri}, "position": {"line": 0, "character": -3}},
        ),
        ("position as a string", types.TEXT_DOCUMENT_HOVER, {"textDocument": {"uri": uri}, "position": "0:0"}),
        ("missing textDocument", types.TEXT_DOCUMENT_DEFINITION, {"position": at}),
        (
            "textDocument without uri",
            types.TEXT_DOCUMENT_REFERENCES,
            {"textDocument": {}, "position": at, "context": {"includeDeclaration": True}},
        ),
        ("params as an array", types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, [uri]),
        ("missing range and context", types.TEXT_DOCUMENT_CODE_ACTION, {"textDocument": {"uri": uri}}),
        ("null textDocument", types.TEXT_DOCUMENT_DIAGNOSTIC, {"textDocument": None}),
        (
            "wrong type for context",
            types.TEXT_DOCUMENT_COMPLETION,
            {"textDocument": {"uri": uri}, "position": at, "context": "typing"},
        ),
    ]


async def test_malformed_requests_get_invalid_params(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, path)
    shapes = _malformed(path.as_uri())
    assert len(shapes) == 11
    for label, method, params in shapes:
        with pytest.raises(JsonRpcInvalidParams):
            await send_unchecked(client, method, params)
        # ...and the server goes on answering well-formed requests.
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(1, 1))
        )
        assert hover is not None, label


async def test_an_older_version_is_ignored(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, path, SKILL, version=5)

    def change(version: int, text: str) -> None:
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def codes() -> list[str]:
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        return [str(item.code) for item in items_of(report)]

    change(3, "---\nname: review\n---\n")  # stale: would drop the description
    assert await codes() == ["skill/unknown-field"]
    assert any("ignored a change" in message.message for message in client.log_messages)
    change(6, "---\nname: review\ndescription: Reviews.\n---\n")  # current: applied
    assert await codes() == []


def _session(*messages: dict[str, object]) -> subprocess.CompletedProcess[bytes]:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    stream = b"".join(frame(message) for message in (initialize, *messages))
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--stdio"], input=stream, capture_output=True, timeout=60, check=False
    )


def _responses(stdout: bytes) -> dict[object, dict[str, Any]]:
    found: dict[object, dict[str, Any]] = {}
    for chunk in stdout.split(b"Content-Length: ")[1:]:
        body = chunk.split(b"\r\n\r\n", 1)[1]
        message = json.loads(body)
        if "id" in message:
            found[message["id"]] = message
    return found


def test_requests_after_shutdown_get_invalid_request_and_exit_is_clean() -> None:
    hover = {"textDocument": {"uri": "file:///nowhere/SKILL.md"}, "position": {"line": 0, "character": 0}}
    done = _session(
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": hover},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    )
    answers = _responses(done.stdout)
    assert answers[2]["result"] is None
    assert answers[3]["error"]["code"] == -32600  # InvalidRequest
    assert done.returncode == 0


def test_exit_without_shutdown_exits_1() -> None:
    done = _session({"jsonrpc": "2.0", "method": "exit", "params": None})
    assert 1 in _responses(done.stdout)
    assert done.returncode == 1


def test_a_cancel_for_an_answered_request_logs_nothing() -> None:
    done = _session(
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 1}},  # initialize was answered already
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    )
    assert done.returncode == 0
    assert b"window/logMessage" not in done.stdout and b"Cancel notification" not in done.stderr
