"""The server started the way language clients start it: ``--stdio``, ``--socket=PORT``, ``--pipe=NAME``.

vscode-languageclient appends one of these flags to the command of an executable server; for ``--socket`` and
``--pipe`` the *client* listens and the server connects to it. These tests play that client over real sockets.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_wire import frame

SERVER = [sys.executable, "-m", "clarvis_lsp"]


def _read_message(stream: socket.socket) -> dict[str, object]:
    """One JSON-RPC message from the stream (headers, blank line, body)."""
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        chunk = stream.recv(1)
        if not chunk:
            raise EOFError("the server closed the connection")
        header += chunk
    length = next(
        int(line.split(b":")[1]) for line in header.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    body = b""
    while len(body) < length:
        body += stream.recv(length - len(body))
    message: dict[str, object] = json.loads(body)
    return message


def _handshake(connection: socket.socket, root: Path) -> dict[str, object]:
    """initialize → the result; then shutdown and exit, as a client does."""
    connection.settimeout(30)
    connection.sendall(
        frame(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}},
            }
        )
    )
    while True:
        message = _read_message(connection)
        if message.get("id") == 1:
            break
    connection.sendall(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    connection.sendall(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None}))
    while _read_message(connection).get("id") != 2:
        pass
    connection.sendall(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
    return message


def _serve(listener: socket.socket, flag: str, root: Path) -> dict[str, object]:
    listener.listen(1)
    listener.settimeout(30)
    process = subprocess.Popen([*SERVER, flag], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        connection, _ = listener.accept()
        with connection:
            answer = _handshake(connection, root)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return answer


def test_socket_transport_connects_to_the_listening_client(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        answer = _serve(listener, f"--socket={port}", tmp_path)
    result = answer["result"]
    assert isinstance(result, dict) and result["serverInfo"]["name"] == "clarvis-lsp"


def test_pipe_transport_connects_to_the_named_pipe(tmp_path: Path) -> None:
    name = str(tmp_path / "clarvis.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(name)
        answer = _serve(listener, f"--pipe={name}", tmp_path)
    result = answer["result"]
    assert isinstance(result, dict) and "textDocumentSync" in result["capabilities"]


def test_stdio_flag_serves_over_stdio(tmp_path: Path) -> None:
    request = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    shutdown = frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    exit_ = frame({"jsonrpc": "2.0", "method": "exit", "params": None})
    done = subprocess.run(
        [*SERVER, "--stdio"], input=request + shutdown + exit_, capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert b'"serverInfo"' in done.stdout and b'"id": 2' in done.stdout


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--node-ipc"], "--node-ipc is a Node.js channel"),
        (["--stdio", "--tcp"], "choose one transport, not --stdio and --tcp"),
    ],
)
def test_transports_it_cannot_serve_are_one_line_errors(flags: list[str], message: str) -> None:
    done = subprocess.run([*SERVER, *flags], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_never_start_a_server(flag: str) -> None:
    # stdin stays open: a server would wait on it forever, so returning at all proves none started.
    process = subprocess.Popen([*SERVER, flag], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.wait(timeout=60) == 0  # stdin still open
    finally:
        process.kill()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.close()
    out = process.stdout.read()
    assert ("clarvis-lsp 0." in out) if flag == "--version" else ("--stdio" in out and "--check" in out)
