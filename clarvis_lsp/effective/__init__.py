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
    from clarvis_lsp.workspace.engine import WorkspaceEngine

__all__ = ["Effective", "Inputs", "compute", "effective_of", "inputs_of"]


def inputs_of(engine: WorkspaceEngine, platform: str | None = None) -> Inputs:
    """The model's inputs from an engine's discovery; its ``read_text`` sees the open buffers (the overlay).
    ``platform``: whose capability-executable overrides apply (default: this machine's)."""
    found = engine.discovered
    return Inputs(
        workspace=engine.directory,
        home=engine.home,
        include_user=engine.config.include_user,
        plugins=found.plugins,
        hidden_plugins=found.hidden_plugins,
        agents=found.agents,
        registry=found.registry,
        read_text=engine.read_text,
        overlay=engine.overlay,
        extra_settings_fields=tuple(engine.config.settings.extra_fields),
        platform=platform or sys.platform,
    )


def effective_of(engine: WorkspaceEngine, *, trusted: bool, platform: str | None = None) -> Effective:
    """The effective configuration of the engine's workspace, in the state the user asked for."""
    return compute(inputs_of(engine, platform), trusted)
