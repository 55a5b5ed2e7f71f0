"""In the language server too, a plugin path that leaves its directory (``../``, absolute, through a symlink) is
reported and never opened, read or linked: go to definition, document links, hover and diagnostics on a plugin's
``hooks`` path and on a hook command's script path. The server runs under an audit hook (``audited_main.py``) that
logs every file it opens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_wire import frame, read_message

AUDITED_MAIN = Path(__file__).with_name("audited_main.py")


def escaping_workspace(base: Path, how: str) -> tuple[Path, Path, list[Path]]:
    """A workspace whose plugin names ``outside/hooks.json`` and ``outside/run.sh`` as ``how`` says; the outside
    directory, and the plugin's files."""
    outside = base / "outside"
    outside.mkdir()
    (outside / "hooks.json").write_text('{"hooks": [{"event": "nope", "command": "x"}]}', encoding="utf-8")
    (outside / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    plugin = base / "ws/.clarvis/plugins/p"
    (plugin / "hooks").mkdir(parents=True)
    if how == "dotdot":
        hooks, script = "../../../../outside/hooks.json", "../../../../../outside/run.sh"
    elif how == "absolute":
        hooks, script = str(outside / "hooks.json"), str(outside / "run.sh")
    else:
        (plugin / "linked.json").symlink_to(outside / "hooks.json")
        (plugin / "scripts").symlink_to(outside, target_is_directory=True)
        hooks, script = "linked.json", "../scripts/run.sh"
    manifest = plugin / "plugin.json"
    manifest.write_text(json.dumps({"name": "p", "hooks": hooks}, indent=2), encoding="utf-8")
    hooks_document = plugin / "hooks/extra.json"
    hooks_document.write_text(
        json.dumps({"hooks": [{"event": "session_start", "command": f"bash {script}"}]}, indent=2), encoding="utf-8"
    )
    return base / "ws", outside, [manifest, hooks_document]


class Session:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.next_id = 0

    def send(self, message: dict[str, object]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(frame({"jsonrpc": "2.0", **message}))
        self.process.stdin.flush()

    def request(self, method: str, params: object) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while (read := read_message(self.process.stdout)) is not None:
            message = read[1]
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
            elif message.get("id") == self.next_id:
                assert "error" not in message, message
                return message.get("result")
        raise AssertionError(f"the server closed its output before answering {method}")


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
@pytest.mark.parametrize("follow", [True, False], ids=["follow-symlinks", "no-symlinks"])
def test_an_escaping_plugin_path_is_never_opened_or_linked(tmp_path: Path, how: str, follow: bool) -> None:
    ws, outside, files = escaping_workspace(tmp_path, how)
    home = tmp_path / "home"
    home.mkdir()
    log = tmp_path / "audit.log"
    env = {**os.environ, "CLARVIS_AUDIT_LOG": str(log), "HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, str(AUDITED_MAIN), "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    session = Session(process)
    answers: list[Any] = []
    try:
        options = {"clarvis": {"includeUser": False, "followSymlinks": follow}}
        session.request("initialize", {"rootUri": ws.as_uri(), "capabilities": {}, "initializationOptions": options})
        session.send({"method": "initialized", "params": {}})
        for path in files:
            text = path.read_text(encoding="utf-8")
            document = {"uri": path.as_uri()}
            item = {**document, "languageId": "json", "version": 1, "text": text}
            session.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
            answers.append(session.request("textDocument/diagnostic", {"textDocument": document}))
            answers.append(session.request("textDocument/documentLink", {"textDocument": document}))
            for line, content in enumerate(text.split("\n")):
                for character in range(len(content) + 1):
                    at = {"textDocument": document, "position": {"line": line, "character": character}}
                    answers.append(session.request("textDocument/definition", at))
                    answers.append(session.request("textDocument/hover", at))
        session.request("shutdown", None)
        session.send({"method": "exit", "params": None})
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
    manifest_report = answers[0]
    codes = [item["code"] for item in manifest_report["items"]]
    assert "plugin/path-escapes" in codes or (not follow and how == "symlink"), codes
    assert "hooks/unknown-event" not in codes
    shown = json.dumps(answers)
    assert outside.as_uri() not in shown  # no link, no definition, no related location outside
    opened = [line for line in log.read_text(encoding="utf-8").splitlines() if line.startswith("open ")]
    assert not [line for line in opened if line.startswith(f"open {os.path.realpath(outside)}")], opened
