"""The ``settings/*`` rules: ``~/.clarvis/settings.json`` and ``<ws>/.clarvis/settings.json`` (strict).

Every top-level field is checked on its own; the hooks and MCP servers inside are handed to the ``hooks/*`` and
``mcp/*`` rules. The fields and the ones workspace trust holds back come from ``clarvis_lsp.knowledge.settings``.
Only files recognised as settings reach these rules: a ``.vscode/settings.json`` never does (``knowledge/files.py``).
"""

from __future__ import annotations

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonMember, JsonNode, JsonObject
from clarvis_lsp.findings import Fix, Related, Severity
from clarvis_lsp.knowledge import settings as facts
from clarvis_lsp.rules.activation import OVERRIDES_PERSONAL, UNKNOWN_PROVIDER, check_mcp_overrides, check_providers
from clarvis_lsp.rules.base import Findings, RuleStep, closest
from clarvis_lsp.rules.catalogue import family_codes, module_codes, rule
from clarvis_lsp.rules.context import JsonFileContext, SettingsScope
from clarvis_lsp.rules.hooks import check_hook_list
from clarvis_lsp.rules.hooks_foreign import is_claude_hooks, report_foreign_hooks
from clarvis_lsp.rules.json_values import is_string, report_unknown_field
from clarvis_lsp.rules.jsonedit import json_string, remove_item, replace_value
from clarvis_lsp.rules.mcp import check_mcp_servers
from clarvis_lsp.rules.structure import check_structure

UNKNOWN_FIELD = rule(
    "settings/unknown-field",
    Severity.ERROR,
    "An unknown top-level field in settings.json.",
    why="settings.json is strict: Clarvis rejects unknown top-level fields instead of ignoring them, so a "
    "misspelled `enabledPlugin` breaks the file.",
    example='{"enabledPlugin": ["lint"]}',
    fix="Correct the spelling (the message suggests the closest known field) or remove the field; fields this "
    "linter does not know yet can be allowed with `settings.extraFields` in .clarvis-lsp.toml.",
    file_kind="settings",
)
INVALID_VALUE = rule(
    "settings/invalid-value",
    Severity.ERROR,
    "A known settings field has the wrong type or shape.",
    why="Clarvis rejects a settings file whose fields do not have the documented shape.",
    example='{"hooks": {}, "enabledPlugins": "lint", "memory": "local"}',
    fix="`hooks` and `marketplaces` are arrays, `mcpServers` an object, `enabledPlugins` an array of plugin "
    f"names, {'/'.join(f'`{key}`' for key in facts.CAPABILITY_FIELDS)} objects with a string `provider`, `model` a "
    "string.",
    file_kind="settings",
)
INVALID_MARKETPLACE = rule(
    "settings/invalid-marketplace",
    Severity.ERROR,
    "A `marketplaces` entry is not a Git URL.",
    why="Marketplaces are Git repositories that Clarvis clones; anything else cannot be fetched.",
    example='{"marketplaces": ["github.com/acme/plugins"]}',
    fix="Use https://host/path, http://, ssh://, git:// or git@host:path.",
    file_kind="settings",
)
UNKNOWN_PLUGIN = rule(
    "settings/unknown-plugin",
    Severity.WARNING,
    "An `enabledPlugins` entry names no installed plugin.",
    why="Only installed plugins (`~/.clarvis/plugins/<name>/`, `.clarvis/plugins/<name>/`) can be enabled; "
    "a misspelled or missing plugin silently contributes nothing.",
    example='{"enabledPlugins": ["lnt"]}',
    fix="Correct the name (the message suggests the closest installed plugin) or install the plugin.",
    file_kind="settings",
)
DUPLICATE_PLUGIN = rule(
    "settings/duplicate-plugin",
    Severity.WARNING,
    "A plugin name appears twice in `enabledPlugins`.",
    why="A plugin's precedence is its position in the list; with two positions it is unclear which one the "
    "author meant (the first counts).",
    example='{"enabledPlugins": ["lint", "docs", "lint"]}',
    fix="Keep the name once, at the position that gives the precedence you want.",
    file_kind="settings",
)
REQUIRES_TRUST = rule(
    "settings/requires-trust",
    Severity.INFORMATION,
    "A workspace-settings field that stays inactive until the workspace is approved with `/workspace-trust`.",
    why=f"{', '.join(facts.TRUST_GATED)} and the {'/'.join(facts.TRUST_GATED_MEMBERS)} providers of a workspace "
    "run or select code; Clarvis holds them back until `/workspace-trust` and keeps using the personal "
    "configuration.",
    example='.clarvis/settings.json: {"hooks": [{"event": "run_end", "command": "./notify.sh"}]}',
    fix="Nothing to fix: approve the workspace with `/workspace-trust` when you trust it, or move the field to "
    "~/.clarvis/settings.json. Once you have approved the workspace the notice has said its piece: turn it off "
    'for this workspace with `"settings/requires-trust" = "off"` under `[rules]` in `.clarvis-lsp.toml` (or '
    "`[tool.clarvis-lsp.rules]` in `pyproject.toml`, or the editor setting `clarvis.rules`).",
    file_kind="settings",
)


