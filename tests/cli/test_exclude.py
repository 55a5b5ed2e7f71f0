"""``exclude`` patterns through ``--check``: ``.gitignore`` semantics, one matcher for the file walk and the search
for nested workspaces."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BAD_SKILL = "---\nname: {name}\ndescription: d\nuser-invokable: true\n---\n"


def _skill(root: Path, relative: str) -> None:
    path = root / relative / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BAD_SKILL.format(name=path.parent.name), encoding="utf-8")


def _tree(tmp_path: Path, patterns: list[str]) -> Path:
    repo = tmp_path / "repo"
    _skill(repo, ".clarvis/skills/top")
    _skill(repo, "vendor/.clarvis/skills/vendored")  # a nested workspace under vendor/
    _skill(repo, "fixtures/.clarvis/skills/fixture-top")
    _skill(repo, "pkg/fixtures/.clarvis/skills/fixture-deep")
    _skill(repo, "pkg/.clarvis/skills/kept")
    (repo / "marketplace.json").write_text('{"plugins": [{"name": "x"}]}', encoding="utf-8")
    (repo / ".clarvis-lsp.toml").write_text(f"exclude = {json.dumps(patterns)}\n", encoding="utf-8")
    return repo


def _checked(repo: Path, home: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--no-user", "--home", str(home), "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return {item["path"] for item in json.loads(done.stdout)["diagnostics"]}


ALL = {
    ".clarvis/skills/top/SKILL.md",
    "vendor/.clarvis/skills/vendored/SKILL.md",
    "fixtures/.clarvis/skills/fixture-top/SKILL.md",
    "pkg/fixtures/.clarvis/skills/fixture-deep/SKILL.md",
    "pkg/.clarvis/skills/kept/SKILL.md",
    "marketplace.json",
}


@pytest.mark.parametrize(
    ("patterns", "excluded"),
    [
        ([], set()),
        (["vendor/**"], {"vendor/.clarvis/skills/vendored/SKILL.md"}),
        (["vendor/"], {"vendor/.clarvis/skills/vendored/SKILL.md"}),
        (
            ["**/fixtures/"],
            {"fixtures/.clarvis/skills/fixture-top/SKILL.md", "pkg/fixtures/.clarvis/skills/fixture-deep/SKILL.md"},
        ),
        (
            ["fixtures/"],
            {"fixtures/.clarvis/skills/fixture-top/SKILL.md", "pkg/fixtures/.clarvis/skills/fixture-deep/SKILL.md"},
        ),
        (["/fixtures/"], {"fixtures/.clarvis/skills/fixture-top/SKILL.md"}),
        (["marketplace.json"], {"marketplace.json"}),
        (["*.json"], {"marketplace.json"}),
        (["**/fixtures/", "!pkg/fixtures/"], {"fixtures/.clarvis/skills/fixture-top/SKILL.md"}),
    ],
)
def test_exclude_patterns_have_gitignore_semantics(tmp_path: Path, patterns: list[str], excluded: set[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    repo = _tree(tmp_path, patterns)
    assert _checked(repo, home) == ALL - excluded
