"""JSON formatting never changes a value: over the shipped examples and hand-written edge cases, the formatted
text parses to the same value, holds every scalar and key exactly as written, in the same order, and formatting
it again changes nothing. A file that does not parse is left alone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.formatting import format_json

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").rglob("*.json"))
CASES = [
    '{"a":1e5,"b":-0.0,"c":[true,false,null],"d":"\\u00e9\\n\\"x\\"","e":{}}',
    '{\n  "dup": 1,\n  "dup": 2\n}\n',
    '\ufeff{"bom": [ ]}\n',
    '{"nested": {"deep": [[1, [2, {"x": "y"}]], {}]}}',
    '  {\r\n"crlf":\r\n  [1,\r\n2]}  \r\n\r\n',
    "[]",
    '{"emoji": "😀", "spaces": "a  b   c"}',
]
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s\[\]{}:,]+')


def apply(text: str, within: tuple[int, int] | None = None) -> str:
    lines = LineIndex(text)
    for edit in format_json(text, within=within):
        text = text[: lines.offset(edit.range.start)] + edit.new_text + text[lines.offset(edit.range.end) :]
    return text


@pytest.mark.parametrize("text", [path.read_text(encoding="utf-8") for path in EXAMPLES] + CASES)
def test_formatting_changes_whitespace_only(text: str) -> None:
    formatted = apply(text)
    assert json.loads(formatted.lstrip("\ufeff")) == json.loads(text.lstrip("\ufeff"))
    assert _TOKEN.findall(formatted) == _TOKEN.findall(text)  # every key and value as written, in order
    assert format_json(formatted) == []  # formatted: no edit
    assert formatted.endswith("\n") == text.rstrip(" ").endswith("\n")


def test_a_formatted_example_is_left_as_it_is() -> None:
    """The shipped examples are written the way the formatter writes (two spaces, one-line short arrays)."""
    formatted = [path for path in EXAMPLES if not format_json(path.read_text(encoding="utf-8"))]
    assert formatted, "no example is formatted: the formatter reflows what people write"


@pytest.mark.parametrize("text", ['{"a": ', '{"a": 1,}', '{"a" 1}', '{"a": [1, 2}', ""])
def test_a_file_that_does_not_parse_is_left_alone(text: str) -> None:
    assert format_json(text) == []
    assert format_json(text, within=(0, len(text))) == []