def _claude_hooks(node: JsonNode) -> bool:
    """The top-level ``hooks`` in Claude Code's shape: ``hooks/foreign-format`` says more than its type error."""
    return (
        node.member is not None
        and node.member.key == "hooks"
        and node.parent is not None
        and (node.parent.parent is None and is_claude_hooks(node))
    )


def _variables(node: JsonNode) -> dict[str, str]:
    """``$field``: the top-level field holding ``node`` (``memory`` for ``memory.provider``)."""
    field = node
    while field.parent is not None and field.parent.parent is not None:
        field = field.parent
    return {"field": field.member.key} if field.member is not None else {}


def _unknown_head(key: str) -> str:
    return f'Unknown settings field "{key}": settings.json is strict and Clarvis rejects it.'


def _unknown_tail(known: tuple[str, ...]) -> str:
    return f" Known fields: {', '.join(known)}. Remove it, or allow it with settings.extraFields in .clarvis-lsp.toml."


def _provider_declaration(key: str) -> str:
    """The finding on a subscription-provider declaration in workspace settings (seed
    ``clarvis-extensions-reference``): Clarvis strips those before the merge, trusted or not, and names no field for
    them, so the field is unknown; what the user needs to hear is where providers belong."""
    return (
        f'Unknown settings field "{key}": providers are configured in the personal settings only '
        "(~/.clarvis/settings.json). Clarvis strips subscription-provider declarations from workspace settings "
        "before the merge, trusted or not, and approving the workspace never grants it authority over credentials "
        'or redirects. Move it to your personal settings; a workspace may only select an enabled model with "model".'
    )


def unknown_field_message(key: str, known: tuple[str, ...], scope: SettingsScope) -> str:
    """The ``settings/unknown-field`` message for ``key`` in a settings file of ``scope``, as ``--effective`` lists
    the field under "rejected" (the rule adds the same words to its finding)."""
    if scope == "workspace" and facts.is_provider_declaration(key):
        return _provider_declaration(key)
    suggestion = closest(key, known)
    return _unknown_head(key) + (f' Did you mean "{suggestion}"?' if suggestion is not None else _unknown_tail(known))


def _unknown_field(
    document: JsonDocument, member: JsonMember, known: tuple[str, ...], findings: Findings, scope: SettingsScope
) -> None:
    if scope == "workspace" and facts.is_provider_declaration(member.key):
        # No "did you mean": no known field is where this belongs. Removing it is the only fix here.
        report_unknown_field(
            document,
            member,
            (),
            findings,
            code=UNKNOWN_FIELD.code,
            message=_provider_declaration(member.key),
            no_suggestion_tail="",
        )
        return
    report_unknown_field(
        document,
        member,
        known,
        findings,
        code=UNKNOWN_FIELD.code,
        message=_unknown_head(member.key),
        no_suggestion_tail=_unknown_tail(known),
    )


