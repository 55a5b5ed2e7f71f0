"""The manifest rules of ``plugin.json``: its identity (``name`` against its directory), ``version`` and
``author``, and the facts every plugin rule shares (the rule codes of the manifest, the plugin's directory).

plugin.json is tolerant: Clarvis reports unknown fields and never acts on them, so every field is checked on
its own and one broken field never hides another finding. The type, required and empty-value errors come from
the schema (``clarvis_lsp.rules.structure``); these rules say what the schema cannot: the name against the
directory, a semantic version, the shapes of ``author``.
"""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonDocument, JsonMember, JsonNode, JsonObject
from clarvis_lsp.findings import Fix, Severity
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge import plugin as facts
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.json_values import kind_phrase, opening, report_unknown_field
from clarvis_lsp.rules.jsonedit import json_string, replace_value

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


# -- shared by the plugin rules --------------------------------------------------------------------------------


def directory_name(context: JsonFileContext) -> str:
    return context.path.parent.name


def in_plugins_directory(context: JsonFileContext) -> bool:
    return context.path.parent.parent.name == layout.PLUGINS_DIR


def counted_members(node: JsonObject) -> list[JsonMember]:
    """The members that count (the last of duplicate keys, as JSON.parse keeps; json/duplicate-key reports them)."""
    return [member for member in node.members if node.get(member.key) is member]


def is_nonempty_string(node: JsonNode | None) -> bool:
    return node is not None and node.kind == "string" and isinstance(node.value, str) and bool(node.value.strip())


# -- name ------------------------------------------------------------------------------------------------------


def name_advice(directory: str) -> str:
    """How to add the missing name: the directory's name when it is a valid one."""
    if facts.NAME_PATTERN.match(directory):
        return f'add "name": {json_string(directory)} (the plugin directory\'s name)'
    return 'add "name" with the plugin directory\'s name'


def check_name(document: JsonDocument, root: JsonObject, context: JsonFileContext, findings: Findings) -> None:
    directory = directory_name(context)
    directory_is_valid = bool(facts.NAME_PATTERN.match(directory))
    member = root.get("name")
    if member is None:
        return  # the schema's required error
    if member.value is None:
        findings.add(
            MISSING_NAME.code,
            document.key_range(member),
            f'plugin.json has no "name": {name_advice(directory)}; Clarvis cannot load a plugin without it.',
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
        in_plugins = in_plugins_directory(context)
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


# -- version and author ----------------------------------------------------------------------------------------


def check_version(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
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


def check_author(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    node = root.value_of("author")
    if node is None:
        return
    if node.kind == "string":
        if not is_nonempty_string(node):
            findings.add(
                INVALID_VALUE.code,
                document.node_range(node),
                '"author" is empty: write the author\'s name, or remove the field.',
            )
        return
    if isinstance(node, JsonObject):
        for member in node.members:
            if member.key != "name":
                report_unknown_field(
                    document,
                    member,
                    ("name",),
                    findings,
                    code=UNKNOWN_FIELD.code,
                    message=f'Unknown field "{member.key}" in "author": author takes a string or {{"name": …}}, and '
                    "Clarvis ignores the rest.",
                    no_suggestion_tail="",
                )
        name = node.get("name")
        if name is None or name.value is None:
            findings.add(
                INVALID_VALUE.code,
                opening(document, node) if name is None else document.key_range(name),
                '"author" has no "name": write {"name": "..."} or the author as a plain string.',
            )
        elif not is_nonempty_string(name.value):
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
