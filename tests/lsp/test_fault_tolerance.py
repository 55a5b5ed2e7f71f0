"""The server under a careless or hostile client (SPEC §9): requests for documents it was never told about, changes
for unopened documents, a 1,000-change storm whose final diagnostics equal a fresh ``--check`` of the final text,
a cancelled request, ``shutdown``/``exit`` while a first scan and a queue of changes are in flight, and a feature
that raises (answered as that request's error alone). Malformed params, stale versions and requests after
``shutdown`` are in test_protocol.py."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, open_document, write_file
from lsp_wire import frame
from lsprotocol import types

SKILL = "---\nname: review\ndescription: Reviews changes.\n---\nSee [the guide](guide.md).\n"
JSON = ("--format", "json")
RAISING_SERVER = Path(__file__).parent / "raising_hover_server.py"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", SKILL)
    write_file(ws, ".clarvis/skills/review/guide.md", "# Guide\n")
    write_file(ws, ".clarvis/settings.json", '{"hooks": [{"event": "pre_tool_use", "command": "true"}]}\n')
    (tmp_path / "home").mkdir()
    return ws


def _doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=path.as_uri())


async def _every_request(client: ClarvisClient, path: Path) -> None:
    """Hover, completion, code actions, symbols, definition and a diagnostic pull on ``path``: each answered."""
    at = types.Position(1, 2)
    await client.text_document_hover_async(types.HoverParams(text_document=_doc(path), position=at))
    await client.text_document_completion_async(types.CompletionParams(text_document=_doc(path), position=at))
    await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=_doc(path), range=types.Range(at, at), context=types.CodeActionContext(diagnostics=[])
        )
    )
    await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=_doc(path)))
    await client.text_document_definition_async(types.DefinitionParams(text_document=_doc(path), position=at))
    await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=_doc(path)))


async def test_requests_for_unopened_documents_are_answered(client: ClarvisClient, workspace: Path) -> None:
    on_disk = workspace / ".clarvis/skills/review/SKILL.md"
    missing = workspace / ".clarvis/skills/ghost/SKILL.md"
    fifo = workspace / ".clarvis/skills/pipe/SKILL.md"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)  # a blocking read would hang the server, and every request after it
    for path in (on_disk, missing, fifo, workspace / "not-a-clarvis-file.txt"):
        await asyncio.wait_for(_every_request(client, path), 60)  # a hang is a failure, not a stuck run
    # The disk copy of an unopened document is what hover reads.
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=_doc(on_disk), position=types.Position(1, 2))
    )
    assert found is not None and "name" in str(found.contents).lower()


async def test_changes_and_closes_for_unopened_documents_change_nothing(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/skills/review/SKILL.md"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=7),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="garbage")],
        )
    )
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=_doc(path)))
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=_doc(path)))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [str(item.code) for item in report.items] == []  # the disk's text, not "garbage"


def _storm(text: str, count: int, seed: int) -> list[tuple[types.Range | None, str]]:
    """``count`` edits a typist might make (inserts, deletions, replacements of a span, and now and then the whole
    text), as (range or None for the whole document, new text); ASCII, so every position encoding agrees."""
    rng = random.Random(seed)
    alphabet = "abcdefgh-_:. \n#[]()/*`\"'{}"
    edits: list[tuple[types.Range | None, str]] = []
    for index in range(count):
        lines = text.split("\n")
        if index % 250 == 249:
            text = text[::-1] if rng.random() < 0.5 else SKILL
            edits.append((None, text))
            continue
        line = rng.randrange(len(lines))
        start = rng.randrange(len(lines[line]) + 1)
        end_line = min(len(lines) - 1, line + rng.choice([0, 0, 0, 1]))
        end = (
            rng.randrange(len(lines[end_line]) + 1) if end_line != line else rng.randrange(start, len(lines[line]) + 1)
        )
        new = "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 1, 2, 5])))
        offsets = [sum(len(item) + 1 for item in lines[:number]) for number in range(len(lines))]
        text = text[: offsets[line] + start] + new + text[offsets[end_line] + end :]
        edits.append((types.Range(types.Position(line, start), types.Position(end_line, end)), new))
    return edits


def _apply(text: str, edits: list[tuple[types.Range | None, str]]) -> str:
    for where, new in edits:
        if where is None:
            text = new
            continue
        lines = text.split("\n")
        offsets = [sum(len(item) + 1 for item in lines[:number]) for number in range(len(lines))]
        start = offsets[where.start.line] + where.start.character
        text = text[:start] + new + text[offsets[where.end.line] + where.end.character :]
    return text


async def test_a_change_storm_ends_where_check_ends(client: ClarvisClient, workspace: Path, tmp_path: Path) -> None:
    path = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, path, SKILL, version=1)
    edits = _storm(SKILL, 1000, seed=12)
    for version, (where, new) in enumerate(edits, start=2):
        change: types.TextDocumentContentChangeEvent = (
            types.TextDocumentContentChangeWholeDocument(text=new)
            if where is None
            else types.TextDocumentContentChangePartial(range=where, text=new)
        )
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
                content_changes=[change],
            )
        )
    final = _apply(SKILL, edits)
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=_doc(path)))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    served = sorted(
        (item.range.start.line + 1, item.range.start.character + 1, str(item.code), item.message)
        for item in report.items
    )
    path.write_text(final, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clarvis_lsp",
            "--check",
            str(workspace),
            "--no-user",
            *JSON,
            "--home",
            str(Path.home()),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    checked = sorted(
        (item["line"], item["column"], item["code"], item["message"])
        for item in json.loads(done.stdout)["diagnostics"]
        if os.path.abspath(item["path"]) == str(path)
    )
    assert served == checked
    assert served  # the storm leaves a broken document: an empty list on both sides would prove little


# -- raw sessions: what a client that does not wait for answers sends ------------------------------------------


def _messages(stdout: bytes) -> list[dict[str, Any]]:
    found = []
    for chunk in stdout.split(b"Content-Length: ")[1:]:
        found.append(json.loads(chunk.split(b"\r\n\r\n", 1)[1]))
    return found


def _busy_session(root: Path, tail: list[dict[str, object]]) -> subprocess.CompletedProcess[bytes]:
    """initialize on ``root`` (a large tree: its first scan is still running), open a skill, queue 200 changes,
    then ``tail``: everything written at once, as a client that does not wait for answers writes it."""
    skill = root / ".clarvis/skills/s0/SKILL.md"
    messages: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "capabilities": {},
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}],
                "initializationOptions": {"clarvis": {"includeUser": False}},
            },
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": skill.as_uri(), "languageId": "markdown", "version": 1, "text": SKILL}},
        },
    ]
    for version in range(2, 202):
        text = SKILL.replace("review", f"review{version}")
        messages.append(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": skill.as_uri(), "version": version},
                    "contentChanges": [{"text": text}],
                },
            }
        )
    messages.extend(tail)
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--stdio"],
        input=b"".join(frame(message) for message in messages),
        capture_output=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def big_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big") / "ws"
    for index in range(3000):
        write_file(root, f".clarvis/skills/s{index}/SKILL.md", f"---\nname: s{index}\ndescription: d\n---\n")
    return root


def test_shutdown_and_exit_in_the_middle_of_work(big_tree: Path) -> None:
    done = _busy_session(
        big_tree,
        [
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
            {"jsonrpc": "2.0", "method": "exit", "params": None},
        ],
    )
    answers = {
        message["id"]: message for message in _messages(done.stdout) if "id" in message and "method" not in message
    }
    assert answers[2].get("result", "missing") is None
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]


def test_exit_without_shutdown_in_the_middle_of_work(big_tree: Path) -> None:
    done = _busy_session(big_tree, [{"jsonrpc": "2.0", "method": "exit", "params": None}])
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr


class RawSession:
    """A server on pipes, read by a thread into a queue: a test sends, then waits (bounded) for one answer."""

    def __init__(self, command: list[str], log: Path) -> None:
        self.log = log.open("wb")  # a file, not a pipe nobody drains: a chatty server must never block on it
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        self.received: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []  # every message taken from the queue so far
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    self.received.put({"eof": True})
                    return
                header += byte
            length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            self.received.put(json.loads(stream.read(length)))

    def send(self, *messages: dict[str, object]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"".join(frame(message) for message in messages))
        self.process.stdin.flush()

    def answer(self, msg_id: int, timeout: float = 60) -> dict[str, Any]:
        """The answer to ``msg_id``: one seen already (answers may come in any order), or the next to arrive."""
        for message in self.seen:
            if message.get("id") == msg_id and "method" not in message:
                return message
        while True:
            try:
                message = self.received.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no answer to request {msg_id} in {timeout} s") from None
            if message.get("eof"):
                self.log.flush()
                tail = Path(self.log.name).read_text(errors="replace")[-2000:]
                raise AssertionError(f"the server ended before answering request {msg_id}:\n{tail}")
            self.seen.append(message)
            if message.get("id") == msg_id and "method" not in message:
                return message


def test_a_cancelled_request_is_answered_and_the_server_goes_on(big_tree: Path, tmp_path: Path) -> None:
    skill = big_tree / ".clarvis/skills/s0/SKILL.md"
    hover = {"textDocument": {"uri": skill.as_uri()}, "position": {"line": 1, "character": 2}}
    session = RawSession([sys.executable, "-m", "clarvis_lsp", "--stdio"], tmp_path / "server.log")
    try:
        initialize = {"capabilities": {}, "rootUri": big_tree.as_uri(), "initializationOptions": {"clarvis": {}}}
        session.send(
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": hover},
            {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},
            {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": hover},
        )
        # The cancelled hover gets an answer all the same: its result, or RequestCancelled.
        cancelled = session.answer(2)
        assert "result" in cancelled or cancelled["error"]["code"] == -32800
        assert "name" in json.dumps(session.answer(3)["result"]).lower()
        session.send({"jsonrpc": "2.0", "id": 4, "method": "shutdown", "params": None})
        assert session.answer(4).get("result", "missing") is None
        session.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        assert session.process.wait(timeout=60) == 0
    finally:
        if session.process.poll() is None:
            session.process.kill()
        session.process.wait()
        session.log.close()


# -- a raising feature ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    """This module's pytest-lsp server is the real one; the raising server runs in its own session below."""
    return [sys.executable, "-m", "clarvis_lsp", "--stdio"]


