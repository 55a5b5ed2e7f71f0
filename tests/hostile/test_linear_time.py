"""Every regular expression and scanner a repository's file reaches runs in linear time (SPEC §9: no file a
repository holds can make a check grow worse than linearly): the worst input of each, at ``n`` and ``8 * n``,
costs less than 20 times more at the larger size (see ``linear_time``). Each case names the code it drives and
the input that made it, or would make it, backtrack."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linear_time import assert_linear

from clarvis_lsp import schema_docs
from clarvis_lsp.discovery.walk import GitIgnoreMatcher
from clarvis_lsp.documents import skill as skill_document
from clarvis_lsp.documents import skill_identity
from clarvis_lsp.documents.json_parser import parse_json
from clarvis_lsp.editor.symbols import without_closing_sequence
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge.plugin import VERSION_PATTERN
from clarvis_lsp.rules.collisions import Party, collisions
from clarvis_lsp.rules.js_regex import js_regex_error
from clarvis_lsp.rules.marketplace import SSH_ORIGIN

WORD = "abcdefghijklmnopqrst"


def _look_alikes(n: int) -> list[Party]:
    """``n`` spellings of one word and ``n`` of it followed by ``.t``, all starting one command: every party
    collides with every other in one way or two."""
    names = ["".join(c.upper() if i >> at & 1 else c for at, c in enumerate(WORD)) for i in range(n)]
    names += [name + ".t" for name in names]
    return [Party(name, "workspace", None, Path("s"), Range.point(0, 0), name, ("stdio", "x")) for name in names]


def _dotted(n: int) -> list[Party]:
    """A server "a" and one whose name is "a" and ``n`` dots: each dot could end another server's name."""
    return [Party(name, "workspace", None, Path("s"), Range.point(0, 0), name) for name in ("a", "a" + "." * n)]


_STARS = GitIgnoreMatcher(["*a*a*a*b", "!**/*a*a*a*b/", "a/**/a*a*a*b"])

