"""A project file's ``roots`` are read as given, wherever they point (a repository's ``.clarvis-lsp.toml`` can
name ``/etc``): ``--list`` marks the roots that came from the project file, and ``--explain config/invalid`` and
the README say so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECK = [sys.executable, "-m", "clarvis_lsp"]
README = Path(__file__).resolve().parents[2] / "README.md"


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "anywhere" / "skills"
    skill = outside / "far" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: far\ndescription: Lives outside the workspace.\n---\n", encoding="utf-8")
    ws = tmp_path / "ws"
    (ws / ".clarvis" / "skills").mkdir(parents=True)
    (ws / ".clarvis-lsp.toml").write_text(f'roots = ["{outside}:user:far", ".clarvis/skills"]\n', encoding="utf-8")
    return ws, outside


def _list(ws: Path, *extra: str) -> list[str]:
    done = subprocess.run(
        [*CHECK, "--check", "--list", "--no-user", *extra, "."],
        cwd=ws,
        capture_output=True,
        text=True,
        check=False,
        encoding="utf-8",
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_list_marks_the_roots_a_project_file_set(tmp_path: Path) -> None:
    ws, outside = _workspace(tmp_path)
    lines = _list(ws)
    assert f"#   root 0: {outside} (user/far) from .clarvis-lsp.toml" in lines
    assert "#   root 1: .clarvis/skills (workspace) from .clarvis-lsp.toml" in lines
    assert f"far\t{outside}/far/SKILL.md\tuser/far" in lines


def test_list_does_not_mark_roots_given_on_the_command_line(tmp_path: Path) -> None:
    ws, _outside = _workspace(tmp_path)
    lines = _list(ws, "--root", ".clarvis/skills")
    assert "#   root 0: .clarvis/skills (workspace)" in lines
    assert not [line for line in lines if "from .clarvis-lsp.toml" in line]


def test_explain_and_readme_say_project_roots_are_read_as_given() -> None:
    explained = subprocess.run([*CHECK, "--explain", "config/invalid"], capture_output=True, text=True, check=True)
    assert "roots` are read as given" in explained.stdout
    assert "`roots` are read as given" in README.read_text(encoding="utf-8")
