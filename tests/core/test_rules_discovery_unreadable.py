"""``discovery/unreadable``: a skill Clarvis cannot read is reported instead of vanishing silently."""

from __future__ import annotations

import os
from pathlib import Path

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.findings import Range, Severity


def test_broken_symlink_skill_is_reported(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    skill_dir = ws / ".clarvis" / "skills" / "deploy"
    skill_dir.mkdir(parents=True)
    os.symlink(tmp_path / "missing" / "SKILL.md", skill_dir / "SKILL.md")
    report = check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=tmp_path / "home"))
    found = [d for d in report.result.diagnostics if d.code == "discovery/unreadable"]
    assert [(d.path, d.severity, d.range) for d in found] == [
        (skill_dir / "SKILL.md", Severity.WARNING, Range.point(0, 0))
    ]
    assert "cannot load it" in found[0].message


def test_readable_skill_is_not_reported(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    skill_dir = ws / ".clarvis" / "skills" / "deploy"
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text("---\nname: deploy\ndescription: Deploys.\n---\n")
    report = check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=tmp_path / "home"))
    assert report.result.diagnostics == []