def _check_marketplaces(document: JsonDocument, value: JsonArray, findings: Findings) -> None:
    for item in value.items:
        if is_string(item) and facts.GIT_URL.match(str(item.value)) is None:
            findings.add(
                INVALID_MARKETPLACE.code,
                document.node_range(item),
                f'"{item.value}" is not a Git URL, so Clarvis cannot fetch this marketplace: use https://host/path '
                "(or http://, ssh://, git://) or git@host:path.",
            )


def _check_enabled_plugins(
    document: JsonDocument, value: JsonArray, context: JsonFileContext, findings: Findings
) -> None:
    first_seen: dict[str, JsonNode] = {}
    installed = sorted(context.plugins)
    enabled = {str(item.value) for item in value.items if is_string(item)}
    for item in value.items:
        if not is_string(item) or not str(item.value):
            continue  # the schema's type or empty-value error
        name = str(item.value)
        first = first_seen.get(name)
        if first is not None:
            findings.add(
                DUPLICATE_PLUGIN.code,
                document.node_range(item),
                f'"{name}" is already enabled on line {document.node_range(first).start.line + 1}; the first '
                "position sets its precedence. Remove this one (or the other, to move the plugin).",
                related=[Related(findings.path, document.node_range(first), f'first "{name}"')],
                fixes=[Fix(f'Remove the second "{name}"', (remove_item(document, item, findings.path),))],
            )
            continue
        first_seen[name] = item
        if name in context.plugins:
            continue
        suggestion = closest(name, installed)
        fixes: list[Fix] = []
        if suggestion is not None and suggestion in enabled:
            # Changing it would enable the plugin twice, a duplicate the next check reports: drop the typo.
            fixes.append(
                Fix(
                    f'Remove "{name}" ("{suggestion}" is already enabled)',
                    (remove_item(document, item, findings.path),),
                    safe=False,  # a guess between plugin names
                )
            )
            advice = f' Did you mean "{suggestion}"? It is already enabled.'
        elif suggestion is not None:
            fixes.append(
                Fix(
                    f'Change to the installed plugin "{suggestion}"',
                    (replace_value(document, item, json_string(suggestion), findings.path),),
                    safe=False,  # a guess between plugin names
                )
            )
            advice = f' Did you mean "{suggestion}"?'
        elif installed:
            advice = f" Installed plugins: {', '.join(installed)}."
        else:
            advice = " No plugin is installed."
        findings.add(
            UNKNOWN_PLUGIN.code,
            document.node_range(item),
            f'No installed plugin is named "{name}", so enabling it does nothing: install it in '
            f".clarvis/plugins/{name}/ or ~/.clarvis/plugins/{name}/, or correct the name.{advice}",
            fixes=fixes,
        )


def _check_trust(document: JsonDocument, root: JsonObject, findings: Findings) -> None:
    tail = (
        "stays inactive until this workspace is approved with /workspace-trust; until then Clarvis keeps using "
        "your personal configuration."
    )
    for member in root.members:
        if root.get(member.key) is not member:
            continue
        if member.key in facts.TRUST_GATED:
            findings.add(
                REQUIRES_TRUST.code, document.key_range(member), f'"{member.key}" in workspace settings {tail}'
            )
        elif member.key in facts.TRUST_GATED_MEMBERS and isinstance(member.value, JsonObject):
            for name in facts.TRUST_GATED_MEMBERS[member.key]:
                inner = member.value.get(name)
                if inner is not None:
                    findings.add(
                        REQUIRES_TRUST.code,
                        document.key_range(inner),
                        f'"{member.key}.{name}" in workspace settings {tail}',
                    )


