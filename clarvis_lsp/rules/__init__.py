"""Rule families, one module each. ``load_all`` imports them so every rule is declared in the catalogue."""

from __future__ import annotations

import importlib

FAMILY_MODULES: tuple[str, ...] = (
    "clarvis_lsp.rules.file",
    "clarvis_lsp.rules.skill",
    "clarvis_lsp.rules.discovery",
    "clarvis_lsp.rules.project_config",
    "clarvis_lsp.rules.json",
    "clarvis_lsp.rules.settings",
    "clarvis_lsp.rules.hooks",
    "clarvis_lsp.rules.hook_run_limit",
    "clarvis_lsp.rules.mcp",
    "clarvis_lsp.rules.plugin",
    "clarvis_lsp.rules.marketplace",
    "clarvis_lsp.rules.agent",
    "clarvis_lsp.rules.activation",
    "clarvis_lsp.rules.internal",
)


def load_all() -> None:
    for module in FAMILY_MODULES:
        importlib.import_module(module)
