"""A seeded protocol storm (SPEC §9, issue 21): the server's copy of every open document stays the client's, byte
for byte, under each position encoding, and its diagnostics are those of ``clarvis-lsp --check`` on that text.

``clarvis-lsp --stdio`` runs as an editor starts it, over a copy of ``examples/`` (every kind of file), once per
position encoding (UTF-8, UTF-16, UTF-32, each negotiated by the client). Every recognised file is opened; then,
for each step of a seeded random walk, one ``didChange`` carries one to three incremental changes (now and then
a whole-document one) made of CRLF, lone CR, LF, U+2028, U+2029, U+0085, form feed, vertical tab, U+001C, astral
and accented characters and bits of YAML, Markdown and JSON, at positions on character boundaries or past a line's
end, on a line past the last, or with the range reversed. Between changes, a random request of every kind the
server registers (``clarvis_lsp.server.methods``: hover, completion, definition, references, code actions, symbols,
links, lenses, rename, pulls, and any added later) is sent at a random position and must be answered without an
internal error.

The client's copy is kept by this module's own reading of LSP (``ClientText``: lines end only at ``\\n``,
``\\r\\n``, ``\\r``; a character past a line's end is that line's end; a line past the last is the end of the
document; a reversed range is read in order), written independently of the server's.

How the server's copy is seen: no feature shows every byte of a document (an edit that lands in the wrong place
of a SKILL.md body may change no finding), so the server is started with ``CLARVIS_LSP_TEST_REQUESTS=1``, which
registers one request, ``clarvis/test/serverState``, answering for a document the text the features read and how
many distinct copies of it the server holds (pygls's document and the features' buffer counted apart); without
the variable no client can reach it. Every 25 steps and at the end, there must be one copy, equal to the
client's. At the end, the client's texts are written to disk and ``clarvis-lsp --check --format json`` runs on
the workspace: each open document's pulled diagnostics must equal its findings there (code, severity, message,
range in the negotiated encoding) — the user's door, for what the server makes of the text.

Bounded for CI: ``CLARVIS_STORM_STEPS`` steps per encoding (default 1,000) and at most ``CLARVIS_STORM_SECONDS``
seconds of steps per encoding (default 30); ``CLARVIS_STORM_SEEDS`` (comma-separated, default ``0``) picks the
seeds. ``CLARVIS_FUZZ_PROFILE=long`` runs 3,000 steps of seeds 0–4 without the time bound.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from clarvis_lsp.knowledge.files import file_kind
from clarvis_lsp.server.methods import METHODS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LONG = os.environ.get("CLARVIS_FUZZ_PROFILE") == "long"
STEPS = int(os.environ.get("CLARVIS_STORM_STEPS", "3000" if LONG else "1000"))
SECONDS = float(os.environ.get("CLARVIS_STORM_SECONDS", "inf" if LONG else "30"))
SEEDS = [int(seed) for seed in os.environ.get("CLARVIS_STORM_SEEDS", "0,1,2,3,4" if LONG else "0").split(",")]
ENCODINGS = ["utf-8", "utf-16", "utf-32"]
SERVER_STATE = "clarvis/test/serverState"
JSON = ["--format", "json"]
ANSWER_TIMEOUT = 60.0  # seconds: a request never answered fails the storm

FRAGMENTS = [
    "\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c", "😀", "𝄞", "é", "a", " ", "\t",
    "name: ", "description: x", "user-invocable: true", "---", "- ", "# ", "[link](references/style.md)",
    "[gone](gone.md)", '"', "{", "}", "[", "]", ",", ":", '"hooks": []', '"event": "pre_tool_use"', "true", "1",
]  # fmt: skip
_LINE_END = re.compile(r"\r\n|\r|\n")
_SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def units(text: str, encoding: str) -> int:
    """``text``'s length in the encoding's code units."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


