"""Emacs 28 + eglot (Debian ``emacs-nox elpa-eglot``), headless, with ``editors/emacs/clarvis-lsp.el``."""

from __future__ import annotations

from pathlib import Path

from editor_support import (
    PROBES,
    SETTINGS_EXPECTED,
    SKILL_EXPECTED,
    Workspace,
    probe_failed,
    require,
    require_editor,
    run_editor,
)
from patterns_support import SAMPLES, ask_editor

EMACS = Path("/usr/bin/emacs")


def emacs() -> Path:
    binary = require_editor(EMACS, "Emacs (apt-get install emacs-nox elpa-eglot)")
    require(any(Path("/usr/share/emacs/site-lisp/elpa").glob("eglot-*")), "eglot is not installed (elpa-eglot)")
    return binary


def emacs_argv(binary: Path) -> list[str]:
    # No -Q: Debian's site-start puts the elpa-* packages on the load-path.
    return [str(binary), "--batch", "-l", str(PROBES / "eglot_probe.el")]


def test_emacs_eglot_diagnostics(workspace: Workspace) -> None:
    run = run_editor("Emacs + eglot", emacs_argv(emacs()), workspace)

    assert run.returncode == 0, run.result.get("errors") or run.stderr
    assert run.result["mode"] == "clarvis-skill-mode"
    assert run.codes >= SKILL_EXPECTED, run.result["diagnostics"]
    assert run.settings_codes >= SETTINGS_EXPECTED, run.result["settings_diagnostics"]
    assert run.result["plain_clients"] == 0, "the README must not get clarvis-lsp"
    assert run.result["clients"] == 1
    assert not run.result["errors"]


def test_emacs_probe_fails_when_the_server_publishes_nothing(workspace: Workspace, silent_server: Path) -> None:
    run = run_editor(
        "Emacs without a server",
        emacs_argv(emacs()),
        workspace,
        bin_dir=silent_server,
        env={"CLARVIS_TIMEOUT_MS": "3000"},
    )
    assert probe_failed(run), run.result


def test_emacs_gives_exactly_the_files_of_the_generated_patterns_a_clarvis_mode(tmp_path: Path) -> None:
    """``auto-mode-alist`` after loading clarvis-lsp.el, against editors/file-patterns.json: the Markdown ones get
    ``clarvis-skill-mode``, the JSON ones ``clarvis-json-mode`` (eglot starts the server for those two only)."""
    modes = {"markdown": "clarvis-skill-mode", "json": "clarvis-json-mode"}
    answers = ask_editor([str(emacs()), "--batch", "-l", str(PROBES / "patterns_probe.el")], tmp_path)
    clarvis = {path: mode for path, mode in answers.items() if mode in modes.values()}
    assert clarvis == {path: modes[language] for path, language in SAMPLES.items() if language}
