"""``--fix`` writes only where the user asked (SPEC §9): never through a symlink a repository holds (checks follow
symlinks by default, so a linked file is read and its findings reported), never outside the paths checked, and
atomically, keeping the file's mode. The summary names each file whose fixes were not written, and why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clarvis_lsp.fixes import write_refusal

CHECK = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user"]
FIXABLE = "---\nname: alpha\ndescription: d\nversion: 1.10\n---\nBody\n"  # a safe fix quotes "1.10"
FIXED = FIXABLE.replace("version: 1.10", 'version: "1.10"')


def _run(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CHECK, *arguments], cwd=cwd, capture_output=True, text=True, check=False)


def _victim(tmp_path: Path) -> Path:
    """A file of the user's own, outside the repository, that a repository's link points at."""
    victim = tmp_path / "users-own" / "alpha" / "SKILL.md"
    victim.parent.mkdir(parents=True)
    victim.write_text(FIXABLE)
    return victim


def test_a_symlinked_file_is_not_written_through(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    repo = tmp_path / "repo"
    link = repo / ".clarvis" / "skills" / "alpha" / "SKILL.md"
    link.parent.mkdir(parents=True)
    link.symlink_to(victim)
    for mode in ("--fix", "--diff"):
        result = _run(repo, mode, ".")
        assert victim.read_text() == FIXABLE, mode
        assert link.is_symlink()
        assert "Not fixed: 1 finding in .clarvis/skills/alpha/SKILL.md: the file is a symlink" in result.stderr
        assert "+++" not in result.stdout
    # The finding is still reported: the file was read, only the write is refused.
    assert "skill/invalid-field-type" in _run(repo, "--fix", ".").stdout


def test_a_symlinked_directory_on_the_way_is_not_written_through(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    repo = tmp_path / "repo"
    (repo / ".clarvis" / "skills").mkdir(parents=True)
    (repo / ".clarvis" / "skills" / "alpha").symlink_to(victim.parent, target_is_directory=True)
    result = _run(repo, "--fix", ".")
    assert victim.read_text() == FIXABLE
    assert "Not fixed: 1 finding in .clarvis/skills/alpha/SKILL.md: a directory on its way is a symlink" in (
        result.stderr
    )


def test_a_link_the_user_typed_is_theirs_to_fix_through(tmp_path: Path) -> None:
    """The path given on the command line may be a link (a checkout reached through one): it is what was asked."""
    real = tmp_path / "checkout"
    skill = real / ".clarvis" / "skills" / "alpha" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(FIXABLE)
    (tmp_path / "via-link").symlink_to(real, target_is_directory=True)
    result = _run(tmp_path, "--fix", "via-link")
    assert skill.read_text() == FIXED, result.stderr
    assert "Not fixed" not in result.stderr


def test_a_fix_is_atomic_and_keeps_the_mode(tmp_path: Path) -> None:
    skill = tmp_path / ".clarvis" / "skills" / "alpha" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(FIXABLE)
    skill.chmod(0o640)
    inode = skill.stat().st_ino
    hard_link = tmp_path / "elsewhere.md"
    os.link(skill, hard_link)  # a file the fix must not change: only the name checked is replaced
    result = _run(tmp_path, "--fix", ".")
    assert "Fixed 1 finding in .clarvis/skills/alpha/SKILL.md" in result.stderr
    assert skill.read_text() == FIXED
    assert skill.stat().st_mode & 0o7777 == 0o640
    assert skill.stat().st_ino != inode  # a new file renamed over the old one, not the old one rewritten
    assert hard_link.read_text() == FIXABLE
    assert sorted(path.name for path in skill.parent.iterdir()) == ["SKILL.md"]  # no temporary file left


@pytest.mark.parametrize(
    ("relative", "checked", "refused"),
    [
        ("repo/a/SKILL.md", ["repo"], None),
        ("repo/a/SKILL.md", ["repo/a/SKILL.md"], None),
        ("other/a/SKILL.md", ["repo"], "outside the paths checked"),
        ("repo-sibling/a/SKILL.md", ["repo"], "outside the paths checked"),  # a prefix of the name is not a parent
        ("repo/../other/a/SKILL.md", ["repo"], "outside the paths checked"),
    ],
)
def test_a_fix_goes_only_under_the_paths_checked(
    tmp_path: Path, relative: str, checked: list[str], refused: str | None
) -> None:
    for directory in ("repo/a", "other/a", "repo-sibling/a"):
        (tmp_path / directory).mkdir(parents=True)
        (tmp_path / directory / "SKILL.md").write_text(FIXABLE)
    why = write_refusal(Path(relative), checked, str(tmp_path))
    assert (why is None) if refused is None else (why is not None and refused in why)