class ClientText:
    """The client's copy of a document, edited as LSP says (see the module docstring)."""

    def __init__(self, text: str, encoding: str) -> None:
        self.text = text
        self.encoding = encoding

    def lines(self) -> list[tuple[int, int]]:
        """Each line's (start, end of content) offsets."""
        starts = [0, *(match.end() for match in _LINE_END.finditer(self.text))]
        found = []
        for index, start in enumerate(starts):
            end = starts[index + 1] if index + 1 < len(starts) else len(self.text)
            while end > start and self.text[end - 1] in "\r\n":
                end -= 1
            found.append((start, end))
        return found

    def offset(self, position: types.Position) -> int:
        lines = self.lines()
        if position.line >= len(lines):
            return len(self.text)
        start, end = lines[position.line]
        consumed, offset = 0, start
        while offset < end and consumed < position.character:
            consumed += units(self.text[offset], self.encoding)
            offset += 1
        return offset

    def apply(self, change: types.TextDocumentContentChangeEvent) -> None:
        if not isinstance(change, types.TextDocumentContentChangePartial):
            self.text = change.text
            return
        start, end = self.offset(change.range.start), self.offset(change.range.end)
        start, end = min(start, end), max(start, end)
        self.text = self.text[:start] + change.text + self.text[end:]

    def position(self, rng: random.Random) -> types.Position:
        """A random position: on a character boundary (mostly), past a line's end, or on a line past the last."""
        lines = self.lines()
        roll = rng.random()
        if roll < 0.05:
            return types.Position(len(lines) + rng.randint(0, 3), rng.randint(0, 5))
        line = rng.randrange(len(lines))
        start, end = lines[line]
        content = self.text[start:end]
        if roll < 0.2:
            return types.Position(line, units(content, self.encoding) + rng.randint(1, 6))
        return types.Position(line, units(content[: rng.randint(0, len(content))], self.encoding))

    def change(self, rng: random.Random) -> types.TextDocumentContentChangeEvent:
        if rng.random() < 0.03:
            return types.TextDocumentContentChangeWholeDocument(text=self.inserted(rng, 12))
        start = self.position(rng)
        if rng.random() < 0.4:
            end = start
        elif rng.random() < 0.7 or len(self.text) > 3000:
            end = types.Position(start.line + rng.randint(0, 2), rng.randint(0, 40))
        else:
            end = self.position(rng)
        if rng.random() < 0.1:
            start, end = end, start  # a reversed range
        size = 0 if len(self.text) > 3000 and rng.random() < 0.7 else rng.randint(0, 4)
        return types.TextDocumentContentChangePartial(range=types.Range(start, end), text=self.inserted(rng, size))

    @staticmethod
    def inserted(rng: random.Random, count: int) -> str:
        return "".join(rng.choice(FRAGMENTS) for _ in range(count))


def storm_requests() -> list[str]:
    """Every request the server registers (its notifications and the document sync aside)."""
    requests = []
    for method in METHODS:
        known = types.METHOD_TO_TYPES.get(method.name)
        if known is not None and known[1] is None:
            continue  # a notification
        if method.name in (types.INITIALIZE, types.SHUTDOWN) or method.name.endswith("resolve"):
            continue  # the session's own; resolve needs an item an earlier answer gave
        requests.append(method.name)
    return requests


def request_params(method: str, uri: str, document: ClientText, rng: random.Random) -> dict[str, Any]:
    """Params for ``method`` built from its LSP params type: every field of it this storm knows how to fill."""
    position = document.position(rng)
    other = document.position(rng)
    start, end = sorted([position, other], key=lambda at: (at.line, at.character))
    values: dict[str, Any] = {
        "textDocument": {"uri": uri},
        "uri": uri,
        "position": {"line": position.line, "character": position.character},
        "range": {
            "start": {"line": start.line, "character": start.character},
            "end": {"line": end.line, "character": end.character},
        },
        "positions": [{"line": position.line, "character": position.character}],
        "newName": rng.choice(["renamed", "code-review", "é😀", ""]),
        "query": rng.choice(["", "code", "review", "😀"]),
        "options": {"tabSize": 2, "insertSpaces": True},
        "previousResultIds": [],
        "previousResultId": "0",
        "ch": ":",
        "files": [{"oldUri": uri.rsplit("/", 2)[0], "newUri": uri.rsplit("/", 2)[0] + "-renamed"}],
    }
    known = types.METHOD_TO_TYPES.get(method)
    if known is None or known[2] is None:
        return {"textDocument": values["textDocument"], "uri": uri}  # one of the server's own requests
    params: dict[str, Any] = {}
    params_type: Any = known[2]
    for field in attrs.fields(params_type):
        wire = _camel(field.name)
        if field.name == "context":
            params["context"] = {
                "includeDeclaration": rng.random() < 0.5,
                "diagnostics": [],
                "triggerKind": 1,
            }
        elif wire in values:
            params[wire] = values[wire]
        elif field.default is attrs.NOTHING:
            raise AssertionError(f"the storm cannot fill {method}'s required {wire!r}: add it to request_params")
    return params


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


