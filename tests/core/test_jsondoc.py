"""Tests of the tolerant, position-keeping JSON parser."""

from __future__ import annotations

import json
import math
import random

from clarvis_lsp.documents.jsondoc import (
    MAX_DEPTH,
    MAX_ERRORS,
    JsonArray,
    JsonDocument,
    JsonMember,
    JsonNode,
    JsonObject,
    JsonSyntaxError,
    parse_json,
    pointer,
    to_python,
)
from clarvis_lsp.findings import Range

# ------------------------------------------------------------------------------------------------ helpers


def root_object(doc: JsonDocument) -> JsonObject:
    assert isinstance(doc.root, JsonObject)
    return doc.root


def root_array(doc: JsonDocument) -> JsonArray:
    assert isinstance(doc.root, JsonArray)
    return doc.root


def member(obj: JsonNode | None, key: str) -> JsonMember:
    assert isinstance(obj, JsonObject)
    found = obj.get(key)
    assert found is not None, f"no member {key!r} in {obj.keys()}"
    return found


def value(obj: JsonNode | None, key: str) -> JsonNode:
    found = member(obj, key).value
    assert found is not None
    return found


def only_error(doc: JsonDocument, fragment: str) -> JsonSyntaxError:
    matching = [error for error in doc.errors if fragment in error.message]
    assert len(matching) == 1, (fragment, doc.errors)
    return matching[0]


def error_range(doc: JsonDocument, fragment: str) -> Range:
    return doc.range_of(only_error(doc, fragment).start, only_error(doc, fragment).end)


def messages(doc: JsonDocument) -> list[str]:
    return [error.message for error in doc.errors]


def check_invariants(doc: JsonDocument) -> None:
    """Spans are in bounds and non-empty, parents and back links are consistent."""
    length = len(doc.text)
    for error in doc.errors:
        assert 0 <= error.start <= error.end <= length, error
        assert error.end > error.start or error.start == length or "empty" in error.message, error
    if doc.root is None:
        return
    assert doc.root.parent is None
    pending: list[JsonNode] = [doc.root]
    while pending:
        node = pending.pop()
        assert 0 <= node.start < node.end <= length, (node.kind, node.start, node.end)
        if isinstance(node, JsonObject):
            for item in node.members:
                assert item.parent is node
                assert node.start < item.key_start < item.key_end <= length
                if item.value is not None:
                    assert item.value.parent is node and item.value.member is item
                    assert item.value.start >= item.key_end
                    pending.append(item.value)
        elif isinstance(node, JsonArray):
            for index, child in enumerate(node.items):
                assert child.parent is node and child.index == index
                pending.append(child)


# ---------------------------------------------------------------------------------------------- positions

MULTIBYTE = '{\n  "é😀": "x", "key": 1.5,\n  "list": [true, null, "ü"]\n}'


def test_key_and_value_spans_count_code_points_after_multibyte_characters() -> None:
    doc = parse_json(MULTIBYTE)
    assert doc.errors == []
    obj = root_object(doc)
    assert [m.key for m in obj.members] == ["é😀", "key", "list"]

    emoji = member(obj, "é😀")
    assert doc.key_range(emoji) == Range.of(1, 2, 1, 6)
    assert doc.node_range(value(obj, "é😀")) == Range.of(1, 8, 1, 11)
    assert emoji.colon == MULTIBYTE.index(":")

    assert doc.key_range(member(obj, "key")) == Range.of(1, 13, 1, 18)
    assert doc.node_range(value(obj, "key")) == Range.of(1, 20, 1, 23)

    assert doc.key_range(member(obj, "list")) == Range.of(2, 2, 2, 8)
    items = value(obj, "list")
    assert isinstance(items, JsonArray)
    assert doc.node_range(items) == Range.of(2, 10, 2, 27)
    assert [doc.node_range(item) for item in items.items] == [
        Range.of(2, 11, 2, 15),
        Range.of(2, 17, 2, 21),
        Range.of(2, 23, 2, 26),
    ]
    assert doc.node_range(obj) == Range.of(0, 0, 3, 1)
    assert doc.member_range(member(obj, "key")) == Range.of(1, 13, 1, 23)


