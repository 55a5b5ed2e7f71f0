"""Completion (``textDocument/completion``): the engine's candidates as LSP completion items.

The candidates come from ``clarvis_lsp.editor.completion`` over the document's current text and the
workspace's discovery (no rediscovery per request). This module only converts: ranges to the client's position
encoding (``convert.to_client_range``), documentation to Markdown or plain text as the client accepts, and
snippets to ``InsertTextFormat.Snippet`` (offered only when the client declares ``snippetSupport``).
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.completion import CandidateKind, CompletionCandidate, complete
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range

SCAN_PATIENCE = 0.1  # seconds a completion or hover waits for a first scan before answering without it

_KINDS: dict[CandidateKind, types.CompletionItemKind] = {
    "property": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.Value,
    "enum": types.CompletionItemKind.EnumMember,
    "snippet": types.CompletionItemKind.Snippet,
    "reference": types.CompletionItemKind.Reference,
}


async def completion(server: ClarvisServer, params: types.CompletionParams) -> types.CompletionList | None:
    # Keys and their documentation need no discovery; values such as plugin or agent names do. While the
    # first scan runs, wait a moment for it, then answer with what is known rather than keep the editor waiting.
    snapshot = await server.session.scanned_snapshot(params.text_document.uri, at_most=SCAN_PATIENCE)
    if snapshot is None or snapshot.kind is None:
        return None
    trigger = None
    context = params.context
    if context is not None and context.trigger_kind == types.CompletionTriggerKind.TriggerCharacter:
        trigger = context.trigger_character
    candidates = complete(
        snapshot.text,
        snapshot.kind,
        snapshot.position(params.position, server.encoding),
        snapshot.view.discovered,  # None while the first scan runs (keys and values still come from the schemas)
        path=snapshot.path,
        snippets=snippet_support(server),
        trigger=trigger,
        lines=snapshot.lines,
        overlay=snapshot.view.overlay,
    )
    markdown = markdown_documentation(server)
    items = [to_item(candidate, snapshot.lines, server.encoding, markdown) for candidate in candidates]
    return types.CompletionList(is_incomplete=False, items=items)


def snippet_support(server: ClarvisServer) -> bool:
    document = server.client_capabilities.text_document
    completion = document.completion if document is not None else None
    item = completion.completion_item if completion is not None else None
    return bool(item is not None and item.snippet_support)


def markdown_documentation(server: ClarvisServer) -> bool:
    document = server.client_capabilities.text_document
    completion = document.completion if document is not None else None
    item = completion.completion_item if completion is not None else None
    formats = item.documentation_format if item is not None else None
    return formats is None or types.MarkupKind.Markdown in formats


def to_item(candidate: CompletionCandidate, lines: LineIndex, encoding: str, markdown: bool) -> types.CompletionItem:
    documentation = None
    if candidate.documentation_markdown:
        documentation = types.MarkupContent(
            kind=types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText,
            value=candidate.documentation_markdown,
        )
    return types.CompletionItem(
        label=candidate.label,
        kind=_KINDS[candidate.kind],
        detail=candidate.detail,
        documentation=documentation,
        sort_text=candidate.sort_text,
        filter_text=candidate.filter_text,
        preselect=candidate.preselect or None,
        insert_text_format=types.InsertTextFormat.Snippet if candidate.is_snippet else types.InsertTextFormat.PlainText,
        text_edit=types.TextEdit(
            range=to_client_range(candidate.replace_range, lines, encoding), new_text=candidate.insert_text
        ),
    )