async def answered(client: LanguageClient, method: str, params: dict[str, Any]) -> Any:
    """The answer to ``method`` (its params typed first when LSP defines them, as the client library wants)."""
    known = types.METHOD_TO_TYPES.get(method)
    typed: Any = params
    if known is not None and known[2] is not None:
        params_type: Any = known[2]
        typed = client.protocol._converter.structure(params, params_type)
    sent = client.protocol.send_request_async(method, typed)  # type: ignore[no-untyped-call]
    return await asyncio.wait_for(sent, ANSWER_TIMEOUT)


async def server_text(client: LanguageClient, uri: str) -> dict[str, Any]:
    answer = await answered(client, SERVER_STATE, {"uri": uri})
    held: dict[str, Any] = answer if isinstance(answer, dict) else answer._asdict()  # pygls' untyped results
    return held


def storm_client() -> LanguageClient:
    """pytest-lsp's client, also answering the requests the server sends after edits."""
    client = LanguageClient()
    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            types.CLIENT_REGISTER_CAPABILITY: _answer_nothing,
            types.WORKSPACE_CODE_LENS_REFRESH: _answer_nothing,
            types.WORKSPACE_DIAGNOSTIC_REFRESH: _answer_nothing,
            "clarvis/effectiveSkillsChanged": _answer_nothing,
        },
    )
    return client


def _answer_nothing(client: LanguageClient, params: object) -> None:
    return None


Finding = tuple[str, int, str, tuple[int, int, int, int]]


def check_json(workspace: Path, home: Path) -> dict[str, list[Finding]]:
    """``clarvis-lsp --check --format json`` on the workspace: each file's findings, 0-based code-point ranges."""
    done = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", str(workspace), "--no-user", "--home", str(home), *JSON],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=workspace,
    )
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, list[Finding]] = {}
    for item in json.loads(done.stdout)["diagnostics"]:
        path = (workspace / item["path"]).resolve()
        where = (item["line"] - 1, item["column"] - 1, item["end_line"] - 1, item["end_column"] - 1)
        found.setdefault(str(path), []).append((item["code"], _SEVERITY[item["severity"]], item["message"], where))
    return found


def in_encoding(document: ClientText, where: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """A code-point range of ``document`` in its encoding's units."""
    lines = document.lines()

    def column(line: int, character: int) -> int:
        if line >= len(lines):
            return character
        start, end = lines[line]
        return units(document.text[start : min(start + character, end)], document.encoding)

    return (where[0], column(where[0], where[1]), where[2], column(where[2], where[3]))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_protocol_storm(tmp_path: Path, encoding: str, seed: int) -> None:
    workspace = tmp_path / "examples"
    shutil.copytree(EXAMPLES, workspace)
    home = tmp_path / "home"
    home.mkdir()
    files = sorted(
        path
        for path in workspace.rglob("*")
        if path.is_file() and file_kind(path, workspace_dirs=frozenset({workspace})) is not None
    )
    assert len(files) >= 10, files
    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "clarvis_lsp", "--stdio"],
        server_env={**os.environ, "CLARVIS_LSP_TEST_REQUESTS": "1", "HOME": str(home)},
        client_factory=storm_client,
    )
    client = await config.start()
    assert isinstance(client, LanguageClient)
    capabilities = client_capabilities("visual-studio-code")
    capabilities.general = types.GeneralClientCapabilities(position_encodings=[encoding])
    try:
        result = await client.initialize_session(
            types.InitializeParams(
                capabilities=capabilities,
                root_uri=workspace.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="examples")],
                initialization_options={"clarvis": {"includeUser": False}},
            )
        )
        assert result.capabilities.position_encoding == encoding
        await storm(client, workspace, home, files, encoding, seed)
    finally:
        await client.shutdown_session()


