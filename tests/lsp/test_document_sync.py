"""Incremental ``didChange`` keeps the server's text equal to the client's (SPEC §9), under the VS Code (UTF-16)
and Neovim (UTF-8) capability sets.

LSP lines end only at ``\\n``, ``\\r\\n`` and ``\\r``: a U+2028, U+0085, form feed, vertical tab or U+001C–U+001E
above an edit does not move it to another line. A ``character`` past a line's end means that line's end: before
its ``\\r\\n`` (never between CR and LF), and after the last character of a file without a final newline.

Each case sends one incremental change, pulls the diagnostics, then sends the text the client now holds as a
whole-document change and pulls again: both must be the same (and each case's edit changes the findings, so a
change applied elsewhere shows).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, items_of, open_document, write_file
from lsprotocol import types

SKILL_PATH = ".clarvis/skills/review/SKILL.md"
SETTINGS_PATH = ".clarvis/settings.json"
# LSP's line ends inside a line's text, which str.splitlines also treats as line ends.
NOT_LINE_ENDS = ["\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, SKILL_PATH, "---\nname: review\ndescription: Reviews.\n---\n")
    return ws


async def pulled(client: ClarvisClient, path: Path) -> list[tuple[str, str, types.Range]]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    return [(str(item.code), item.message, item.range) for item in items_of(report)]


def units(client: ClarvisClient, text: str) -> int:
    return len(text.encode("utf-8")) if is_neovim(client) else len(text.encode("utf-16-le")) // 2


async def edit_then_compare(
    client: ClarvisClient, path: Path, text: str, edit: types.Range, new_text: str, expected: str
) -> list[tuple[str, str, types.Range]]:
    """Open ``text``, replace ``edit`` with ``new_text``; the findings must be those of ``expected`` sent whole."""
    open_document(client, path, text, version=1)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=edit, text=new_text)],
        )
    )
    after_edit = await pulled(client, path)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=expected)],
        )
    )
    assert after_edit == await pulled(client, path)
    return after_edit


@pytest.mark.parametrize("separator", NOT_LINE_ENDS, ids=[f"U+{ord(char):04X}" for char in NOT_LINE_ENDS])
async def test_an_edit_below_a_character_splitlines_breaks_on(
    client: ClarvisClient, workspace: Path, separator: str
) -> None:
    path = workspace / SETTINGS_PATH
    before = f'{{"model": "a{separator}b",\n"unknownKeyA": 1}}\n'
    edit = types.Range(types.Position(1, 1), types.Position(1, 1 + len("unknownKeyA")))
    found = await edit_then_compare(client, path, before, edit, "unknownKeyB", before.replace("KeyA", "KeyB"))
    assert [code for code, message, _ in found if "unknownKeyB" in message], found


async def test_a_character_past_the_end_of_a_crlf_line_is_before_its_line_break(
    client: ClarvisClient, workspace: Path
) -> None:
    path = workspace / SKILL_PATH
    before = "---\r\nname: revie\r\ndescription: Reviews.\r\n---\r\n"
    at = types.Position(1, 100)
    found = await edit_then_compare(
        client, path, before, types.Range(at, at), "w", before.replace("revie\r", "review\r")
    )
    assert found == []  # the name now matches its directory


async def test_a_character_one_past_the_end_of_a_crlf_line_does_not_split_it(
    client: ClarvisClient, workspace: Path
) -> None:
    path = workspace / SKILL_PATH
    before = "---\r\nname: revie\r\ndescription: Reviews.\r\n---\r\n"
    at = types.Position(1, units(client, "name: revie") + 1)  # where pygls saw the LF
    found = await edit_then_compare(
        client, path, before, types.Range(at, at), "w", before.replace("revie\r", "review\r")
    )
    assert found == []


async def test_a_character_past_the_end_of_the_last_line_is_the_end_of_the_file(
    client: ClarvisClient, workspace: Path
) -> None:
    path = workspace / SETTINGS_PATH
    before = '{"hooks": [],\n"unknownKeyA": 1'  # no final newline
    at = types.Position(1, 100)
    found = await edit_then_compare(client, path, before, types.Range(at, at), "}", before + "}")
    assert [code for code, message, _ in found if "unknownKeyA" in message and code != "json/syntax"], found


async def test_a_line_past_the_last_is_the_end_of_the_file(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / SETTINGS_PATH
    before = '{"hooks": [],\u2028\n"unknownKeyA": 1'
    at = types.Position(9, 3)
    found = await edit_then_compare(client, path, before, types.Range(at, at), "}", before + "}")
    assert [code for code, message, _ in found if "unknownKeyA" in message and code != "json/syntax"], found
