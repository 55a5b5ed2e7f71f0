"""The ``clarvis/effectiveSkills`` request: which copy of each skill wins, for an editor's tree view.

The answer is ``clarvis_lsp.listing.discovered_skills`` over the same registry the diagnostics use, the very view
``clarvis-lsp --list`` prints, so the editor and the command line never disagree. Params ``{}`` answer for every
workspace in the workspace folders (nested ones included); ``{"uri": …}`` for the workspace of that file.

When discovery's answer may have changed (a skill renamed, created or deleted, settings or plugins edited), the
server sends the notification ``clarvis/effectiveSkillsChanged`` so a client can ask again.
"""

from __future__ import annotations

from typing import Any

from clarvis_lsp.listing import SkillCopy, WorkspaceSkills, discovered_skills
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.session import uri_to_path


async def effective_skills_request(server: ClarvisServer, params: Any) -> dict[str, Any]:
    server.flush()  # answer for the latest buffers
    uri = _param(params, "uri")
    if isinstance(uri, str) and (path := uri_to_path(uri)) is not None:
        engines = [server.session.engine_for(path)]
    else:
        engines = server.session.folder_engines()
    workspaces: list[dict[str, Any]] = []
    for view in await server.session.scanned_views(engines):
        if view.discovered is None:
            continue  # an invalid configuration is reported on the configuration file already
        found = discovered_skills(view.directory, view.discovered, view.overlay)
        workspaces.append(_workspace_json(found))
    return {"workspaces": workspaces}


def _param(params: Any, name: str) -> object:
    """A field of the request's params, whether pygls gave a mapping or an attribute object."""
    if isinstance(params, dict):
        return params.get(name)
    return getattr(params, name, None)


def _workspace_json(workspace: WorkspaceSkills) -> dict[str, Any]:
    return {
        "directory": str(workspace.directory),
        "uri": workspace.directory.as_uri(),
        "roots": [
            {"index": index, "path": root.path, "scope": root.scope, "source": root.source}
            for index, root in enumerate(workspace.roots)
        ],
        "skills": [
            {
                "name": skill.name,
                "winner": _copy_json(skill.winner),
                "shadowed": [_copy_json(copy) for copy in skill.shadowed],
                "skipped": [{**_copy_json(item.copy), "keptPath": str(item.kept)} for item in skill.skipped],
                "validName": skill.valid_name,
            }
            for skill in workspace.skills
        ],
        "unloaded": [
            {
                "path": str(item.path),
                "uri": item.path.as_uri(),
                "scope": item.scope,
                "source": item.source,
                "reason": item.reason,
            }
            for item in workspace.unloaded
        ],
    }


def _copy_json(copy: SkillCopy) -> dict[str, Any]:
    return {
        "name": copy.name,
        "path": str(copy.path),
        "uri": copy.path.as_uri(),
        "scope": copy.scope,
        "source": copy.source,
        "rootIndex": copy.root_index,
        "rootPath": copy.root_path,
    }
