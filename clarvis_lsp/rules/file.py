"""Findings about a file's bytes, before any format is parsed: its encoding."""

from __future__ import annotations

from clarvis_lsp.documents.text import DecodedText, LineIndex
from clarvis_lsp.findings import Range, Severity
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule

ENCODING = rule(
    "file/encoding",
    Severity.ERROR,
    "The file is not valid UTF-8.",
    why="Clarvis reads its configuration files as UTF-8; undecodable bytes turn into replacement characters "
    "or make the file unreadable, so names and values are not what they look like in another tool.",
    example="name: caf\\xe9   (a Latin-1 byte where UTF-8 was expected)",
    fix="Re-save the file as UTF-8 in your editor.",
    file_kind="any",
)


def check_encoding(decoded: DecodedText, lines: LineIndex, findings: Findings) -> None:
    """Report the first undecodable byte, at the replacement character it became."""
    if decoded.invalid_utf8_offset is None:
        return
    offset = decoded.invalid_text_offset if decoded.invalid_text_offset is not None else decoded.text.find("\ufffd")
    start = lines.position(max(offset, 0))
    findings.add(
        ENCODING.code,
        Range(start, lines.position(max(offset, 0) + 1)),
        f"The file is not valid UTF-8 (first bad byte at byte offset {decoded.invalid_utf8_offset}): "
        "re-save it as UTF-8.",
    )
