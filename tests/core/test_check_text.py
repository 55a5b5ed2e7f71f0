"""``check_text``: one unsaved buffer through the same assembly as ``--check`` (own + cross-file findings,
configured severities, sorted)."""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.workspace.findings import check_text


def _tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    ws = tmp_path / "ws"
    winner = ws / ".clarvis/skills/review/SKILL.md"
    loser = ws / ".agents/skills/review/SKILL.md"
    for path, description in ((winner, "Reviews."), (loser, "Shared copy.")):
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: review\ndescription: {description}\nuser-invokable: x\n---\n", encoding="utf-8")
    (tmp_path / "home").mkdir()
    return ws, winner, loser


def test_buffer_findings_equal_the_check_of_the_same_text(tmp_path: Path) -> None:
    ws, _, loser = _tree(tmp_path)
    home = tmp_path / "home"
    report = check_paths(CheckRequest(paths=[str(ws)], cwd=tmp_path, home=home, overrides={"includeUser": False}))
    from_check = [item for item in report.result.diagnostics if item.path == loser]
    from_buffer = check_text(loser, loser.read_text(encoding="utf-8"), home=home, overrides={"includeUser": False})
    assert from_buffer == from_check
    assert [item.code for item in from_buffer] == ["discovery/shadowed", "skill/unknown-field"]


def test_unsaved_buffers_override_the_disk_for_discovery(tmp_path: Path) -> None:
    _, winner, loser = _tree(tmp_path)
    renamed = {winner: "---\nname: audit\ndescription: Audits.\n---\n"}
    found = check_text(
        loser,
        loser.read_text(encoding="utf-8"),
        home=tmp_path / "home",
        overrides={"includeUser": False, "rules": {"skill/unknown-field": "error"}},
        open_buffers=renamed,
    )
    assert [(item.code, item.severity.label) for item in found] == [("skill/unknown-field", "error")]
    assert winner.read_text(encoding="utf-8").startswith("---\nname: review")
