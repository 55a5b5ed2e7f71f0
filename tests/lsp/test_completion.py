"""End-to-end completion through the protocol, under the VS Code (UTF-16) and Neovim (UTF-8) capability sets.

Every context of SPEC §5 is exercised the way an editor does it: the half-typed document is sent with
didOpen/didChange, then ``textDocument/completion`` is asked at the cursor (``|`` in the test texts). Several
documents put a multi-byte character before the cursor on its line, so the positions differ by encoding.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, write_file
from lsprotocol import types

from clarvis_lsp.knowledge import hooks, marketplace, mcp, plugin, settings


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Two copies of ``review``, a standalone agent, an enabled plugin ``p`` (skills, an agent) and ``q``."""
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\n")
    write_file(ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared.\n---\n")
    write_file(ws, ".clarvis/agents/reviewer.md", "# Reviewer\n")
    write_file(ws, ".clarvis/settings.json", '{"enabledPlugins": ["p"]}\n')
    write_file(ws, ".clarvis/plugins/p/plugin.json", '{"name": "p"}\n')
    write_file(ws, ".clarvis/plugins/p/agents/assistant.md", "# Assistant\n")
    write_file(ws, ".clarvis/plugins/p/skills/boot/SKILL.md", "---\nname: boot\ndescription: Boots.\n---\n")
    write_file(ws, ".clarvis/plugins/p/skills/plan/SKILL.md", "---\nname: release-plan\ndescription: Plans.\n---\n")
    write_file(ws, ".clarvis/plugins/p/hooks/hooks.json", "[]\n")
    write_file(ws, ".clarvis/plugins/q/plugin.json", '{"name": "q"}\n')
    write_file(ws, "marketplace.json", '{"name": "m"}\n')
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


# -- helpers ----------------------------------------------------------------------------------------------------


def units(client: ClarvisClient, text: str) -> int:
    """The length of ``text`` in the client's position encoding."""
    if is_neovim(client):
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def client_position(client: ClarvisClient, text: str, offset: int) -> types.Position:
    line = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=units(client, text[line_start:offset]))


class Editor:
    """Sends a document's successive half-typed states and asks for completion at the marked cursor."""

    def __init__(self, client: ClarvisClient) -> None:
        self.client = client
        self.versions: dict[str, int] = {}

    def show(self, path: Path, text: str) -> None:
        uri = path.as_uri()
        version = self.versions.get(uri)
        if version is None:
            self.client.text_document_did_open(
                types.DidOpenTextDocumentParams(
                    text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text)
                )
            )
            self.versions[uri] = 1
            return
        self.versions[uri] = version + 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version + 1),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def complete(self, path: Path, marked: str, trigger: str | None = None) -> list[types.CompletionItem]:
        offset = marked.index("|")
        text = marked.replace("|", "", 1)
        self.show(path, text)
        kind = types.CompletionTriggerKind.TriggerCharacter if trigger else types.CompletionTriggerKind.Invoked
        context = types.CompletionContext(trigger_kind=kind, trigger_character=trigger)
        result = await self.client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                position=client_position(self.client, text, offset),
                context=context,
            )
        )
        if result is None:
            return []
        return list(result.items) if isinstance(result, types.CompletionList) else list(result)

    async def labels(self, path: Path, marked: str, trigger: str | None = None) -> list[str]:
        return [item.label for item in await self.complete(path, marked, trigger)]


def item(items: list[types.CompletionItem], label: str) -> types.CompletionItem:
    return next(found for found in items if found.label == label)


def edit_of(found: types.CompletionItem) -> types.TextEdit:
    assert isinstance(found.text_edit, types.TextEdit)
    return found.text_edit


# -- SKILL.md ---------------------------------------------------------------------------------------------------


