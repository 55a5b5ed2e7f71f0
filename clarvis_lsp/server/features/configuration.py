"""Configuration from the editor: ``initializationOptions``, the ``clarvis`` section of ``workspace/configuration``
and ``workspace/didChangeConfiguration``; a change re-checks every open document."""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.server.app import ClarvisServer


async def did_change_configuration(server: ClarvisServer, params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict) and isinstance(settings.get("clarvis"), dict):
        server.session.set_editor_settings(settings["clarvis"])
    else:
        capabilities = server.client_capabilities.workspace
        if capabilities is not None and capabilities.configuration:
            await pull_configuration(server, recheck=False)
    server.reset_engines()
    recheck_open_documents(server)


async def pull_configuration(server: ClarvisServer, *, recheck: bool = True) -> None:
    result = await server.workspace_configuration_async(
        types.ConfigurationParams(items=[types.ConfigurationItem(section="clarvis")])
    )
    server.session.set_editor_settings(result[0] if result else None)  # replaces the previous answer, never merges
    server.reset_engines()
    if recheck:
        recheck_open_documents(server)


def recheck_open_documents(server: ClarvisServer) -> None:
    """Re-check every open or published file (after the configuration or the folders changed), then ask a pull
    client to pull again."""
    buffers = server.session.buffers
    published = [path for workspace in list(server.session.workspaces.values()) for path in workspace.published]
    for path in list(buffers) + [path for path in published if path not in buffers]:
        server.refresh(path)
    server.request_pull_refresh(force=True)
    server.request_editor_refresh()