def test_a_raising_feature_fails_only_its_own_request(workspace: Path, tmp_path: Path) -> None:
    path = workspace / ".clarvis/skills/review/SKILL.md"
    uri = path.as_uri()

    def request(msg_id: int, method: str, params: dict[str, object]) -> dict[str, object]:
        return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}

    hover = {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}
    session = RawSession([sys.executable, str(RAISING_SERVER), "--stdio"], tmp_path / "server.log")
    try:
        session.send(
            request(1, "initialize", {"capabilities": {}, "rootUri": workspace.as_uri()}),
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": SKILL}},
            },
            request(2, "textDocument/hover", hover),
            request(3, "textDocument/completion", {**hover, "position": {"line": 3, "character": 0}}),
            request(4, "textDocument/diagnostic", {"textDocument": {"uri": uri}}),
            request(5, "textDocument/hover", hover),
        )
        assert "error" in session.answer(2)  # the raising hover, and only it
        assert session.answer(3)["result"] is not None  # completion answers
        assert session.answer(4)["result"]["kind"] == "full"  # diagnostics too
        assert "error" in session.answer(5)  # the server is still there, and still reports the bug
        session.send(request(6, "shutdown", {}) | {"params": None})
        assert session.answer(6).get("result", "missing") is None
        session.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        assert session.process.wait(timeout=60) == 0
    finally:
        if session.process.poll() is None:
            session.process.kill()
        session.process.wait()
        session.log.close()
    logged = [
        entry.get("params", {}).get("message", "")
        for entry in session.seen
        if entry.get("method") == "window/logMessage"
    ]
    assert any("hover" in text and "IndexError" in text for text in logged)
