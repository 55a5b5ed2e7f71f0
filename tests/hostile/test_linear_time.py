"""Every regular expression and scanner a repository's file reaches runs in linear time (SPEC §9: no file a
repository holds can make a check grow worse than linearly): the worst input of each, at ``n`` and ``8 * n``,
costs less than 20 times more at the larger size (see ``linear_time``). Each case names the code it drives and
the input that made it, or would make it, backtrack."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from linear_time import assert_linear

from clarvis_lsp.discovery.walk import GitIgnoreMatcher
from clarvis_lsp.rules.js_regex import js_regex_error

_STARS = GitIgnoreMatcher(["*a*a*a*b", "!**/*a*a*a*b/", "a/**/a*a*a*b"])

# name -> (work, build(n), starting n)
CASES: dict[str, tuple[Callable[[Any], object], Callable[[int], Any], int]] = {
    # A match.args pattern of thousands of named groups: each name was compared with every earlier one.
    "js-regex-named-groups": (js_regex_error, lambda n: "".join(f"(?<g{i}>a)" for i in range(n)), 250),
    # \k<name without '>': each looked for a '>' through the rest of the pattern.
    "js-regex-references-unclosed": (js_regex_error, lambda n: "(?<a>b)" + "\\k<a" * n, 2000),
    # A quantifier with thousands of digits: int() is quadratic in the digits (and raises above 4,300).
    "js-regex-long-quantifier": (js_regex_error, lambda n: "a{" + "9" * n + "," + "1" * n + "}", 4000),
    # An exclude glob of stars against a long name: pathspec's Python regex backtracked (n^4 here, exponential
    # in the number of stars); RE2 does not.
    "exclude-glob-stars": (_STARS.match_file, lambda n: "a/" + "a" * n + "/", 200),
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
