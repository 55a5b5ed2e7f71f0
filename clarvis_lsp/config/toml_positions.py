"""Where a key or value sits in TOML text, found again by its path: ``tomllib`` keeps no positions, and a
configuration finding must point at the key the user wrote (``.clarvis-lsp.toml`` or ``[tool.clarvis-lsp]``)."""

from __future__ import annotations

import contextlib
import re
import sys
from dataclasses import dataclass

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Range

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

KeyPath = tuple[str | int, ...]  # a location in the configuration: table keys and array indexes

__all__ = ["KeyPath", "TomlLocator"]


@dataclass
class _Span:
    key: Range | None
    value: Range


_BARE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class TomlLocator:
    """Finds the range of a key or value in TOML text by its path (tomllib keeps no positions).

    It only runs on text tomllib has accepted, so it can be a forgiving scanner rather than a parser: it records
    for every key path (table headers, dotted keys, quoted keys, inline tables, array elements, arrays of tables)
    the range of the key as written and of its value. A path it does not know is answered with its nearest known
    ancestor, and in the end with the configuration's table header.
    """

    def __init__(self, text: str, table: tuple[str, ...]) -> None:
        self._text = text
        self._lines = LineIndex(text)
        self._table: KeyPath = table
        self._spans: dict[KeyPath, _Span] = {}
        self._aot: dict[KeyPath, int] = {}  # array-of-tables path → index of its last element
        # Defensive only: tomllib accepted the text, so the scan should not fail; what it found is kept.
        with contextlib.suppress(IndexError, ValueError):
            self._scan()

    # lookup

    def locate(self, loc: KeyPath, *, key: bool) -> Range:
        """The range of the key (``key=True``) or value at ``loc``, relative to the configuration's table."""
        path: KeyPath = self._table + tuple(loc)
        want_key = key
        while len(path) > len(self._table):
            span = self._find(path)
            if span is not None:
                return span.key if want_key and span.key is not None else span.value
            path = path[:-1]
            want_key = False
        span = self._find(self._table) if self._table else None
        if span is not None:
            return span.value
        return self._lines.line_range(self._first_content_line())

    def _find(self, path: KeyPath) -> _Span | None:
        resolved: KeyPath = ()
        for part in path:
            for candidate in _spellings(part):
                if (*resolved, candidate) in self._spans:
                    resolved = (*resolved, candidate)
                    break
            else:
                return None
        return self._spans[resolved]

    def _first_content_line(self) -> int:
        for line in range(self._lines.line_count):
            stripped = self._lines.line_text(line).strip()
            if stripped and not stripped.startswith("#"):
                return line
        return 0

    # recording

    def _range(self, start: int, end: int) -> Range:
        return self._lines.range(start, end)

    def _define(self, path: KeyPath, key: Range | None, value: Range) -> None:
        self._spans[path] = _Span(key, value)

    def _imply(self, path: KeyPath, key: Range | None, value: Range) -> None:
        self._spans.setdefault(path, _Span(key, value))

    # scanning

    def _scan(self) -> None:
        text = self._text
        i = 0
        table: KeyPath = ()
        while True:
            i = self._skip(i, newlines=True)
            if i >= len(text):
                return
            if text[i] == "[":
                i, table = self._header(i)
            else:
                i = self._keyval(i, table)
            i = self._skip_line(i)

    def _skip(self, i: int, *, newlines: bool) -> int:
        """Skip blanks, comments and (when ``newlines``) line breaks."""
        text = self._text
        while i < len(text):
            char = text[i]
            if char in " \t" or (newlines and char in "\r\n"):
                i += 1
            elif char == "#":
                while i < len(text) and text[i] not in "\r\n":
                    i += 1
            else:
                break
        return i

    def _skip_line(self, i: int) -> int:
        text = self._text
        while i < len(text) and text[i] not in "\r\n":
            i += 1
        return i

    def _header(self, i: int) -> tuple[int, KeyPath]:
        text = self._text
        array = text.startswith("[[", i)
        start = i
        parts, j = self._key(i + (2 if array else 1))
        j = self._skip(j, newlines=False)
        j += 2 if array else 1
        header = self._range(start, j)
        path: KeyPath = ()
        for number, (name, _, _) in enumerate(parts):
            path = (*path, name)
            self._imply(path, header, header)
            if number < len(parts) - 1 and path in self._aot:
                path = (*path, self._aot[path])
        if array:
            self._aot[path] = self._aot.get(path, -1) + 1
            path = (*path, self._aot[path])
        self._define(path, header, header)
        return j, path

    def _key(self, i: int) -> tuple[list[tuple[str, int, int]], int]:
        """A dotted key: each part's name and its start and end offsets (quotes included)."""
        text = self._text
        parts: list[tuple[str, int, int]] = []
        while True:
            i = self._skip(i, newlines=False)
            start = i
            if text[i] == '"':
                i = self._basic_string_end(i)
                name = tomllib.loads(f"k = {text[start:i]}")["k"]
            elif text[i] == "'":
                i = text.index("'", i + 1) + 1
                name = text[start + 1 : i - 1]
            else:
                while i < len(text) and text[i] in _BARE_CHARS:
                    i += 1
                if i == start:
                    raise ValueError("not a key")
                name = text[start:i]
            parts.append((str(name), start, i))
            i = self._skip(i, newlines=False)
            if i < len(text) and text[i] == ".":
                i += 1
                continue
            return parts, i

    def _keyval(self, i: int, table: KeyPath) -> int:
        parts, j = self._key(i)
        path = table
        for number, (name, start, end) in enumerate(parts):
            path = (*path, name)
            if number < len(parts) - 1:
                here = self._range(start, end)
                self._imply(path, here, here)
        j = self._skip(j, newlines=False)
        if j >= len(self._text) or self._text[j] != "=":
            raise ValueError("expected '='")
        j = self._skip(j + 1, newlines=False)
        value_start = j
        j = self._value(j, path)
        self._define(path, self._range(parts[-1][1], parts[-1][2]), self._range(value_start, j))
        return j

    def _value(self, i: int, path: KeyPath) -> int:
        """Skip one value starting at ``i``, recording the elements of arrays and inline tables."""
        text = self._text
        if text.startswith('"""', i) or text.startswith("'''", i):
            return self._multiline_end(i)
        char = text[i]
        if char == '"':
            return self._basic_string_end(i)
        if char == "'":
            return text.index("'", i + 1) + 1
        if char == "[":
            return self._array(i, path)
        if char == "{":
            return self._inline_table(i, path)
        j = i
        while j < len(text) and text[j] not in ",]}#\r\n":
            j += 1
        while j > i and text[j - 1] in " \t":
            j -= 1
        if j == i:
            raise ValueError("empty value")
        return j

    def _array(self, i: int, path: KeyPath) -> int:
        text = self._text
        j = i + 1
        index = 0
        while True:
            j = self._skip(j, newlines=True)
            if text[j] == "]":
                return j + 1
            start = j
            j = self._value(j, (*path, index))
            element = self._range(start, j)
            self._spans.setdefault((*path, index), _Span(None, element))
            index += 1
            j = self._skip(j, newlines=True)
            if text[j] == ",":
                j += 1
            elif text[j] != "]":
                raise ValueError("expected ',' or ']'")

    def _inline_table(self, i: int, path: KeyPath) -> int:
        text = self._text
        j = i + 1
        while True:
            j = self._skip(j, newlines=True)
            if text[j] == "}":
                return j + 1
            j = self._keyval(j, path)
            j = self._skip(j, newlines=True)
            if text[j] == ",":
                j += 1
            elif text[j] != "}":
                raise ValueError("expected ',' or '}'")

    def _basic_string_end(self, i: int) -> int:
        text = self._text
        j = i + 1
        while text[j] != '"':
            if text[j] in "\r\n":
                raise ValueError("unterminated string")
            j += 2 if text[j] == "\\" else 1
        return j + 1

    def _multiline_end(self, i: int) -> int:
        text = self._text
        delimiter = text[i : i + 3]
        j = i + 3
        while not text.startswith(delimiter, j):
            if j >= len(text):
                raise ValueError("unterminated string")
            j += 2 if delimiter == '"""' and text[j] == "\\" else 1
        j += 3
        extra = 0
        while extra < 2 and j < len(text) and text[j] == delimiter[0]:  # up to two quotes belong to the content
            j += 1
            extra += 1
        return j


def _spellings(part: str | int) -> tuple[str | int, ...]:
    """A key as pydantic names it, and as the user may have written it (camelCase alias or snake_case name)."""
    if isinstance(part, int):
        return (part,)
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", lambda match: "_" + match.group(1).lower(), part)
    camel = re.sub(r"_([a-z])", lambda match: match.group(1).upper(), part)
    return tuple(dict.fromkeys((part, snake, camel)))