def test_crlf_and_cr_line_breaks() -> None:
    doc = parse_json('{\r\n  "a": 1,\r  "b": "x"\r\n}')
    obj = root_object(doc)
    assert doc.errors == []
    assert doc.key_range(member(obj, "a")) == Range.of(1, 2, 1, 5)
    assert doc.node_range(value(obj, "b")) == Range.of(2, 7, 2, 10)


def test_scalar_kinds_and_values() -> None:
    doc = parse_json('{"s": "t", "i": -12, "f": 2.5e-3, "z": -0, "t": true, "n": null, "o": {}, "a": []}')
    obj = root_object(doc)
    kinds = {item.key: value(obj, item.key).kind for item in obj.members}
    assert kinds == {
        "s": "string",
        "i": "number",
        "f": "number",
        "z": "number",
        "t": "boolean",
        "n": "null",
        "o": "object",
        "a": "array",
    }
    assert value(obj, "i").value == -12 and isinstance(value(obj, "i").value, int)
    assert value(obj, "f").value == 0.0025 and isinstance(value(obj, "f").value, float)
    assert value(obj, "o").value is None


def test_string_escapes_and_surrogate_pairs() -> None:
    doc = parse_json(r'["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00", "\ud800", "\uDE00x"]')
    assert doc.errors == []
    assert [item.value for item in root_array(doc).items] == [
        'a"b\\c/d\b\f\n\r\t',
        "é😀",
        "\ud800",
        "\ude00x",
    ]


def test_big_numbers_do_not_crash() -> None:
    huge = "9" * 5000
    doc = parse_json(f"[1e400, -1e400, {huge}, 1e-400, 123456789012345678901234567890]")
    assert doc.errors == []
    values = [item.value for item in root_array(doc).items]
    assert values[0] == math.inf and values[1] == -math.inf
    assert values[2] == math.inf  # more digits than int() converts: read as a float
    assert values[3] == 0.0
    assert values[4] == 123456789012345678901234567890


# ----------------------------------------------------------------------------------------------- recovery


def test_trailing_comma_in_object_keeps_later_members() -> None:
    text = '{\n  "a": {"x": 1,},\n  "b": 2\n}'
    doc = parse_json(text)
    assert messages(doc) == ["Trailing comma: remove the ',' before '}'"]
    assert error_range(doc, "Trailing comma") == Range.of(1, 14, 1, 15)
    assert to_python(doc.root) == {"a": {"x": 1}, "b": 2}


def test_trailing_comma_in_array() -> None:
    doc = parse_json('{"a": [1, 2,], "b": 3}')
    assert error_range(doc, "Trailing comma: remove the ',' before ']'") == Range.of(0, 11, 0, 12)
    assert to_python(doc.root) == {"a": [1, 2], "b": 3}


def test_extra_comma() -> None:
    doc = parse_json('{"a": 1,, "b": 2}')
    assert error_range(doc, "Extra ','") == Range.of(0, 8, 0, 9)
    assert to_python(doc.root) == {"a": 1, "b": 2}


def test_unclosed_string_value_stops_at_end_of_line() -> None:
    text = '{\n  "a": "hello,\n  "b": 2\n}'
    doc = parse_json(text)
    assert messages(doc) == ["Unclosed string: add a closing '\"'"]
    assert error_range(doc, "Unclosed string") == Range.of(1, 7, 1, 14)
    obj = root_object(doc)
    assert value(obj, "a").value == "hello,"
    assert value(obj, "a").closed is False
    assert value(obj, "b").value == 2
    assert obj.closed


def test_unclosed_string_key_keeps_member_and_next_line() -> None:
    doc = parse_json('{\n  "a: 1,\n  "b": 2\n}')
    assert messages(doc) == ["Unclosed string: add a closing '\"'"]
    assert error_range(doc, "Unclosed") == Range.of(1, 2, 1, 8)
    obj = root_object(doc)
    assert obj.keys() == ["a: 1,", "b"]
    assert member(obj, "a: 1,").value is None
    assert value(obj, "b").value == 2


