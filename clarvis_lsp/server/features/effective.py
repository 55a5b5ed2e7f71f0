"""The effective configuration in the editor (SPEC §2.1, §5): the ``clarvis/effectiveConfiguration`` and
``clarvis/why`` requests, inlay hints, the trust-preview code lens and the hook/server hover notes.

- ``clarvis/effectiveConfiguration`` params ``{"uri"?: str, "trusted"?: bool}`` answer
  ``{"workspaces": [object, …]}``, each object exactly what ``clarvis-lsp --effective --format json`` prints for
  that workspace (``clarvis_lsp.effective.render.to_json``, documented in README). Without ``uri``: every
  workspace of the workspace folders; without ``trusted``: the editor setting ``clarvis.trustWorkspace``.
- ``clarvis/why`` params ``{"name": str, "uri"?: str, "trusted"?: bool}`` answer
  ``{"name", "workspaces": [{"workspace", "trusted", "answers": [...]}]}``, as ``--why NAME --format json``.
- The notification ``clarvis/effectiveConfigurationChanged`` ``{"uri": <workspace uri>}`` is sent by
  ``ClarvisServer.refresh`` whenever the model may have changed (settings, plugins, hooks, agents, skills).

The model is computed over the open buffers and kept per workspace until discovery, an open buffer or the trust
setting changes, so hints and hovers on every keystroke do not recompute it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from lsprotocol import types

from clarvis_lsp.editor.activation import hover_note, inlay_hints, trust_lens
from clarvis_lsp.effective import effective_of
from clarvis_lsp.effective.model import Effective
from clarvis_lsp.effective.render import answers_json, display_paths, to_json
from clarvis_lsp.effective.why import why
from clarvis_lsp.findings import Position
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.capabilities import EFFECTIVE_CONFIGURATION, WHY
from clarvis_lsp.server.convert import to_client_position
from clarvis_lsp.server.session import uri_to_path
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.view import WorkspaceView

_HINTED = (FileKind.SKILL, FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS)


def model_for(server: ClarvisServer, view: WorkspaceView, trusted: bool | None = None) -> Effective | None:
    """The effective configuration of ``view``'s workspace, None without discovery (before the first scan, or an
    invalid configuration). Kept per workspace while it is computed from the same state: the same ``Discovered``
    (a new one after every edit discovery sees), the same configuration and the same open buffers (the model reads
    settings, manifests and hooks documents through them; equal texts are usually the very same objects)."""
    found = view.discovered
    if found is None:
        return None
    state = server.session.settings.trust_workspace if trusted is None else trusted
    workspace = server.session.workspaces.get(view.directory)
    cache = workspace.models if workspace is not None else {}
    buffers = dict(view.overlay)
    cached = cache.get(("effective", state))
    if cached is not None:
        (was_found, config, was_buffers), model = cached
        if was_found is found and config == view.config and was_buffers == buffers and isinstance(model, Effective):
            return model
    model = effective_of(view, trusted=state)
    cache[("effective", state)] = ((found, view.config, buffers), model)
    return model


def _param(params: Any, name: str) -> object:
    if isinstance(params, dict):
        return params.get(name)
    return getattr(params, name, None)


async def _views(server: ClarvisServer, params: Any) -> list[WorkspaceView]:
    """The workspaces asked about, once their first scans ended: ``uri``'s, else every one of the folders."""
    server.flush()  # answer for the latest buffers
    uri = _param(params, "uri")
    engines: list[WorkspaceEngine]
    if isinstance(uri, str) and (path := uri_to_path(uri)) is not None:
        engines = [server.session.engine_for(path if not path.is_dir() else path / ".clarvis")]
    else:
        engines = server.session.folder_engines()
    return await server.session.scanned_views(engines)


def _trusted(params: Any) -> bool | None:
    value = _param(params, "trusted")
    return value if isinstance(value, bool) else None


async def effective_configuration(server: ClarvisServer, params: Any) -> dict[str, Any]:
    workspaces = []
    for view in await _views(server, params):
        model = model_for(server, view, _trusted(params))
        if model is not None:  # an invalid configuration is reported on the configuration file already
            workspaces.append(to_json(model))
    return {"workspaces": workspaces}


async def why_request(server: ClarvisServer, params: Any) -> dict[str, Any]:
    name = _param(params, "name")
    if not isinstance(name, str) or not name.strip():
        return {"name": name, "workspaces": []}
    workspaces = []
    for view in await _views(server, params):
        model = model_for(server, view, _trusted(params))
        if model is None:
            continue
        workspaces.append(
            {"workspace": str(model.workspace), "trusted": model.trusted, "answers": answers_json(why(model, name))}
        )
    return {"name": name, "workspaces": workspaces}


async def inlay_hint(server: ClarvisServer, params: types.InlayHintParams) -> list[types.InlayHint] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind not in _HINTED:
        return None
    snapshot = await server.session.scanned_snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind not in _HINTED or snapshot.view.discovered is None:
        return None
    model = None if snapshot.kind is FileKind.SKILL else model_for(server, snapshot.view)
    registry = snapshot.view.discovered.registry
    folder = server.session.folder_for(snapshot.path)
    show = display_paths(folder, server.session.home)
    wanted = params.range
    hints: list[types.InlayHint] = []
    for hint in inlay_hints(model, registry, snapshot.kind, snapshot.path, snapshot.text, show):
        position = to_client_position(hint.position, snapshot.lines, server.encoding)
        if not (wanted.start.line <= position.line <= wanted.end.line):
            continue
        hints.append(
            types.InlayHint(
                position=position,
                label=hint.label,
                padding_left=True,
                tooltip=hint.tooltip or None,
            )
        )
    return hints


def trust_lenses(server: ClarvisServer, view: WorkspaceView, path: Path) -> list[types.CodeLens]:
    """The trust preview on the workspace settings.json (title only: it shows, it does not act)."""
    if path.name != "settings.json" or os.path.normpath(path.parent.parent) != os.path.normpath(view.directory):
        return []
    model = model_for(server, view)
    title = trust_lens(model, path) if model is not None else None
    if title is None:
        return []
    start = types.Position(line=0, character=0)
    return [types.CodeLens(range=types.Range(start=start, end=start), command=types.Command(title, ""))]


def hover_markdown(
    server: ClarvisServer, view: WorkspaceView, kind: FileKind, path: Path, text: str, position: Position
) -> tuple[str, Any] | None:
    """The state and run position of the hook or server under the cursor, with its engine range."""
    if kind not in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS):
        return None
    model = model_for(server, view)
    note = hover_note(model, kind, path, text, position) if model is not None else None
    return (note.markdown, note.range) if note is not None else None


__all__ = [
    "EFFECTIVE_CONFIGURATION",
    "WHY",
    "effective_configuration",
    "hover_markdown",
    "inlay_hint",
    "trust_lenses",
    "why_request",
]