# name -> (work, build(n), starting n)
CASES: dict[str, tuple[Callable[[Any], object], Callable[[int], Any], int]] = {
    # A match.args pattern of thousands of named groups: each name was compared with every earlier one.
    "js-regex-named-groups": (js_regex_error, lambda n: "".join(f"(?<g{i}>a)" for i in range(n)), 250),
    # One name in thousands of alternatives (ES2025 allows it), and names nested in alternatives thousands deep:
    # each '|' frees the names of its alternative, each ')' merges the smaller set of names into the larger.
    "js-regex-shared-names-in-alternatives": (js_regex_error, lambda n: "|".join(["(?<g>a)"] * n), 250),
    "js-regex-names-in-nested-alternatives": (
        js_regex_error,
        lambda n: "".join(f"((?<g{i}>a)|(?<g{i}>b)" for i in range(n)) + ")" * n,
        250,
    ),
    # \k<name without '>': each looked for a '>' through the rest of the pattern.
    "js-regex-references-unclosed": (js_regex_error, lambda n: "(?<a>b)" + "\\k<a" * n, 2000),
    # A quantifier with thousands of digits: int() is quadratic in the digits (and raises above 4,300).
    "js-regex-long-quantifier": (js_regex_error, lambda n: "a{" + "9" * n + "," + "1" * n + "}", 4000),
    # An exclude glob of stars against a long name: pathspec's Python regex backtracked (n^4 here, exponential
    # in the number of stars); RE2 does not.
    "exclude-glob-stars": (_STARS.match_file, lambda n: "a/" + "a" * n + "/", 200),
    # A plugin version whose prerelease has thousands of parts and one non-ASCII character: the semantic version
    # pattern backtracks quadratically in the regex module (the schema validator, and the rules' own match).
    "semver-pattern": (VERSION_PATTERN.match, lambda n: "1.2.3-" + "1." * n + "\u00e9", 1000),
    "semver-schema-validator": (
        lambda version: list(schema_docs.validator("plugin").iter_errors({"name": "p", "version": version})),
        lambda n: "1.2.3-" + "1." * n + "\u00e9",
        1000,
    ),
    # A frontmatter line of blanks after a key, where an alias is looked for: two adjacent [ \t]* split the run.
    "yaml-alias-range": (lambda line: skill_document._ALIAS.match(line, 0), lambda n: " " * n + "x", 500),
    # An ATX heading of blanks: the closing-sequence regex was searched from every blank (the worst input of the
    # regex; the string methods that replace it read the blanks and hashes at the end).
    "atx-closing-sequence": (without_closing_sequence, lambda n: " " * n + "x" + " " * n + "#" * n + " " * n, 500),
    # The rest of the audit: patterns applied to file contents that are linear already, kept so they stay so.
    "json-number-then-letter": (parse_json, lambda n: "[" + "1" * n + "x]", 500),
    "json-unterminated-backslashes": (parse_json, lambda n: '["' + "\\" * n, 500),
    "json-unterminated-comment": (parse_json, lambda n: '{"a" /*' + "*" * n, 500),
    "frontmatter-simple-block": (
        lambda block: skill_identity._simple_block().fullmatch(block),
        lambda n: "name: " + "a " * n + "\n",
        500,
    ),
    "frontmatter-core-float": (skill_document._CORE_FLOAT.match, lambda n: "1" * n + "x", 1000),
    "marketplace-ssh-origin": (SSH_ORIGIN.match, lambda n: "a" * n + "@" + "b" * n + ":" + "c" * n + " ", 500),
    # Thousands of look-alike MCP server names under one command: each collision lists at most 20 others and
    # counts the rest from the group's size, rather than reading every group member once per party.
    "collisions-look-alikes": (lambda parties: collisions(parties, tools=True), _look_alikes, 200),
    # A server name of thousands of dots: each prefix before a dot was sliced and looked up.
    "collisions-dotted-name": (lambda parties: collisions(parties, tools=True), _dotted, 2000),
}


@pytest.mark.parametrize("name", list(CASES))
def test_grows_linearly(name: str) -> None:
    work, build, start = CASES[name]
    assert_linear(work, build, start)


def _check_json(workspace: Path) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user", "--format", "json", "."],
        cwd=workspace,
        capture_output=True,
        text=True,
        check=False,
        encoding="utf-8",
    )
    assert result.returncode in (0, 1), result.stderr[-2000:]
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_a_settings_file_of_thousands_of_named_groups_is_checked(tmp_path: Path) -> None:
    """The 181 KB settings.json of the report (17 s per check before): checked, its one bad pattern found, and a
    quantifier of 5,000 digits reported rather than raising."""
    names = "".join(f"(?<g{i}>a)" for i in range(16000))
    digits = "9" * 5000
    settings = {
        "hooks": [
            {
                "event": "pre_tool_use",
                "command": "./guard.sh",
                "match": {"args": {"many": names, "huge": "a{" + digits + ",1}", "fine": "a{1," + digits + "}"}},
            }
        ]
    }
    path = tmp_path / ".clarvis" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(settings), encoding="utf-8")
    assert path.stat().st_size > 180_000
    report = _check_json(tmp_path)
    found = [(item["code"], item["message"]) for item in report["diagnostics"] if item["code"].startswith("hooks/")]
    assert [code for code, _ in found] == ["hooks/invalid-regex"], found
    assert 'argument "huge"' in found[0][1] and "out of order" in found[0][1]
    assert len(found[0][1]) < 400  # the 5,000 digits are not repeated in the message


_CLOSING = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")  # what without_closing_sequence replaces


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=" \t#ab", max_size=12))
def test_the_closing_sequence_is_removed_as_the_regex_removed_it(text: str) -> None:
    assert without_closing_sequence(text).strip() == _CLOSING.sub("", text).strip()


