"""The pygls 2 language server: each LSP method registered once (``methods.py``), fanning out to the engine.

One owner of state per workspace: ``clarvis_lsp.workspace.live.Workspace`` holds a workspace's engine
(configuration, discovery, cross-file findings), its first scan, the findings last published and the pull state,
and answers ``apply(change) -> Delta``. The session (``session.py``) holds the buffers, folders and settings and
one ``Workspace`` per directory; ``ClarvisServer`` (``app.py``) sends each delta out. Nothing else keeps state.

An exception inside one handler is logged to the client (``window/logMessage``) and answered as an error for
that request alone; the server keeps serving.

Importing this package imports nothing of the server: ``create_server`` imports the server class and the method
table when it runs, so a light module here (``capabilities``, ``edits``) is light to import on its own too.
"""

from __future__ import annotations

import os
import socket
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clarvis_lsp.server.app import ClarvisServer


def create_server() -> ClarvisServer:
    from clarvis_lsp.server.app import ClarvisServer
    from clarvis_lsp.server.features import sync
    from clarvis_lsp.server.methods import register_all

    server = ClarvisServer()
    register_all(server)
    if os.environ.get(sync.TEST_REQUESTS) == "1":  # tests' view of the server's text and state (sync.py)

        def server_state(params: Any) -> dict[str, object]:
            return sync.server_state(server, params)

        server.feature(sync.SERVER_STATE)(server_state)
    return server


def serve(kind: str = "stdio", *, host: str = "127.0.0.1", port: int = 0, pipe: str = "") -> int:
    """Serve LSP until the client exits: over stdio (default), over a socket or named pipe the client listens on
    (``socket``/``pipe``, ``--socket=PORT``, ``--pipe=NAME``: the server connects, then speaks stdio's framing over
    it), or listening on TCP or WebSocket (``tcp``/``ws``, ``--tcp``, ``--ws``)."""
    from clarvis_lsp.memory import started_up

    with started_up():
        server = create_server()
    if kind == "tcp":
        server.start_tcp(host, port)
    elif kind == "ws":
        server.start_ws(host, port)
    elif kind in ("socket", "pipe"):
        if kind == "socket":
            connection = socket.create_connection((host, port))
        else:
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(pipe)
        with connection, connection.makefile("rb") as reader, connection.makefile("wb") as writer:
            server.start_io(reader, writer)
    else:
        server.start_io()
    # LSP: exit after shutdown is a clean stop (0); exit without it, or a client gone, is not (1).
    return 0 if server.protocol._shutdown else 1
