"""LSP features, one module each; every module exposes ``register(server)`` and registers its methods once."""

from __future__ import annotations

from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.features import actions, completion, diagnostics, hover, navigation, skills, workspace

FEATURES = (diagnostics, workspace, actions, navigation, completion, hover, skills)


def register_all(server: ClarvisServer) -> None:
    for feature in FEATURES:
        feature.register(server)
