"""The rule families: every code, by the family it belongs to and the module that declares it.

A plain table, so that a family's codes are known without importing the modules that run its checks: the runner's
step tables, ``--select``/``--ignore`` and ``[rules]`` ask about codes before (or without) a family's module is
loaded, and the answer must not depend on what happened to be imported. Each module still declares its rules'
severity and documentation with ``catalogue.rule``, which refuses a code missing here; a test keeps this table equal
to what the modules declare.
"""

from __future__ import annotations

FAMILIES: dict[str, dict[str, tuple[str, ...]]] = {
    "file": {
        "clarvis_lsp.rules.file": ("file/encoding",),
    },
    "skill": {
        "clarvis_lsp.rules.skill": (
            "skill/duplicate-key",
            "skill/invalid-field-type",
            "skill/invalid-name",
            "skill/invalid-yaml",
            "skill/missing-description",
            "skill/missing-name",
            "skill/name-directory-mismatch",
            "skill/no-frontmatter",
            "skill/tools-alias-conflict",
            "skill/unknown-agent",
            "skill/unknown-field",
        ),
        "clarvis_lsp.rules.skill_links": ("skill/broken-link", "skill/root-relative-link"),
    },
    "discovery": {
        "clarvis_lsp.rules.discovery": (
            "discovery/duplicate-name",
            "discovery/overrides",
            "discovery/shadowed",
            "discovery/symlink-ignored",
            "discovery/unreadable",
        ),
    },
    "config": {
        "clarvis_lsp.rules.project_config": ("config/invalid",),
    },
    "json": {
        "clarvis_lsp.rules.json": (
            "json/duplicate-key",
            "json/syntax",
        ),
    },
    "settings": {
        "clarvis_lsp.rules.activation": ("settings/unknown-provider",),
        "clarvis_lsp.rules.settings": (
            "settings/duplicate-plugin",
            "settings/invalid-marketplace",
            "settings/invalid-value",
            "settings/requires-trust",
            "settings/unknown-field",
            "settings/unknown-plugin",
        ),
    },
    "hooks": {
        "clarvis_lsp.rules.hook_run_limit": ("hooks/run-limit",),
        "clarvis_lsp.rules.hooks": (
            "hooks/deny-on-non-control-event",
            "hooks/invalid-regex",
            "hooks/invalid-timeout",
            "hooks/invalid-value",
            "hooks/match-on-non-tool-event",
            "hooks/missing-command",
            "hooks/too-many",
            "hooks/unknown-event",
            "hooks/unknown-field",
        ),
        "clarvis_lsp.rules.hooks_foreign": ("hooks/foreign-format",),
    },
    "mcp": {
        "clarvis_lsp.rules.activation": ("mcp/overrides-personal",),
        "clarvis_lsp.rules.mcp": (
            "mcp/field-not-allowed",
            "mcp/invalid-interpolation",
            "mcp/invalid-server-name",
            "mcp/invalid-value",
            "mcp/missing-command",
            "mcp/missing-url",
            "mcp/unknown-field",
            "mcp/unknown-type",
        ),
        "clarvis_lsp.rules.name_collision": ("mcp/name-collision",),
    },
    "plugin": {
        "clarvis_lsp.rules.activation": ("plugin/shadowed",),
        "clarvis_lsp.rules.plugin_bootstrap": ("plugin/unknown-bootstrap-skill",),
        "clarvis_lsp.rules.plugin_capabilities": (
            "plugin/invalid-executable",
            "plugin/invalid-run-policy",
        ),
        "clarvis_lsp.rules.plugin_manifest": (
            "plugin/invalid-name",
            "plugin/invalid-value",
            "plugin/missing-name",
            "plugin/name-directory-mismatch",
            "plugin/unknown-field",
        ),
        "clarvis_lsp.rules.plugin_paths": (
            "plugin/hooks-json-ignored",
            "plugin/missing-path",
            "plugin/path-escapes",
        ),
    },
    "marketplace": {
        "clarvis_lsp.rules.marketplace": (
            "marketplace/defaulted",
            "marketplace/duplicate-entry",
            "marketplace/entry-omitted",
            "marketplace/invalid-source",
            "marketplace/invalid-value",
            "marketplace/relative-source",
            "marketplace/unknown-field",
        ),
    },
    "agent": {
        "clarvis_lsp.rules.agent": (
            "agent/overrides",
            "agent/requires-trust",
        ),
        "clarvis_lsp.rules.name_collision": ("agent/name-collision",),
    },
    "internal": {
        "clarvis_lsp.rules.internal": ("internal/rule-failed",),
    },
}
