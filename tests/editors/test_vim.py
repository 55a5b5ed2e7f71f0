"""Vim 9 + ALE (Debian ``vim vim-ale``), headless, with the linters in ``editors/vim/``, set up exactly as
``editors/vim/README.md`` says: its ALE lines are the test's ``~/.vimrc``, and Vim starts as a user starts it (the
system vimrc, then ``~/.vimrc``).

vim-lsp is not packaged in Debian: its snippet (``editors/vim/vim-lsp.vim``) ships untested.
"""

from __future__ import annotations

import re
from pathlib import Path

from editor_support import (
    EDITORS,
    PROBES,
    SETTINGS_EXPECTED,
    SKILL_EXPECTED,
    Workspace,
    probe_failed,
    require,
    require_editor,
    run_editor,
)
from patterns_support import LANGUAGES, SAMPLES, ask_editor

VIM = Path("/usr/bin/vim")


def vim() -> Path:
    binary = require_editor(VIM, "Vim (apt-get install vim vim-ale)")
    require(any(Path("/usr/share/vim/vimfiles/pack").glob("*/opt/ale")), "ALE is not installed (vim-ale)")
    return binary


def readme_vimrc() -> str:
    """The ALE lines of editors/vim/README.md (its first ``vim`` block under "## ALE"), for this checkout."""
    readme = (EDITORS / "vim" / "README.md").read_text(encoding="utf-8")
    ale = readme.split("\n## ALE\n", 1)[1]
    block = re.search(r"```vim\n(.*?)```", ale, re.S)
    assert block is not None, "editors/vim/README.md has no vim block under ## ALE"
    return block.group(1).replace("/path/to/clarvis-lsp", str(EDITORS.parent))


def vim_argv(binary: Path, workspace: Workspace) -> list[str]:
    """Vim as a user runs it, with the README's lines as ``~/.vimrc`` (HOME is the workspace's fresh home)."""
    (workspace.home / ".vimrc").write_text(readme_vimrc(), encoding="utf-8")
    probe = PROBES / "ale_probe.vim"
    return [str(binary), "-i", "NONE", "-n", "--not-a-term", "-c", f"source {probe}"]


def test_the_readme_lines_are_the_whole_setup() -> None:
    lines = readme_vimrc().splitlines()
    assert lines[:2] == ["filetype plugin on", "packadd! ale"]
    assert lines[2] == f"set runtimepath+={EDITORS / 'vim'}"


def test_vim_ale_diagnostics(workspace: Workspace) -> None:
    run = run_editor("Vim + ALE", vim_argv(vim(), workspace), workspace)

    assert run.returncode == 0, run.result.get("errors") or run.stderr
    assert run.result["filetype"] == "markdown"
    assert run.codes >= SKILL_EXPECTED, run.result["diagnostics"]
    assert run.settings_codes >= SETTINGS_EXPECTED, run.result["settings_diagnostics"]
    assert run.result["plain_clients"] == 0, "the README must not be sent to clarvis-lsp"
    assert not run.result["errors"]


def test_vim_probe_fails_when_the_server_publishes_nothing(workspace: Workspace, silent_server: Path) -> None:
    run = run_editor(
        "Vim without a server",
        vim_argv(vim(), workspace),
        workspace,
        bin_dir=silent_server,
        env={"CLARVIS_TIMEOUT_MS": "3000"},
    )
    assert probe_failed(run), run.result


def test_vim_sends_exactly_the_files_of_the_generated_patterns(tmp_path: Path) -> None:
    """``clarvis_lsp#IsClarvisFile`` (ALE's executable and vim-lsp's cmd) against editors/file-patterns.json."""
    probe = PROBES / "patterns_probe.vim"
    answers = ask_editor([str(vim()), "-u", "NONE", "-N", "-i", "NONE", "-n", "-es", "-S", str(probe)], tmp_path)
    assert {path for path, sent in answers.items() if sent} == {path for path, lang in SAMPLES.items() if lang}


def test_ale_defines_the_linter_for_the_languages_of_the_generated_patterns() -> None:
    linters = {path.parent.name for path in (EDITORS / "vim" / "ale_linters").glob("*/clarvis_lsp.vim")}
    assert linters == LANGUAGES
