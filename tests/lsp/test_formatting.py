"""Formatting of the JSON kinds through the protocol under both capability sets (VS Code: UTF-16; Neovim: UTF-8):
key order, values as written, the file's indentation, line breaks and final newline are kept; a formatted file,
a half-typed one and a SKILL.md get no edit; range formatting touches only the container holding the range; an
edit made between two requests is formatted as the buffer now is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types

MESSY = (
    '{"enabledPlugins":["é-p" ,"😀"],\n    "memory" :{"provider":"é-p", "n": 1.0},'
    '"hooks": [\n{"event":"pre_tool_use","command":"\\u00e9"}]}'
)
FORMATTED = (
    "{\n"
    '    "enabledPlugins": ["é-p", "😀"],\n'
    '    "memory": {"provider": "é-p", "n": 1.0},\n'
    '    "hooks": [\n'
    '        {"event": "pre_tool_use", "command": "\\u00e9"}\n'
    "    ]\n"
    "}"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/settings.json", MESSY)
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname:   review\ndescription: d\n---\n")
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


def apply(client: ClarvisClient, text: str, edits: list[types.TextEdit]) -> str:
    """``edits`` applied to ``text``, their positions read in the client's encoding."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        line = lines[position.line] if position.line < len(lines) else ""
        if is_neovim(client):
            column = len(line.encode("utf-8")[: position.character].decode("utf-8"))
        else:
            column = len(line.encode("utf-16-le")[: 2 * position.character].decode("utf-16-le"))
        return sum(len(item) + 1 for item in lines[: position.line]) + column

    for edit in sorted(edits, key=lambda item: (item.range.start.line, item.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


OPTIONS = types.FormattingOptions(tab_size=2, insert_spaces=True)


async def format_document(client: ClarvisClient, path: Path) -> list[types.TextEdit]:
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), options=OPTIONS)
    )
    return list(edits or [])


async def test_formatting_keeps_order_values_and_the_files_indentation(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    formatted = apply(client, MESSY, await format_document(client, settings))
    assert formatted == FORMATTED  # four spaces, as the file's indented line; no final newline, as the file
    assert json.loads(formatted) == json.loads(MESSY)
    settings.write_text(formatted, encoding="utf-8")
    assert await format_document(client, settings) == []  # formatted already: no edit


async def test_tabs_crlf_and_the_final_newline_are_kept(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    text = '{\r\n\t"memory": {\r\n"provider": "p"}}\r\n'
    open_document(client, settings, text)
    formatted = apply(client, text, await format_document(client, settings))
    assert formatted == '{\r\n\t"memory": {\r\n\t\t"provider": "p"\r\n\t}\r\n}\r\n'


async def test_nothing_to_format_in_a_half_typed_file_or_a_skill(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    open_document(client, settings, '{"hooks": [{"event": "pre_')
    assert await format_document(client, settings) == []
    assert await format_document(client, workspace / ".clarvis/skills/review/SKILL.md") == []
    # Changed between two requests: the buffer as it is now is formatted.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=settings.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text='{"hooks":[]}\n')],
        )
    )
    assert apply(client, '{"hooks":[]}\n', await format_document(client, settings)) == '{"hooks": []}\n'


async def test_range_formatting_touches_only_the_container_holding_the_range(
    client: ClarvisClient, workspace: Path
) -> None:
    settings = workspace / ".clarvis/settings.json"
    text = '{\n  "memory":{"provider" :"p"},\n  "hooks": [\n{"event":"é", "command":"x"}\n  ]\n}\n'
    open_document(client, settings, text)
    event_line = text.split("\n")[3]
    column = event_line.index('"x"')
    units = (
        len(event_line[:column].encode("utf-8"))
        if is_neovim(client)
        else len(event_line[:column].encode("utf-16-le")) // 2
    )
    edits = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=settings.as_uri()),
            range=types.Range(start=types.Position(3, units), end=types.Position(3, units + 1)),
            options=OPTIONS,
        )
    )
    formatted = apply(client, text, list(edits or []))
    # The hook object (the innermost container) is formatted at its depth; the memory line is left as it was.
    assert formatted == '{\n  "memory":{"provider" :"p"},\n  "hooks": [\n{"event": "é", "command": "x"}\n  ]\n}\n'
