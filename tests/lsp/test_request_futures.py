"""Memory stays flat over a long editing session (SPEC §8): a handled message leaves nothing behind.

pygls 2.1.1 keeps the future of every notification it handles (``didOpen``, each ``didChange``, ``didSave``,
``didClose``, ``initialized``) in ``JsonRPCProtocol._request_futures`` for ever: about 2 KB per keystroke. The
server's protocol forgets a future once its handler is done. This drives the server's protocol object in-process
(messages in as the reader structures them, answers out through a writer) so the table can be looked at; RSS over
20,000 edits is measured by ``benchmarks/bench_server.py --soak``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from clarvis_lsp.server import create_server

EDITS = 300


class Collected:
    """A writer keeping what the server sends."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def close(self) -> None:
        pass


async def test_no_future_outlives_its_handler(tmp_path: Path) -> None:
    skill = tmp_path / ".clarvis/skills/review/SKILL.md"
    skill.parent.mkdir(parents=True)
    text = "---\nname: review\ndescription: Reviews.\n---\n"
    skill.write_text(text, encoding="utf-8")
    server = create_server()
    protocol = server.protocol
    writer = Collected()
    protocol.set_writer(writer)

    def send(message: dict[str, Any]) -> None:
        protocol.handle_message(
            json.loads(json.dumps({"jsonrpc": "2.0", **message}), object_hook=protocol.structure_message)
        )

    async def idle() -> None:
        for _ in range(50):
            await asyncio.sleep(0)
        while server.session.scans:
            await asyncio.wait(list(server.session.scans.values()))

    uri = skill.as_uri()
    send({"id": 1, "method": "initialize", "params": {"rootUri": tmp_path.as_uri(), "capabilities": {}}})
    send({"method": "initialized", "params": {}})
    item = {"uri": uri, "languageId": "markdown", "version": 1, "text": text}
    send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
    await idle()
    for version in range(2, EDITS + 2):
        at = {"line": 2, "character": 13}
        change = {"range": {"start": at, "end": at}, "text": "x"}
        send(
            {
                "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
            }
        )
        if version % 50 == 0:
            send(
                {
                    "id": version,
                    "method": "textDocument/hover",
                    "params": {"textDocument": {"uri": uri}, "position": at},
                }
            )
            await idle()
    send({"method": "textDocument/didSave", "params": {"textDocument": {"uri": uri}}})
    send({"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
    await idle()
    assert len(server.session.buffers) == 0 and server.workspace.text_documents == {}  # every message was handled...
    assert b'"id": 300' in b"".join(writer.sent)
    assert protocol._request_futures == {}  # ...and none left its future behind