def test_missing_comma_between_members_records_both() -> None:
    doc = parse_json('{\n  "a": 1\n  "b": 2\n}')
    assert messages(doc) == ["Missing ',' between members: add ',' before this key"]
    assert error_range(doc, "Missing ','") == Range.of(2, 2, 2, 5)
    assert to_python(doc.root) == {"a": 1, "b": 2}


def test_missing_comma_between_items_records_both() -> None:
    doc = parse_json('[1 "two"\n {"three": 3}]')
    assert [error.message for error in doc.errors] == [
        "Missing ',' between items: add ',' before this value",
        "Missing ',' between items: add ',' before this value",
    ]
    assert doc.range_of(doc.errors[0].start, doc.errors[0].end) == Range.of(0, 3, 0, 8)
    assert doc.range_of(doc.errors[1].start, doc.errors[1].end) == Range.of(1, 1, 1, 2)
    assert to_python(doc.root) == [1, "two", {"three": 3}]


def test_missing_value_before_comma_and_brace() -> None:
    doc = parse_json('{"a": , "b": 2, "c": }')
    assert [e.message for e in doc.errors] == ["Expected a value after ':'"] * 2
    assert doc.range_of(doc.errors[0].start, doc.errors[0].end) == Range.of(0, 4, 0, 5)
    assert doc.range_of(doc.errors[1].start, doc.errors[1].end) == Range.of(0, 19, 0, 20)
    obj = root_object(doc)
    assert member(obj, "a").value is None and member(obj, "c").value is None
    assert value(obj, "b").value == 2
    assert to_python(obj) == {"b": 2}


def test_missing_value_when_next_key_follows_on_next_line() -> None:
    doc = parse_json('{\n  "a": \n  "b": true\n}')
    assert messages(doc) == ["Expected a value after ':'"]
    assert error_range(doc, "Expected a value") == Range.of(1, 5, 1, 6)
    obj = root_object(doc)
    assert obj.keys() == ["a", "b"]
    assert value(obj, "b").value is True


def test_missing_colon() -> None:
    doc = parse_json('{"a" 1, "b": 2}')
    assert messages(doc) == ["Missing ':' after the key \"a\""]
    assert error_range(doc, "Missing ':'") == Range.of(0, 1, 0, 4)
    assert to_python(doc.root) == {"a": 1, "b": 2}
    assert member(doc.root, "a").colon is None


def test_key_without_colon_or_value() -> None:
    doc = parse_json('{"a", "b": 2}')
    assert error_range(doc, "Expected ':' and a value after the key \"a\"") == Range.of(0, 1, 0, 4)
    obj = root_object(doc)
    assert obj.keys() == ["a", "b"] and member(obj, "a").value is None


def test_unexpected_character_is_skipped() -> None:
    doc = parse_json('{"a": 1, x# "b": 2}')
    # "x" in key position is an unquoted key; "#" is a stray character
    assert error_range(doc, "Unexpected character '#'") == Range.of(0, 10, 0, 11)
    assert value(doc.root, "b").value == 2

    doc = parse_json('{"a": 1, @@@ "b": 2}')
    assert error_range(doc, "Unexpected characters '@@@'") == Range.of(0, 9, 0, 12)
    assert to_python(doc.root) == {"a": 1, "b": 2}


def test_unclosed_object_at_end_of_file() -> None:
    doc = parse_json('{\n  "a": 1,\n  "b": [1, 2')
    assert sorted(messages(doc)) == ["'[' is never closed: add ']'", "'{' is never closed: add '}'"]
    assert error_range(doc, "'{' is never closed") == Range.of(0, 0, 0, 1)
    assert error_range(doc, "'[' is never closed") == Range.of(2, 7, 2, 8)
    obj = root_object(doc)
    assert not obj.closed and obj.end == len(doc.text)
    assert to_python(obj) == {"a": 1, "b": [1, 2]}