_OLD_ALIAS = re.compile(r"[ \t]*:?[ \t]*(\*[^\s,\[\]{}]+)")  # what _ALIAS replaces


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=" \t:*a,", max_size=12))
def test_the_alias_pattern_matches_what_it_matched(line: str) -> None:
    new, old = skill_document._ALIAS.match(line), _OLD_ALIAS.match(line)
    assert (new and new.span(1)) == (old and old.span(1))


def test_a_plugin_version_of_thousands_of_parts_is_checked(tmp_path: Path) -> None:
    """A 400 KB prerelease with a non-ASCII character: reported as an invalid version, in linear time."""
    manifest = tmp_path / ".clarvis" / "plugins" / "p" / "plugin.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"name": "p", "version": "1.2.3-" + "1." * 200_000 + "\u00e9"}), encoding="utf-8")
    settings_file = tmp_path / ".clarvis" / "settings.json"
    settings_file.write_text(json.dumps({"enabledPlugins": ["p"]}), encoding="utf-8")
    report = _check_json(tmp_path)
    codes = [item["code"] for item in report["diagnostics"] if item["path"].endswith("plugin.json")]
    assert codes and all(not code.startswith("internal/") for code in codes), codes


def _deep_tree(base: Path, *, workspace_at_every_level: bool) -> Callable[[int], Path]:
    """A chain of ``n`` nested directories (``d/d/…``), a skill in the top workspace and, when asked, a workspace
    with a skill of its own at every level (a monorepo of nested packages, at its worst)."""

    def build(n: int) -> Path:
        root = base / f"{'every' if workspace_at_every_level else 'top'}-{n}"
        if root.exists():
            return root
        root.mkdir()
        (root / "home").mkdir()
        directory = str(root)
        for level in range(n + 1):  # one level at a time: mkdir(parents=True) recurses once per missing parent
            if level == 0 or workspace_at_every_level:
                skill = os.path.join(directory, ".clarvis", "skills", f"s{level}")
                os.makedirs(skill)
                with open(os.path.join(skill, "SKILL.md"), "w", encoding="utf-8") as file:
                    file.write(f"---\nname: s{level}\ndescription: Level {level}.\n---\nBody.\n")
            directory = os.path.join(directory, "d")
            os.mkdir(directory)
        return root

    return build


@pytest.mark.parametrize("every_level", [True, False], ids=["a-workspace-at-every-level", "one-workspace"])
def test_a_deep_tree_is_checked_in_linear_time(tmp_path: Path, every_level: bool) -> None:
    """``--check`` over nested directories: each workspace's nested ones were found by asking every pair of them,
    and each path was rebuilt from its parts, so a chain of 1,000 nested workspaces took minutes."""
    from clarvis_lsp.batch.plan import CheckRequest
    from clarvis_lsp.batch.run import check_paths

    def check(root: Path) -> int:
        request = CheckRequest(paths=["."], cwd=root, home=root / "home", overrides={"includeUser": False}, jobs=1)
        report = check_paths(request)
        assert report.result.diagnostics == []
        return report.result.files_checked

    build = _deep_tree(tmp_path, workspace_at_every_level=every_level)
    try:
        assert check(build(3)) == (4 if every_level else 1)
        assert_linear(check, build, 8, limit=64)  # 8 × 64 levels of "d/": well within the longest path allowed
    finally:
        for root in tmp_path.iterdir():
            _remove_chain(root)


def _remove_chain(root: Path) -> None:
    """Remove a tree of ``_deep_tree`` from the bottom up, one level at a time: ``shutil.rmtree`` (and pytest's
    clean-up of old temporary directories) recurses once per level and would exceed the recursion limit."""
    chain = [str(root)]
    while os.path.isdir(os.path.join(chain[-1], "d")):
        chain.append(os.path.join(chain[-1], "d"))
    for directory in reversed(chain):
        for entry in os.scandir(directory):
            if entry.name != "d":
                shutil.rmtree(entry.path)
        os.rmdir(directory)
