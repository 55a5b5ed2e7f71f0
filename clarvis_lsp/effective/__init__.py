"""The effective configuration (SPEC §2.1): what Clarvis will load and run in a workspace, and why.

``model`` computes it (protocol-free, frozen dataclasses), ``why`` answers "why is this not active?", ``render``
prints it for the terminal and turns it into the JSON object both ``--effective --format json`` and the server's
``clarvis/effectiveConfiguration`` return. Nothing on the ``--check`` path imports this package.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from clarvis_lsp.effective.model import Effective, Inputs, compute

if TYPE_CHECKING:
    from clarvis_lsp.workspace.view import WorkspaceRead

__all__ = ["Effective", "Inputs", "compute", "effective_of", "inputs_of"]


def inputs_of(workspace: WorkspaceRead, platform: str | None = None) -> Inputs:
    """The model's inputs from a workspace's discovery (an engine's, or a view's of one moment); its ``read_text``
    sees the open buffers (the overlay). ``platform``: whose capability-executable overrides apply (default: this
    machine's). Raises ``ValueError`` for a view taken before discovery: the caller asks only once it has one."""
    found = workspace.discovered
    if found is None:
        raise ValueError(f"no discovery of {workspace.directory} yet: the effective configuration needs one")
    return Inputs(
        workspace=workspace.directory,
        home=workspace.home,
        include_user=workspace.config.include_user,
        plugins=found.plugins,
        hidden_plugins=found.hidden_plugins,
        agents=found.agents,
        registry=found.registry,
        read_text=workspace.read_text,
        overlay=workspace.overlay,
        extra_settings_fields=tuple(workspace.config.settings.extra_fields),
        platform=platform or sys.platform,
    )


def effective_of(workspace: WorkspaceRead, *, trusted: bool, platform: str | None = None) -> Effective:
    """The effective configuration of the workspace, in the state the user asked for."""
    return compute(inputs_of(workspace, platform), trusted)
