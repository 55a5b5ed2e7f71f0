"""An ``exclude`` glob from a repository's ``.clarvis-lsp.toml`` or ``pyproject.toml`` cannot hang ``--check``
(issue 21, break 3): ``*a*a*a*a*a*a*a*a*a*a*a*a*b`` against a directory named with 40 ``a``s made pathspec's
regular expression backtrack for ever. Matching keeps ``.gitignore`` semantics: the same outcome as pathspec's
``GitIgnoreSpec`` on every pattern and path Hypothesis draws from a small alphabet."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pathspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clarvis_lsp.discovery.walk import GitIgnoreMatcher

HOSTILE = "*a*a*a*a*a*a*a*a*a*a*a*a*b"
SKILL = "---\nname: {name}\ndescription: d\nuser-invokable: true\n---\n"  # one finding: a misspelled key


def _tree(root: Path, project_file: str, patterns: list[str]) -> None:
    for relative in (".clarvis/skills/kept", "a" * 40 + "/.clarvis/skills/deep", "x.bak/.clarvis/skills/gone"):
        path = root / relative / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(SKILL.format(name=path.parent.name), encoding="utf-8")
    if project_file == ".clarvis-lsp.toml":
        (root / project_file).write_text(f"exclude = {json.dumps(patterns)}\n", encoding="utf-8")
    else:
        (root / project_file).write_text(f"[tool.clarvis-lsp]\nexclude = {json.dumps(patterns)}\n", encoding="utf-8")


@pytest.mark.parametrize("project_file", [".clarvis-lsp.toml", "pyproject.toml"])
@pytest.mark.parametrize(
    "patterns",
    [
        [HOSTILE, "*.bak/"],
        ["!", "[z-a]x", "*.bak/"],  # patterns Git cannot read are ignored, as Git ignores them (they raised)
    ],
)
def test_a_hostile_exclude_glob_does_not_hang_or_break_the_check(
    tmp_path: Path, project_file: str, patterns: list[str]
) -> None:
    _tree(tmp_path, project_file, patterns)
    done = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--no-user", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,  # the hostile glob never finished before
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    checked = {item["path"] for item in json.loads(done.stdout)["diagnostics"]}
    assert checked == {".clarvis/skills/kept/SKILL.md", "a" * 40 + "/.clarvis/skills/deep/SKILL.md"}


_PATTERN_PARTS = st.sampled_from(
    ["a", "b", "*", "**", "?", "/", "[ab]", "[!a]", "[]a]", "[[:alpha:]]", "[", "]", "\\*", "\\", ".", " ", "#"]
)
_PATTERNS = st.builds(
    lambda negated, parts: ("!" if negated else "") + "".join(parts),
    st.booleans(),
    st.lists(_PATTERN_PARTS, min_size=1, max_size=6),
)
_PATHS = st.builds(
    lambda parts, directory: "/".join(parts) + ("/" if directory else ""),
    # Names as a directory listing gives them: never "." or "..".
    st.lists(
        st.text(alphabet="ab.* []:", min_size=1, max_size=4).filter(lambda name: name not in (".", "..")),
        min_size=1,
        max_size=4,
    ),
    st.booleans(),
)


def _pathspec_says(patterns: list[str], path: str) -> bool | None:
    """pathspec's own answer (its backtracking engine is safe on these short inputs), None if it rejects them."""
    try:
        with warnings.catch_warnings():  # Python's "possible nested set" on "[[": noise here
            warnings.simplefilter("ignore", FutureWarning)
            spec = pathspec.GitIgnoreSpec.from_lines(patterns, backend="simple")
    except ValueError:  # a pattern it cannot read ("!" alone): it rejects the whole list
        return None
    return spec.match_file(path)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PATTERNS, min_size=1, max_size=4), _PATHS)
def test_the_outcome_is_gitignore_specs(patterns: list[str], path: str) -> None:
    expected = _pathspec_says(patterns, path)
    if expected is not None:
        assert GitIgnoreMatcher(patterns).match_file(path) == expected


@pytest.mark.parametrize(
    ("patterns", "path", "excluded"),
    [
        (["fixtures/"], "pkg/fixtures/", True),
        (["fixtures/"], "pkg/fixtures", False),  # a directory pattern does not match a file
        (["/fixtures/"], "pkg/fixtures/", False),
        (["vendor/**"], "vendor/a/b.json", True),
        (["**/fixtures/", "!pkg/fixtures/"], "pkg/fixtures/", False),
        (["*.json", "!keep.json"], "a/keep.json", False),
        (["a/", "!a/b"], "a/b", False),  # GitIgnoreSpec: a file put back under an excluded directory
        # A bracket expression as pathspec reads it: the class [[:alph], then "]x" (RE2 alone reads [:alpha:]).
        (["[[:alpha:]]x"], "a]x", True),
        (["[[:alpha:]]x"], "[ax", False),
        ([HOSTILE], "a" * 40 + "/", False),
        ([HOSTILE], "a" * 40 + "b/", True),
    ],
)
def test_gitignore_cases(patterns: list[str], path: str, excluded: bool) -> None:
    assert GitIgnoreMatcher(patterns).match_file(path) is excluded
