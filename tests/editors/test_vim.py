"""Vim 9 + ALE (Debian ``vim vim-ale``), headless, with the linters in ``editors/vim/``.

vim-lsp is not packaged in Debian: its snippet (``editors/vim/vim-lsp.vim``) ships untested.
"""

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

VIM = Path("/usr/bin/vim")


def vim() -> Path:
    binary = require_editor(VIM, "Vim (apt-get install vim vim-ale)")
    require(any(Path("/usr/share/vim/vimfiles/pack").glob("*/opt/ale")), "ALE is not installed (vim-ale)")
    return binary


def vim_argv(binary: Path) -> list[str]:
    probe = PROBES / "ale_probe.vim"
    return [str(binary), "-N", "-u", "NONE", "-i", "NONE", "-n", "--not-a-term", "-c", f"source {probe}"]


def test_vim_ale_diagnostics(workspace: Workspace) -> None:
    run = run_editor("Vim + ALE", vim_argv(vim()), workspace)

    assert run.returncode == 0, run.result.get("errors") or run.stderr
    assert run.result["filetype"] == "markdown"
    assert run.codes >= SKILL_EXPECTED, run.result["diagnostics"]
    assert run.settings_codes >= SETTINGS_EXPECTED, run.result["settings_diagnostics"]
    assert run.result["plain_clients"] == 0, "the README must not be sent to clarvis-lsp"
    assert not run.result["errors"]


def test_vim_probe_fails_when_the_server_publishes_nothing(workspace: Workspace, silent_server: Path) -> None:
    run = run_editor(
        "Vim without a server",
        vim_argv(vim()),
        workspace,
        bin_dir=silent_server,
        env={"CLARVIS_TIMEOUT_MS": "3000"},
    )
    assert probe_failed(run), run.result
