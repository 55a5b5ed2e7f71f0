"""Helpers for the real-editor tests: the fixture workspace's contents, running an editor, reading its result.

Each test starts an editor on a fixture workspace with the shipped configuration loaded from ``editors/`` (never
a copy), and a small probe script (``probes/``) that opens a ``SKILL.md`` as a user would, waits inside the
editor for the server's diagnostics with a deadline, and writes what the editor shows to a JSON file for the
test to assert. The shipped configurations start ``clarvis-lsp`` from PATH; the tests put the ``clarvis-lsp``
of the Python running pytest first on PATH.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EDITORS = REPO / "editors"
PROBES = Path(__file__).resolve().parent / "probes"
SERVER = Path(sys.executable).parent / "clarvis-lsp"

# How long a probe waits inside the editor for diagnostics, and how long the whole editor run may take.
PROBE_TIMEOUT_MS = 20_000
RUN_TIMEOUT_S = 60.0

# The fixture skill: a near-miss key, and an agent that only the user's home has. With includeUser=false (which
# every test passes through the editor's settings) the server reports that agent as unknown, so seeing
# skill/unknown-agent also proves that the editor's settings reach the server.
SKILL_MD = """\
---
name: pdf-tools
description: Extract text and tables from PDF files.
user-invokable: false
agent: helper

---
# PDF tools
"""
SKILL_EXPECTED = {("skill/unknown-field", 4), ("skill/unknown-agent", 5)}
COMPLETION_LINE = 6  # the blank line at the end of the frontmatter
SETTINGS_JSON = '{\n  "model": "fast",\n  "enabledPlugin": []\n}\n'
SETTINGS_EXPECTED = {("settings/unknown-field", 3)}

timings: list[tuple[str, float]] = []


@dataclass
class Workspace:
    root: Path
    home: Path
    skill: Path
    settings: Path
    plain: Path  # a README that no Clarvis configuration may attach the server to


@dataclass
class EditorRun:
    returncode: int
    result: dict[str, object]
    stderr: str
    codes: set[tuple[str, int]] = field(default_factory=set)
    settings_codes: set[tuple[str, int]] = field(default_factory=set)

    @property
    def seconds(self) -> float:
        value = self.result.get("diagnostics_s")
        return float(value) if isinstance(value, (int, float)) else float("nan")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def require_editor(path: Path, what: str) -> Path:
    """``path`` if it is an executable; otherwise skip, or fail under ``CLARVIS_E2E=1``."""
    if path.is_file() and os.access(path, os.X_OK):
        return path
    message = f"{what} is not installed ({path} not found)"
    if os.environ.get("CLARVIS_E2E") == "1":
        pytest.fail(f"{message}; CLARVIS_E2E=1 requires every editor test to run")
    pytest.skip(message)


def require(condition: bool, message: str) -> None:
    """Like require_editor, for a plugin the editor needs."""
    if condition:
        return
    if os.environ.get("CLARVIS_E2E") == "1":
        pytest.fail(f"{message}; CLARVIS_E2E=1 requires every editor test to run")
    pytest.skip(message)


def _editor_environment(ws: Workspace, bin_dir: Path, extra: Mapping[str, str]) -> dict[str, str]:
    # The user's editor configuration must not leak in: a fresh HOME and XDG directories, no VIMINIT & co.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("VIM", "NVIM", "MYVIMRC", "EXINIT", "EMACS", "XDG_", "CLARVIS_"))
    }
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        path = ws.home / f".xdg-{name.lower()}"
        path.mkdir(exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(path)
    env.update(
        HOME=str(ws.home),
        PATH=os.pathsep.join([str(bin_dir), env.get("PATH", "")]),
        TERM="dumb",
        CLARVIS_EDITORS=str(EDITORS),
        CLARVIS_FILE=str(ws.skill),
        CLARVIS_SETTINGS_FILE=str(ws.settings),
        CLARVIS_PLAIN_FILE=str(ws.plain),
        CLARVIS_EXPECT=",".join(sorted({code for code, _ in SKILL_EXPECTED})),
        CLARVIS_SETTINGS_EXPECT=",".join(sorted({code for code, _ in SETTINGS_EXPECTED})),
        CLARVIS_COMPLETION_LINE=str(COMPLETION_LINE),
        CLARVIS_TIMEOUT_MS=str(PROBE_TIMEOUT_MS),
    )
    env.update(extra)
    return env


def _codes(value: object) -> set[tuple[str, int]]:
    if not isinstance(value, list):  # an empty Lua table encodes as {}
        return set()
    return {(str(d.get("code")), int(d["line"])) for d in value if isinstance(d, dict)}


def run_editor(
    label: str,
    argv: list[str],
    ws: Workspace,
    *,
    bin_dir: Path = SERVER.parent,
    env: Mapping[str, str] | None = None,
) -> EditorRun:
    """Run an editor with a probe to completion (or kill it at RUN_TIMEOUT_S) and read what the probe wrote."""
    assert (bin_dir / "clarvis-lsp").is_file(), f"no clarvis-lsp in {bin_dir}: install the project (pip install -e .)"
    out = ws.root.parent / "result.json"
    environment = _editor_environment(ws, bin_dir, {"CLARVIS_OUT": str(out), **(env or {})})
    environment["CLARVIS_T0"] = repr(time.time())
    log = ws.root.parent / "editor-stderr.txt"
    # A session of its own, so that the editor and the server it started can be killed together. Its stderr
    # goes to a file: a server outliving the editor would hold a pipe open.
    with log.open("w", encoding="utf-8") as stderr_file:
        process = subprocess.Popen(
            argv,
            cwd=ws.root,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr_file,
            start_new_session=True,
        )
        try:
            process.wait(timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            _kill_group(process.pid)
            process.wait()
            pytest.fail(f"{label} did not finish within {RUN_TIMEOUT_S:.0f} s\n{log.read_text(errors='replace')}")
        finally:
            _kill_group(process.pid)
    stderr = log.read_text(encoding="utf-8", errors="replace")
    if not out.exists():
        pytest.fail(f"{label} exited with {process.returncode} and wrote no result\n{stderr}")
    loaded = json.loads(out.read_text(encoding="utf-8"))
    result: dict[str, object] = loaded if isinstance(loaded, dict) else {}
    run = EditorRun(
        returncode=process.returncode,
        result=result,
        stderr=stderr,
        codes=_codes(result.get("diagnostics")),
        settings_codes=_codes(result.get("settings_diagnostics")),
    )
    if run.returncode == 0:
        timings.append((label, run.seconds))
        print(f"{label}: {run.seconds:.2f} s from editor start to diagnostics")
    return run


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
        os.killpg(pid, signal.SIGKILL)


def probe_failed(run: EditorRun) -> bool:
    """Whether the probe reported failure the way a test would see it: non-zero exit, nothing expected seen."""
    return run.returncode != 0 and run.result.get("ok") in (False, None, 0) and not (SKILL_EXPECTED & run.codes)
