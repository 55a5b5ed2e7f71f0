"""The ``plugin/*`` rules: one ``plugin.json`` manifest (SPEC §3.5).

plugin.json is tolerant: Clarvis reports unknown fields and never acts on them, so every field is checked on
its own and one broken field never hides another finding. The manifest's inline ``hooks`` and ``mcpServers``
are handed to the ``hooks/*`` and ``mcp/*`` families. Paths the manifest names are resolved against the plugin
directory; one that leaves it (``../x``, an absolute path, a URL, a symlink pointing outside) is reported and
never read (SPEC §9). The fields, run policies and platforms come from ``clarvis_lsp.knowledge.plugin``.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from clarvis_lsp.discovery import SkillRoot, scan_root
from clarvis_lsp.discovery.fs import is_regular_file, is_symlink
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonMember, JsonNode, JsonObject
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge import plugin as facts
from clarvis_lsp.model import Fix, Range, Related, Severity
from clarvis_lsp.rules.base import Findings, closest, one_of
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.hooks import check_hooks_value
from clarvis_lsp.rules.jsonedit import json_string, rename_key, replace_value
from clarvis_lsp.rules.jsonshape import kind_phrase, opening
from clarvis_lsp.rules.mcp import check_mcp_servers
from clarvis_lsp.rules.structure import check_structure

_TIMEOUT_DEFAULT = facts.EXECUTABLE_TIMEOUT_DEFAULT
_POLICIES = one_of(facts.RUN_POLICIES, quote='"')  # the run policies as the messages list them

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

MISSING_NAME = rule(
    "plugin/missing-name",
    Severity.ERROR,
    "plugin.json has no `name`.",
    why="`name` is the only required field: it is the plugin's identity and the namespace of its servers, "
    "agents and tools. Clarvis cannot load a plugin without it.",
    example='{\n  "description": "Code quality helpers"\n}',
    fix="Add `name` with the plugin directory's name.",
    file_kind="plugin",
)
INVALID_NAME = rule(
    "plugin/invalid-name",
    Severity.ERROR,
    "`name` is not a lowercase identifier.",
    why="The name becomes a namespace (`<plugin>:<server>`, `<plugin>:<agent>`) and the entry of "
    "`enabledPlugins`; only lowercase letters, digits, `.`, `_` and `-` are accepted.",
    example='{\n  "name": "Quality Tools"\n}',
    fix="Use lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit (e.g. `quality-tools`).",
    file_kind="plugin",
)
NAME_DIRECTORY_MISMATCH = rule(
    "plugin/name-directory-mismatch",
    Severity.ERROR,
    "`name` differs from the plugin directory's name (a warning outside a `plugins/` directory).",
    why="Clarvis requires a plugin's name to equal its directory's name; `enabledPlugins` lists the directory "
    "name, so a different name means the plugin is not the one you enable.",
    example='.clarvis/plugins/quality/plugin.json:\n{\n  "name": "qa"\n}',
    fix="Set `name` to the directory name, or rename the directory.",
    file_kind="plugin",
)
UNKNOWN_FIELD = rule(
    "plugin/unknown-field",
    Severity.WARNING,
    "A field that plugin.json does not define (at the top level or in a capability executable).",
    why="plugin.json is tolerant: Clarvis reports unknown fields and never acts on them, so a misspelled "
    "`bootstrapskill` silently does nothing.",
    example='{\n  "name": "quality",\n  "bootstrapskill": "review"\n}',
    fix="Correct the spelling (the message suggests the closest known field) or remove the field.",
    file_kind="plugin",
)
INVALID_VALUE = rule(
    "plugin/invalid-value",
    Severity.ERROR,
    "A known field has the wrong type (`version` that is not a semantic version is a warning).",
    why="Clarvis expects each field's type; a wrong one is ignored or makes the manifest unusable.",
    example='{\n  "name": "quality",\n  "author": 3,\n  "description": "",\n  "version": "1.0"\n}',
    fix='Use the documented type: `description` a non-empty string, `author` a string or `{"name": ...}`, '
    '`version` a semantic version such as "1.0.0".',
    file_kind="plugin",
)
MISSING_PATH = rule(
    "plugin/missing-path",
    Severity.ERROR,
    "A relative path of the manifest (`hooks`) points to no file.",
    why="Clarvis reads the plugin's hooks from that file; when it does not exist the plugin contributes no hooks.",
    example='{\n  "name": "quality",\n  "hooks": "hooks/extra.json"\n}   (with no hooks/extra.json)',
    fix="Create the file or correct the path (relative to the plugin directory).",
    file_kind="plugin",
)
PATH_ESCAPES = rule(
    "plugin/path-escapes",
    Severity.ERROR,
    "A path of the manifest leaves the plugin directory (`../x`, an absolute path).",
    why="A plugin is installed and approved as one directory; a path outside it points at files that are not "
    "part of the plugin (and clarvis-lsp does not read them).",
    example='{\n  "name": "quality",\n  "hooks": "../shared/hooks.json"\n}',
    fix="Move the file into the plugin directory and use a relative path such as `hooks/hooks.json`.",
    file_kind="plugin",
)
UNKNOWN_BOOTSTRAP_SKILL = rule(
    "plugin/unknown-bootstrap-skill",
    Severity.ERROR,
    "`bootstrapSkill` names no skill in the plugin's `skills/` directory.",
    why="Clarvis injects the bootstrap skill before the answer; a name that matches no skill of the plugin "
    "injects nothing.",
    example='{\n  "name": "quality",\n  "bootstrapSkill": "lint-fixx"\n}',
    fix="Use the frontmatter `name` of a skill in `<plugin>/skills/<dir>/SKILL.md`.",
    file_kind="plugin",
)
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
    fix=f"Use {_POLICIES}.",
    file_kind="plugin",
)
HOOKS_JSON_IGNORED = rule(
    "plugin/hooks-json-ignored",
    Severity.INFORMATION,
    "`hooks/hooks.json` exists but the manifest declares `hooks`, so the file is not read.",
    why="Clarvis reads `hooks/hooks.json` only when the manifest contributes no hooks; hooks written there "
    "look active but never run.",
    example='{\n  "name": "quality",\n  "hooks": []\n}   (with a hooks/hooks.json next to it)',
    fix="Move the hooks into one place: remove `hooks` from the manifest, or point it at `hooks/hooks.json`, "
    "or delete the unused file.",
    file_kind="plugin",
)


def check_plugin(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """Run every ``plugin/*`` rule on one plugin.json (and the hooks/MCP rules on its inline values)."""
    check_structure(document, "plugin", findings, functools.partial(_variables, context))
    root = document.root
    if not isinstance(root, JsonObject):
        return  # empty (json/syntax) or not an object (the schema's type error)
    plugin_dir = context.path.parent
    _check_name(document, root, context, findings)
    _check_version(document, root, findings)
    _check_author(document, root, findings)
    _check_mcp_servers(document, root, findings)
    _check_hooks(document, root, plugin_dir, context, findings)
    _check_bootstrap_skill(document, root, plugin_dir, context, findings)
    _check_executables(document, root, findings)
    _check_run_policies(document, root, findings)


# -- helpers ---------------------------------------------------------------------------------------------------


def _directory_name(context: JsonFileContext) -> str:
    return context.path.parent.name


def _in_plugins_directory(context: JsonFileContext) -> bool:
    return context.path.parent.parent.name == layout.PLUGINS_DIR


def _members(node: JsonObject) -> list[JsonMember]:
    """The members that count (the last of duplicate keys, as JSON.parse keeps; json/duplicate-key reports them)."""
    return [member for member in node.members if node.get(member.key) is member]


def _is_nonempty_string(node: JsonNode | None) -> bool:
    return node is not None and node.kind == "string" and isinstance(node.value, str) and bool(node.value.strip())


def _variables(context: JsonFileContext, node: JsonNode) -> dict[str, str]:
    """The message variables of the schema's annotations (``schemas/plugin.schema.json``) for ``node``."""
    directory = _directory_name(context)
    valid = bool(facts.NAME_PATTERN.match(directory))
    values = {
        "directory": directory,
        "example_name": json_string(directory if valid else "my-plugin"),
        "add_name": f'add "name": {json_string(directory)} (the plugin directory\'s name)'
        if valid
        else 'add "name" with the plugin directory\'s name',
        "policies": _POLICIES,
        "timeout_default": str(_TIMEOUT_DEFAULT),
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


# -- name ------------------------------------------------------------------------------------------------------


def _check_name(document: JsonDocument, root: JsonObject, context: JsonFileContext, findings: Findings) -> None:
    directory = _directory_name(context)
    directory_is_valid = bool(facts.NAME_PATTERN.match(directory))
    member = root.get("name")
    if member is None:
        return  # the schema's required error
    if member.value is None:
        findings.add(
            MISSING_NAME.code,
            document.key_range(member),
            f'plugin.json has no "name": {_variables(context, root)["add_name"]}; Clarvis cannot load a plugin '
            "without it.",
        )
        return
    node = member.value
    if node.kind != "string" or not isinstance(node.value, str):
        return  # the schema's type error
    value = node.value
    if not value:
        findings.add(
            MISSING_NAME.code,
            document.node_range(node),
            'The plugin "name" is empty: set it to the plugin directory\'s name; Clarvis cannot load a plugin '
            "without a name.",
            fixes=_set_name_fix(document, node, directory, directory_is_valid, findings.path, safe=True),
        )
        return
    if not facts.NAME_PATTERN.match(value):
        lowered = value.lower()
        hint = f" (for example {json_string(lowered)})" if facts.NAME_PATTERN.match(lowered) else ""
        findings.add(
            INVALID_NAME.code,
            document.node_range(node),
            f"Invalid plugin name {json_string(value)}: use lowercase letters, digits, `.`, `_` and `-`, "
            f"starting with a letter or digit{hint}.",
        )
    if value != directory:
        in_plugins = _in_plugins_directory(context)
        where = "plugin directory" if in_plugins else "directory"
        findings.add(
            NAME_DIRECTORY_MISMATCH.code,
            document.node_range(node),
            f"The plugin name {json_string(value)} differs from its {where} {json_string(directory)}: "
            + (
                "Clarvis requires them to be equal; set the name to the directory name or rename the directory."
                if in_plugins
                else "once installed, a plugin's name must equal its directory's name; rename one so they match."
            ),
            severity=None if in_plugins else Severity.WARNING,
            # Inside plugins/<name>/ the directory is what enabledPlugins names, so taking its name is the fix;
            # elsewhere (a checkout being developed) the directory name may be incidental.
            fixes=_set_name_fix(document, node, directory, directory_is_valid, findings.path, safe=in_plugins),
        )


def _set_name_fix(
    document: JsonDocument, node: JsonNode, directory: str, directory_is_valid: bool, path: Path, *, safe: bool
) -> list[Fix]:
    if not directory_is_valid:
        return []
    return [
        Fix(
            f'Set name to the directory name "{directory}"',
            (replace_value(document, node, json_string(directory), path),),
            safe=safe,
        )
    ]


# -- simple fields ---------------------------------------------------------------------------------------------


def _check_version(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    node = root.value_of("version")
    if node is None or node.kind != "string" or not isinstance(node.value, str):
        return  # absent, or the schema's type error
    if not facts.VERSION_PATTERN.match(node.value):
        findings.add(
            INVALID_VALUE.code,
            document.node_range(node),
            f'"version" {json_string(node.value)} is not a semantic version: use MAJOR.MINOR.PATCH such as "1.0.0" '
            '(optionally with a pre-release such as "-beta.1").',
            severity=Severity.WARNING,
        )


def _check_author(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    node = root.value_of("author")
    if node is None:
        return
    if node.kind == "string":
        if not _is_nonempty_string(node):
            findings.add(
                INVALID_VALUE.code,
                document.node_range(node),
                '"author" is empty: write the author\'s name, or remove the field.',
            )
        return
    if isinstance(node, JsonObject):
        name = node.get("name")
        if name is None or name.value is None:
            findings.add(
                INVALID_VALUE.code,
                opening(document, node) if name is None else document.key_range(name),
                '"author" has no "name": write {"name": "..."} or the author as a plain string.',
            )
        elif not _is_nonempty_string(name.value):
            findings.add(
                INVALID_VALUE.code,
                document.node_range(name.value),
                f'The author\'s "name" must be a non-empty string, not {_describe_value(name.value)}.',
            )
        return
    findings.add(
        INVALID_VALUE.code,
        document.node_range(node),
        f'"author" must be a string or {{"name": "..."}}, not {kind_phrase(node)}.',
    )


def _describe_value(node: JsonNode) -> str:
    return "an empty string" if node.kind == "string" else kind_phrase(node)


def _check_mcp_servers(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    node = root.value_of("mcpServers")
    if isinstance(node, JsonObject):  # another value is the schema's type error
        check_mcp_servers(document, node, findings)


# -- hooks -----------------------------------------------------------------------------------------------------


def _check_hooks(
    document: JsonDocument, root: JsonObject, plugin_dir: Path, context: JsonFileContext, findings: Findings
) -> None:
    member = root.get("hooks")
    if member is None:
        return
    node = member.value
    reads_hooks_json = False
    if node is None:
        pass  # json/syntax reports the missing value
    elif isinstance(node, (JsonArray, JsonObject)):
        # The directory is the plugin's identity once installed (hooks.json's owner is named the same way).
        check_hooks_value(document, node, findings, owner=f'plugin "{_directory_name(context)}"')
    elif node.kind == "string" and isinstance(node.value, str):
        target = _check_relative_path(
            document, node, plugin_dir, "hooks", findings, follow_symlinks=context.registry.config.follow_symlinks
        )
        reads_hooks_json = target is not None and _same_file(target, plugin_dir / layout.PLUGIN_HOOKS_FILE)
    else:
        findings.add(
            INVALID_VALUE.code,
            document.node_range(node),
            f'"hooks" must be an array of hooks, a hooks document {{"hooks": [...]}} or a relative path to one, '
            f"not {kind_phrase(node)}.",
        )
    hooks_json = plugin_dir / layout.PLUGIN_HOOKS_FILE
    if not reads_hooks_json and _is_file(hooks_json, context.registry.config.follow_symlinks):
        findings.add(
            HOOKS_JSON_IGNORED.code,
            document.key_range(member),
            'The manifest declares "hooks", so Clarvis does not read hooks/hooks.json: move its hooks here, '
            'point "hooks" at it, or delete the file.',
            related=[Related(hooks_json, Range.point(0, 0), "not read while plugin.json declares hooks")],
        )


def _is_file(path: Path, follow_symlinks: bool) -> bool:
    """A regular file; with symlinks off a link is not followed (not even by ``stat``)."""
    return is_regular_file(str(path), follow_symlinks)


def _same_file(a: Path, b: Path) -> bool:
    return os.path.normcase(os.path.normpath(a)) == os.path.normcase(os.path.normpath(b))


def _escape_reason(value: str) -> str | None:
    """Why a manifest path is not a relative path inside the plugin, or None when it is (lexically)."""
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", value):
        return "is a URL, not a path inside the plugin directory"
    if value.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", value):
        return "is an absolute path"
    if value == "~" or value.startswith(("~/", "~\\")):
        return "points into the home directory"
    depth = 0
    for part in re.split(r"[/\\]+", value):
        if part == "..":
            depth -= 1
            if depth < 0:
                return "leaves the plugin directory"
        elif part not in ("", "."):
            depth += 1
    return None


def _check_relative_path(
    document: JsonDocument, node: JsonNode, plugin_dir: Path, field: str, findings: Findings, *, follow_symlinks: bool
) -> Path | None:
    """Check a relative path field; the resolved path when it is inside the plugin and exists."""
    value = node.value
    assert isinstance(value, str)
    if not value.strip():
        findings.add(
            INVALID_VALUE.code,
            document.node_range(node),
            f'"{field}" is empty: write a relative path inside the plugin such as "hooks/hooks.json", '
            "or remove the field.",
        )
        return None
    reason = _escape_reason(value)
    if reason is not None:
        findings.add(
            PATH_ESCAPES.code,
            document.node_range(node),
            f'"{field}" {json_string(value)} {reason}: a plugin may only refer to its own files; move the file into '
            'the plugin directory and use a relative path such as "hooks/hooks.json". It is not read.',
        )
        return None
    target = Path(os.path.normpath(plugin_dir / value))
    try:
        exists = os.path.lexists(target)
        # A symlink may still lead outside; with followSymlinks off no link is read at all (SPEC §9).
        inside = not exists or not follow_symlinks or _within(os.path.realpath(target), os.path.realpath(plugin_dir))
    except OSError:
        exists, inside = False, True
    if not inside:
        findings.add(
            PATH_ESCAPES.code,
            document.node_range(node),
            f'"{field}" {json_string(value)} leads outside the plugin directory through a symlink: a plugin may only '
            "refer to its own files; move the file into the plugin directory. It is not read.",
        )
        return None
    if not exists or not (_is_file(target, follow_symlinks) or (not follow_symlinks and is_symlink(str(target)))):
        what = "is a directory, not a file" if exists and target.is_dir() else "does not exist"
        findings.add(
            MISSING_PATH.code,
            document.node_range(node),
            f'"{field}" points to {json_string(value)}, which {what} in the plugin directory: create the file or '
            "correct the path (relative to the plugin directory).",
        )
        return None
    return target


def _within(path: str, directory: str) -> bool:
    path = os.path.normcase(path)
    directory = os.path.normcase(directory)
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


# -- bootstrapSkill --------------------------------------------------------------------------------------------


def _plugin_skill_names(plugin_dir: Path, context: JsonFileContext) -> list[str]:
    """The frontmatter names of the skills in ``<plugin>/skills/``: from discovery when it scanned them."""
    skills_dir = os.path.normpath(plugin_dir / layout.SKILLS_DIR)
    registry = context.registry
    for scan in registry.scans:
        if os.path.normpath(scan.root.path) == skills_dir:
            return sorted(scan.skills)
    scan = scan_root(SkillRoot(skills_dir, "workspace", f"plugin:{plugin_dir.name}"), 0, registry.config)
    return sorted(scan.skills)


def _check_bootstrap_skill(
    document: JsonDocument, root: JsonObject, plugin_dir: Path, context: JsonFileContext, findings: Findings
) -> None:
    node = root.value_of("bootstrapSkill")
    if node is None or not _is_nonempty_string(node):
        return  # absent, or the schema's type or empty-value error
    value = node.value
    assert isinstance(value, str)
    names = _plugin_skill_names(plugin_dir, context)
    if value in names:
        return
    suggestion = closest(value, names)
    fixes = []
    if suggestion is not None:
        message = (
            f'No skill named {json_string(value)} in this plugin\'s skills/ directory. Did you mean "{suggestion}"?'
        )
        fixes.append(
            Fix(
                f'Change bootstrapSkill to "{suggestion}"',
                (replace_value(document, node, json_string(suggestion), findings.path),),
            )
        )
    elif names:
        message = (
            f"No skill named {json_string(value)} in this plugin's skills/ directory: use one of "
            + ", ".join(names)
            + "."
        )
    else:
        message = (
            f"No skill named {json_string(value)}: this plugin has no skills (add skills/{value}/SKILL.md with "
            f"name: {value}, or remove bootstrapSkill)."
        )
    findings.add(UNKNOWN_BOOTSTRAP_SKILL.code, document.node_range(node), message, fixes=fixes)


# -- capabilityExecutables -------------------------------------------------------------------------------------


def _check_executables(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    """What the schema cannot say about the executables: a ``command`` written without a value, and platforms
    that are no Node.js platform (with the name that was meant)."""
    node = root.value_of("capabilityExecutables")
    if not isinstance(node, JsonObject):
        return  # absent, or the schema's type error
    for member in _members(node):
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
            for platform in _members(platforms):
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


# -- capabilityRunPolicies -------------------------------------------------------------------------------------


def _check_run_policies(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    node = root.value_of("capabilityRunPolicies")
    if not isinstance(node, JsonObject):
        return  # absent, or the schema's type error
    for member in _members(node):
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
        message = f'Run policy {shown} of "{member.key}" is not a policy: use {_POLICIES}.'
        if suggestion is not None:
            message += f' Did you mean "{suggestion}"?'
            fixes.append(
                Fix(
                    f'Change the run policy to "{suggestion}"',
                    (replace_value(document, value, json_string(suggestion), findings.path),),
                )
            )
        findings.add(INVALID_RUN_POLICY.code, document.node_range(value), message, fixes=fixes)
