"""Decoding file bytes and mapping string offsets to line/column positions.

A file on disk may hold anything: a BOM, CRLF line ends, invalid UTF-8, NUL bytes. ``decode`` always returns
text (replacing undecodable bytes) plus a note of what it had to do, so rules can report an encoding problem
instead of raising. Line breaks are the three LSP recognises (``\\r\\n``, ``\\r``, ``\\n``) and nothing else:
``str.splitlines`` would also split on form feeds and U+2028, and positions would drift from the editor's.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

from clarvis_lsp.findings import Position, Range

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


@dataclass(frozen=True)
class DecodedText:
    """Text decoded from bytes, and what decoding noticed."""

    text: str
    had_bom: bool
    invalid_utf8_offset: int | None  # byte offset of the first undecodable byte, if any
    invalid_text_offset: int | None = None  # where that byte's replacement character is in ``text``


def decode(data: bytes) -> DecodedText:
    """Decode UTF-8 (with or without BOM), replacing invalid bytes rather than failing."""
    had_bom = data.startswith(b"\xef\xbb\xbf")
    raw = data[3:] if had_bom else data
    try:
        return DecodedText(raw.decode("utf-8"), had_bom, None)
    except UnicodeDecodeError as error:
        # Everything before the first bad byte is valid UTF-8: its length in code points is where the replacement
        # character stands (the file may hold real U+FFFD characters before it).
        before = len(raw[: error.start].decode("utf-8"))
        return DecodedText(raw.decode("utf-8", errors="replace"), had_bom, error.start, before)


def strip_bom(text: str) -> str:
    """Drop a leading BOM from text that came from an editor buffer (editors usually strip it already)."""
    return text[1:] if text.startswith(_BOM) else text


class LineIndex:
    """Maps code-point offsets in a string to 0-based (line, column) positions and back.

    The line starts are found on first use: a clean file's check asks for no position at all, and on a large
    tree building them for every file was a measurable part of a check."""

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts: list[int] | None = None

    def _line_starts(self) -> list[int]:
        starts = self._starts
        if starts is None:
            text = self._text
            if "\r" in text:
                starts = [0]
                starts.extend(match.end() for match in _LINE_BREAK.finditer(text))
            else:  # the common case: splitting on "\n" in C is several times faster than a regex scan
                starts = [0, *itertools.accumulate(len(line) + 1 for line in text.split("\n")[:-1])]
            self._starts = starts
        return starts

    @property
    def text(self) -> str:
        return self._text

    @property
    def line_count(self) -> int:
        return len(self._line_starts())

    def line_start(self, line: int) -> int:
        starts = self._line_starts()
        return starts[min(max(line, 0), len(starts) - 1)]

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``'s content, before its line break."""
        starts = self._line_starts()
        line = min(max(line, 0), len(starts) - 1)
        if line + 1 < len(starts):
            end = starts[line + 1]
            while end > starts[line] and self._text[end - 1] in "\r\n":
                end -= 1
            return end
        return len(self._text)

    def line_text(self, line: int) -> str:
        return self._text[self.line_start(line) : self.line_end(line)]

    def position(self, offset: int) -> Position:
        starts = self._line_starts()
        offset = min(max(offset, 0), len(self._text))
        line = bisect.bisect_right(starts, offset) - 1
        return Position(line, offset - starts[line])

    def offset(self, position: Position) -> int:
        starts = self._line_starts()
        if position.line >= len(starts):
            return len(self._text)
        start = starts[max(position.line, 0)]
        return min(start + max(position.character, 0), self.line_end(position.line))

    def range(self, start: int, end: int) -> Range:
        return Range(self.position(start), self.position(end))

    def line_range(self, line: int) -> Range:
        """The whole content of one line (without its break)."""
        return Range(Position(line, 0), Position(line, self.line_end(line) - self.line_start(line)))
