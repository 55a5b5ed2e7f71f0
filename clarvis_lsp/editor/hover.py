"""Hover text by position: keys from the schemas, and what discovery knows about the values that name things.

- every key of every kind: the schema's ``markdownDescription`` with the key's type, whether it is required,
  its default, and whether it is not allowed here (a field the MCP transport forbids, ``match`` on a non-tool
  event);
- a hook ``event`` value: its class, effect, and whether it can ``rewrite`` (only ``pre_tool_use``);
- a skill's ``name`` value: every copy of that name across the roots, highest precedence first, with its path
  and root (scope, source), which copy wins, and the within-root duplicates that were skipped;
- an ``enabledPlugins`` entry: the installed plugin's path and its precedence among the enabled plugins;
- a skill's ``agent`` and a plugin's ``bootstrapSkill``: the file they resolve to.

Ranges are engine ranges (code points).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery import SkillInfo
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, to_python
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import (
    HOOK_KINDS,
    SCHEMA_FOR_KIND,
    describe_at,
    frontmatter_line,
    parsed_json,
    path_link,
    plugin_skills,
    properties_at,
    same_path,
)
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.knowledge.hooks import CLASS_EFFECT, CONTROL_CLASS, EVENT_CLASS, REWRITE_EVENT, TOOL_EVENTS
from clarvis_lsp.knowledge.skill import FIELDS as SKILL_FIELDS
from clarvis_lsp.rules.base import closest
from clarvis_lsp.schema_docs import PathKey, PropertyDoc, describe
from clarvis_lsp.workspace.discovered import Discovered

__all__ = [
    "HoverInfo",
    "event_markdown",
    "hover",
    "key_markdown",
    "plugin_entry_markdown",
    "reads_discovery",
    "skill_copies_markdown",
]


@dataclass(frozen=True)
class HoverInfo:
    """Markdown to show, and the range of the key or value it is about."""

    markdown: str
    range: Range


def hover(
    text: str,
    kind: FileKind | None,
    position: Position,
    discovered: Discovered | None = None,
    *,
    path: Path | None = None,
    lines: LineIndex | None = None,
    overlay: Mapping[Path, str] | None = None,
) -> HoverInfo | None:
    """What to show for ``position`` (code points) in ``text``, a document of ``kind`` at ``path``; ``overlay``:
    the open buffers, read before the disk where a hover scans beyond discovery (a plugin's skills)."""
    if kind is None or kind not in SCHEMA_FOR_KIND:
        return None
    lines = lines if lines is not None else LineIndex(text)
    if kind is FileKind.SKILL:
        return _skill_hover(lines, position, discovered, path)
    return _json_hover(parsed_json(text), kind, lines.offset(position), discovered, path, overlay)


DISCOVERED_SKILL_VALUES = frozenset({"name", "agent"})
"""The SKILL.md fields whose value's hover is what discovery found (the copies of the name, the agent's file)."""


def reads_discovery(kind: FileKind | None, lines: LineIndex, position: Position) -> bool:
    """Whether the hover at ``position`` may read discovery, so a request waits a moment for the first scan before
    it answers. In a SKILL.md only the ``name`` and ``agent`` values do: a key, and any other value, is answered
    from the schema, at once, even while the workspace is being read. In a JSON file any position may (a
    reference, and the effective state of the hook or server there)."""
    if kind is not FileKind.SKILL:
        return kind in SCHEMA_FOR_KIND
    current = frontmatter_line(lines, position.line)
    if current is None or not current.key or position.character <= current.key_end:
        return False
    return current.key in DISCOVERED_SKILL_VALUES


# ------------------------------------------------------------------------------------------------ markdown


def key_markdown(doc: PropertyDoc, name: str) -> str:
    """A key's hover: a heading line with its type and constraints, then the schema's description."""
    facts = []
    if doc.enum:
        facts.append(" | ".join(f"`{json.dumps(item.value)}`" for item in doc.enum))
    elif doc.types:
        facts.append(" | ".join(doc.types))
    if doc.required:
        facts.append("required")
    if doc.has_default:
        facts.append(f"default `{json.dumps(doc.default)}`")
    heading = f"**`{name}`**" + (" — " + ", ".join(facts) if facts else "")
    parts = [heading]
    if doc.forbidden:
        parts.append("**Not allowed here.**")
    if doc.markdown:
        parts.append(doc.markdown)
    return "\n\n".join(parts)


def unknown_key_markdown(key: str, known: Sequence[str]) -> str:
    """Hover on a key Clarvis does not know at that place, with the field it most likely meant."""
    suggestion = closest(key, known)
    meant = f" Did you mean `{suggestion}`?" if suggestion else ""
    return f"**`{key}`** — not a field Clarvis knows here.{meant}\n\nKnown here: " + ", ".join(
        f"`{name}`" for name in known
    )


def unknown_event_markdown(event: str) -> str:
    """Hover on an event name that is not one of Clarvis's, with the event it most likely meant."""
    suggestion = closest(event, list(EVENT_CLASS))
    meant = f" Did you mean `{suggestion}`?" if suggestion else ""
    return f"**`{event}`** — not a Clarvis event: a hook on it never fires.{meant}"


def event_markdown(event: str, doc: PropertyDoc | None = None) -> str:
    """A hook event's class and effect, whether it can ``rewrite`` and what ``match``/``on_failure`` it allows.

    The schema's description of the value is the body when it has one; the facts are generated otherwise.
    """
    klass = EVENT_CLASS[event]
    heading = f"**`{event}`** — {klass} event: {CLASS_EFFECT[klass]}."
    if doc is not None:
        for item in doc.enum:
            described = item.markdown_description or item.description
            if item.value == event and described:
                return f"{heading}\n\n{described}"
    parts = [heading]
    if event == REWRITE_EVENT:
        parts.append("**Can `rewrite`**: the only event whose hook may replace the pending tool arguments.")
    else:
        parts.append(f"Cannot `rewrite` (only `{REWRITE_EVENT}` can).")
    parts.append(
        "Tool event: `match` applies." if event in TOOL_EVENTS else "Not a tool event: `match` is not allowed."
    )
    parts.append("`on_failure` may be `pass` or `deny`." if klass == CONTROL_CLASS else "`on_failure` must be `pass`.")
    return "\n\n".join(parts)


def skill_copies_markdown(name: str, discovered: Discovered, current: Path | None = None) -> str:
    """Every copy of skill ``name``, highest precedence first: which wins, which are shadowed or skipped."""
    registry = discovered.registry
    roots = registry.config.roots
    rows: list[tuple[int, int, SkillInfo, str]] = []
    for index, info in enumerate(registry.copies(name)):
        rows.append((info.root_index, 0, info, "**wins**" if index == 0 else "shadowed"))
    for skipped in registry.skipped:
        loser = skipped.skill
        if loser is not None and loser.name == name and skipped.warning.kind == "duplicate":
            rows.append((loser.root_index, 1, loser, "skipped: within-root duplicate"))
    rows.sort(key=lambda row: (-row[0], row[1], str(row[2].path)))
    if not rows:
        return f"**Skill `{name}`**\n\nNo skill root holds a loadable skill named `{name}`."
    loaded = sum(1 for row in rows if row[1] == 0)
    count = f"{len(rows)} cop{'y' if len(rows) == 1 else 'ies'}"
    lines = [
        f"**Skill `{name}`** — {count} in precedence order (highest first); the first loaded copy wins.",
        "",
    ]
    for number, (root_index, _, info, status) in enumerate(rows, start=1):
        root = roots[root_index] if 0 <= root_index < len(roots) else info.root
        label = f"{root.scope}, {root.source}" if root.source else root.scope
        here = " ← this file" if same_path(info.path, current) else ""
        lines.append(
            f"{number}. {status} — {path_link(info.path, discovered)} — root "
            f"{path_link(root.path, discovered)} ({label}, precedence {root_index + 1} of {len(roots)}){here}"
        )
    if loaded > 1:
        lines.extend(["", "Shadowed copies are never loaded: rename one, or delete the copies you do not want."])
    if current is not None and not any(same_path(row[2].path, current) for row in rows):
        lines.extend(["", "This file is not loaded as a skill: it is not in a skill root, or it is malformed."])
    return "\n".join(lines)


def plugin_entry_markdown(name: str, index: int, names: Sequence[str], discovered: Discovered | None) -> str:
    """An ``enabledPlugins`` entry: where the plugin is installed and its precedence (a later entry wins)."""
    plugin = discovered.plugins.get(name) if discovered is not None else None
    parts = []
    if plugin is None:
        parts.append(
            f"**Plugin `{name}`** — not installed: no `.clarvis/plugins/{name}/` in the workspace or the home "
            "directory, so this entry enables nothing."
        )
    else:
        where = plugin.manifest or plugin.directory
        parts.append(f"**Plugin `{name}`** — installed ({plugin.scope}): {path_link(where, discovered)}")
        if plugin.hides is not None:
            parts.append(
                f"Hides the personal plugin of the same name at {path_link(plugin.hides.directory, discovered)}."
            )
    first = names.index(name) if name in names else index
    if first != index:
        parts.append(f"Listed twice: only the first entry (position {first + 1}) counts.")
    if plugin is None and discovered is not None:
        return "\n\n".join(parts)  # it takes no place in the order: nothing to override or be overridden by
    # Only installed plugins take a place: an entry naming none overrides nothing and is overridden by nothing.
    order: list[str] = []
    for item in names:
        installed = discovered is None or item in discovered.plugins
        if item not in order and installed:
            order.append(item)
    position = order.index(name) + 1 if name in order else index + 1
    precedence = f"Precedence: **{position} of {len(order)}** in `enabledPlugins` (ascending: a later entry wins)."
    lower = order[: position - 1]
    higher = order[position:]
    if higher:
        precedence += " Overridden by " + ", ".join(f"`{item}`" for item in higher) + "."
    if lower:
        precedence += " Overrides " + ", ".join(f"`{item}`" for item in lower) + "."
    parts.append(precedence)
    parts.append("Plugin contributions stay below personal and workspace configuration.")
    return "\n\n".join(parts)


# ---------------------------------------------------------------------------------------------------- JSON


def _json_hover(
    document: JsonDocument,
    kind: FileKind,
    offset: int,
    discovered: Discovered | None,
    path: Path | None,
    overlay: Mapping[Path, str] | None,
) -> HoverInfo | None:
    location = document.path_at(offset)
    data = to_python(document.root)
    member = location.member
    if location.in_key:
        if member is None or not member.key_start <= offset <= member.key_end:
            return None
        doc = describe_at(kind, [*location.path, member.key], data)
        if doc is None:
            known = [item.name for item in properties_at(kind, location.path, data) if item.name]
            if not known:
                return None  # a free-form map (server names, env): any key is fine
            return HoverInfo(unknown_key_markdown(member.key, known), document.key_range(member))
        return HoverInfo(key_markdown(doc, member.key), document.key_range(member))
    node = location.node
    if node is None:
        return None
    target = location.target_path
    value_range = document.node_range(node)
    value = node.value if node.kind == "string" else None
    if isinstance(value, str):
        special = _reference_hover(
            document, kind, target, value, location.container, location.index, discovered, path, overlay
        )
        if special is not None:
            return HoverInfo(special, value_range)
    doc = describe_at(kind, target, data)
    if doc is None:
        return None
    if kind in HOOK_KINDS and target and target[-1] == "event" and isinstance(value, str):
        if value in EVENT_CLASS:
            return HoverInfo(event_markdown(value, doc), value_range)
        return HoverInfo(unknown_event_markdown(value), value_range)
    if not node.is_container:
        for item in doc.enum:
            if item.value == node.value and node.kind != "invalid":
                described = item.markdown_description or item.description
                heading = f"**`{json.dumps(item.value)}`**" + (f" — `{_key_of(target)}`" if _key_of(target) else "")
                return HoverInfo(heading + (f"\n\n{described}" if described else ""), value_range)
    name = _key_of(target)
    if name is None:
        return None
    return HoverInfo(key_markdown(doc, name), value_range)


def _key_of(path: Sequence[PathKey]) -> str | None:
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return None


def _reference_hover(
    document: JsonDocument,
    kind: FileKind,
    target: Sequence[PathKey],
    value: str,
    container: object,
    index: int | None,
    discovered: Discovered | None,
    path: Path | None,
    overlay: Mapping[Path, str] | None,
) -> str | None:
    if kind is FileKind.SETTINGS and len(target) == 2 and target[0] == "enabledPlugins" and index is not None:
        names = []
        if isinstance(container, JsonArray):
            names = [str(item.value) for item in container.items if _is_string(item)]
        return plugin_entry_markdown(value, _string_index(container, index), names, discovered)
    if kind is FileKind.PLUGIN and list(target) == ["bootstrapSkill"] and path is not None:
        skills = plugin_skills(discovered, path.parent, overlay)
        skill = skills.get(value)
        if skill is None:
            return f"**Bootstrap skill `{value}`** — no skill of this name in the plugin's `skills/` directory."
        return (
            f"**Bootstrap skill `{value}`** — {path_link(skill, discovered)}\n\n"
            "Clarvis injects this skill of the plugin before the answer."
        )
    return None


def _is_string(node: JsonNode) -> bool:
    return node.kind == "string" and isinstance(node.value, str)


def _string_index(container: object, index: int) -> int:
    """The position of item ``index`` among the string items (what ``names`` holds)."""
    if not isinstance(container, JsonArray):
        return index
    return sum(1 for item in container.items[:index] if _is_string(item))


# ------------------------------------------------------------------------------------------------ SKILL.md


def _skill_hover(
    lines: LineIndex, position: Position, discovered: Discovered | None, path: Path | None
) -> HoverInfo | None:
    current = frontmatter_line(lines, position.line)
    if current is None or not current.key:
        return None
    column = position.character
    if column <= current.key_end:
        doc = describe("skill-frontmatter", [current.key])
        key_range = Range.of(current.line, 0, current.line, current.key_end)
        if doc is None:
            return HoverInfo(unknown_key_markdown(current.key, list(SKILL_FIELDS)), key_range)
        return HoverInfo(key_markdown(doc, current.key), key_range)
    if current.colon is None or column <= current.colon:
        return None
    value = current.unquoted_value()[0]
    value_range = Range.of(current.line, current.value_start, current.line, current.value_end)
    if not value or not current.value_start <= column <= current.value_end:
        return None
    if current.key == "name" and discovered is not None:
        return HoverInfo(skill_copies_markdown(value.strip(), discovered, path), value_range)
    if current.key == "agent" and discovered is not None:
        return HoverInfo(_agent_markdown(value.strip(), discovered), value_range)
    doc = describe("skill-frontmatter", [current.key])
    if doc is None:
        return None
    return HoverInfo(key_markdown(doc, current.key), value_range)


def _agent_markdown(name: str, discovered: Discovered) -> str:
    agent = discovered.agents.get(name)
    if agent is None:
        known = ", ".join(f"`{item}`" for item in sorted(discovered.agents)) or "none"
        return f"**Agent `{name}`** — not discovered. Known agents: {known}."
    text = f"**Agent `{name}`** — {path_link(agent.path, discovered)} ({agent.scope})"
    if agent.plugin is not None and not agent.enabled:
        text += f"\n\nThe plugin `{agent.plugin}` is installed but not in `enabledPlugins`."
    if agent.overrides is not None:
        text += f"\n\nOverrides the personal agent {path_link(agent.overrides.path, discovered)}."
    return text
