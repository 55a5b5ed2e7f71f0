"""File watching and workspace folders.

Watchers are registered dynamically (``lifecycle.initialized``) for the recognised files, agent files and skill
directories; a file event updates discovery incrementally (one skill directory for a SKILL.md, a full rescan only
when settings, plugins, agents or configuration change). A folder added or removed re-checks the open documents.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.features.configuration import recheck_open_documents
from clarvis_lsp.server.session import uri_to_path

WATCHED_GLOBS = (
    "**/SKILL.md",
    "**/skills/*",
    "**/.clarvis/settings.json",
    "**/plugin.json",
    "**/hooks/hooks.json",
    "**/marketplace.json",
    "**/agents/*.md",
    "**/.clarvis-lsp.toml",
    "**/pyproject.toml",
)
CONFIG_FILES = frozenset({".clarvis-lsp.toml", "pyproject.toml"})


def did_change_watched_files(server: ClarvisServer, params: types.DidChangeWatchedFilesParams) -> None:
    paths = [path for path in (uri_to_path(change.uri) for change in params.changes) if path is not None]
    if any(change.type != types.FileChangeType.Changed for change in params.changes):
        server.session.forget_nearest()  # a created or deleted file may make or unmake a nearer workspace
    if any(path.name in CONFIG_FILES for path in paths):
        server.reset_engines()
        recheck_open_documents(server)
        return
    for path in paths:
        server.session.resume_scan(path)  # a change on disk resumes a first scan the user cancelled
        if path not in server.session.buffers:  # an open buffer wins over the disk until it is closed
            server.refresh(path)


def did_change_workspace_folders(server: ClarvisServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    removed = {path for folder in params.event.removed if (path := uri_to_path(folder.uri)) is not None}
    added = [path for folder in params.event.added if (path := uri_to_path(folder.uri)) is not None]
    from clarvis_lsp.workspace.live import within  # the engine's room: imported when folders first change

    # Files of a removed folder that are not open any more: their findings are withdrawn, not re-checked.
    for workspace in list(server.session.workspaces.values()):
        for path in list(workspace.published):
            if within(path, removed) and path not in server.session.buffers:
                server.publish(workspace, path, [])
    server.session.change_folders(added, removed)
    server.reset_engines()
    recheck_open_documents(server)
