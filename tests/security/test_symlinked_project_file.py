"""With symlinks off (``--no-follow-symlinks``, the editor's ``followSymlinks: false``) a symlinked
``.clarvis-lsp.toml`` or ``pyproject.toml`` is never opened (SPEC §9): the flag or the editor setting decides
before the file is read, the file gets ``discovery/symlink-ignored``, and nothing it holds reaches the user (a
value under a known key was echoed in ``config/invalid``: ``Invalid preset "…"``).

Observed by effect: ``audited_main.py`` logs every file the process opens; the counter-tests follow the link and
see the file read and its value reported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from lsp_wire import frame, read_message

AUDITED = str(Path(__file__).with_name("audited_main.py"))
SECRET = "private-value-7c1d"
PROJECT_FILES = {
    ".clarvis-lsp.toml": f'preset = "{SECRET}"\nstrict = "{SECRET}"\n',
    "pyproject.toml": f'[tool.clarvis-lsp]\npreset = "{SECRET}"\n',
}


def _tree(tmp_path: Path, name: str) -> tuple[Path, Path, Path]:
    """A workspace whose project file is a link to a file outside it; returns (workspace, link, target)."""
    ws = tmp_path / "ws"
    skill = ws / ".clarvis" / "skills" / "alpha" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: alpha\ndescription: Does a thing.\n---\nBody.\n", encoding="utf-8")
    target = tmp_path / "elsewhere" / name
    target.parent.mkdir()
    target.write_text(PROJECT_FILES[name], encoding="utf-8")
    link = ws / name
    link.symlink_to(target)
    (tmp_path / "home").mkdir()
    return ws, link, target


def _opened(log: Path) -> set[str]:
    return {line.split(" ", 1)[1] for line in log.read_text(encoding="utf-8").splitlines() if line.startswith("open ")}


def _check(ws: Path, log: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, AUDITED, "--check", ".", "--no-user", "--format", "json", *extra],
        cwd=ws,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(ws.parent / "home"), "CLARVIS_AUDIT_LOG": str(log)},
        check=False,
    )


@pytest.mark.parametrize("name", list(PROJECT_FILES))
def test_check_does_not_open_a_symlinked_project_file(tmp_path: Path, name: str) -> None:
    ws, _link, target = _tree(tmp_path, name)
    log = tmp_path / "audit.log"
    done = _check(ws, log, "--no-follow-symlinks")
    assert done.returncode == 0, done.stderr  # the defaults apply: no config/invalid, no exit 2
    assert SECRET not in done.stdout + done.stderr
    found = [(item["path"], item["code"]) for item in json.loads(done.stdout)["diagnostics"]]
    assert found == [(name, "discovery/symlink-ignored")]
    assert str(target) not in _opened(log)


@pytest.mark.parametrize("name", list(PROJECT_FILES))
def test_check_reads_the_linked_project_file_when_symlinks_are_followed(tmp_path: Path, name: str) -> None:
    ws, _link, target = _tree(tmp_path, name)
    log = tmp_path / "audit.log"
    done = _check(ws, log)
    assert done.returncode == 2
    assert "config/invalid" in done.stdout
    assert str(target) in _opened(log)


def _serve(ws: Path, log: Path, *, follow: bool) -> list[dict[str, Any]]:
    """A session that opens the skill and pulls its diagnostics; every message the server sent."""
    skill = ws / ".clarvis" / "skills" / "alpha" / "SKILL.md"
    document = {"uri": skill.as_uri()}
    messages: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "capabilities": {},
                "rootUri": ws.as_uri(),
                "workspaceFolders": [{"uri": ws.as_uri(), "name": "ws"}],
                "initializationOptions": {"clarvis": {"followSymlinks": follow}},
            },
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {**document, "languageId": "markdown", "version": 1, "text": skill.read_text()}},
        },
        {"jsonrpc": "2.0", "id": 10, "method": "textDocument/diagnostic", "params": {"textDocument": document}},
    ]
    process = subprocess.Popen(
        [sys.executable, AUDITED, "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "HOME": str(ws.parent / "home"), "CLARVIS_AUDIT_LOG": str(log)},
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout
    received: list[dict[str, Any]] = []

    def read() -> None:
        while (framed := read_message(stdout)) is not None:
            message = framed[1]
            received.append(message)
            if message.get("id") == 10 and "method" not in message:
                stdin.write(
                    frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
                    + frame({"jsonrpc": "2.0", "method": "exit", "params": None})
                )
                stdin.flush()
            elif "id" in message and "method" in message:  # a request from the server: answered empty
                stdin.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))
                stdin.flush()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    stdin.write(b"".join(frame(message) for message in messages))
    stdin.flush()
    try:
        process.wait(timeout=120)
    finally:
        process.kill()
    reader.join(timeout=30)
    return received


def _published(received: list[dict[str, Any]], path: Path) -> list[str]:
    return [
        diagnostic["code"]
        for message in received
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == path.as_uri()
        for diagnostic in message["params"]["diagnostics"]
    ]


def test_the_server_does_not_open_a_symlinked_project_file(tmp_path: Path) -> None:
    ws, link, target = _tree(tmp_path, ".clarvis-lsp.toml")
    log = tmp_path / "audit.log"
    received = _serve(ws, log, follow=False)
    assert "discovery/symlink-ignored" in _published(received, link)
    assert SECRET not in json.dumps(received)
    assert str(target) not in _opened(log)


def test_the_server_reads_the_linked_project_file_when_symlinks_are_followed(tmp_path: Path) -> None:
    ws, link, target = _tree(tmp_path, ".clarvis-lsp.toml")
    log = tmp_path / "audit.log"
    received = _serve(ws, log, follow=True)
    assert "config/invalid" in _published(received, link)
    assert str(target) in _opened(log)


def test_a_fifo_named_as_the_project_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    """A repository cannot hold a FIFO, but a checkout can be given one: reading it blocked --check for ever."""
    ws = tmp_path / "ws"
    ws.mkdir()
    os.mkfifo(ws / ".clarvis-lsp.toml")
    done = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--no-user", "--format", "json"],
        cwd=ws,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    found = json.loads(done.stdout)["diagnostics"]
    assert [(item["code"], "not a regular file" in item["message"]) for item in found] == [("config/invalid", True)]
