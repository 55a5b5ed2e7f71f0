"""The xcsh model through ``--check`` and ``--list`` (seed ``xcsh-config-discovery``): a workspace is recognised by
any source directory, each source's project root is the nearest ancestor that has it, and the native provider
counts only a ``.xcsh`` directory that exists and is not empty."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SKILL = "---\nname: {name}\ndescription: {description}\n---\n"


def _skill(root: Path, relative: str, name: str, description: str = "d") -> Path:
    path = root / relative / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SKILL.format(name=name, description=description), encoding="utf-8")
    return path


def _run(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", *args, "--preset", "xcsh", "--no-user", "--home", str(home)],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _findings(repo: Path, home: Path) -> list[dict[str, Any]]:
    done = _run(repo, home, "--check", ".", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)["diagnostics"]
    return found


def test_a_package_inherits_the_repository_xcsh_skills(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    home.mkdir()
    _skill(repo, ".xcsh/skills", "deploy", "Repository copy.")
    shadowed = _skill(repo, "pkg/.claude/skills", "deploy", "Package copy.")
    found = _findings(repo, home)
    [finding] = [item for item in found if item["code"] == "discovery/shadowed"]
    assert finding["path"] == "pkg/.claude/skills/deploy/SKILL.md"
    assert finding["related"][0]["path"] == ".xcsh/skills/deploy/SKILL.md"
    assert shadowed.exists()
    listing = _run(repo, home, "--list", ".").stdout
    assert "# workspace pkg" in listing  # pkg is a workspace of its own: it holds .claude
    package_roots = listing.split("# workspace pkg", 1)[1]
    assert ": pkg/.claude/skills (workspace/claude)" in package_roots  # roots read like the other paths
    assert ": .xcsh/skills (workspace/native)" in package_roots  # the nearest .xcsh is the repository's


def test_any_source_directory_makes_a_workspace(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    home.mkdir()
    _skill(repo, "tools/.codex/skills", "lint", "Codex copy.")
    _skill(repo, "tools/.gemini/skills", "lint", "Gemini copy.")
    found = _findings(repo, home)
    [finding] = [item for item in found if item["code"] == "discovery/shadowed"]
    assert finding["path"] == "tools/.gemini/skills/lint/SKILL.md"  # codex beats gemini in xcsh's order


def test_an_empty_xcsh_directory_is_not_a_root(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    home.mkdir()
    (repo / ".xcsh").mkdir(parents=True)
    _skill(repo, ".claude/skills", "notes")
    listing = _run(repo, home, "--list", ".").stdout
    assert "(workspace/native)" not in listing
    assert "(workspace/claude)" in listing


def test_an_empty_xcsh_directory_does_not_stop_the_nearest_ancestor_search(tmp_path: Path) -> None:
    """``pkg/.xcsh/`` exists but is empty: the native provider admits it only when it is not empty
    (``ifNonEmptyDir``), so the package still inherits the repository's ``.xcsh/skills``."""
    repo, home = tmp_path / "repo", tmp_path / "home"
    home.mkdir()
    _skill(repo, ".xcsh/skills", "deploy", "Repository copy.")
    (repo / "pkg/.xcsh").mkdir(parents=True)
    _skill(repo, "pkg/.claude/skills", "deploy", "Package copy.")
    listing = _run(repo, home, "--list", ".").stdout
    package = listing.split("# workspace pkg", 1)[1]
    assert ": .xcsh/skills (workspace/native)" in package
    assert ": pkg/.xcsh" not in package
    rows = [line.split("\t") for line in package.splitlines()]
    assert ["deploy", ".xcsh/skills/deploy/SKILL.md", "workspace/native"] in rows  # the repository's copy wins
    [finding] = [item for item in _findings(repo, home) if item["code"] == "discovery/shadowed"]
    assert finding["path"] == "pkg/.claude/skills/deploy/SKILL.md"


def test_an_empty_xcsh_directory_alone_does_not_make_a_workspace(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    home.mkdir()
    _skill(repo, ".claude/skills", "notes")
    (repo / "pkg/.xcsh").mkdir(parents=True)
    listing = _run(repo, home, "--list", ".").stdout
    assert "# workspace pkg" not in listing
