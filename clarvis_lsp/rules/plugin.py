"""The ``plugin/*`` rules of one ``plugin.json`` manifest (SPEC §3.5), in the order they run.

The structural errors come from the schema's annotations (``schemas/plugin.schema.json``, through
``clarvis_lsp.rules.structure``); then each concern has its module: the manifest's own fields
(``plugin_manifest``), the paths it names (``plugin_paths``), its bootstrap skill (``plugin_bootstrap``) and its
capabilities (``plugin_capabilities``). The inline ``hooks`` and ``mcpServers`` are handed to the ``hooks/*`` and
``mcp/*`` families. The fields, run policies and platforms come from ``clarvis_lsp.knowledge.plugin``.
"""

from __future__ import annotations

import functools

from clarvis_lsp.documents.jsondoc import JsonDocument, JsonNode, JsonObject
from clarvis_lsp.knowledge import plugin as facts
from clarvis_lsp.rules.activation import check_plugin_shadowed
from clarvis_lsp.rules.base import Findings, run_each
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.jsonedit import json_string
from clarvis_lsp.rules.mcp import check_mcp_servers
from clarvis_lsp.rules.plugin_bootstrap import check_bootstrap_skill
from clarvis_lsp.rules.plugin_capabilities import POLICIES, TIMEOUT_DEFAULT, check_executables, check_run_policies
from clarvis_lsp.rules.plugin_manifest import check_author, check_name, check_version, directory_name, name_advice
from clarvis_lsp.rules.plugin_paths import check_hooks
from clarvis_lsp.rules.structure import check_structure


def check_plugin(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """Run every ``plugin/*`` rule on one plugin.json (and the hooks/MCP rules on its inline values)."""
    check_structure(document, "plugin", findings, functools.partial(_variables, context))
    root = document.root
    if not isinstance(root, JsonObject):
        return  # empty (json/syntax) or not an object (the schema's type error)
    plugin_dir = context.path.parent
    run_each(
        findings,
        (
            ("plugin name", lambda own: check_name(document, root, context, own)),
            ("plugin version", lambda own: check_version(document, root, own)),
            ("plugin author", lambda own: check_author(document, root, own)),
            ("plugin mcpServers", lambda own: _check_mcp_servers(document, root, own)),
            ("plugin hooks", lambda own: check_hooks(document, root, plugin_dir, context, own)),
            ("plugin bootstrapSkill", lambda own: check_bootstrap_skill(document, root, plugin_dir, context, own)),
            ("plugin capabilityExecutables", lambda own: check_executables(document, root, own)),
            ("plugin capabilityRunPolicies", lambda own: check_run_policies(document, root, own)),
            ("plugin/shadowed", lambda own: check_plugin_shadowed(document, context, own)),
        ),
    )


def _variables(context: JsonFileContext, node: JsonNode) -> dict[str, str]:
    """The message variables of the schema's annotations (``schemas/plugin.schema.json``) for ``node``."""
    directory = directory_name(context)
    valid = bool(facts.NAME_PATTERN.match(directory))
    values = {
        "directory": directory,
        "example_name": json_string(directory if valid else "my-plugin"),
        "add_name": name_advice(directory),
        "policies": POLICIES,
        "timeout_default": str(TIMEOUT_DEFAULT),
    }
    # Inside capabilityExecutables: the capability, and the platform of an override.
    path: list[JsonNode] = []
    current: JsonNode | None = node
    while current is not None:
        path.append(current)
        current = current.parent
    path.reverse()  # root, capabilityExecutables, executable, platforms, override, ...
    if len(path) >= 3 and path[1].member is not None and path[1].member.key == "capabilityExecutables":
        executable = path[2].member
        if executable is not None:
            values["capability"] = executable.key
        if len(path) >= 5 and path[3].member is not None and path[3].member.key == "platforms":
            override = path[4].member
            if override is not None:
                values["platform"] = override.key
    return values


def _check_mcp_servers(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    node = root.value_of("mcpServers")
    if isinstance(node, JsonObject):  # another value is the schema's type error
        check_mcp_servers(document, node, findings)
