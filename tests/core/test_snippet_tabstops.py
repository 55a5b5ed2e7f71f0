"""Every snippet the schemas ship (``defaultSnippets``) uses each tab stop once: a reused ``$2`` mirrors what the
user types into another field (the stdio MCP snippet once copied the command into ``args``)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SCHEMAS = Path(__file__).parent.parent.parent / "schemas"
TABSTOP = re.compile(r"\$(?:\{(\d+)[:}]|(\d+))")


def _snippets(node: Any, where: str) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for snippet in node.get("defaultSnippets", []):
            yield f"{where}: {snippet.get('label')}", snippet.get("body")
        for key, value in node.items():
            yield from _snippets(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _snippets(value, f"{where}/{index}")


CASES = [case for path in sorted(SCHEMAS.glob("*.json")) for case in _snippets(json.loads(path.read_text()), path.name)]


@pytest.mark.parametrize(("where", "body"), CASES, ids=[where for where, _ in CASES])
def test_each_tab_stop_is_used_once(where: str, body: Any) -> None:
    numbers = Counter(a or b for a, b in TABSTOP.findall(json.dumps(body)))
    assert [number for number, count in numbers.items() if count > 1] == [], where


def test_there_are_snippets_to_check() -> None:
    assert any("New MCP server (stdio)" in where for where, _ in CASES)