def test_mismatched_closer_closes_the_container_it_matches() -> None:
    doc = parse_json('{"a": [1, 2}, "b": 3}')
    # The '}' after 2 closes the object; what follows is content after the root.
    assert "'[' is never closed: add ']'" in messages(doc)
    assert error_range(doc, "'[' is never closed") == Range.of(0, 6, 0, 7)
    assert to_python(doc.root) == {"a": [1, 2]}

    doc = parse_json('{"x": [{"a": 1], "y": 2}')
    assert messages(doc) == ["'{' is never closed: add '}'"]
    assert error_range(doc, "never closed") == Range.of(0, 7, 0, 8)
    assert to_python(doc.root) == {"x": [{"a": 1}], "y": 2}

    doc = parse_json('{"a": 1]}')
    assert error_range(doc, "Unexpected ']': there is no open '['") == Range.of(0, 7, 0, 8)
    assert to_python(doc.root) == {"a": 1}


def test_comments_are_errors_but_parsing_goes_on() -> None:
    text = '{\n  // line comment\n  "a": 1, /* block\n comment */ "b": 2\n}'
    doc = parse_json(text)
    assert messages(doc) == ["Comments are not allowed in JSON: remove the comment"] * 2
    assert doc.range_of(doc.errors[0].start, doc.errors[0].end) == Range.of(1, 2, 1, 17)
    assert doc.range_of(doc.errors[1].start, doc.errors[1].end) == Range.of(2, 10, 3, 11)
    assert to_python(doc.root) == {"a": 1, "b": 2}


def test_unclosed_block_comment() -> None:
    doc = parse_json('{"a": 1 /* never closed')
    assert error_range(doc, "Unclosed comment") == Range.of(0, 8, 0, 23)
    assert to_python(doc.root) == {"a": 1}


def test_single_quoted_strings() -> None:
    doc = parse_json("{'a': 'it\\'s', \"b\": 2}")
    assert error_range(doc, "Property names need double quotes") == Range.of(0, 1, 0, 4)
    assert error_range(doc, "Strings need double quotes") == Range.of(0, 6, 0, 13)
    assert to_python(doc.root) == {"a": "it's", "b": 2}


def test_unquoted_keys_are_reported_and_recorded() -> None:
    doc = parse_json('{name: "x", 2: true, "c": 3}')
    assert error_range(doc, 'Unquoted property name: write "name"') == Range.of(0, 1, 0, 5)
    assert error_range(doc, 'Property names must be strings: write "2"') == Range.of(0, 12, 0, 13)
    obj = root_object(doc)
    assert obj.keys() == ["name", "2", "c"]
    assert doc.key_range(member(obj, "name")) == Range.of(0, 1, 0, 5)
    assert to_python(obj) == {"name": "x", "2": True, "c": 3}


def test_invalid_escapes_keep_the_string() -> None:
    doc = parse_json(r'{"path": "C:\dir\x", "u": "\u12G4", "b": 1}')
    invalid = [e for e in doc.errors if e.message.startswith("Invalid escape")]
    assert [doc.text[e.start : e.end] for e in invalid] == ["\\d", "\\x"]
    assert "write '\\\\' for a backslash" in invalid[0].message
    assert error_range(doc, "Invalid \\u escape") == Range.of(0, 27, 0, 29)
    obj = root_object(doc)
    assert value(obj, "path").value == "C:\\dir\\x"
    assert value(obj, "u").value == "\\u12G4"
    assert value(obj, "b").value == 1


def test_raw_control_character_in_string() -> None:
    doc = parse_json('{"a": "tab\there", "b": 1}')
    assert messages(doc) == ["Control character U+0009 in a string: write it as \\t"]
    assert error_range(doc, "Control character") == Range.of(0, 10, 0, 11)
    assert value(doc.root, "a").value == "tab\there"