async def storm(
    client: LanguageClient, workspace: Path, home: Path, files: list[Path], encoding: str, seed: int
) -> None:
    rng = random.Random(f"{seed}-{encoding}")
    documents = {path.as_uri(): ClientText(path.read_text(encoding="utf-8"), encoding) for path in files}
    versions = dict.fromkeys(documents, 1)
    for uri, document in documents.items():
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="plaintext", version=1, text=document.text)
            )
        )
    requests = storm_requests()
    assert {types.TEXT_DOCUMENT_HOVER, types.TEXT_DOCUMENT_COMPLETION, types.TEXT_DOCUMENT_DIAGNOSTIC} <= set(requests)
    uris = sorted(documents)
    deadline = time.monotonic() + SECONDS
    step = sent = 0
    refused: dict[str, int] = {}
    while step < STEPS and time.monotonic() < deadline:
        step += 1
        uri = rng.choice(uris)
        document = documents[uri]
        changes = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            change = document.change(rng)
            document.apply(change)
            changes.append(change)
        versions[uri] += 1
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=versions[uri]),
                content_changes=changes,
            )
        )
        if rng.random() < 0.6:
            method = requests[sent % len(requests)]  # every kind in turn, so each is exercised within a few steps
            sent += 1
            target = rng.choice(uris)
            params = request_params(method, target, documents[target], rng)
            try:
                await answered(client, method, params)
            except asyncio.TimeoutError:
                raise AssertionError(f"step {step}: {method} {params} was never answered") from None
            except Exception as error:  # an error answer is fine (a refused rename), an internal error is not
                assert getattr(error, "code", None) != -32603, (step, method, params, error)
                refused[method] = refused.get(method, 0) + 1
        if step % 25 == 0:
            await assert_same_text(client, documents, versions, f"step {step}")
    assert step >= min(STEPS, 20) and sent >= len(requests), f"the storm did almost nothing: {step} steps, {sent}"
    print(f"{encoding} seed {seed}: {step} steps, {sent} requests, refused: {refused}")
    await assert_same_text(client, documents, versions, "the end")
    errors = [message.message for message in client.log_messages if message.type == types.MessageType.Error]
    assert not errors, errors[:3]
    # The diagnostics of each open document are those of --check on the client's text.
    for path in files:
        path.write_bytes(documents[path.as_uri()].text.encode("utf-8"))
    expected = check_json(workspace, home)
    compared = 0
    for path in files:
        uri = path.as_uri()
        report = await answered(client, types.TEXT_DOCUMENT_DIAGNOSTIC, {"textDocument": {"uri": uri}})
        shown = sorted(
            (
                str(item.code),
                int(item.severity or 0),
                item.message,
                (item.range.start.line, item.range.start.character, item.range.end.line, item.range.end.character),
            )
            for item in report.items
        )
        wanted = sorted(
            (code, severity, message, in_encoding(documents[uri], where))
            for code, severity, message, where in expected.get(str(path.resolve()), [])
        )
        assert shown == wanted, (path.relative_to(workspace), documents[uri].text)
        compared += len(wanted)
    assert compared > 0, "no document had a finding to compare"


async def assert_same_text(
    client: LanguageClient, documents: dict[str, ClientText], versions: dict[str, int], when: str
) -> None:
    for uri, document in documents.items():
        held = await server_text(client, uri)
        assert held["version"] == versions[uri], (when, uri)
        assert held["text"] == document.text, (when, uri, held["text"], document.text)
        assert held["copies"] == 1, (when, uri)  # the features read the document pygls holds, no copy of it
