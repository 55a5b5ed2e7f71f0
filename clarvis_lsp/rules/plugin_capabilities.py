"""The capability rules of ``plugin.json``: ``capabilityExecutables`` (the services a plugin provides, per
platform) and ``capabilityRunPolicies`` (how Plans runs the plugin's skills).

The shapes of the executables come from the schema (``clarvis_lsp.rules.structure``); these rules say what it
cannot: a ``command`` written without a value, a platform that is no Node.js platform, a run policy that is
none, each with the name that was meant.
"""

from __future__ import annotations

from clarvis_lsp.documents.jsondoc import JsonDocument, JsonMember, JsonObject
from clarvis_lsp.findings import Fix, Severity
from clarvis_lsp.knowledge import plugin as facts
from clarvis_lsp.rules.base import Findings, closest, one_of
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.json_values import kind_phrase
from clarvis_lsp.rules.jsonedit import json_string, rename_key, replace_value
from clarvis_lsp.rules.plugin_manifest import counted_members

TIMEOUT_DEFAULT = facts.EXECUTABLE_TIMEOUT_DEFAULT


POLICIES = one_of(facts.RUN_POLICIES, quote='"')  # the run policies as the messages list them


# Names people write for a Node.js platform, and the platform they mean.
PLATFORM_ALIASES = {
    "windows": "win32",
    "win": "win32",
    "win64": "win32",
    "macos": "darwin",
    "mac": "darwin",
    "osx": "darwin",
    "macosx": "darwin",
}

INVALID_EXECUTABLE = rule(
    "plugin/invalid-executable",
    Severity.ERROR,
    "A capability executable has no `command`, or a malformed "
    f"{one_of(tuple(field for field in facts.EXECUTABLE_FIELDS if field != 'command'))}.",
    why="Clarvis starts the capability service from this declaration; without a command, or with fields of "
    "the wrong shape, the service cannot start once the plugin is selected as the capability's provider.",
    example='{\n  "name": "quality",\n  "capabilityExecutables": {\n    "memory": { "args": "serve" }\n  }\n}',
    fix="Give each executable a `command` string; `args` is a list of strings, `env` a map of strings, "
    "`timeout_ms` a positive integer, `platforms` a map from `win32`/`darwin`/`linux` to overrides.",
    file_kind="plugin",
)


INVALID_RUN_POLICY = rule(
    "plugin/invalid-run-policy",
    Severity.ERROR,
    f"A `capabilityRunPolicies` value other than {one_of(facts.RUN_POLICIES)}.",
    why="Plans reads the policy of each skill of the plugin; any other value is not a policy.",
    example='{\n  "name": "quality",\n  "capabilityRunPolicies": { "release-plan": "reveiw" }\n}',
    fix=f"Use {POLICIES}.",
    file_kind="plugin",
)


def check_executables(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    """What the schema cannot say about the executables: a ``command`` written without a value, and platforms
    that are no Node.js platform (with the name that was meant)."""
    node = root.value_of("capabilityExecutables")
    if not isinstance(node, JsonObject):
        return  # absent, or the schema's type error
    for member in counted_members(node):
        executable = member.value
        if not isinstance(executable, JsonObject):
            continue  # a missing value (json/syntax) or the schema's type error
        capability = member.key
        command = executable.get("command")
        if command is not None and command.value is None:
            findings.add(
                INVALID_EXECUTABLE.code,
                document.key_range(command),
                f'The executable of capability "{capability}" has no "command": add the program that starts the '
                "capability service.",
            )
        platforms = executable.value_of("platforms")
        if isinstance(platforms, JsonObject):
            for platform in counted_members(platforms):
                _check_platform(document, platform, capability, findings)


def _check_platform(document: JsonDocument, platform: JsonMember, capability: str, findings: Findings) -> None:
    if platform.key in facts.PLATFORMS:
        return
    suggestion = PLATFORM_ALIASES.get(platform.key.lower()) or closest(platform.key, facts.PLATFORMS)
    fixes = []
    if suggestion is not None and platform.parent.get(suggestion) is None:
        fixes.append(
            Fix(
                f'Rename "{platform.key}" to "{suggestion}"',
                (rename_key(document, platform, suggestion, findings.path),),
            )
        )
    hint = f' Did you mean "{suggestion}"?' if suggestion else " Use a Node.js platform: win32, darwin, linux, …"
    findings.add(
        INVALID_EXECUTABLE.code,
        document.key_range(platform),
        f'Unknown platform "{platform.key}" for capability "{capability}": this override never applies.{hint}',
        severity=Severity.WARNING,
        fixes=fixes,
    )


def check_run_policies(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    node = root.value_of("capabilityRunPolicies")
    if not isinstance(node, JsonObject):
        return  # absent, or the schema's type error
    for member in counted_members(node):
        value = member.value
        if value is None:
            continue
        if value.kind == "string" and value.value in facts.RUN_POLICIES:
            continue
        suggestion: str | None = None
        if value.kind == "string" and isinstance(value.value, str):
            suggestion = closest(value.value, facts.RUN_POLICIES)
            shown = json_string(value.value)
        else:
            if value.kind == "boolean":
                suggestion = "on" if value.value else "off"
            shown = document.text[value.start : value.end] if value.kind != "invalid" else kind_phrase(value)
        fixes = []
        message = f'Run policy {shown} of "{member.key}" is not a policy: use {POLICIES}.'
        if suggestion is not None:
            message += f' Did you mean "{suggestion}"?'
            fixes.append(
                Fix(
                    f'Change the run policy to "{suggestion}"',
                    (replace_value(document, value, json_string(suggestion), findings.path),),
                )
            )
        findings.add(INVALID_RUN_POLICY.code, document.node_range(value), message, fixes=fixes)