def test_non_json_numbers_and_literals() -> None:
    text = "[01, -007, .5, 1., 0x1F, +1, NaN, Infinity, -Infinity, True, None, 12abc, yes]"
    doc = parse_json(text)
    expected = {
        "01": "Leading zeros are not allowed in JSON numbers: write 1",
        "-007": "Leading zeros are not allowed in JSON numbers: write -7",
        ".5": "A number needs a digit before '.': write 0.5",
        "1.": "A number needs a digit after '.'",
        "0x1F": "Hexadecimal numbers are not allowed in JSON",
        "+1": "Numbers cannot start with '+'",
        "NaN": "NaN is not allowed in JSON",
        "Infinity": "Infinity is not allowed in JSON",
        "-Infinity": "-Infinity is not allowed in JSON",
        "True": "'True' is not valid JSON: write true",
        "None": "'None' is not valid JSON: write null",
        "12abc": "Invalid number '12abc'",
        "yes": "Unexpected 'yes': text values need double quotes",
    }
    assert len(doc.errors) == len(expected)
    for error in doc.errors:
        source = text[error.start : error.end]
        assert expected[source] in error.message, (source, error.message)
    values = [item.value for item in root_array(doc).items]
    assert values[:6] == [1, -7, 0.5, 1.0, 31, 1]
    assert math.isnan(values[6]) and values[7] == math.inf and values[8] == -math.inf  # type: ignore[arg-type]
    assert values[9] is True and values[10] is None
    assert [item.kind for item in root_array(doc).items][-2:] == ["invalid", "invalid"]


def test_trailing_content_after_root() -> None:
    doc = parse_json('{"a": 1}}\n{"b": 2}')
    assert messages(doc) == ["Unexpected '}' after the end of the JSON value: remove it"]
    assert error_range(doc, "after the end") == Range.of(0, 8, 0, 9)
    assert to_python(doc.root) == {"a": 1}

    doc = parse_json("[1] x")
    assert error_range(doc, "after the end of the JSON value") == Range.of(0, 4, 0, 5)


def test_empty_documents() -> None:
    doc = parse_json("")
    assert doc.root is None
    assert [(e.message, e.start, e.end) for e in doc.errors] == [
        ("The file is empty: add a JSON value such as {}", 0, 0)
    ]
    doc = parse_json("  \n\t ")
    assert messages(doc) == ["The file is empty: add a JSON value such as {}"]
    doc = parse_json("// nothing here\n")
    assert "Expected a JSON value" in messages(doc)[-1]
    assert to_python(doc.root) is None


def test_nul_characters_and_odd_whitespace() -> None:
    doc = parse_json('\x00{"a":\u00a01, "b": 2}')
    assert error_range(doc, "Unexpected character U+0000") == Range.of(0, 0, 0, 1)
    assert error_range(doc, "Unexpected whitespace character U+00A0") == Range.of(0, 6, 0, 7)
    assert to_python(doc.root) == {"a": 1, "b": 2}


def test_orphan_values_are_not_attached() -> None:
    doc = parse_json('{"a": 1 2, "b": 3}')
    assert "Unexpected number 2: expected ',' or '}' after a value" in messages(doc)
    assert to_python(doc.root) == {"a": 1, "b": 3}
    doc = parse_json('{{"x": 1}, "b": 3}')
    assert "Expected a property name in double quotes before '{'" in messages(doc)
    assert to_python(doc.root) == {"b": 3}


# --------------------------------------------------------------------------------------------- duplicates


def test_duplicate_keys_per_object() -> None:
    doc = parse_json('{"a": 1, "b": {"a": 5, "c": 1, "c": 2}, "a": 2, "\\u0061": 3}')
    assert doc.errors == []
    # Each later duplicate is paired with the first member of its object that has the key.
    pairs = [(first.key, doc.key_range(first), doc.key_range(second)) for first, second in doc.duplicates]
    assert pairs == [
        ("c", Range.of(0, 23, 0, 26), Range.of(0, 31, 0, 34)),
        ("a", Range.of(0, 1, 0, 4), Range.of(0, 40, 0, 43)),
        ("a", Range.of(0, 1, 0, 4), Range.of(0, 48, 0, 56)),  # the same key once the escape is decoded
    ]
    obj = root_object(doc)
    assert [m.key for m in obj.members] == ["a", "b", "a", "a"]
    assert obj.keys() == ["a", "b"]
    assert value(obj, "a").value == 3  # the last one wins, as with JSON.parse
    assert to_python(obj) == json.loads(doc.text)


# ------------------------------------------------------------------------------------------------ nesting


