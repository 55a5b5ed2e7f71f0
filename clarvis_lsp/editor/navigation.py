"""Navigation over a workspace, one module per feature: definitions and references (``definitions``), document
and workspace symbols (``symbols``), the override lens (``code_lens``), on the shared places and lookups
(``places``). This module names them together for the server's features.

Engine-level and protocol-free: every answer is a ``Location`` (a path and a code-point ``Range``) or a
``Symbol`` tree, computed from a ``WorkspaceView`` (the workspace at one moment, ``clarvis_lsp.workspace.view``)
and the document's current text (an open buffer's unsaved text included). ``clarvis_lsp.server.features``
turn them into LSP messages.

What resolves to what is listed in ``definitions``.
"""

from __future__ import annotations

from clarvis_lsp.editor.code_lens import OverrideLens, override_lenses
from clarvis_lsp.editor.definitions import definition, references
from clarvis_lsp.editor.places import Location, display_path
from clarvis_lsp.editor.symbols import (
    MAX_DOCUMENT_SYMBOLS,
    MAX_SYMBOL_DEPTH,
    MAX_WORKSPACE_SYMBOLS,
    Symbol,
    SymbolKind,
    WorkspaceSymbol,
    document_symbols,
    match_score,
    workspace_symbols,
)

__all__ = [
    "MAX_DOCUMENT_SYMBOLS",
    "MAX_SYMBOL_DEPTH",
    "MAX_WORKSPACE_SYMBOLS",
    "Location",
    "OverrideLens",
    "Symbol",
    "SymbolKind",
    "WorkspaceSymbol",
    "definition",
    "display_path",
    "document_symbols",
    "match_score",
    "override_lenses",
    "references",
    "workspace_symbols",
]
