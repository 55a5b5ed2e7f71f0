"""Document links through the protocol, under the VS Code (UTF-16) and Neovim (UTF-8) capability sets: a
SKILL.md body's relative links, a plugin.json's ``hooks`` path and a hook command's script, each to a file that
exists. An emoji before the first link makes its range differ by encoding."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types

SKILL = "---\nname: review\ndescription: Reviews.\n---\n😀 See [the API](references/api.md) and [gone](gone.md).\n"
PLUGIN = '{\n  "name": "p",\n  "hooks": "hooks/hooks.json"\n}\n'
HOOKS = '{"hooks": [{"event": "pre_tool_use", "command": "./scripts/check.sh"}]}\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", SKILL)
    write_file(ws, ".clarvis/skills/review/references/api.md", "# API\n")
    write_file(ws, ".clarvis/plugins/p/plugin.json", PLUGIN)
    write_file(ws, ".clarvis/plugins/p/hooks/hooks.json", HOOKS)
    write_file(ws, ".clarvis/plugins/p/scripts/check.sh", "#!/bin/sh\n")
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


def span(client: ClarvisClient, text: str, needle: str) -> types.Range:
    offset = text.index(needle)
    line = text.count("\n", 0, offset)
    before = text[text.rfind("\n", 0, offset) + 1 : offset]

    def units(value: str) -> int:
        return len(value.encode("utf-8")) if is_neovim(client) else len(value.encode("utf-16-le")) // 2

    start = units(before)
    return types.Range(start=types.Position(line, start), end=types.Position(line, start + units(needle)))


async def links_of(client: ClarvisClient, path: Path) -> list[tuple[types.Range, str | None]]:
    answer = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    return [(link.range, link.target) for link in answer or []]


async def test_skill_body_links_to_existing_files(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    api = workspace / ".clarvis/skills/review/references/api.md"
    assert await links_of(client, skill) == [(span(client, SKILL, "references/api.md"), api.as_uri())]
    # An unsaved buffer is what is linked; a file created in the editor (open, not saved) is a target already.
    gone = workspace / ".clarvis/skills/review/gone.md"
    open_document(client, gone, "# Soon\n")
    edited = SKILL.replace("the API", "the whole API")
    open_document(client, skill, edited)
    assert await links_of(client, skill) == [
        (span(client, edited, "references/api.md"), api.as_uri()),
        (span(client, edited, "gone.md"), gone.as_uri()),
    ]


async def test_plugin_hooks_path_and_hook_script(client: ClarvisClient, workspace: Path) -> None:
    plugin = workspace / ".clarvis/plugins/p"
    assert await links_of(client, plugin / "plugin.json") == [
        (span(client, PLUGIN, "hooks/hooks.json"), (plugin / "hooks/hooks.json").as_uri())
    ]
    assert await links_of(client, plugin / "hooks/hooks.json") == [
        (span(client, HOOKS, "./scripts/check.sh"), (plugin / "scripts/check.sh").as_uri())
    ]