def test_deep_array_nesting_without_recursion() -> None:
    depth = 100_000
    doc = parse_json("[" * depth + "]" * depth)
    assert doc.errors == []
    result = to_python(doc.root)
    for _ in range(depth - 1):
        assert isinstance(result, list) and len(result) == 1
        result = result[0]
    assert result == []
    node = doc.root
    while isinstance(node, JsonArray) and node.items:
        node = node.items[0]
    assert node is not None
    assert len(pointer(node)) == depth - 1
    location = doc.path_at(depth)
    assert len(location.path) == depth - 1


def test_deep_object_nesting_without_recursion() -> None:
    depth = 100_000
    doc = parse_json('{"a":' * depth + "1" + "}" * depth)
    assert doc.errors == []
    result = to_python(doc.root)
    for _ in range(depth):
        assert isinstance(result, dict)
        result = result["a"]
    assert result == 1
    found = doc.find(["a"] * depth)
    assert found is not None and found.value == 1
    assert pointer(found) == ["a"] * depth


def test_deep_unclosed_nesting() -> None:
    doc = parse_json('{"a":[' * 50_000)
    assert len(doc.errors) == MAX_ERRORS + 1
    assert doc.errors[-1].message.startswith("Too many syntax errors")
    assert doc.errors[0] == JsonSyntaxError("'{' is never closed: add '}'", 0, 1)
    to_python(doc.root)


def test_nesting_beyond_the_limit_is_skipped() -> None:
    depth = MAX_DEPTH + 10
    doc = parse_json('{"x": ' + "[" * depth + "]" * depth + ', "after": 1}')
    assert [e.message for e in doc.errors] == [f"Nesting is deeper than {MAX_DEPTH} levels: this value is skipped"]
    assert value(doc.root, "after").value == 1


def test_stray_closers_at_depth_are_cheap() -> None:
    # A mismatched closer finds the container it closes without scanning the stack.
    for text in ("[" * 100_000 + "}" * 100_000, '{"a":[' * 50_000 + "}" * 100_000, "[{" * 50_000 + "]" * 100_000):
        doc = parse_json(text)
        check_invariants(doc)
        assert doc.errors[-1].message.startswith("Too many syntax errors")


def test_parsing_stops_after_too_many_errors() -> None:
    text = '{"a": 1, "b": [' + "#, " * 5000 + "]}"
    doc = parse_json(text)
    assert len(doc.errors) == MAX_ERRORS + 1
    assert doc.errors[-1].message == "Too many syntax errors: the rest of the file is not checked"
    obj = root_object(doc)
    assert value(obj, "a").value == 1
    assert not obj.closed and not value(obj, "b").closed
    check_invariants(doc)


# ------------------------------------------------------------------------------------------------ path_at


def test_path_at_half_typed_key() -> None:
    text = '{"hooks": [{"ev'
    location = parse_json(text).path_at(len(text))
    assert location.path == ["hooks", 0]
    assert location.in_key is True
    assert location.prefix == "ev"
    assert location.member is not None and location.member.key == "ev"
    assert (location.start, location.end, location.quoted) == (12, 15, True)
    assert location.target_path == ["hooks", 0]


def test_path_at_half_typed_value() -> None:
    text = '{"hooks": [{"event": "pre_'
    location = parse_json(text).path_at(len(text))
    assert location.path == ["hooks", 0]
    assert location.in_key is False
    assert location.member is not None and location.member.key == "event"
    assert location.node is not None and location.node.kind == "string"
    assert location.prefix == "pre_"
    assert location.target_path == ["hooks", 0, "event"]


def test_path_at_unquoted_value_and_empty_value() -> None:
    text = '{"hooks": [{"event": pre'
    location = parse_json(text).path_at(len(text))
    assert (location.in_key, location.prefix, location.quoted) == (False, "pre", False)
    assert location.target_path == ["hooks", 0, "event"]

    text = '{"hooks": [{"event": '
    location = parse_json(text).path_at(len(text))
    assert location.in_key is False and location.node is None and location.prefix == ""
    assert location.target_path == ["hooks", 0, "event"]


