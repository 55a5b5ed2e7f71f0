"""The parsers (``clarvis_lsp.documents``) on arbitrary bytes and text: never an exception, positions that
round-trip, and a valid JSON document read back as exactly the value it encodes."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from mutations import any_text, json_value

from clarvis_lsp.documents.jsondoc import parse_json, to_python
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.findings import Position

SKILL_PATH = Path("/nonexistent/ws/.clarvis/skills/fuzz/SKILL.md")


@given(st.binary(max_size=400))
def test_decode_any_bytes(data: bytes) -> None:
    decoded = decode(data)
    try:
        expected = data.decode("utf-8")
    except UnicodeDecodeError:
        assert decoded.invalid_utf8_offset is not None
        assert 0 <= decoded.invalid_utf8_offset < len(data)
    else:
        assert decoded.invalid_utf8_offset is None
        assert decoded.text == expected.removeprefix("\ufeff")
        assert decoded.had_bom == expected.startswith("\ufeff")


@given(any_text, st.data())
def test_line_index_round_trips(text: str, data: st.DataObject) -> None:
    lines = LineIndex(text)
    offset = data.draw(st.integers(0, len(text)))
    position = lines.position(offset)
    assert 0 <= position.line < lines.line_count
    back = lines.offset(position)
    # An offset inside a CRLF pair has no position of its own: it maps to the end of the line's content.
    assert back == offset or (back < offset and text[back:offset].strip("\r\n") == "")
    anywhere = Position(data.draw(st.integers(-3, lines.line_count + 3)), data.draw(st.integers(-3, 50)))
    assert 0 <= lines.offset(anywhere) <= len(text)


@given(any_text)
def test_parse_skill_any_text(text: str) -> None:
    document = parse_skill(SKILL_PATH, text)
    again = parse_skill(SKILL_PATH, text)
    assert document.frontmatter_ok == again.frontmatter_ok
    assert [entry.key for entry in document.entries] == [entry.key for entry in again.entries]
    document.fields()  # the values build without expanding aliases or constructing tags


@given(st.lists(st.sampled_from(["---", "name: x", "a: &a [*a]", "b: *a", "- x", "  y", ":", "", "\t", "…"])))
def test_parse_skill_frontmatter_shapes(lines: list[str]) -> None:
    parse_skill(SKILL_PATH, "\n".join(["---", *lines, "---", "body"])).fields()


@given(any_text)
def test_parse_json_any_text(text: str) -> None:
    document = parse_json(text)
    for error in document.errors:
        where = document.error_range(error)
        assert where.start <= where.end
    assert to_python(document.root) == to_python(parse_json(text).root)


@given(json_value, st.sampled_from([None, 0, 2, "\t"]), st.booleans())
def test_parse_json_reads_valid_json_exactly(value: object, indent: int | str | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    document = parse_json(text)
    assert document.errors == []
    assert to_python(document.root) == json.loads(text)
