"""Start-up: ``initialize`` reads the workspace folders, the client's settings and whether it pulls diagnostics;
``initialized`` registers the file watchers and pulls the ``clarvis`` configuration section, starts the first
scan's helper processes when a folder's skill roots are large (``Session.start_scan_helpers``), and starts
importing the other handlers' modules in the background (``methods.import_handlers``): the client has its answer
to ``initialize`` by then, and the first document it opens finds the engine loaded and the helpers ready.

A client that refuses the registration or the configuration request still gets every other feature.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.features.configuration import pull_configuration
from clarvis_lsp.server.features.watching import WATCHED_GLOBS
from clarvis_lsp.server.methods import import_handlers
from clarvis_lsp.server.session import uri_to_path


def initialize(server: ClarvisServer, params: types.InitializeParams) -> None:
    folders = [uri_to_path(folder.uri) for folder in params.workspace_folders or []]
    if not folders and params.root_uri:
        folders = [uri_to_path(params.root_uri)]
    server.session.folders = [folder for folder in folders if folder is not None]
    options = params.initialization_options
    if isinstance(options, dict):
        server.session.set_editor_settings(options.get("clarvis", options), layer="init")
    text_document = params.capabilities.text_document
    server.pull_diagnostics = bool(text_document and text_document.diagnostic)


async def initialized(server: ClarvisServer, params: types.InitializedParams) -> None:
    server.session.start_scan_helpers()
    import_handlers()
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
        await pull_configuration(server)
