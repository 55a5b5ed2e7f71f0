"""``--select``, ``--ignore``, ``--explain`` and ``[rules]`` name codes or families: a typo is a usage error.

A CI gate written ``--select skil`` used to print "No findings" and exit 0 forever; every place that takes a code
also takes a family (``skill``, ``skill/``, ``skill/*``), and a word that names neither exits 2 with the closest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "clarvis_lsp", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """One skill with an unknown field (a warning) and no description (an error)."""
    skill = tmp_path / ".clarvis" / "skills" / "pdf" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: pdf\nuser-invokable: false\n---\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("option", "word", "meant"),
    [
        ("--select", "skil", "skill"),
        ("--ignore", "skill/unknwn-field", "skill/unknown-field"),
        ("--select", "hooks/unknown-evnt", "hooks/unknown-event"),
    ],
)
def test_an_unknown_code_or_family_is_a_usage_error(workspace: Path, option: str, word: str, meant: str) -> None:
    result = run(workspace, "--check", "--no-user", option, word)
    assert result.returncode == 2
    assert result.stdout == ""
    assert f"unknown rule code or family '{word}' in {option}" in result.stderr
    assert f'Did you mean "{meant}"?' in result.stderr


def test_one_bad_word_in_a_comma_list_is_refused(workspace: Path) -> None:
    result = run(workspace, "--check", "--no-user", "--select", "skill,mpc")
    assert result.returncode == 2
    assert "'mpc' in --select" in result.stderr


@pytest.mark.parametrize("family", ["skill", "skill/", "skill/*"])
def test_families_are_accepted_in_select_and_ignore(workspace: Path, family: str) -> None:
    selected = run(workspace, "--check", "--no-user", "--select", family)
    assert selected.returncode == 1, selected.stderr
    assert "skill/missing-description" in selected.stdout
    ignored = run(workspace, "--check", "--no-user", "--ignore", family)
    assert ignored.returncode == 0, ignored.stderr
    assert "No findings" in ignored.stdout


def test_explain_a_family_lists_its_codes() -> None:
    from clarvis_lsp.rules.catalogue import all_rules

    result = run(Path.cwd(), "--explain", "skill")
    assert result.returncode == 0, result.stderr
    listed = [line.split()[0] for line in result.stdout.splitlines() if line.startswith("  ")]
    assert listed == [rule.code for rule in all_rules() if rule.family == "skill"]
    assert "skill/broken-link" in result.stdout and "warning" in result.stdout


def test_explain_an_unknown_word_suggests_a_code_or_a_family() -> None:
    family = run(Path.cwd(), "--explain", "plugn")
    assert family.returncode == 2
    assert 'Did you mean "plugin"?' in family.stderr
    code = run(Path.cwd(), "--explain", "skill/unknown-fild")
    assert code.returncode == 2
    assert 'Did you mean "skill/unknown-field"?' in code.stderr


def test_a_family_switches_a_whole_family_off_in_the_project_file(workspace: Path) -> None:
    (workspace / ".clarvis-lsp.toml").write_text('[rules]\nskill = "off"\n', encoding="utf-8")
    result = run(workspace, "--check", "--no-user")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings" in result.stdout
