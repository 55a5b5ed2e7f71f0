"""The one place that registers each LSP method: the table below, in the order a session meets them.

Every handler is a plain function ``(server, params)`` in one module of ``features/``, one module per method or
method family. ``register_all`` binds each to the server once, behind ``ClarvisServer.guarded``: an exception in
one handler is logged to the client and answered as that request's error alone, and the server keeps serving.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from clarvis_lsp.server.app import EFFECTIVE_SKILLS, ClarvisServer
from clarvis_lsp.server.features import (
    actions,
    code_lens,
    completion,
    configuration,
    definition,
    diagnostics,
    effective,
    file_lifecycle,
    file_operations,
    formatting,
    hover,
    lifecycle,
    links,
    rename,
    semantic_tokens,
    skills,
    structure,
    symbols,
    sync,
    watching,
)


@dataclass(frozen=True)
class Method:
    """An LSP method, the options it advertises in the server's capabilities, and its handler."""

    name: str
    handler: Callable[[ClarvisServer, Any], Any]
    options: Any = None


METHODS: tuple[Method, ...] = (
    Method(types.INITIALIZE, lifecycle.initialize),
    Method(types.INITIALIZED, lifecycle.initialized),
    Method(types.TEXT_DOCUMENT_DID_OPEN, sync.did_open),
    Method(types.TEXT_DOCUMENT_DID_CHANGE, sync.did_change),
    Method(types.TEXT_DOCUMENT_DID_SAVE, sync.did_save),
    Method(types.TEXT_DOCUMENT_DID_CLOSE, sync.did_close),
    Method(types.TEXT_DOCUMENT_DIAGNOSTIC, diagnostics.document_diagnostic, diagnostics.OPTIONS),
    Method(types.WORKSPACE_DIAGNOSTIC, diagnostics.workspace_diagnostic),
    Method(types.WORKSPACE_DID_CHANGE_CONFIGURATION, configuration.did_change_configuration),
    Method(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, watching.did_change_watched_files),
    Method(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, watching.did_change_workspace_folders),
    Method(types.TEXT_DOCUMENT_CODE_ACTION, actions.code_action, actions.OPTIONS),
    Method(types.TEXT_DOCUMENT_COMPLETION, completion.completion, completion.OPTIONS),
    Method(types.TEXT_DOCUMENT_HOVER, hover.hover),
    Method(types.TEXT_DOCUMENT_DEFINITION, definition.definition),
    Method(types.TEXT_DOCUMENT_REFERENCES, definition.references),
    Method(types.TEXT_DOCUMENT_PREPARE_RENAME, rename.prepare_rename),
    Method(types.TEXT_DOCUMENT_RENAME, rename.rename, rename.OPTIONS),
    Method(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, symbols.document_symbol),
    Method(types.WORKSPACE_SYMBOL, symbols.workspace_symbol),
    Method(types.TEXT_DOCUMENT_CODE_LENS, code_lens.code_lens, code_lens.OPTIONS),
    Method(types.TEXT_DOCUMENT_DOCUMENT_LINK, links.document_link, links.OPTIONS),
    Method(EFFECTIVE_SKILLS, skills.effective_skills_request),
    Method(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, semantic_tokens.semantic_tokens_full, semantic_tokens.LEGEND),
    Method(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, semantic_tokens.semantic_tokens_delta, semantic_tokens.LEGEND
    ),
    Method(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, semantic_tokens.semantic_tokens_range, semantic_tokens.LEGEND),
    Method(types.TEXT_DOCUMENT_FOLDING_RANGE, structure.folding_range),
    Method(types.TEXT_DOCUMENT_SELECTION_RANGE, structure.selection_range),
    Method(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, structure.document_highlight),
    Method(types.TEXT_DOCUMENT_FORMATTING, formatting.document_formatting),
    Method(types.TEXT_DOCUMENT_RANGE_FORMATTING, formatting.range_formatting),
    Method(types.WORKSPACE_WILL_RENAME_FILES, file_operations.will_rename_files, file_operations.OPTIONS),
    Method(types.WORKSPACE_DID_RENAME_FILES, file_operations.did_rename_files, file_operations.OPTIONS),
    Method(types.WORKSPACE_DID_CREATE_FILES, file_lifecycle.did_create_files, file_lifecycle.OPTIONS),
    Method(types.WORKSPACE_WILL_DELETE_FILES, file_lifecycle.will_delete_files, file_lifecycle.OPTIONS),
    Method(types.TEXT_DOCUMENT_INLAY_HINT, effective.inlay_hint, effective.INLAY_OPTIONS),
    Method(effective.EFFECTIVE_CONFIGURATION, effective.effective_configuration),
    Method(effective.WHY, effective.why_request),
)

# Server commands (``workspace/executeCommand``); pygls passes the server to a first parameter typed ClarvisServer.
COMMANDS: dict[str, Callable[..., Any]] = {code_lens.SHOW_LOCATIONS: code_lens.show_locations}


def register_all(server: ClarvisServer) -> None:
    for method in METHODS:
        server.feature(method.name, method.options)(_bind(server, method.handler))
    for name, command in COMMANDS.items():
        server.command(name)(command)


def _bind(server: ClarvisServer, handler: Callable[[ClarvisServer, Any], Any]) -> Callable[[Any], Any]:
    """``handler`` with the server bound, guarded; a plain ``(params)`` callable, as pygls calls features."""
    guarded = server.guarded(handler)
    if asyncio.iscoroutinefunction(handler):

        async def bound_async(params: Any) -> Any:
            return await guarded(server, params)

        bound_async.__name__ = handler.__name__
        return bound_async

    def bound(params: Any) -> Any:
        return guarded(server, params)

    bound.__name__ = handler.__name__
    return bound
