"""``plugin/unknown-bootstrap-skill``: the skill a ``plugin.json`` injects first must be one of the plugin's own
skills, a fact about the plugin's ``skills/`` directory (from discovery when it scanned it, else from a scan of
that directory alone that reads the editor's open buffers first, as completion and hover read it:
``SkillRegistry.plugin_scan``; a skill renamed in an unsaved buffer counts)."""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonDocument, JsonObject
from clarvis_lsp.findings import Fix, Severity
from clarvis_lsp.rules.base import Findings, closest
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.jsonedit import json_string, replace_value
from clarvis_lsp.rules.plugin_manifest import is_nonempty_string

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


def _plugin_skill_names(plugin_dir: Path, context: JsonFileContext) -> list[str]:
    """The frontmatter names of the skills in ``<plugin>/skills/``: from discovery when it scanned them, else
    read now, open buffers first."""
    return sorted(context.registry.plugin_scan(plugin_dir, context.overlay).skills)


def check_bootstrap_skill(
    document: JsonDocument, root: JsonObject, plugin_dir: Path, context: JsonFileContext, findings: Findings
) -> None:
    node = root.value_of("bootstrapSkill")
    if node is None or not is_nonempty_string(node):
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
