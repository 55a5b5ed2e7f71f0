"""The pre-commit hook as pre-commit runs it: ``.pre-commit-hooks.yaml``'s ``files`` pattern picks the files of a
commit and its ``entry`` gets them as arguments; and README's snippet names a ``rev`` that exists."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]

PICKED = [
    "SKILL.md",
    ".clarvis/skills/review/SKILL.md",
    ".clarvis/settings.json",
    ".clarvis/plugins/kit/plugin.json",
    ".clarvis/plugins/kit/hooks/hooks.json",
    ".clarvis/plugins/kit/agents/helper.md",
    ".clarvis/agents/reviewer.md",
    "marketplace.json",
    ".clarvis-lsp.toml",
    "sub/project/.clarvis-lsp.toml",
]
LEFT_OUT = ["README.md", "docs/agents.md", "agents/notes/x.md", "src/SKILL.md.bak", "clarvis-lsp.toml", "a.py"]


def hook() -> dict[str, object]:
    [declared] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(declared, dict)
    return declared


def test_the_files_pattern_picks_agent_files_and_the_project_configuration() -> None:
    pattern = re.compile(str(hook()["files"]))  # pre-commit matches with re.search on the path
    assert [path for path in PICKED if not pattern.search(path)] == []
    assert [path for path in LEFT_OUT if pattern.search(path)] == []


def test_the_entry_checks_the_picked_files_as_pre_commit_passes_them(tmp_path: Path) -> None:
    (tmp_path / ".clarvis" / "agents").mkdir(parents=True)
    (tmp_path / ".clarvis" / "agents" / "reviewer.md").write_text("---\nname: reviewer\n---\nReview.\n")
    (tmp_path / ".clarvis-lsp.toml").write_text('[rules]\n"agent/requires-trst" = "off"\n', encoding="utf-8")
    pattern = re.compile(str(hook()["files"]))
    files = sorted(
        str(path.relative_to(tmp_path))
        for path in tmp_path.rglob("*")
        if pattern.search(str(path.relative_to(tmp_path)))
    )
    assert files == [".clarvis-lsp.toml", ".clarvis/agents/reviewer.md"]
    entry = shlex.split(str(hook()["entry"]))
    assert entry[0] == "clarvis-lsp"
    command = [sys.executable, "-m", "clarvis_lsp", *entry[1:], *files]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2  # a configuration error fails the commit
    assert '.clarvis-lsp.toml:2:1: error[config/invalid] Unknown rule code "agent/requires-trst"' in result.stdout
    assert ".clarvis/agents/reviewer.md:1:1: information[agent/requires-trust]" in result.stdout


def test_the_readme_snippet_names_a_rev_that_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### pre-commit\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    [repo] = yaml.safe_load(block)["repos"]
    assert [item["id"] for item in repo["hooks"]] == [hook()["id"]]
    rev = str(repo["rev"])
    tags = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if rev in tags:
        return  # a release tag of this repository
    # No tag to name: the default branch, which `pre-commit autoupdate` turns into the newest tag or commit.
    assert rev == "main", f"rev {rev!r} is no tag of this repository ({tags or 'it has none'})"
    assert "run `pre-commit autoupdate` once" in section
