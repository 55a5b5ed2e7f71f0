"""The LSP base protocol on a raw pipe, for the tests that drive ``clarvis-lsp --stdio`` byte by byte (hostile
input, audited file access, malformed requests) where a client library would hide what the server sent."""

from __future__ import annotations

import json
from typing import IO, Any


def frame(message: dict[str, object]) -> bytes:
    """``message`` as JSON behind its ``Content-Length`` header."""
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream: IO[bytes]) -> tuple[bytes, dict[str, Any]] | None:
    """The next framed message: its bytes as sent (header and body) and the parsed body; None once the server
    has closed its output."""
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        byte = stream.read(1)
        if not byte:
            return None
        header += byte
    body = stream.read(int(header.split(b"Content-Length:")[1].split(b"\r\n")[0]))
    return header + body, json.loads(body)
