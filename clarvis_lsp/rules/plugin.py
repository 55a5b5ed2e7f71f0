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
from clarvis_lsp.rules.activation import PLUGIN_SHADOWED, check_plugin_shadowed
from clarvis_lsp.rules.base import Findings, RuleStep
from clarvis_lsp.rules.catalogue import family_codes, module_codes
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.jsonedit import json_string
from clarvis_lsp.rules.mcp import check_mcp_servers
from clarvis_lsp.rules.plugin_bootstrap import UNKNOWN_BOOTSTRAP_SKILL, check_bootstrap_skill
from clarvis_lsp.rules.plugin_capabilities import (
    INVALID_EXECUTABLE,
    INVALID_RUN_POLICY,
    POLICIES,
    TIMEOUT_DEFAULT,
    check_executables,
    check_run_policies,
)
from clarvis_lsp.rules.plugin_manifest import (
    INVALID_NAME,
    INVALID_VALUE,
    MISSING_NAME,
    NAME_DIRECTORY_MISMATCH,
    UNKNOWN_FIELD,
    check_author,
    check_name,
    check_version,
    directory_name,
    name_advice,
)
from clarvis_lsp.rules.plugin_paths import HOOKS_JSON_IGNORED, MISSING_PATH, PATH_ESCAPES, check_hooks
from clarvis_lsp.rules.structure import check_structure


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


def _root(document: JsonDocument) -> JsonObject | None:
    """The manifest's object; None when empty (json/syntax) or not an object (the schema's type error)."""
    root = document.root
    return root if isinstance(root, JsonObject) else None


def _check_structure(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """The structural errors from ``plugin.schema.json``'s annotations."""
    check_structure(document, "plugin", findings, functools.partial(_variables, context))


def _check_name(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if (root := _root(document)) is not None:
        check_name(document, root, context, findings)


def _check_version(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if (root := _root(document)) is not None:
        check_version(document, root, findings)


def _check_author(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if (root := _root(document)) is not None:
        check_author(document, root, findings)


def _check_mcp_servers(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    root = _root(document)
    node = root.value_of("mcpServers") if root is not None else None
    if isinstance(node, JsonObject):  # another value is the schema's type error
        check_mcp_servers(document, node, findings)


def _check_hooks(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if (root := _root(document)) is not None:
        check_hooks(document, root, context.path.parent, context, findings)


def _check_bootstrap_skill(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if (root := _root(document)) is not None:
        check_bootstrap_skill(document, root, context.path.parent, context, findings)


def _check_executables(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if (root := _root(document)) is not None:
        check_executables(document, root, findings)


def _check_run_policies(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if (root := _root(document)) is not None:
        check_run_policies(document, root, findings)


def _check_shadowed(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    if _root(document) is not None:
        check_plugin_shadowed(document, context, findings)


RULE_STEPS: tuple[RuleStep[JsonDocument, JsonFileContext], ...] = (
    RuleStep(
        "plugin/structure",
        (MISSING_NAME.code, INVALID_NAME.code, INVALID_VALUE.code, UNKNOWN_FIELD.code, INVALID_EXECUTABLE.code),
        _check_structure,
    ),
    RuleStep("plugin/name", (MISSING_NAME.code, INVALID_NAME.code, NAME_DIRECTORY_MISMATCH.code), _check_name),
    RuleStep("plugin/version", (INVALID_VALUE.code,), _check_version),
    RuleStep("plugin/author", (INVALID_VALUE.code, UNKNOWN_FIELD.code), _check_author),
    RuleStep("plugin/mcp-servers", module_codes("clarvis_lsp.rules.mcp"), _check_mcp_servers),
    RuleStep(
        "plugin/hooks",
        (*family_codes("hooks"), INVALID_VALUE.code, MISSING_PATH.code, PATH_ESCAPES.code, HOOKS_JSON_IGNORED.code),
        _check_hooks,
    ),
    RuleStep("plugin/bootstrap-skill", (UNKNOWN_BOOTSTRAP_SKILL.code,), _check_bootstrap_skill),
    RuleStep("plugin/capability-executables", (INVALID_EXECUTABLE.code,), _check_executables),
    RuleStep("plugin/capability-run-policies", (INVALID_RUN_POLICY.code,), _check_run_policies),
    RuleStep("plugin/shadowed", (PLUGIN_SHADOWED.code,), _check_shadowed),
)
"""The rules of a plugin.json, in order, each run on its own by the rule runner (and the hook and MCP rules on its
inline ``hooks`` and ``mcpServers``)."""
