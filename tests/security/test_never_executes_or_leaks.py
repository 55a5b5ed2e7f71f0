"""Observed by effect (SPEC §9): no hook, MCP or capability ``command`` is ever run, no ``${VAR}`` value is ever
printed, no YAML tag is constructed, no socket is created, in ``--check`` (every output format) and in the server
(open, hover, completion, code actions, diagnostics on every position of every file)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from security_support import SECRET_NAME, SECRET_VALUE, hostile_workspace, serve

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.editor.completion import complete
from clarvis_lsp.editor.hover import hover
from clarvis_lsp.findings import Position
from clarvis_lsp.knowledge.files import FileKind


def environment() -> dict[str, str]:
    return {**os.environ, SECRET_NAME: SECRET_VALUE}


def test_the_commands_are_real(tmp_path: Path) -> None:
    """The counter-test: run by a shell, each command does create its marker, so the tests below can fail."""
    _ws, markers, _files = hostile_workspace(tmp_path)
    for marker in markers:
        subprocess.run(["sh", "-c", f"touch {marker}"], check=True)
        assert marker.exists()


@pytest.mark.parametrize("output", ["text", "json", "sarif", "github"])
def test_check_runs_nothing_and_prints_no_secret(tmp_path: Path, output: str) -> None:
    ws, markers, _files = hostile_workspace(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", str(ws), "--home", str(home), "--format", output, "--no-user"],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment(),
        check=False,
    )
    assert done.returncode == 1, done.stderr  # findings: the rules did read the commands and the interpolations
    assert "invalid-interpolation" in done.stdout
    assert SECRET_VALUE not in done.stdout + done.stderr
    assert [marker for marker in markers if marker.exists()] == []


def test_the_server_runs_nothing_and_sends_no_secret(tmp_path: Path) -> None:
    ws, markers, files = hostile_workspace(tmp_path)
    written, answers = serve(ws, files, environment())
    assert b"mcp/invalid-interpolation" in written  # the server did check the files
    assert SECRET_VALUE.encode() not in written
    assert [marker for marker in markers if marker.exists()] == []
    assert not [answer for answer in answers.values() if "error" in answer]


def test_yaml_tags_are_never_constructed(tmp_path: Path) -> None:
    _ws, markers, files = hostile_workspace(tmp_path)
    skill = files[-1]
    document = parse_skill(skill, skill.read_text(encoding="utf-8"))
    values = document.fields()
    assert all(isinstance(value, (str, int, float, bool, list, dict, type(None))) for value in values.values())
    assert not markers[6].exists()


def test_no_socket_is_created_in_process(tmp_path: Path) -> None:
    """An audit hook on every ``socket.*`` event around a whole check, hover and completion of the workspace."""
    ws, markers, files = hostile_workspace(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    events: list[tuple[str, Any]] = []
    active = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if active[0] and (event.startswith("socket.") or event in ("subprocess.Popen", "os.system", "os.exec")):
            events.append((event, args))

    sys.addaudithook(hook)  # audit hooks cannot be removed: this one switches itself off
    try:
        report = check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=home, overrides={"includeUser": False}))
        engine = report.engines[0]
        for path in files:
            text = path.read_text(encoding="utf-8")
            kind = engine.kind_of(path)
            for line, content in enumerate(text.split("\n")):
                for character in range(len(content) + 1):
                    position = Position(line, character)
                    complete(text, kind, position, engine.discovered, path=path, snippets=True)
                    hover(text, kind, position, engine.discovered, path=path)
    finally:
        active[0] = False
    assert report.result.diagnostics
    assert {engine.kind_of(path) for path in files} >= {FileKind.SETTINGS, FileKind.PLUGIN, FileKind.SKILL}
    assert events == []
    assert [marker for marker in markers if marker.exists()] == []
