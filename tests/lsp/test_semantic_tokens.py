"""Semantic tokens through the protocol under both capability sets (VS Code: UTF-16; Neovim: UTF-8): the legend
holds standard types and modifiers only; full, range and delta answers decode to the same tokens; columns count
in the client's encoding when a multi-byte character comes before the token; a half-typed document still gets
its tokens; a delta after an edit, applied to the previous answer, gives the new full answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types

SKILL = (
    "---\n"
    "name: review\n"
    "description: Reviews ✓ changes.\n"
    "tools: Read\n"
    "agent: p:helper\n"
    "colour: blue\n"
    "---\n"
    "Résumé 😀 of $ARGUMENTS, see [the guide](references/guide.md) and [gone](missing.md).\n"
)
SETTINGS = (
    "{\n"
    '  "hooks": [{"event": "pre_tool_use", "command": "é ${HOME}/x.sh"}],\n'
    '  "mcpServers": {"docs": {"type": "stdio", "command": "docs"}},\n'
    '  "enabledPlugins": ["p"],\n'
    '  "memory": {"provider": "p"}\n'
    "}\n"
)
STANDARD_TYPES = {
    *("namespace", "type", "class", "enum", "interface", "struct", "typeParameter", "parameter", "variable"),
    *("property", "enumMember", "event", "function", "method", "macro", "keyword", "modifier", "comment"),
    *("string", "number", "regexp", "operator", "decorator"),
}
STANDARD_MODIFIERS = {
    *("declaration", "definition", "readonly", "static", "deprecated", "abstract", "async", "modification"),
    *("documentation", "defaultLibrary"),
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", SKILL)
    write_file(ws, ".clarvis/skills/review/references/guide.md", "# Guide\n")
    write_file(ws, ".clarvis/settings.json", SETTINGS)
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


def legend(client: ClarvisClient) -> types.SemanticTokensLegend:
    provider = client.server_capabilities.semantic_tokens_provider
    assert isinstance(provider, (types.SemanticTokensOptions, types.SemanticTokensRegistrationOptions)), provider
    return provider.legend


def decode(client: ClarvisClient, data: list[int], text: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """The tokens as (the text they cover, type, modifiers), read in the client's encoding."""
    names = legend(client)
    lines = text.split("\n")
    result: list[tuple[str, str, tuple[str, ...]]] = []
    line = start = 0
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, type_index, bits = data[index : index + 5]
        start = start + delta_start if delta_line == 0 else delta_start
        line += delta_line
        encoded = lines[line].encode("utf-8" if is_neovim(client) else "utf-16-le")
        width = 1 if is_neovim(client) else 2
        covered = encoded[start * width : (start + length) * width].decode(
            "utf-8" if is_neovim(client) else "utf-16-le"
        )
        modifiers = tuple(name for bit, name in enumerate(names.token_modifiers) if bits & (1 << bit))
        result.append((covered, names.token_types[type_index], modifiers))
    return result


async def full(client: ClarvisClient, path: Path) -> types.SemanticTokens:
    answer = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    assert answer is not None
    return answer


async def test_the_legend_is_standard_and_every_request_is_served(client: ClarvisClient) -> None:
    provider = client.server_capabilities.semantic_tokens_provider
    assert isinstance(provider, types.SemanticTokensOptions)
    assert set(provider.legend.token_types) <= STANDARD_TYPES
    assert set(provider.legend.token_modifiers) <= STANDARD_MODIFIERS
    assert provider.range is True
    assert isinstance(provider.full, types.SemanticTokensFullDelta) and provider.full.delta


async def test_a_skill_is_coloured_in_the_clients_encoding(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, skill)
    tokens = decode(client, list((await full(client, skill)).data), SKILL)
    assert tokens == [
        ("name", "property", ()),
        ("review", "function", ("declaration",)),
        ("description", "property", ()),
        ("tools", "property", ("deprecated",)),
        ("agent", "property", ()),
        ("p", "namespace", ()),
        ("helper", "class", ()),
        ("colour", "variable", ()),
        ("$ARGUMENTS", "parameter", ()),  # after "Résumé 😀": columns differ by encoding
        ("references/guide.md", "string", ()),
        ("missing.md", "string", ("deprecated",)),
    ]


async def test_settings_name_events_transports_and_interpolations(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    tokens = decode(client, list((await full(client, settings)).data), SETTINGS)
    assert tokens == [
        ("pre_tool_use", "event", ("modification",)),
        ("${HOME}", "variable", ("readonly",)),
        ("docs", "interface", ("declaration",)),
        ("stdio", "enumMember", ()),
        ("p", "namespace", ()),
        ("p", "namespace", ()),
    ]


async def test_a_range_gets_the_tokens_of_its_lines(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    answer = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(
            text_document=types.TextDocumentIdentifier(uri=skill.as_uri()),
            range=types.Range(start=types.Position(3, 0), end=types.Position(4, 3)),
        )
    )
    assert answer is not None
    tokens = decode(client, list(answer.data), SKILL)  # relative to the document's start, as the full answer
    assert [token[0] for token in tokens] == ["tools", "agent", "p", "helper"]


async def test_a_half_typed_document_and_a_delta_after_an_edit(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    half = "---\nname: rev\ndescr"
    open_document(client, skill, half)
    first = await full(client, skill)
    assert decode(client, list(first.data), half) == [("name", "property", ()), ("rev", "function", ("declaration",))]
    edited = "---\nname: review\ndescription: é\nuser-invocable: true\nagent: helper\n"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=skill.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )
    delta = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=types.TextDocumentIdentifier(uri=skill.as_uri()), previous_result_id=first.result_id or ""
        )
    )
    assert isinstance(delta, types.SemanticTokensDelta)
    data = list(first.data)
    for edit in sorted(delta.edits, key=lambda item: item.start, reverse=True):
        data[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
    assert data == list((await full(client, skill)).data)
    assert [token[0] for token in decode(client, data, edited)] == [
        *("name", "review", "description", "user-invocable", "agent", "helper")
    ]
    # An id the server does not hold gets the full tokens.
    stale = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=types.TextDocumentIdentifier(uri=skill.as_uri()), previous_result_id="unknown"
        )
    )
    assert isinstance(stale, types.SemanticTokens) and list(stale.data) == data
