"""A file over the size limit is reported as too large, never read in part: its first 10 MB would read as a broken
file ("'{' is never closed"). ``maxFileSizeMB`` in ``.clarvis-lsp.toml`` raises the limit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

MEGABYTE = 1024 * 1024


def write_marketplace(workspace: Path, megabytes: int) -> Path:
    """A valid marketplace.json padded with white space to ``megabytes``."""
    path = workspace / "marketplace.json"
    head = '{"name": "team", "plugins": ['
    path.write_text(head + " " * (megabytes * MEGABYTE) + "]}\n", encoding="utf-8")
    (workspace / "home").mkdir(exist_ok=True)
    return path


def check(workspace: Path) -> tuple[int, list[dict[str, Any]]]:
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--home", "home", "--format", "json"],
        cwd=workspace,
        capture_output=True,
        text=True,
    )
    found: list[dict[str, Any]] = json.loads(result.stdout)["diagnostics"]
    return result.returncode, found


def test_a_file_over_the_limit_is_reported_as_too_large(tmp_path: Path) -> None:
    write_marketplace(tmp_path, 12)
    status, found = check(tmp_path)
    assert [(item["code"], item["path"], item["line"]) for item in found] == [
        ("discovery/unreadable", "marketplace.json", 1)
    ]
    message = found[0]["message"]
    assert "marketplace.json is 12.0 MB, over the size limit of the files Clarvis checks (maxFileSizeMB)" in message
    assert message.endswith(": not checked.")
    assert "never closed" not in message
    assert found[0]["severity"] == "warning" and status == 0


def test_max_file_size_raises_the_limit(tmp_path: Path) -> None:
    write_marketplace(tmp_path, 12)
    (tmp_path / ".clarvis-lsp.toml").write_text("maxFileSizeMB = 20\n", encoding="utf-8")
    assert check(tmp_path) == (0, [])


def test_a_limit_that_is_not_a_positive_number_is_a_configuration_error(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    (tmp_path / ".clarvis-lsp.toml").write_text("maxFileSizeMB = 0\n", encoding="utf-8")
    status, found = check(tmp_path)
    assert status == 2
    assert [(item["code"], item["line"]) for item in found] == [("config/invalid", 1)]
