"""``initialize`` is accepted once (SPEC §9, LSP "Initialize Request"), on the raw pipe a client speaks:

- a request before ``initialize`` gets ``-32002 ServerNotInitialized``, a notification before it is dropped,
  and ``exit`` before it still exits;
- a second ``initialize`` gets ``InvalidRequest`` and changes nothing: the position encoding the first one
  negotiated and the open documents (with their edits) stay;
- ``shutdown`` is answered while a handler still waits for the client (``initialized`` waiting for the answer to
  ``workspace/configuration``).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsp_wire import frame, read_message

SERVER_NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600


class Session:
    """``clarvis-lsp --stdio`` driven one message at a time."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.next_id = 0
        self.notifications: list[dict[str, Any]] = []
        self.answer_server = True  # whether the server's own requests are answered (with null)
        self.unanswered: list[dict[str, Any]] = []

    def send(self, message: dict[str, object]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(frame({"jsonrpc": "2.0", **message}))
        self.process.stdin.flush()

    def notify(self, method: str, params: object) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: object) -> dict[str, Any]:
        """Send a request; its response (the server's own requests are answered with null on the way)."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while (read := read_message(self.process.stdout)) is not None:
            message = read[1]
            if "method" in message and "id" in message:
                if self.answer_server:
                    self.send({"id": message["id"], "result": None})
                else:
                    self.unanswered.append(message)
            elif "method" in message:
                self.notifications.append(message)
            elif message.get("id") == self.next_id:
                return message
        raise AssertionError(f"the server closed its output before answering {method}")

    def close(self) -> int:
        if self.process.poll() is None:
            self.notify("exit", None)
        return self.process.wait(timeout=30)


@pytest.fixture
def session() -> Iterator[Session]:
    process = subprocess.Popen(
        [sys.executable, "-m", "clarvis_lsp", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    opened = Session(process)
    try:
        yield opened
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def initialize_params(root: Path, encodings: list[str]) -> dict[str, object]:
    return {
        "processId": None,
        "rootUri": root.as_uri(),
        "capabilities": {"general": {"positionEncodings": encodings}},
        "initializationOptions": {"clarvis": {"includeUser": False}},
    }


def test_a_request_before_initialize_is_refused_and_a_notification_dropped(session: Session, tmp_path: Path) -> None:
    skill = tmp_path / ".clarvis/skills/review/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: review\ndescription: Reviews.\n---\n", encoding="utf-8")
    hover = {"textDocument": {"uri": skill.as_uri()}, "position": {"line": 0, "character": 0}}
    answer = session.request("textDocument/hover", hover)
    assert answer["error"]["code"] == SERVER_NOT_INITIALIZED
    assert session.request("shutdown", None)["error"]["code"] == SERVER_NOT_INITIALIZED
    # Opened before initialize with a wrong name: dropped, so the file's findings are those of the disk.
    item = {"uri": skill.as_uri(), "languageId": "markdown", "version": 1, "text": "---\nname: wrong\n---\n"}
    session.notify("textDocument/didOpen", {"textDocument": item})
    assert "capabilities" in session.request("initialize", initialize_params(tmp_path, ["utf-16"]))["result"]
    session.notify("initialized", {})
    answer = session.request("textDocument/diagnostic", {"textDocument": {"uri": skill.as_uri()}})
    assert answer["result"]["items"] == []
    assert session.request("shutdown", None)["result"] is None
    assert session.close() == 0


def test_exit_before_initialize_exits(session: Session) -> None:
    assert session.close() == 1  # exit without shutdown


def test_a_second_initialize_is_refused_and_changes_nothing(session: Session, tmp_path: Path) -> None:
    skill = tmp_path / ".clarvis/skills/review/SKILL.md"
    skill.parent.mkdir(parents=True)
    text = "---\nname: 😀review\ndescription: Reviews.\n---\n"
    skill.write_text(text, encoding="utf-8")
    first = session.request("initialize", initialize_params(tmp_path, ["utf-8"]))
    assert first["result"]["capabilities"]["positionEncoding"] == "utf-8"
    session.notify("initialized", {})
    item = {"uri": skill.as_uri(), "languageId": "markdown", "version": 1, "text": text}
    session.notify("textDocument/didOpen", {"textDocument": item})
    again = session.request("initialize", initialize_params(tmp_path, ["utf-16"]))
    assert again["error"]["code"] == INVALID_REQUEST
    # The document is still open, its positions still counted in UTF-8: "😀" is 4 bytes (2 UTF-16 units, so
    # the same range read in UTF-16 would also delete "re").
    emoji = {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 10}}
    session.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": skill.as_uri(), "version": 2}, "contentChanges": [{"range": emoji, "text": ""}]},
    )
    answer = session.request("textDocument/diagnostic", {"textDocument": {"uri": skill.as_uri()}})
    assert answer["result"]["items"] == []  # "name: review" matches its directory
    assert session.request("shutdown", None)["result"] is None
    assert session.close() == 0


def test_shutdown_is_answered_while_a_handler_waits_for_the_client(session: Session, tmp_path: Path) -> None:
    params = initialize_params(tmp_path, ["utf-16"])
    params["capabilities"] = {"workspace": {"configuration": True}}
    session.request("initialize", params)
    session.answer_server = False
    session.notify("initialized", {})
    session.request(
        "textDocument/hover", {"textDocument": {"uri": "untitled:x"}, "position": {"line": 0, "character": 0}}
    )
    assert [message["method"] for message in session.unanswered] == ["workspace/configuration"]
    assert session.request("shutdown", None) == {"jsonrpc": "2.0", "id": session.next_id, "result": None}
    assert session.close() == 0