def test_path_at_between_members_and_items() -> None:
    text = '{"hooks": [{"event": "x", '
    location = parse_json(text).path_at(len(text))
    assert (location.path, location.in_key, location.member, location.prefix) == (["hooks", 0], True, None, "")

    text = '{"hooks": [{"event": "x"}, '
    location = parse_json(text).path_at(len(text))
    assert (location.path, location.in_key, location.index) == (["hooks"], False, 1)
    assert location.target_path == ["hooks", 1]

    text = "{\n  \n}"
    location = parse_json(text).path_at(3)
    assert (location.path, location.in_key) == ([], True)


def test_path_at_in_a_complete_document() -> None:
    text = '{"mcpServers": {"s": {"type": "stdio", "args": ["a", "bc"]}}}'
    doc = parse_json(text)
    location = doc.path_at(text.index("stdio") + 2)
    assert location.path == ["mcpServers", "s"]
    assert (location.in_key, location.prefix) == (False, "st")
    assert location.member is not None and location.member.key == "type"

    location = doc.path_at(text.index('"type"') + 3)
    assert (location.in_key, location.prefix, location.path) == (True, "ty", ["mcpServers", "s"])

    location = doc.path_at(text.index('"bc"') + 2)
    assert (location.path, location.index, location.prefix) == (["mcpServers", "s", "args"], 1, "b")
    assert location.target_path == ["mcpServers", "s", "args", 1]

    location = doc.path_at(len(text))
    assert (location.path, location.container, location.node) == ([], None, doc.root)


def test_path_at_every_offset() -> None:
    text = '{"a": [1, {"b": "c"}], "d": {"e": null},\n "f": "é😀"}'
    doc = parse_json(text)
    for offset in range(-1, len(text) + 2):
        location = doc.path_at(offset)
        assert 0 <= location.start <= location.end <= len(text)
        if location.node is not None:
            assert location.node.start <= max(0, min(offset, len(text))) <= location.node.end
    inside_b = doc.path_at(text.index('"c"') + 1)
    assert inside_b.target_path == ["a", 1, "b"]
    on_key_start = doc.path_at(text.index('"d"'))
    assert (on_key_start.in_key, on_key_start.member, on_key_start.path) == (True, None, [])
    after_value = doc.path_at(text.index("null") + 4)
    assert (after_value.in_key, after_value.target_path, after_value.prefix) == (False, ["d", "e"], "null")


def test_path_at_without_a_root() -> None:
    doc = parse_json("")
    location = doc.path_at(0)
    assert (location.path, location.in_key, location.node) == ([], False, None)
    doc = parse_json("   ")
    assert doc.path_at(100).path == []


# ---------------------------------------------------------------------------------------- pointer and find


def test_pointer_and_find() -> None:
    doc = parse_json('{"hooks": [{"event": "run_start"}, {"event": "pre_tool_use", "match": {"tool": ["a"]}}]}')
    hooks = value(doc.root, "hooks")
    assert isinstance(hooks, JsonArray)
    second = hooks.items[1]
    event = member(second, "event")
    assert pointer(event) == ["hooks", 1, "event"]
    assert pointer(value(second, "event")) == ["hooks", 1, "event"]
    tool = doc.find(["hooks", 1, "match", "tool", 0])
    assert tool is not None and tool.value == "a"
    assert pointer(tool) == ["hooks", 1, "match", "tool", 0]
    assert doc.find(["hooks", 5]) is None and doc.find(["nope"]) is None and doc.find([]) is doc.root


# ------------------------------------------------------------------------------------ agreement with json


