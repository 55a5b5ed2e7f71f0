"""End-to-end hover through the protocol, under the VS Code (UTF-16) and Neovim (UTF-8) capability sets.

Keys of every kind, a hook event, a skill name with copies in two roots, an ``enabledPlugins`` entry. The
settings file puts a multi-byte character before the hovered entry, so the returned range differs by encoding.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types

WINNER = "---\nname: review\ndescription: Reviews changes.\n---\n"
SHADOWED = "---\nname: review\ndescription: Shared copy.\n---\n"
SETTINGS = (
    '{\n  "model": "😀é", "enabledPlugins": ["q", "p"],\n'
    '  "hooks": [{"event": "pre_tool_use", "command": "./guard.sh"}],\n'
    '  "mcpServers": {"api": {"type": "http", "url": "https://mcp.example.com"}}\n}\n'
)
PLUGIN = '{\n  "name": "p",\n  "bootstrapSkill": "boot"\n}\n'
HOOKS = '{"hooks": [{"event": "run_end", "command": "notify"}]}\n'
MARKETPLACE = '{\n  "name": "m",\n  "plugins": [{"name": "p", "source": "https://github.com/acme/p.git"}]\n}\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", WINNER)
    write_file(ws, ".agents/skills/review/SKILL.md", SHADOWED)
    write_file(ws, ".clarvis/settings.json", SETTINGS)
    write_file(ws, ".clarvis/plugins/p/plugin.json", PLUGIN)
    write_file(ws, ".clarvis/plugins/p/skills/boot/SKILL.md", "---\nname: boot\ndescription: Boots.\n---\n")
    write_file(ws, ".clarvis/plugins/p/hooks/hooks.json", HOOKS)
    write_file(ws, ".clarvis/plugins/q/plugin.json", '{"name": "q"}\n')
    write_file(ws, "marketplace.json", MARKETPLACE)
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


def units(client: ClarvisClient, text: str) -> int:
    if is_neovim(client):
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def position_of(client: ClarvisClient, text: str, needle: str, delta: int = 1) -> types.Position:
    """The client position ``delta`` code points into the first ``needle`` of ``text``."""
    offset = text.index(needle) + delta
    line = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=units(client, text[line_start:offset]))


async def hover_at(client: ClarvisClient, path: Path, needle: str, delta: int = 1) -> types.Hover:
    """Open ``path`` (its disk content) and hover ``delta`` code points into ``needle``."""
    text = path.read_text(encoding="utf-8")
    open_document(client, path, text)
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=position_of(client, text, needle, delta),
        )
    )
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    return result


def value(found: types.Hover) -> str:
    assert isinstance(found.contents, types.MarkupContent)
    return found.contents.value


async def test_hover_on_a_key_of_each_kind(client: ClarvisClient, workspace: Path) -> None:
    skill = await hover_at(client, workspace / ".clarvis/skills/review/SKILL.md", "description")
    assert "**`description`**" in value(skill) and "discovery" in value(skill)
    assert skill.range == types.Range(start=types.Position(2, 0), end=types.Position(2, 11))

    settings = await hover_at(client, workspace / ".clarvis/settings.json", '"hooks"')
    assert "Lifecycle **hooks**" in value(settings)
    mcp = await hover_at(client, workspace / ".clarvis/settings.json", '"url"')
    assert "http and sse only, required" in value(mcp) and "Not allowed" not in value(mcp)

    plugin = await hover_at(client, workspace / ".clarvis/plugins/p/plugin.json", '"bootstrapSkill"')
    assert "injects before the answer" in value(plugin)

    hooks = await hover_at(client, workspace / ".clarvis/plugins/p/hooks/hooks.json", '"command"')
    assert "**`command`** — string, required" in value(hooks)

    marketplace = await hover_at(client, workspace / "marketplace.json", '"source"')
    assert "Where the plugin comes from" in value(marketplace)


async def test_hover_on_an_event_value(client: ClarvisClient, workspace: Path) -> None:
    control = await hover_at(client, workspace / ".clarvis/settings.json", "pre_tool_use")
    assert "control event" in value(control) and "Can `rewrite`" in value(control)
    observer = await hover_at(client, workspace / ".clarvis/plugins/p/hooks/hooks.json", "run_end")
    assert "observer event" in value(observer) and "cannot block the run" in value(observer)
    assert "Cannot `rewrite`" in value(observer)


async def test_hover_on_a_skill_name_with_two_copies(client: ClarvisClient, workspace: Path) -> None:
    shadowed = workspace / ".agents/skills/review/SKILL.md"
    found = await hover_at(client, shadowed, "review", 2)
    text = value(found)
    rows = [line for line in text.splitlines() if line[:3] in ("1. ", "2. ")]
    assert len(rows) == 2
    assert rows[0].startswith("1. **wins**") and ".clarvis/skills/review/SKILL.md" in rows[0]
    assert rows[1].startswith("2. shadowed") and ".agents/skills/review/SKILL.md" in rows[1]
    assert "this file" in rows[1] and "(workspace, agents" in rows[1]
    assert found.range == types.Range(start=types.Position(1, 6), end=types.Position(1, 12))


async def test_hover_on_an_enabled_plugins_entry(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/settings.json"
    found = await hover_at(client, path, '"p"')
    text = value(found)
    assert "**Plugin `p`**" in text and ".clarvis/plugins/p/plugin.json" in text
    assert "**2 of 2**" in text and "Overrides `q`" in text
    # The line holds 😀 and é before the entry: its range is in the client's units.
    line = SETTINGS.splitlines()[1]
    start = units(client, line[: line.index('"p"')])
    assert start == (45 if is_neovim(client) else 42)
    assert found.range == types.Range(start=types.Position(1, start), end=types.Position(1, start + 3))


async def test_hover_on_an_unknown_key_and_a_wrong_event_says_what_was_meant(
    client: ClarvisClient, workspace: Path
) -> None:
    path = write_file(
        workspace, ".clarvis/plugins/p/hooks/hooks.json", '{"hooks": [{"event": "PreToolUse", "comand": "x"}]}\n'
    )
    event = value(await hover_at(client, path, "PreToolUse"))
    assert "not a Clarvis event" in event and "Did you mean `pre_tool_use`?" in event
    key = value(await hover_at(client, path, "comand"))
    assert "not a field Clarvis knows here" in key and "Did you mean `command`?" in key