async def test_skill_frontmatter_keys_and_values(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / ".clarvis/skills/review/SKILL.md"
    keys = await editor.complete(path, "---\nname: review\ndescription: Reviews.\nus|\n---\n")
    labels = [found.label for found in keys]
    assert "user-invocable" in labels and "agent" in labels
    assert "name" not in labels and "description" not in labels
    invocable = item(keys, "user-invocable")
    assert invocable.kind == types.CompletionItemKind.Property
    assert edit_of(invocable).new_text == "user-invocable: "
    assert edit_of(invocable).range == types.Range(start=types.Position(3, 0), end=types.Position(3, 2))
    assert isinstance(invocable.documentation, types.MarkupContent)
    assert invocable.documentation.kind == types.MarkupKind.Markdown
    assert "slash command" in invocable.documentation.value

    values = await editor.labels(path, "---\nname: review\ndescription: Reviews.\nuser-invocable: |\n---\n")
    assert values == ["true", "false"]

    agents = await editor.labels(path, "---\nname: review\ndescription: Reviews.\nagent: |\n---\n")
    assert set(agents) == {"reviewer", "p:assistant"}


async def test_skill_half_typed_frontmatter(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / ".clarvis/skills/review/SKILL.md"
    labels = await editor.labels(path, "---\nname: [review\ndescription: 'unclosed\nlic|\n---\n")
    assert "license" in labels and "name" not in labels  # the YAML does not parse: read line by line
    found = await editor.complete(path, "---\nname: review\nagent:|\n---\n", trigger=":")
    assert edit_of(item(found, "reviewer")).new_text == " reviewer"
    assert await editor.labels(path, "---\nname: review\n|\n---\n", trigger=" ") == []


# -- settings.json ----------------------------------------------------------------------------------------------


async def test_settings_keys_hooks_events_and_on_failure(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / ".clarvis/settings.json"
    top = await editor.labels(path, '{\n  "enabledPlugins": ["p"],\n  "|\n}')
    assert set(settings.FIELDS) - {"enabledPlugins"} <= set(top)
    assert "enabledPlugins" not in top
    assert await editor.labels(path, '{"model": "m", |}', trigger=" ") == []  # typing between members
    assert "run_end" in await editor.labels(path, '{"hooks": [{"event": |}]}', trigger=" ")

    fields = await editor.labels(path, '{"hooks": [{"event": "pre_tool_use", "|"}]}')
    assert fields == [field for field in hooks.HOOK_FIELDS if field != "event"]

    events = await editor.complete(path, '{"hooks": [{"event": "|"}]}')
    assert [found.label for found in events] == list(hooks.EVENTS)
    for event in hooks.EVENTS:
        assert item(events, event).detail == f"{hooks.EVENT_CLASS[event]} event"
    assert item(events, "pre_compact").detail == "compaction context event"

    observer = await editor.labels(path, '{"hooks": [{"event": "run_end", "on_failure": "|"}]}')
    assert observer == ["pass"]
    control = await editor.labels(path, '{"hooks": [{"event": "pre_delegate_task", "on_failure": "|"}]}')
    assert control == list(hooks.ON_FAILURE_VALUES)


async def test_settings_mcp_fields_by_type_and_type_values(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / ".clarvis/settings.json"
    http = await editor.labels(path, '{"mcpServers": {"api": {"type": "http", "|"}}}')
    assert set(mcp.FIELDS) - set(mcp.FORBIDDEN["http"]) - {"type"} <= set(http) and "command" not in http
    stdio = await editor.labels(path, '{"mcpServers": {"local": {"type": "stdio", |}}}')
    assert set(mcp.FIELDS) - set(mcp.FORBIDDEN["stdio"]) - {"type"} <= set(stdio) and "url" not in stdio
    types_ = await editor.labels(path, '{"mcpServers": {"api": {"type": "|"}}}')
    assert types_ == list(mcp.TRANSPORTS)


async def test_settings_enabled_plugins_from_installed_plugins(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / ".clarvis/settings.json"
    assert await editor.labels(path, '{"enabledPlugins": ["|"]}') == ["p", "q"]
    assert await editor.labels(path, '{"enabledPlugins": ["p", |]}') == ["q"]


async def test_multibyte_text_before_the_cursor(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / ".clarvis/settings.json"
    marked = '{"model": "😀é", "hooks": [{"event": "pre|'
    found = await editor.complete(path, marked)
    pre = item(found, "pre_tool_use")
    text = marked.replace("|", "")
    start = text.rindex('"pre')
    # 36 code points before it, among them 😀 (2 UTF-16 units, 4 UTF-8 bytes) and é (1 unit, 2 bytes).
    expected = 40 if is_neovim(client) else 37
    assert units(client, text[:start]) == expected
    assert edit_of(pre).range == types.Range(
        start=types.Position(0, expected), end=types.Position(0, expected + units(client, '"pre'))
    )
    assert edit_of(pre).new_text == '"pre_tool_use"'
    assert pre.filter_text == '"pre_tool_use"'


# -- plugin.json, hooks.json, marketplace.json ------------------------------------------------------------------


async def test_plugin_and_hooks_json(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / ".clarvis/plugins/p/plugin.json"
    fields = await editor.labels(path, '{\n  "name": "p",\n  |\n}')
    assert set(plugin.FIELDS) - {"name"} <= set(fields)
    assert "name" not in fields
    assert await editor.labels(path, '{"name": "p", "bootstrapSkill": "|"}') == ["boot", "release-plan"]
    policies = await editor.labels(path, '{"name": "p", "capabilityRunPolicies": {"release-plan": "|"}}')
    assert policies == list(plugin.RUN_POLICIES)
    hooks_json = workspace / ".clarvis/plugins/p/hooks/hooks.json"
    assert "command" in await editor.labels(hooks_json, '[{"event": "run_end", "|"}]')


async def test_marketplace_root_and_entry_fields(client: ClarvisClient, workspace: Path) -> None:
    editor = Editor(client)
    path = workspace / "marketplace.json"
    root = await editor.labels(path, '{"name": "m", "|"}')
    assert set(root) == set(marketplace.ROOT_FIELDS) - {"name"}
    entry = await editor.labels(path, '{"name": "m", "plugins": [{"name": "a", |}]}')
    assert set(marketplace.ENTRY_FIELDS) - {"name"} <= set(entry) and "name" not in entry


# -- snippets ---------------------------------------------------------------------------------------------------


async def test_snippets_for_a_new_hook_and_a_new_mcp_server(client: ClarvisClient, workspace: Path) -> None:
    # Both capability sets declare snippetSupport, so both get snippets.
    editor = Editor(client)
    path = workspace / ".clarvis/settings.json"
    hook_items = await editor.complete(path, '{"hooks": [\n  |\n]}')
    hook = item(hook_items, "New hook")
    assert hook.kind == types.CompletionItemKind.Snippet
    assert hook.insert_text_format == types.InsertTextFormat.Snippet
    assert '"event": "${1|pre_tool_use,' in edit_of(hook).new_text

    servers = await editor.complete(path, '{"mcpServers": {\n  |\n}}')
    labels = {found.label for found in servers}
    assert {"New MCP server (stdio)", "New MCP server (http)", "New MCP server (sse)"} <= labels
    http = item(servers, "New MCP server (http)")
    assert http.insert_text_format == types.InsertTextFormat.Snippet
    assert edit_of(http).new_text.startswith('"${1:server-name}": {')
    assert '"url": "${2:https://mcp.example.com/mcp}"' in edit_of(http).new_text
