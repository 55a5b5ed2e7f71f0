"""``file/encoding`` points at the first undecodable byte, not at a real U+FFFD the file holds before it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_encoding_finding_is_at_the_bad_byte(tmp_path: Path) -> None:
    skill = tmp_path / "ws/.clarvis/skills/x/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_bytes("---\nname: x\ndescription: a \ufffd on purpose\n---\n".encode() + b"bad: \xff\n")
    (tmp_path / "home").mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clarvis_lsp",
            "--check",
            str(tmp_path / "ws"),
            "--no-user",
            "--home",
            str(tmp_path / "home"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    [finding] = json.loads(done.stdout)["diagnostics"]
    assert (finding["code"], finding["line"], finding["column"], finding["end_column"]) == ("file/encoding", 5, 6, 7)
