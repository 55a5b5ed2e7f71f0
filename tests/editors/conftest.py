"""Real editors, headless, with the configurations users copy from ``editors/`` (helpers: editor_support.py).

An editor that is not installed skips its tests, unless ``CLARVIS_E2E=1`` (set by CI): then it is a failure.
The time from starting each editor to its diagnostics is printed in the terminal summary.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from editor_support import SETTINGS_JSON, SKILL_MD, Workspace, timings, write


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    home = tmp_path / "home"
    write(home / ".clarvis/agents/helper.md", "---\nname: helper\ndescription: Helps.\n---\nHelp.\n")
    write(root / ".clarvis/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n")
    return Workspace(
        root=root,
        home=home,
        skill=write(root / ".clarvis/skills/pdf-tools/SKILL.md", SKILL_MD),
        settings=write(root / ".clarvis/settings.json", SETTINGS_JSON),
        plain=write(root / "README.md", "# Notes\n"),
    )


@pytest.fixture
def silent_server(tmp_path: Path) -> Iterator[Path]:
    """A PATH directory whose ``clarvis-lsp`` reads what the editor sends and never answers.

    It stays alive instead of exiting at once: an editor writing ``initialize`` to a server that has already gone can
    die of SIGPIPE (Emacs in batch mode does), and then the probe never gets to report that it saw no diagnostic.
    """
    bin_dir = tmp_path / "broken-bin"
    bin_dir.mkdir()
    script = bin_dir / "clarvis-lsp"
    script.write_text("#!/bin/sh\nexec cat >/dev/null\n", encoding="utf-8")
    script.chmod(0o755)
    yield bin_dir


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if timings:
        terminalreporter.section("editor start to diagnostics")
        for label, seconds in timings:
            terminalreporter.write_line(f"{label}: {seconds:.2f} s")
