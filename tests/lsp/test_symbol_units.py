"""A workspace symbol's range is in the client's position encoding (UTF-16 for VS Code, UTF-8 for Neovim), whether
the server converts it against the file or knows it needs no conversion: a name discovery read without a parse, on a
``name:`` line that is ASCII up to the name's end, is placed without reading the file again; a name with accents is
converted against its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, write_file
from lsprotocol import types

ASCII = "---\nname: plain-tool\ndescription: Ünïcode after the name, and 😀 below.\n---\n# 😀 Plain\n"
ACCENTED = "---\nname: naïve-café\ndescription: A name with accents.\n---\n"
QUOTED = "---\ndescription: Quoted, second.\nname: 'quoted-tool'\n---\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/plain-tool/SKILL.md", ASCII)
    write_file(ws, ".clarvis/skills/naive-cafe/SKILL.md", ACCENTED)
    write_file(ws, ".clarvis/skills/quoted-tool/SKILL.md", QUOTED)
    return ws


@pytest.fixture(scope="module")
def client_configuration() -> dict[str, object]:
    return {"includeUser": False}


def expected_range(client: ClarvisClient, text: str, written: str) -> types.Range:
    """Where ``written`` (the name as the file spells it) is, in the client's units."""
    offset = text.index(written)
    line = text.count("\n", 0, offset)
    before = text[text.rfind("\n", 0, offset) + 1 : offset]

    def units(part: str) -> int:
        return len(part.encode("utf-8")) if is_neovim(client) else len(part.encode("utf-16-le")) // 2

    return types.Range(types.Position(line, units(before)), types.Position(line, units(before + written)))


@pytest.mark.parametrize(
    ("query", "directory", "text", "written"),
    [
        ("plain-tool", "plain-tool", ASCII, "plain-tool"),
        ("naïve", "naive-cafe", ACCENTED, "naïve-café"),
        ("quoted", "quoted-tool", QUOTED, "'quoted-tool'"),
    ],
)
async def test_a_symbol_is_placed_in_the_clients_units(
    client: ClarvisClient, workspace: Path, query: str, directory: str, text: str, written: str
) -> None:
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
    assert found is not None and len(found) == 1, found
    (symbol,) = found
    assert isinstance(symbol, types.SymbolInformation)
    assert symbol.location == types.Location(
        (workspace / ".clarvis/skills" / directory / "SKILL.md").as_uri(), expected_range(client, text, written)
    )
