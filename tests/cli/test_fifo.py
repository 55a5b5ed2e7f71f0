"""A FIFO under a recognised name is a finding, never a blocking read (SPEC §9): ``--check`` used to wait on a FIFO
named ``.clarvis/settings.json`` forever."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("relative", [".clarvis/settings.json", "marketplace.json", ".clarvis/agents/helper.md"])
def test_a_fifo_is_reported_not_read(tmp_path: Path, relative: str) -> None:
    ws = tmp_path / "ws"
    (ws / ".clarvis/skills/a").mkdir(parents=True)
    (ws / ".clarvis/skills/a/SKILL.md").write_text("---\nname: a\ndescription: d\n---\n", encoding="utf-8")
    fifo = ws / relative
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    (tmp_path / "home").mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clarvis_lsp",
            "--check",
            str(ws),
            "--no-user",
            "--home",
            str(tmp_path / "home"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,  # a blocking read would never return
        check=False,
    )
    found = json.loads(done.stdout)["diagnostics"]
    mine = [item for item in found if item["path"].endswith(relative)]
    assert [item["code"] for item in mine] == ["discovery/unreadable"]
    assert "not a regular file" in mine[0]["message"]
