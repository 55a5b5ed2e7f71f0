"""``workspace/executeCommand`` for the lens command ``clarvis.showLocations`` in a client that declares
``window.showDocument`` but answers ``window/showDocument`` with ``null`` (an editor that does not open
documents): the command is still answered, and its result says that nothing was shown.

Driven on the raw pipe: a client library would answer the server's request itself."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest
from lsp_wire import frame, read_message

SKILL = "---\nname: review\ndescription: Reviews changes.\n---\n"


TIMEOUT = 20.0  # seconds a message that must come may take


def _reader(stdout: IO[bytes]) -> queue.Queue[dict[str, Any] | None]:
    """The server's messages as they arrive, read on a thread so that a missing answer fails instead of hanging."""
    arrived: queue.Queue[dict[str, Any] | None] = queue.Queue()

    def pump() -> None:
        while (read := read_message(stdout)) is not None:
            arrived.put(read[1])
        arrived.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return arrived


def _next(arrived: queue.Queue[dict[str, Any] | None], wanted: Any) -> dict[str, Any]:
    """The next message that ``wanted`` accepts, skipping the others."""
    while True:
        try:
            message = arrived.get(timeout=TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"no answer within {TIMEOUT} s") from None
        assert message is not None, "the server closed its output"
        if wanted(message):
            return message


@pytest.mark.parametrize("answer", [None, {}])
def test_a_null_show_document_answer_still_answers_the_command(tmp_path: Path, answer: object) -> None:
    ws = tmp_path / "ws"
    skill = ws / ".clarvis/skills/review/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL, encoding="utf-8")
    capabilities = {"window": {"showDocument": {"support": True}}}
    server = subprocess.Popen(
        [sys.executable, "-m", "clarvis_lsp", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert server.stdin is not None and server.stdout is not None
    arrived = _reader(server.stdout)
    try:
        send = server.stdin

        def post(message: dict[str, object]) -> None:
            send.write(frame({"jsonrpc": "2.0", **message}))
            send.flush()

        post(
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "processId": None,
                    "rootUri": ws.as_uri(),
                    "capabilities": capabilities,
                    "initializationOptions": {"includeUser": False},
                },
            }
        )
        _next(arrived, lambda message: message.get("id") == 1)
        post({"method": "initialized", "params": {}})
        location = {
            "uri": skill.as_uri(),
            "range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 12}},
        }
        post(
            {
                "id": 2,
                "method": "workspace/executeCommand",
                "params": {
                    "command": "clarvis.showLocations",
                    "arguments": [skill.as_uri(), {"line": 1, "character": 6}, [location]],
                },
            }
        )
        request = _next(arrived, lambda message: message.get("method") == "window/showDocument")
        assert request["params"]["uri"] == skill.as_uri()
        post({"id": request["id"], "result": answer})
        # Any other request the server makes meanwhile (configuration, progress) is answered with null too.
        while True:
            message = _next(arrived, lambda message: "id" in message)
            if message.get("id") == 2:
                break
            if "method" in message:
                post({"id": message["id"], "result": None})
        assert "error" not in message, message
        assert message["result"] is False  # nothing was shown
        post({"id": 3, "method": "shutdown"})
        _next(arrived, lambda message: message.get("id") == 3)
        post({"method": "exit"})
        assert server.wait(timeout=20) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
