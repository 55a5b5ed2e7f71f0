"""Folding ranges, selection ranges and document highlight through the protocol under both capability sets (VS
Code: UTF-16; Neovim: UTF-8), with a multi-byte character before the token, on half-typed documents and on a
document changed between two requests."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types

SKILL = (
    "---\n"  # 0
    "name: review\n"  # 1
    "description: |\n"  # 2
    "  Reviews 😀 changes.\n"  # 3
    "  Twice.\n"  # 4
    "---\n"  # 5
    "# Review\n"  # 6
    "\n"  # 7
    "Intro.\n"  # 8
    "\n"  # 9
    "## Steps\n"  # 10
    "```sh\n"  # 11
    "# not a heading\n"  # 12
    "```\n"  # 13
    "Done.\n"  # 14
)
SETTINGS = (
    "{\n"  # 0
    '  "enabledPlugins": ["é-p", "other"],\n'  # 1
    '  "memory": {"provider": "é-p"},\n'  # 2
    '  "hooks": [\n'  # 3
    '    {"event": "pre_tool_use", "command": "x"}\n'  # 4
    "  ]\n"  # 5
    "}\n"  # 6
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", SKILL)
    write_file(ws, ".clarvis/settings.json", SETTINGS)
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


def position_of(client: ClarvisClient, text: str, needle: str, delta: int = 0) -> types.Position:
    offset = text.index(needle) + delta
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    units = len(before.encode("utf-8")) if is_neovim(client) else len(before.encode("utf-16-le")) // 2
    return types.Position(line=text.count("\n", 0, offset), character=units)


def covered(client: ClarvisClient, text: str, where: types.Range) -> str:
    """The text a client range covers, read in the client's encoding."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        line = lines[position.line]
        if is_neovim(client):
            column = len(line.encode("utf-8")[: position.character].decode("utf-8"))
        else:
            column = len(line.encode("utf-16-le")[: 2 * position.character].decode("utf-16-le"))
        return sum(len(item) + 1 for item in lines[: position.line]) + column

    return text[offset(where.start) : offset(where.end)]


async def folds(client: ClarvisClient, path: Path) -> list[tuple[int, int, str | None]]:
    answer = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    assert answer is not None
    return sorted((item.start_line, item.end_line, item.kind) for item in answer)


async def test_a_skill_folds_its_frontmatter_value_sections_and_fences(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    assert await folds(client, skill) == [
        (0, 5, "region"),  # the frontmatter
        (2, 4, None),  # the block scalar
        (6, 14, None),  # "# Review"
        (10, 14, None),  # "## Steps"
        (11, 13, None),  # the fence, whose "# not a heading" is code
    ]


async def test_json_folds_its_containers_and_a_half_typed_file_still_folds(
    client: ClarvisClient, workspace: Path
) -> None:
    settings = workspace / ".clarvis/settings.json"
    assert await folds(client, settings) == [(0, 5, None), (3, 4, None)]
    half = '{\n  "hooks": [\n    {"event": "pre_'
    open_document(client, settings, half)
    assert await folds(client, settings) == [(0, 2, None), (1, 2, None)]
    # Changed between two requests: the answer follows the buffer.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=settings.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="{}\n")],
        )
    )
    assert await folds(client, settings) == []


async def selection(client: ClarvisClient, path: Path, text: str, needle: str, delta: int = 1) -> list[str]:
    answer = await client.text_document_selection_range_async(
        types.SelectionRangeParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            positions=[position_of(client, text, needle, delta)],
        )
    )
    assert answer is not None and len(answer) == 1
    chain: list[str] = []
    current: types.SelectionRange | None = answer[0]
    while current is not None:
        chain.append(covered(client, text, current.range))
        current = current.parent
    return chain


async def test_selection_grows_from_a_json_value_to_the_document(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    assert await selection(client, settings, SETTINGS, '"é-p"}', 2) == [
        "é-p",
        '"é-p"',
        '"provider": "é-p"',
        '{"provider": "é-p"}',
        '"memory": {"provider": "é-p"}',
        SETTINGS.rstrip("\n"),
        SETTINGS,
    ]


async def test_selection_grows_from_a_yaml_scalar_to_the_document(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    text = '---\nname: "rév iew"\ndescription: d\n---\nBody.\n'
    open_document(client, skill, text)
    frontmatter = '---\nname: "rév iew"\ndescription: d\n---'
    assert await selection(client, skill, text, "iew") == [
        "rév iew",
        '"rév iew"',
        'name: "rév iew"',
        'name: "rév iew"\ndescription: d',
        frontmatter,
        text,
    ]


async def test_highlight_shows_a_plugin_everywhere_in_settings(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    answer = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=types.TextDocumentIdentifier(uri=settings.as_uri()),
            position=position_of(client, SETTINGS, '"é-p"}', 3),
        )
    )
    assert answer is not None
    assert [(covered(client, SETTINGS, item.range), item.range.start.line) for item in answer] == [
        ("é-p", 1),
        ("é-p", 2),
    ]
    nothing = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=types.TextDocumentIdentifier(uri=settings.as_uri()),
            position=position_of(client, SETTINGS, "hooks", 1),
        )
    )
    assert not nothing


async def test_highlight_in_a_half_typed_skill(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    text = "---\nname: 😀rev\nagent: p:help"
    open_document(client, skill, text)
    answer = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=types.TextDocumentIdentifier(uri=skill.as_uri()), position=position_of(client, text, "rev", 1)
        )
    )
    assert answer is not None
    assert [(covered(client, text, item.range), item.kind) for item in answer] == [
        ("😀rev", types.DocumentHighlightKind.Write)
    ]
