"""The pygls 2 language server: each LSP method registered once here, fanning out to the engine.

An exception inside one handler is logged to the client (``window/logMessage``) and answered as an error for
that request alone; the server keeps serving.
"""

from __future__ import annotations

from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.features import register_all


def create_server() -> ClarvisServer:
    server = ClarvisServer()
    register_all(server)
    return server


def serve(*, tcp: bool = False, ws: bool = False, host: str = "127.0.0.1", port: int = 2087) -> int:
    """Serve LSP over stdio (default), TCP or WebSocket until the client exits."""
    server = create_server()
    if tcp:
        server.start_tcp(host, port)
    elif ws:
        server.start_ws(host, port)
    else:
        server.start_io()
    return 0
