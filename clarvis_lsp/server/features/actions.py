"""Quick fixes: each diagnostic's fix data (``Diagnostic.data["fixes"]``) becomes a code action.

The fixes were computed with the diagnostic, so no re-analysis happens here; each action's ``WorkspaceEdit``
holds exactly the edits its title names. Safe fixes are marked preferred, so editors may apply them on save.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.model import Position, Range
from clarvis_lsp.server.app import ClarvisServer, uri_to_path
from clarvis_lsp.server.convert import to_client_range

OPTIONS = types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix], resolve_provider=False)


def code_action(server: ClarvisServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    for diagnostic in params.context.diagnostics:
        data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        for fix in data.get("fixes", []):
            edit = _workspace_edit(server, fix)
            if edit is None:
                continue
            actions.append(
                types.CodeAction(
                    title=str(fix.get("title", "Fix")),
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    edit=edit,
                    is_preferred=bool(fix.get("safe")) or None,
                )
            )
    return actions


def _workspace_edit(server: ClarvisServer, fix: dict[str, Any]) -> types.WorkspaceEdit | None:
    """The fix's edits in the client's position encoding, against the document's current text."""
    changes: dict[str, list[types.TextEdit]] = {}
    for raw in fix.get("edits", []):
        uri = str(raw["uri"])
        path = uri_to_path(uri)
        if path is None:
            return None
        lines: LineIndex = server.lines_of(path)
        engine_range = Range(Position(*raw["start"]), Position(*raw["end"]))
        changes.setdefault(uri, []).append(
            types.TextEdit(range=to_client_range(engine_range, lines, server.encoding), new_text=str(raw["newText"]))
        )
    return types.WorkspaceEdit(changes=changes) if changes else None
