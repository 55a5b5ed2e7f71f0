"""A hostile workspace whose every command would leave a marker file, and a server session that pokes at it."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from lsp_wire import frame, read_message

SECRET_NAME = "CLARVIS_TEST_SECRET"
SECRET_VALUE = "s3cr3t-9f4b2e-never-printed"


def hostile_workspace(base: Path) -> tuple[Path, list[Path], list[Path]]:
    """The workspace, the markers its commands would create, and its recognised files."""
    ws = base / "ws"
    markers = [base / f"marker-{index}" for index in range(7)]
    touch = [f"touch {marker}" for marker in markers]
    secret = "${" + SECRET_NAME + "}"
    files = {
        ".clarvis/settings.json": {
            "enabledPlugins": ["evil"],
            "marketplaces": ["https://example.invalid/market.git"],
            "hooks": [{"event": "session_start", "command": touch[0]}, {"event": "PreToolUse", "command": touch[1]}],
            "mcpServers": {
                "local": {"type": "stdio", "command": "sh", "args": ["-c", touch[2]], "env": {"TOKEN": secret}},
                "remote": {
                    "type": "http",
                    "url": "https://example.invalid/mcp",
                    "headers": {"Auth": f"Bearer {secret}"},
                },
                "broken": {"type": "stdio", "command": touch[2], "env": {"BAD": "${" + SECRET_NAME}},
            },
        },
        ".clarvis/plugins/evil/plugin.json": {
            "name": "evil",
            "capabilityExecutables": {"search": {"command": "sh", "args": ["-c", touch[3]], "env": {"K": secret}}},
            "mcpServers": {"p": {"command": touch[4]}},
        },
        ".clarvis/plugins/evil/hooks/hooks.json": [{"event": "session_start", "command": touch[5]}],
    }
    paths = []
    for relative, data in files.items():
        path = ws / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
        paths.append(path)
    skill = ws / ".clarvis/skills/tagged/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: tagged\ndescription: !!python/object/apply:os.system ['" + touch[6] + "']\n"
        "version: !!python/object/new:subprocess.Popen [['" + touch[6] + "']]\n"
        f"argument-hint: {secret}\n---\nRun `{touch[6]}` and $ARGUMENTS with {secret}.\n",
        encoding="utf-8",
    )
    paths.append(skill)
    return ws, markers, paths


def serve(ws: Path, files: list[Path], env: dict[str, str]) -> tuple[bytes, dict[int, dict[str, Any]]]:
    """Open every file, then hover, complete and ask for code actions at every position of it and pull its
    diagnostics; answer-driven ``shutdown``/``exit``. Returns everything the server wrote, and the answers."""
    messages: list[dict[str, object]] = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": ws.as_uri()}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    ]
    next_id = 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        document = {"uri": path.as_uri()}
        messages.append(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {"textDocument": {**document, "languageId": "json", "version": 1, "text": text}},
            }
        )
        messages.append(
            {"jsonrpc": "2.0", "id": next_id, "method": "textDocument/diagnostic", "params": {"textDocument": document}}
        )
        next_id += 1
        for line, content in enumerate(text.split("\n")):
            for character in range(0, len(content) + 1, 3):
                at = {"line": line, "character": character}
                where = {"start": at, "end": at}
                for method, params in (
                    ("textDocument/hover", {"textDocument": document, "position": at}),
                    ("textDocument/completion", {"textDocument": document, "position": at}),
                    (
                        "textDocument/codeAction",
                        {"textDocument": document, "range": where, "context": {"diagnostics": []}},
                    ),
                ):
                    messages.append({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
                    next_id += 1
    wanted = set(range(10, next_id))
    process = subprocess.Popen(
        [sys.executable, "-m", "clarvis_lsp", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    stdout = process.stdout
    seen = bytearray()
    answers: dict[int, dict[str, Any]] = {}

    def read() -> None:
        while (framed := read_message(stdout)) is not None:
            raw, message = framed
            seen.extend(raw)
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
                if wanted <= set(answers) and 2 not in answers and message["id"] != 2:
                    process.stdin.write(  # type: ignore[union-attr]
                        frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
                        + frame({"jsonrpc": "2.0", "method": "exit", "params": None})
                    )
                    process.stdin.flush()  # type: ignore[union-attr]

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    process.stdin.write(b"".join(frame(message) for message in messages))
    process.stdin.flush()
    process.wait(timeout=300)
    reader.join(timeout=30)
    assert wanted <= set(answers), "the server left requests unanswered"
    return bytes(seen), answers
