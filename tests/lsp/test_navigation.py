"""End-to-end navigation through the protocol, under the VS Code (UTF-16) and Neovim (UTF-8) capability sets:
definition, references, document and workspace symbols, and the override code lens with its command.

The shadowed copy of ``review`` writes its frontmatter as a flow mapping with an emoji before ``name``, and
settings.json has one before an ``enabledPlugins`` entry, so every range there differs by encoding.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types

WINNER = "---\nname: review\ndescription: Reviews changes.\nagent: helper\n---\n# Review\n## 😀 Steps\n"
SHADOWED = '---\n{description: "😀 shared", name: review}\n---\n'
DUPLICATE = "---\nname: review\ndescription: A second copy in the same root.\n---\n"
OTHER = "---\nname: other\ndescription: Uses the plugin's agent.\nagent: p:assistant\n---\n"
PLUGIN = '{\n  "name": "p",\n  "bootstrapSkill": "boot",\n  "mcpServers": {"db": {"command": "db-mcp"}}\n}\n'
SETTINGS = '{"model": "😀é", "enabledPlugins": ["q", "p"],\n "hooks": [{"event": "run_end", "command": "echo done"}]}\n'
HOOKS = '{"hooks": [{"event": "pre_tool_use", "command": "lint", "match": {"tool": "edit"}}]}\n'
MARKETPLACE = json.dumps({"name": "m", "plugins": [{"name": "p", "source": "./plugins/p"}]}, indent=2) + "\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", WINNER)
    write_file(ws, ".clarvis/skills/zz-review/SKILL.md", DUPLICATE)
    write_file(ws, ".clarvis/skills/other/SKILL.md", OTHER)
    write_file(ws, ".agents/skills/review/SKILL.md", SHADOWED)
    write_file(ws, ".clarvis/agents/helper.md", "# Helper\n")
    write_file(ws, ".clarvis/plugins/p/plugin.json", PLUGIN)
    write_file(ws, ".clarvis/plugins/p/skills/boot/SKILL.md", "---\nname: boot\ndescription: Bootstraps.\n---\n")
    write_file(ws, ".clarvis/plugins/p/agents/assistant.md", "# Assistant\n")
    write_file(ws, ".clarvis/plugins/p/hooks/hooks.json", HOOKS)
    write_file(ws, ".clarvis/plugins/q/README.md", "A plugin without a manifest.\n")
    write_file(ws, ".clarvis/settings.json", SETTINGS)
    write_file(ws, "marketplace.json", MARKETPLACE)
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


# -- helpers ----------------------------------------------------------------------------------------------------


def units(client: ClarvisClient, text: str) -> int:
    """The length of ``text`` in the client's position encoding."""
    if is_neovim(client):
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def position_of(client: ClarvisClient, text: str, needle: str, delta: int = 1) -> types.Position:
    """The client position ``delta`` code points into the first ``needle`` of ``text``."""
    offset = text.index(needle) + delta
    line = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=units(client, text[line_start:offset]))


def range_of(client: ClarvisClient, text: str, needle: str) -> types.Range:
    return types.Range(start=position_of(client, text, needle, 0), end=position_of(client, text, needle, len(needle)))


def plain(value: object) -> object:
    """JSON-shaped data as plain lists and dicts (the client hands sequences back as tuples)."""
    return json.loads(json.dumps(value))


def location(path: Path, range_: types.Range) -> types.Location:
    return types.Location(uri=path.as_uri(), range=range_)


START = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))


async def definition(client: ClarvisClient, path: Path, needle: str) -> list[types.Location]:
    text = path.read_text(encoding="utf-8")
    result = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=position_of(client, text, needle)
        )
    )
    assert result is None or isinstance(result, list)
    return [item for item in result or [] if isinstance(item, types.Location)]


async def code_lenses(client: ClarvisClient, path: Path) -> list[types.CodeLens]:
    result = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    return list(result or [])


async def document_symbols(client: ClarvisClient, path: Path) -> list[types.DocumentSymbol]:
    result = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    symbols = list(result or [])
    assert all(isinstance(symbol, types.DocumentSymbol) for symbol in symbols)  # both clients are hierarchical
    return symbols  # type: ignore[return-value]


def outline(symbols: Sequence[types.DocumentSymbol] | None) -> list[object]:
    return [(s.name, outline(s.children)) if s.children else s.name for s in symbols or []]


