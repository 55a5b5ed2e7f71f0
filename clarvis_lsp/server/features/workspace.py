"""Workspace-level features: file watching, configuration, workspace folders and workspace diagnostics.

Watchers are registered dynamically for the recognised files, agent files and skill directories; a file event
updates discovery incrementally (one skill directory for a SKILL.md, a full rescan only when settings, plugins,
agents or configuration change). Configuration comes from ``initializationOptions`` and the ``clarvis`` section
of ``workspace/configuration``; a change re-checks every open document.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from clarvis_lsp.discovery import find_workspaces
from clarvis_lsp.model import Diagnostic
from clarvis_lsp.server.app import ClarvisServer, uri_to_path
from clarvis_lsp.server.convert import to_lsp_diagnostic

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


def register(server: ClarvisServer) -> None:
    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        try:
            await _register_and_configure(server)
        except Exception as error:  # a client that refuses registration still gets every other feature
            server.window_log_message(
                types.LogMessageParams(type=types.MessageType.Warning, message=f"clarvis-lsp: setup: {error}")
            )

    async def _register_and_configure(server: ClarvisServer) -> None:
        capabilities = server.client_capabilities.workspace
        watch = capabilities.did_change_watched_files if capabilities else None
        if watch is not None and watch.dynamic_registration:
            await server.client_register_capability_async(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="clarvis-watched-files",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED_GLOBS]
                            ),
                        )
                    ]
                )
            )
        if capabilities is not None and capabilities.configuration:
            await _pull_configuration(server)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @server.guarded
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        paths = [path for path in (uri_to_path(change.uri) for change in params.changes) if path is not None]
        if any(path.name in CONFIG_FILES for path in paths):
            server.reset_engines()
            recheck_open_documents(server)
            return
        for path in paths:
            if path not in server.overlay:  # an open buffer wins over the disk until it is closed
                server.refresh(path)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get("clarvis"), dict):
            server.set_editor_settings(settings["clarvis"])
        else:
            capabilities = server.client_capabilities.workspace
            if capabilities is not None and capabilities.configuration:
                await _pull_configuration(server, recheck=False)
        server.reset_engines()
        recheck_open_documents(server)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @server.guarded
    def did_change_workspace_folders(params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {uri_to_path(folder.uri) for folder in params.event.removed}
        added = [uri_to_path(folder.uri) for folder in params.event.added]
        server.folders = [folder for folder in server.folders if folder not in removed]
        server.folders += [folder for folder in added if folder is not None]
        server.reset_engines()
        recheck_open_documents(server)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    @server.guarded
    def workspace_diagnostic(params: types.WorkspaceDiagnosticParams) -> types.WorkspaceDiagnosticReport:
        items: list[types.WorkspaceDocumentDiagnosticReport] = []
        for path, found in workspace_findings(server).items():
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=path.as_uri(),
                    version=None,
                    items=[to_lsp_diagnostic(item, server.lines_of, server.encoding) for item in found],
                )
            )
        return types.WorkspaceDiagnosticReport(items=items)


async def _pull_configuration(server: ClarvisServer, *, recheck: bool = True) -> None:
    result = await server.workspace_configuration_async(
        types.ConfigurationParams(items=[types.ConfigurationItem(section="clarvis")])
    )
    if result and isinstance(result[0], dict):
        server.set_editor_settings({**server.editor_settings, **result[0]})
        server.reset_engines()
        if recheck:
            recheck_open_documents(server)


def recheck_open_documents(server: ClarvisServer) -> None:
    for path in list(server.overlay) + [path for path in list(server.published) if path not in server.overlay]:
        server.refresh(path)


def workspace_findings(server: ClarvisServer) -> dict[Path, list[Diagnostic]]:
    """Every recognised file of every workspace in every folder, with its findings (pull clients' Problems)."""
    found: dict[Path, list[Diagnostic]] = {}
    for folder in server.folders:
        for directory in find_workspaces(folder, home=server.home):
            engine = server.engine_for(directory / ".clarvis")
            files = [path for path in engine.files() if path not in found]
            found.update(server.findings_for(engine, files))
    return found