def _check_structure(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """The type, required and empty-value errors from ``settings.schema.json``'s annotations."""
    check_structure(document, "settings", findings, _variables, exempt=_claude_hooks)


def _check_unknown_fields(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """Every top-level field that is neither known nor allowed by configuration (``settings.extraFields``)."""
    root = document.root
    if not isinstance(root, JsonObject):
        return  # empty (json/syntax) or not an object (the schema's type error)
    known = (*facts.FIELDS, *context.extra_settings_fields)
    for member in root.members:
        if member.key not in known:
            _unknown_field(document, member, known, findings, context.settings_scope)


def _field(document: JsonDocument, key: str) -> JsonNode | None:
    """The value of the top-level ``key`` (the last of duplicates: json/duplicate-key reports the others), or None
    when the root is not an object, the field is absent or its value missing (json/syntax)."""
    root = document.root
    return root.value_of(key) if isinstance(root, JsonObject) else None


def _owner(context: JsonFileContext) -> str:
    return "workspace settings" if context.settings_scope == "workspace" else "personal settings"


def _check_hooks(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """The ``hooks/*`` rules on the ``hooks`` array (Claude Code's shape: ``hooks/foreign-format``)."""
    value = _field(document, "hooks")
    if isinstance(value, JsonArray):
        check_hook_list(document, value, findings, owner=_owner(context))
    elif value is not None:
        report_foreign_hooks(document, value, findings, owner=_owner(context))


def _check_mcp_servers(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """The ``mcp/*`` rules on each server of ``mcpServers`` (another value is the schema's type error)."""
    value = _field(document, "mcpServers")
    if isinstance(value, JsonObject):
        check_mcp_servers(document, value, findings)


def _check_mcp_overrides(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """``mcp/overrides-personal``: a workspace server of the name of a personal one."""
    value = _field(document, "mcpServers")
    if isinstance(value, JsonObject) and context.settings_scope == "workspace":
        check_mcp_overrides(document, value, context, findings)


def _check_marketplace_urls(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    value = _field(document, "marketplaces")
    if isinstance(value, JsonArray):
        _check_marketplaces(document, value, findings)


def _check_plugins(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    value = _field(document, "enabledPlugins")
    if isinstance(value, JsonArray):
        _check_enabled_plugins(document, value, context, findings)


def _check_providers(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    root = document.root
    if isinstance(root, JsonObject):
        check_providers(document, root, context, findings)


def _check_requires_trust(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    root = document.root
    if isinstance(root, JsonObject) and context.settings_scope == "workspace":
        _check_trust(document, root, findings)


RULE_STEPS: tuple[RuleStep[JsonDocument, JsonFileContext], ...] = (
    RuleStep("settings/structure", (INVALID_VALUE.code,), _check_structure),
    RuleStep("settings/unknown-field", (UNKNOWN_FIELD.code,), _check_unknown_fields),
    RuleStep("settings/hooks", family_codes("hooks"), _check_hooks),
    RuleStep("settings/mcp-servers", module_codes("clarvis_lsp.rules.mcp"), _check_mcp_servers),
    RuleStep("mcp/overrides-personal", (OVERRIDES_PERSONAL.code,), _check_mcp_overrides),
    RuleStep("settings/marketplaces", (INVALID_MARKETPLACE.code,), _check_marketplace_urls),
    RuleStep("settings/enabled-plugins", (UNKNOWN_PLUGIN.code, DUPLICATE_PLUGIN.code), _check_plugins),
    RuleStep("settings/unknown-provider", (UNKNOWN_PROVIDER.code,), _check_providers),
    RuleStep("settings/requires-trust", (REQUIRES_TRUST.code,), _check_requires_trust),
)
"""The rules of a settings.json, in order, each run on its own by the rule runner: the schema's structural
errors, then what the schema cannot say (unknown fields against the fields configuration allows, Git URLs,
installed plugins, providers, trust), and the hook and MCP rules on ``hooks`` and ``mcpServers``."""