# -- definition -------------------------------------------------------------------------------------------------


async def test_agent_goes_to_the_agent_file(client: ClarvisClient, workspace: Path) -> None:
    skills = workspace / ".clarvis/skills"
    assert await definition(client, skills / "review/SKILL.md", "helper") == [
        location(workspace / ".clarvis/agents/helper.md", START)
    ]
    assert await definition(client, skills / "other/SKILL.md", "p:assistant") == [
        location(workspace / ".clarvis/plugins/p/agents/assistant.md", START)
    ]


async def test_bootstrap_skill_goes_to_the_plugins_skill(client: ClarvisClient, workspace: Path) -> None:
    boot = workspace / ".clarvis/plugins/p/skills/boot/SKILL.md"
    assert await definition(client, workspace / ".clarvis/plugins/p/plugin.json", '"boot"') == [
        location(boot, types.Range(start=types.Position(1, 6), end=types.Position(1, 10)))
    ]


async def test_enabled_plugin_goes_to_its_manifest(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    manifest = workspace / ".clarvis/plugins/p/plugin.json"
    # The emoji and é before "p" on this line are 2+1 UTF-16 units and 4+2 UTF-8 bytes.
    assert await definition(client, settings, '"p"') == [location(manifest, range_of(client, PLUGIN, '"p"'))]
    assert await definition(client, settings, '"q"') == [location(workspace / ".clarvis/plugins/q/README.md", START)]
    assert await definition(client, settings, "model") == []


async def test_shadowed_name_goes_to_the_winner(client: ClarvisClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    winner_name = location(winner, range_of(client, WINNER, "review"))
    assert await definition(client, workspace / ".agents/skills/review/SKILL.md", "review") == [winner_name]
    assert await definition(client, workspace / ".clarvis/skills/zz-review/SKILL.md", "review") == [winner_name]
    assert await definition(client, winner, "review") == [winner_name]


# -- references -------------------------------------------------------------------------------------------------


async def test_references_on_a_skill_name_list_every_copy(client: ClarvisClient, workspace: Path) -> None:
    shadowed = workspace / ".agents/skills/review/SKILL.md"
    result = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=shadowed.as_uri()),
            position=position_of(client, SHADOWED, "review", 3),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert list(result or []) == [
        location(workspace / ".clarvis/skills/review/SKILL.md", range_of(client, WINNER, "review")),
        location(shadowed, range_of(client, SHADOWED, "review")),
        location(workspace / ".clarvis/skills/zz-review/SKILL.md", range_of(client, DUPLICATE, "review")),
    ]
    without = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=shadowed.as_uri()),
            position=position_of(client, SHADOWED, "review", 3),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert without is not None and shadowed.as_uri() not in {item.uri for item in without} and len(without) == 2


# -- document symbols -------------------------------------------------------------------------------------------


async def test_skill_document_symbols(client: ClarvisClient, workspace: Path) -> None:
    symbols = await document_symbols(client, workspace / ".clarvis/skills/review/SKILL.md")
    assert outline(symbols) == [("frontmatter", ["name", "description", "agent"]), ("Review", ["😀 Steps"])]
    steps = symbols[1].children[0]  # type: ignore[index]
    assert steps.selection_range == range_of(client, WINNER, "## 😀 Steps")
    assert steps.kind == types.SymbolKind.String
    name = symbols[0].children[0]  # type: ignore[index]
    assert (name.kind, name.detail) == (types.SymbolKind.Property, "review")


async def test_json_document_symbols(client: ClarvisClient, workspace: Path) -> None:
    settings = await document_symbols(client, workspace / ".clarvis/settings.json")
    assert outline(settings) == [
        "model",
        ("enabledPlugins", ["q", "p"]),
        ("hooks", [("run_end: echo done", ["event", "command"])]),
    ]
    assert settings[1].children[1].range == range_of(client, SETTINGS, '"p"')  # type: ignore[index]
    assert settings[2].children[0].kind == types.SymbolKind.Event  # type: ignore[index]

    plugin = await document_symbols(client, workspace / ".clarvis/plugins/p/plugin.json")
    assert outline(plugin) == ["name", "bootstrapSkill", ("mcpServers", [("db", ["command"])])]
    assert plugin[2].children[0].detail == "stdio server"  # type: ignore[index]

    hooks = await document_symbols(client, workspace / ".clarvis/plugins/p/hooks/hooks.json")
    assert outline(hooks) == [("hooks", [("pre_tool_use: lint", ["event", "command", ("match", ["tool"])])])]

    market = await document_symbols(client, workspace / "marketplace.json")
    assert outline(market) == ["name", ("plugins", [("p", ["name", "source"])])]


