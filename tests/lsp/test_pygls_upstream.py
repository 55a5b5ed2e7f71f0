"""The pygls defects ``ClarvisProtocol`` works around (``clarvis_lsp/server/protocol.py``) are still in pygls.

Each test drives plain pygls (``LanguageServer`` with its own ``LanguageServerProtocol``) in-process, messages fed
as pygls's reader feeds them, and asserts the defect is there; when a pygls release fixes it, the test fails and its
message says which override to remove. Each test then drives the same messages through ``ClarvisProtocol``, which
must not show the defect: the probe tells a fixed pygls from this one (and the override is still doing its work).
``pyproject.toml`` pins pygls so that these run before a new release is used.
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import Future
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter

from clarvis_lsp.server.protocol import ClarvisProtocol

PLAIN = LanguageServerProtocol
OURS = ClarvisProtocol
URI = "file:///ws/.clarvis/skills/review/SKILL.md"
AT = {"line": 0, "character": 0}
HOVER = {"textDocument": {"uri": URI}, "position": AT}
CONVERTER = default_converter()  # type: ignore[no-untyped-call]  # one for all: cattrs builds its code once


class Wire:
    """A pygls ``LanguageServer`` with the given protocol, fed messages as ``pygls.io_`` feeds them; what the
    server writes is kept, one parsed message per write."""

    def __init__(self, protocol_cls: type[LanguageServerProtocol]) -> None:
        self.server = LanguageServer(
            "pygls-upstream", "0", protocol_cls=protocol_cls, converter_factory=lambda: CONVERTER
        )
        self.protocol = self.server.protocol
        self.sent: list[dict[str, Any]] = []
        self.protocol.set_writer(self, include_headers=False)

    def write(self, data: bytes) -> None:
        self.sent.append(json.loads(data))

    def close(self) -> None:
        pass

    def send(self, message: dict[str, Any]) -> None:
        """As ``pygls.io_.run_async``: structure, handle, and report an exception to the server (which logs it and
        shows it to the user; nothing answers the message)."""
        protocol = self.protocol
        body = json.dumps({"jsonrpc": "2.0", **message})
        try:
            protocol.handle_message(json.loads(body, object_hook=protocol.structure_message))
        except Exception as error:
            self.server._report_server_error(error, JsonRpcException)

    def answer(self, msg_id: object) -> dict[str, Any] | None:
        """The server's answer to the client's request ``msg_id``, if it sent one."""
        found = [m for m in self.sent if m.get("id") == msg_id and "method" not in m]
        return found[-1] if found else None

    def initialize(self) -> None:
        self.send({"id": "init", "method": "initialize", "params": {"capabilities": {}}})
        self.send({"method": "initialized", "params": {}})

    def open(self, text: str, version: int = 1) -> None:
        item = {"uri": URI, "languageId": "markdown", "version": version, "text": text}
        self.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})

    def change(self, version: int, *changes: dict[str, Any], uri: str = URI) -> None:
        params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": list(changes)}
        self.send({"method": "textDocument/didChange", "params": params})

    def text(self) -> str:
        return self.protocol.workspace.get_text_document(URI).source


def with_hover(protocol_cls: type[LanguageServerProtocol]) -> Wire:
    """A server answering ``textDocument/hover`` with ``null``, so a request it does handle has a handler."""
    wire = Wire(protocol_cls)

    @wire.server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> None:
        return None

    return wire


# -- structure_message, handle_message: unreadable messages ------------------------------------------------------


def _unreadable_request(protocol_cls: type[LanguageServerProtocol]) -> dict[str, Any] | None:
    wire = with_hover(protocol_cls)
    wire.initialize()
    wire.send({"id": 7, "method": "textDocument/hover", "params": {"textDocument": {"uri": URI}}})  # no position
    return wire.answer(7)


def test_a_request_with_unreadable_params_is_never_answered() -> None:
    assert _unreadable_request(PLAIN) is None, (
        "pygls now answers a request whose params do not match the LSP types: remove the UnreadableMessage of "
        "ClarvisProtocol.structure_message and its branch in ClarvisProtocol.handle_message"
    )
    assert _unreadable_request(OURS) == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": -32602, "message": "textDocument/hover: the params do not match the LSP types"},
    }


def _unreadable_result(protocol_cls: type[LanguageServerProtocol]) -> Future[Any]:
    wire = Wire(protocol_cls)
    wire.initialize()
    waiting = wire.protocol.send_request(types.WINDOW_SHOW_DOCUMENT, types.ShowDocumentParams(uri=URI))
    wire.send({"id": wire.sent[-1]["id"], "result": None})  # a ShowDocumentResult is an object
    return waiting


def test_a_result_of_the_wrong_type_leaves_the_server_request_waiting() -> None:
    assert not _unreadable_result(PLAIN).done(), (
        "pygls now settles a server request whose result does not match the LSP type: remove the response branch of "
        "ClarvisProtocol.structure_message"
    )
    settled = _unreadable_result(OURS)
    assert settled.done() and settled.result() is None


# -- handle_message: after shutdown ------------------------------------------------------------------------------


def _request_after_shutdown(protocol_cls: type[LanguageServerProtocol]) -> dict[str, Any] | None:
    wire = with_hover(protocol_cls)
    wire.initialize()
    wire.send({"id": 2, "method": "shutdown", "params": None})
    assert wire.answer(2) == {"jsonrpc": "2.0", "id": 2, "result": None}
    wire.send({"id": 3, "method": "textDocument/hover", "params": HOVER})
    return wire.answer(3)


def test_a_request_after_shutdown_is_never_answered() -> None:
    assert _request_after_shutdown(PLAIN) is None, (
        "pygls now answers a request after shutdown: remove the shutdown branch of ClarvisProtocol.handle_message"
    )
    answer = _request_after_shutdown(OURS)
    assert answer is not None and answer["error"]["code"] == -32600  # InvalidRequest


# -- _accepts_before_initialize ----------------------------------------------------------------------------------


def _shutdown_before_initialize(protocol_cls: type[LanguageServerProtocol]) -> dict[str, Any] | None:
    wire = Wire(protocol_cls)
    wire.send({"id": 1, "method": "shutdown", "params": None})
    return wire.answer(1)


def test_a_request_before_initialize_is_handled() -> None:
    assert _shutdown_before_initialize(PLAIN) == {"jsonrpc": "2.0", "id": 1, "result": None}, (
        "pygls now refuses a request before initialize: remove that part of ClarvisProtocol._accepts_before_initialize"
    )
    answer = _shutdown_before_initialize(OURS)
    assert answer is not None and answer["error"]["code"] == -32002  # ServerNotInitialized


def _trace_set_before_initialize(protocol_cls: type[LanguageServerProtocol]) -> types.TraceValue:
    wire = Wire(protocol_cls)
    wire.send({"method": "$/setTrace", "params": {"value": "verbose"}})
    return wire.protocol.trace


def test_a_notification_before_initialize_is_handled() -> None:
    assert _trace_set_before_initialize(PLAIN) == types.TraceValue.Verbose, (
        "pygls now drops a notification before initialize: remove that part of "
        "ClarvisProtocol._accepts_before_initialize"
    )
    assert _trace_set_before_initialize(OURS) == types.TraceValue.Off


def _second_initialize(protocol_cls: type[LanguageServerProtocol]) -> tuple[dict[str, Any] | None, int]:
    wire = Wire(protocol_cls)
    wire.initialize()
    wire.open("---\nname: review\n---\n")
    wire.send({"id": "again", "method": "initialize", "params": {"capabilities": {}}})
    return wire.answer("again"), len(wire.protocol.workspace.text_documents)


def test_a_second_initialize_replaces_the_workspace() -> None:
    answer, open_documents = _second_initialize(PLAIN)
    assert answer is not None and "result" in answer and open_documents == 0, (
        "pygls now refuses a second initialize or keeps the workspace: remove that part of "
        "ClarvisProtocol._accepts_before_initialize"
    )
    answer, open_documents = _second_initialize(OURS)
    assert answer is not None and answer["error"]["code"] == -32600 and open_documents == 1


# -- _execute_handler --------------------------------------------------------------------------------------------


def _futures_after_edits(protocol_cls: type[LanguageServerProtocol]) -> int:
    wire = Wire(protocol_cls)
    wire.initialize()
    wire.open("")
    for version in range(2, 12):
        wire.change(version, {"range": {"start": AT, "end": AT}, "text": "x"})
    return len(wire.protocol._request_futures)


def test_every_notification_leaves_its_future_behind() -> None:
    kept = _futures_after_edits(PLAIN)
    assert kept >= 10, (
        f"pygls now forgets a finished notification's future ({kept} left after 12 notifications): remove "
        "ClarvisProtocol._execute_handler (and the copy in ClarvisProtocol.lsp_shutdown if pygls walks a copy too)"
    )
    assert _futures_after_edits(OURS) == 0


# -- _handle_response --------------------------------------------------------------------------------------------


def _result_type_after_error(protocol_cls: type[LanguageServerProtocol]) -> bool:
    wire = Wire(protocol_cls)
    wire.initialize()
    wire.protocol.send_request(types.WINDOW_SHOW_DOCUMENT, types.ShowDocumentParams(uri=URI))
    msg_id = wire.sent[-1]["id"]
    wire.send({"id": msg_id, "error": {"code": -32603, "message": "the client failed"}})
    return msg_id in wire.protocol._result_types


def test_an_error_response_leaves_its_result_type_behind() -> None:
    assert _result_type_after_error(PLAIN), (
        "pygls now forgets the result type of a request answered with an error: remove ClarvisProtocol._handle_response"
    )
    assert not _result_type_after_error(OURS)


# -- _handle_cancel_notification ---------------------------------------------------------------------------------


def _cancel_after_answer(protocol_cls: type[LanguageServerProtocol], caplog: pytest.LogCaptureFixture) -> list[str]:
    wire = with_hover(protocol_cls)
    wire.initialize()
    wire.send({"id": 4, "method": "textDocument/hover", "params": HOVER})
    assert wire.answer(4) == {"jsonrpc": "2.0", "id": 4, "result": None}
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="pygls"):
        wire.send({"method": "$/cancelRequest", "params": {"id": 4}})
    return [record.getMessage() for record in caplog.records]


def test_a_cancel_for_an_answered_request_is_warned_about(caplog: pytest.LogCaptureFixture) -> None:
    assert _cancel_after_answer(PLAIN, caplog) == ['Cancel notification for unknown message id "4"'], (
        "pygls no longer warns about a cancel for a request it answered: remove ClarvisProtocol."
        "_handle_cancel_notification"
    )
    assert _cancel_after_answer(OURS, caplog) == []


# -- lsp_shutdown ------------------------------------------------------------------------------------------------


async def _shutdown_while_pending(protocol_cls: type[LanguageServerProtocol]) -> dict[str, Any] | None:
    wire = Wire(protocol_cls)
    release = asyncio.Event()

    @wire.server.command("wait")
    async def wait(*args: Any) -> None:
        await release.wait()

    wire.initialize()
    wire.send({"id": 5, "method": "workspace/executeCommand", "params": {"command": "wait", "arguments": []}})
    await asyncio.sleep(0)  # the command is running, its request pending
    wire.send({"id": 6, "method": "shutdown", "params": None})
    release.set()
    await asyncio.sleep(0)
    return wire.answer(6)


async def test_shutdown_with_a_request_pending_fails() -> None:
    answer = await _shutdown_while_pending(PLAIN)
    error = (answer or {}).get("error") or {}
    assert "dictionary changed size during iteration" in error.get("message", ""), (
        f"pygls now shuts down with a request pending ({answer}): remove ClarvisProtocol.lsp_shutdown"
    )
    assert await _shutdown_while_pending(OURS) == {"jsonrpc": "2.0", "id": 6, "result": None}


# -- lsp_text_document__did_change -------------------------------------------------------------------------------


def _edit_below_a_line_separator(protocol_cls: type[LanguageServerProtocol]) -> str:
    wire = Wire(protocol_cls)
    wire.initialize()
    wire.open("a\u2028b\nc\n")  # LSP: two lines, "a\u2028b" and "c"
    line_1 = {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 1}}
    wire.change(2, {"range": line_1, "text": "X"})
    return wire.text()


def test_a_change_is_applied_to_the_lines_of_str_splitlines() -> None:
    assert _edit_below_a_line_separator(PLAIN) == "a\u2028X\nc\n", (
        "pygls now reads a change's lines by LSP's line ends: ClarvisProtocol.lsp_text_document__did_change no longer "
        "needs clarvis_lsp.server.edits (remove the override once the other did_change tests fail too)"
    )
    assert _edit_below_a_line_separator(OURS) == "a\u2028b\nX\n"


def _stale_change(protocol_cls: type[LanguageServerProtocol]) -> str:
    wire = Wire(protocol_cls)
    wire.initialize()
    wire.open("current\n", version=5)
    wire.change(3, {"text": "stale\n"})
    return wire.text()


def test_a_change_older_than_the_document_is_applied() -> None:
    assert _stale_change(PLAIN) == "stale\n", (
        "pygls now ignores a change older than the document: ClarvisProtocol.lsp_text_document__did_change no longer "
        "needs its version check (remove the override once the other did_change tests fail too)"
    )
    assert _stale_change(OURS) == "current\n"


def _change_to_a_closed_document(protocol_cls: type[LanguageServerProtocol]) -> list[str]:
    wire = Wire(protocol_cls)
    wire.initialize()
    wire.sent.clear()
    wire.change(2, {"text": "x"}, uri="file:///ws/never-opened.md")
    return [message["method"] for message in wire.sent if "method" in message]


def test_a_change_to_a_document_not_open_is_shown_as_a_server_error() -> None:
    assert _change_to_a_closed_document(PLAIN) == [types.WINDOW_SHOW_MESSAGE], (
        "pygls no longer shows an error for a change to a document that is not open: "
        "ClarvisProtocol.lsp_text_document__did_change no longer needs its check (remove the override once the "
        "other did_change tests fail too)"
    )
    assert _change_to_a_closed_document(OURS) == [types.WINDOW_LOG_MESSAGE]