def random_value(rng: random.Random, depth: int) -> object:
    choice = rng.randrange(10 if depth < 6 else 7)
    if choice == 0:
        return rng.choice([True, False, None])
    if choice == 1:
        return rng.randint(-(10**20), 10**20)
    if choice == 2:
        return rng.uniform(-1e6, 1e6) * rng.choice([1, 1e-300, 1e300])
    if choice in (3, 4, 5, 6):
        alphabet = 'abcXYZ019 _-"\\/\n\t\x00\x1fé😀\u2028\ud7ff\ue000{}[]:,'
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(8)))
    if choice in (7, 8):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {str(random_value(rng, 6)): random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def valid_corpus() -> list[str]:
    documents = [
        "{}",
        "[]",
        "0",
        "-0",
        "-0.0",
        "1E5",
        "1e-7",
        '"x"',
        "true",
        "null",
        ' \t\r\n{ "a" : [ 1 , 2 ] }\n ',
        '{"a": 1, "a": 2}',
        '"\\ud83d\\ude00\\u00e9\\u0000"',
        MULTIBYTE,
    ]
    rng = random.Random(20240611)
    for index in range(300):
        data = random_value(rng, 0)
        documents.append(
            json.dumps(
                data,
                indent=rng.choice([None, 2, "\t"]),
                ensure_ascii=bool(index % 2),
                separators=rng.choice([None, (",", ":"), (" , ", " : ")]),
            )
        )
    return documents


def test_to_python_matches_json_loads_on_valid_documents() -> None:
    for text in valid_corpus():
        doc = parse_json(text)
        assert doc.errors == [], (text, doc.errors)
        assert to_python(doc.root) == json.loads(text), text
        check_invariants(doc)


def test_every_prefix_of_a_document_parses() -> None:
    text = json.dumps(
        {
            "hooks": [{"event": "pre_tool_use", "command": 'echo é😀 \\ "q"', "match": {"tool": ["Bash", "*"]}}],
            "mcpServers": {"s": {"type": "stdio", "args": [1, -2.5e3, True, None], "env": {}}},
        },
        indent=2,
        ensure_ascii=False,
    )
    for end in range(len(text) + 1):
        doc = parse_json(text[:end])
        check_invariants(doc)
        to_python(doc.root)
        doc.path_at(end)
        doc.path_at(end // 2)
        if end < len(text):
            assert doc.errors
    assert parse_json(text).errors == []


def test_mutations_never_raise() -> None:
    rng = random.Random(7)
    base = json.dumps({"a": [1, {"b": "c\\n"}, None], "d": {"e": 1.5}}, indent=1)
    alphabet = list("{}[]:,\"'\\/*-+.0e9tfn x\n\r\t\x00\ud800é😀\u00a0#")
    for _ in range(3000):
        chars = list(base)
        for _ in range(rng.randint(1, 4)):
            position = rng.randrange(len(chars) + 1)
            operation = rng.random()
            if operation < 0.4 and chars:
                del chars[min(position, len(chars) - 1)]
            elif operation < 0.8:
                chars.insert(position, rng.choice(alphabet))
            elif chars:
                chars[min(position, len(chars) - 1)] = rng.choice(alphabet)
        text = "".join(chars)
        doc = parse_json(text)
        check_invariants(doc)
        to_python(doc.root)
        doc.path_at(rng.randrange(len(text) + 1))
        try:
            expected = json.loads(text)
        except ValueError:
            assert doc.errors, text
        else:
            if not any(isinstance(x, float) and math.isnan(x) for x in _scalars(expected)):
                assert doc.errors or to_python(doc.root) == expected, text


def _scalars(data: object) -> list[object]:
    found: list[object] = []
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        else:
            found.append(item)
    return found


def test_random_bytes_never_raise() -> None:
    rng = random.Random(3)
    for _ in range(300):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(400)))
        doc = parse_json(data.decode("utf-8", errors="replace"))
        check_invariants(doc)
        to_python(doc.root)
    surrogates = parse_json('{"\ud800": "\udfff", "x": [\ud800]}')
    check_invariants(surrogates)
    assert member(surrogates.root, "\ud800").value is not None


def test_ten_megabyte_files() -> None:
    item = '{"name": "plugin", "description": "' + "é" * 1000 + '", "list": [1, 2.5, true, null]},\n'
    count = 10_000_000 // len(item)
    doc = parse_json("[" + item * count + "0]")
    assert doc.errors == []
    assert len(root_array(doc).items) == count + 1

    noise = random.Random(1).randbytes(10_000_000).decode("utf-8", errors="replace")
    check_invariants(parse_json(noise))
    check_invariants(parse_json("[" + noise.replace("]", "").replace("}", "")))