# -- workspace symbols ------------------------------------------------------------------------------------------


async def test_workspace_symbols(client: ClarvisClient, workspace: Path) -> None:
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="REV"))
    assert found is not None
    assert [(item.name, item.container_name) for item in found] == [
        ("review", "workspace/clarvis"),
        ("review", "workspace/agents, shadowed by .clarvis/skills/review/SKILL.md"),
    ]
    shadowed = found[1]
    assert isinstance(shadowed, types.SymbolInformation)
    assert shadowed.location == location(
        workspace / ".agents/skills/review/SKILL.md", range_of(client, SHADOWED, "review")
    )

    everything = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert everything is not None
    kinds = {(item.name, item.kind) for item in everything}
    assert {
        ("boot", types.SymbolKind.Function),
        ("other", types.SymbolKind.Function),
        ("p", types.SymbolKind.Package),
        ("q", types.SymbolKind.Package),
        ("helper", types.SymbolKind.Class),
        ("p:assistant", types.SymbolKind.Class),
    } <= kinds
    fuzzy = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="pasnt"))
    assert [item.name for item in fuzzy or []] == ["p:assistant"]


# -- the override code lens -------------------------------------------------------------------------------------


async def test_code_lens_on_the_winner_and_the_shadowed_copy(client: ClarvisClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    shadowed = workspace / ".agents/skills/review/SKILL.md"
    winner_name = range_of(client, WINNER, "review")
    shadowed_name = range_of(client, SHADOWED, "review")

    (lens,) = await code_lenses(client, winner)
    assert lens.range == winner_name
    assert lens.command is not None
    assert (lens.command.title, lens.command.command) == ("overrides 1 copy", "clarvis.showLocations")
    assert plain(lens.command.arguments) == [
        winner.as_uri(),
        {"line": winner_name.start.line, "character": winner_name.start.character},
        [
            {
                "uri": shadowed.as_uri(),
                "range": {
                    "start": {"line": 1, "character": shadowed_name.start.character},
                    "end": {"line": 1, "character": shadowed_name.end.character},
                },
            }
        ],
    ]

    (back,) = await code_lenses(client, shadowed)
    assert back.range == shadowed_name  # after the emoji: 24 code points, 25 UTF-16 units, 27 UTF-8 bytes
    assert back.command is not None
    assert back.command.title == "shadowed by .clarvis/skills/review/SKILL.md"
    assert back.command.arguments is not None
    assert plain(back.command.arguments[2]) == [
        {
            "uri": winner.as_uri(),
            "range": {
                "start": {"line": 1, "character": 6},
                "end": {"line": 1, "character": 12},
            },
        }
    ]
    (duplicate,) = await code_lenses(client, workspace / ".clarvis/skills/zz-review/SKILL.md")
    assert duplicate.command is not None
    assert duplicate.command.title == "skipped: .clarvis/skills/review/SKILL.md declares this name first"
    assert await code_lenses(client, workspace / ".clarvis/skills/other/SKILL.md") == []


async def test_the_lens_command_shows_the_first_location(client: ClarvisClient, workspace: Path) -> None:
    (lens,) = await code_lenses(client, workspace / ".agents/skills/review/SKILL.md")
    assert lens.command is not None
    shown = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=lens.command.command, arguments=lens.command.arguments)
    )
    assert shown is True
    (request,) = client.shown_documents
    assert request.uri == (workspace / ".clarvis/skills/review/SKILL.md").as_uri()
    assert request.selection == range_of(client, WINNER, "review")
    assert request.take_focus is True


async def test_the_lens_follows_an_unsaved_rename(client: ClarvisClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    shadowed = workspace / ".agents/skills/review/SKILL.md"
    open_document(client, winner)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=winner.as_uri(), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text=WINNER.replace("name: review", "name: renamed"))
            ],
        )
    )
    assert await code_lenses(client, winner) == []
    (lens,) = await code_lenses(client, shadowed)  # the same-root duplicate wins now
    assert lens.command is not None
    assert lens.command.title == "shadowed by .clarvis/skills/zz-review/SKILL.md"
