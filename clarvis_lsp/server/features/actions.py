"""Code actions: quick fixes from each diagnostic's fix data, and ``source.fixAll.clarvis``.

The fixes were computed with the diagnostic (``Diagnostic.data["fixes"]``), so no re-analysis happens for the
diagnostics a client sends back; each action's ``WorkspaceEdit`` holds exactly the edits its title names. Safe
fixes are marked preferred, so editors may apply them on save. A client that sends no diagnostics in the context
(some do, for a request at the cursor) still gets the fixes of the findings at that range. "Fix all" applies the
first safe fix of every finding of the document that does not overlap another, exactly what ``--fix`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Diagnostic, Fix, Position, Range
from clarvis_lsp.fixes import fixes_to_apply
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.capabilities import FIX_ALL
from clarvis_lsp.server.convert import fix_data, to_client_range, to_lsp_diagnostic
from clarvis_lsp.server.session import Snapshot, uri_to_path


async def code_action(server: ClarvisServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    snapshot = _snapshot(server, params.text_document.uri)
    if snapshot is not None:  # "fix all" and fixes at a position need the file's full findings
        await server.session.scanned(server.session.engine_for(snapshot.path))
    only = params.context.only
    actions: list[types.CodeAction] = []
    if only is None or _wants(only, types.CodeActionKind.QuickFix):
        actions += _quick_fixes(server, params)
    if only is not None and _wants(only, FIX_ALL):
        fix_all = _fix_all(server, params.text_document.uri)
        if fix_all is not None:
            actions.append(fix_all)
    return actions


def _wants(only: Sequence[str], kind: str) -> bool:
    """``only`` asks for ``kind`` itself or a parent of it (``source`` covers ``source.fixAll``)."""
    return any(kind == str(wanted) or kind.startswith(f"{wanted}.") for wanted in only)


def _quick_fixes(server: ClarvisServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    diagnostics = list(params.context.diagnostics)
    if not diagnostics:
        diagnostics = _findings_at(server, params.text_document.uri, params.range)
    actions: list[types.CodeAction] = []
    for diagnostic in diagnostics:
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


def _findings_at(server: ClarvisServer, uri: str, where: types.Range) -> list[types.Diagnostic]:
    """The document's current findings that touch ``where``, as the client would have sent them."""
    snapshot = _snapshot(server, uri)
    if snapshot is None:
        return []
    start = snapshot.position(where.start, server.encoding)
    end = snapshot.position(where.end, server.encoding)
    touching = [item for item in _findings(server, snapshot) if _touches(item.range, Range(start, end))]
    return [to_lsp_diagnostic(item, server.session.lines_of, server.encoding) for item in touching]


def _fix_all(server: ClarvisServer, uri: str) -> types.CodeAction | None:
    snapshot = _snapshot(server, uri)
    if snapshot is None:
        return None
    found = _findings(server, snapshot)
    chosen = fixes_to_apply(found, snapshot.text, snapshot.path)
    if not chosen:
        return None
    edit = _edit_of(server, chosen)
    count = len(chosen)
    title = f"Fix all safe clarvis findings ({count} {'fix' if count == 1 else 'fixes'})"
    return types.CodeAction(title=title, kind=FIX_ALL, edit=edit)


def _snapshot(server: ClarvisServer, uri: str) -> Snapshot | None:
    snapshot = server.session.snapshot(uri)
    if snapshot is None or snapshot.kind is None:
        return None
    return snapshot


def _findings(server: ClarvisServer, snapshot: Snapshot) -> list[Diagnostic]:
    """The file's findings, checked now by its workspace's engine (checking is the engine's, not a view's), with
    no wait since ``snapshot`` was taken: they are the findings of its text."""
    server.flush()  # the latest text's findings, not those before a pending change
    return server.findings_for(server.session.engine_for(snapshot.path), [snapshot.path])[snapshot.path]


def _touches(found: Range, where: Range) -> bool:
    def key(position: Position) -> tuple[int, int]:
        return (position.line, position.character)

    return key(found.start) <= key(where.end) and key(where.start) <= key(found.end)


def _edit_of(server: ClarvisServer, fixes: list[Fix]) -> types.WorkspaceEdit | None:
    changes: dict[str, list[types.TextEdit]] = {}
    for fix in fixes:
        edit = _workspace_edit(server, fix_data(fix))
        for uri, edits in (edit.changes or {}).items() if edit is not None else ():
            changes.setdefault(uri, []).extend(edits)
    return types.WorkspaceEdit(changes=changes) if changes else None


def _workspace_edit(server: ClarvisServer, fix: dict[str, Any]) -> types.WorkspaceEdit | None:
    """The fix's edits in the client's position encoding, against the document's current text."""
    changes: dict[str, list[types.TextEdit]] = {}
    for raw in fix.get("edits", []):
        uri = str(raw["uri"])
        path = uri_to_path(uri)
        if path is None:
            return None
        lines: LineIndex = server.session.lines_of(path)
        engine_range = Range(Position(*raw["start"]), Position(*raw["end"]))
        changes.setdefault(uri, []).append(
            types.TextEdit(range=to_client_range(engine_range, lines, server.encoding), new_text=str(raw["newText"]))
        )
    return types.WorkspaceEdit(changes=changes) if changes else None
