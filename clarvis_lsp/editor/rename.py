"""Rename a skill, an agent or a plugin everywhere Clarvis reads its name, protocol-free.

A name is only worth renaming if everything that names it follows, or Clarvis stops finding it:

- a **skill** (its SKILL.md ``name``, or a plugin.json ``bootstrapSkill`` naming it): the ``name`` value, the
  ``bootstrapSkill`` of the plugin the skill belongs to, and the skill's directory when it bears the old name and
  the editor can rename files (Clarvis expects a skill's directory to carry its name). Copies of the name in other
  roots are separate skills and keep their name;
- an **agent** (its file's frontmatter ``name``, or a SKILL.md ``agent`` naming it): Clarvis knows an agent by its
  file name, so the file is renamed, with its frontmatter ``name`` and every ``agent`` that names it; an editor
  that cannot rename files is told so instead of getting references to a file that does not exist;
- a **plugin** (its plugin.json ``name``, or an ``enabledPlugins`` entry naming it): the ``name``, every
  ``enabledPlugins`` entry and marketplace entry of that name, every ``agent: <plugin>:<agent>``, and the plugin's
  directory (Clarvis requires the two to be equal) when it bears the old name and the editor can rename files.

The places come from ``clarvis_lsp.editor.navigation`` (the same lookup as definition and references); the new
name is checked against the pattern and length the name rules use (``clarvis_lsp.knowledge``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml

from clarvis_lsp.discovery.agents import AgentInfo
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json
from clarvis_lsp.documents.skill import FrontmatterEntry, SkillDocument, parse_skill
from clarvis_lsp.documents.text import strip_bom
from clarvis_lsp.editor import navigation
from clarvis_lsp.findings import Position, Range, TextEdit
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge import plugin as plugin_facts
from clarvis_lsp.knowledge import skill as skill_facts
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.view import WorkspaceView

__all__ = [
    "FileRename",
    "RenamePlan",
    "RenameRefused",
    "RenameTarget",
    "prepare_rename",
    "rename",
    "rename_target",
]

TargetKind = Literal["skill", "agent", "plugin"]


class RenameRefused(ValueError):
    """The rename cannot be done as asked; the message tells the user why and what to do instead."""


@dataclass(frozen=True)
class RenameTarget:
    """What the cursor is on: a ``kind`` of thing, its current ``name`` and where that name is written here.

    ``declaration`` is the file that defines it (the SKILL.md, the agent file, the plugin.json)."""

    kind: TargetKind
    name: str
    range: Range
    declaration: Path


@dataclass(frozen=True)
class FileRename:
    """A file or directory to move, after the text edits (which address the old paths)."""

    old: Path
    new: Path


@dataclass(frozen=True)
class RenamePlan:
    """Every edit a rename makes, in the order an editor applies them: text edits, then file renames."""

    edits: tuple[TextEdit, ...]
    files: tuple[FileRename, ...] = ()


# -- finding the target ------------------------------------------------------------------------------------------


def prepare_rename(view: WorkspaceView, path: Path, text: str, position: Position) -> RenameTarget | None:
    """The name under ``position`` that can be renamed, with its exact range; None anywhere else."""
    kind = view.kind_of(path)
    text = strip_bom(text)
    if kind in (FileKind.SKILL, FileKind.AGENT):
        return _yaml_target(view, kind, path, parse_skill(path, text), position)
    if kind in (FileKind.PLUGIN, FileKind.SETTINGS):
        document = parse_json(text)
        if isinstance(document.root, JsonObject):
            offset = document.lines.offset(position)
            if kind is FileKind.PLUGIN:
                return _plugin_target(view, path, document, document.root, offset)
            return _settings_target(view, document, document.root, offset)
    return None


def _string_entry(entry: FrontmatterEntry | None, position: Position) -> str | None:
    if entry is None or not entry.is_scalar or not isinstance(entry.value, str) or not entry.value.strip():
        return None
    return entry.value if entry.value_range.contains(position) else None


def _within(document: SkillDocument, entry: FrontmatterEntry, part: str) -> Range:
    """The range of ``part`` inside the entry's written value (past an opening quote, after a ``plugin:``)."""
    lines = document.lines
    start, end = lines.offset(entry.value_range.start), lines.offset(entry.value_range.end)
    found = lines.text.rfind(part, start, end)
    if found < 0:
        return entry.value_range
    return lines.range(found, found + len(part))


def _yaml_target(
    view: WorkspaceView, kind: FileKind, path: Path, document: SkillDocument, position: Position
) -> RenameTarget | None:
    name_entry = document.entry("name")
    name = _string_entry(name_entry, position)
    if name is not None and name_entry is not None:
        if kind is FileKind.SKILL:
            return RenameTarget("skill", name, _within(document, name_entry, name), path)
        agent = _agent_at(view, path)
        if agent is not None and _bare(agent) == name:
            return RenameTarget("agent", name, _within(document, name_entry, name), path)
        return None
    agent_entry = document.entry("agent")
    value = _string_entry(agent_entry, position) if kind is FileKind.SKILL else None
    found = view.discovered
    if value is None or agent_entry is None or found is None:
        return None
    info = found.agents.get(value.strip())
    if info is None:
        return None
    bare = _bare(info)
    return RenameTarget("agent", bare, _within(document, agent_entry, bare), info.path)


def _agent_at(view: WorkspaceView, path: Path) -> AgentInfo | None:
    found = view.discovered
    if found is None:
        return None
    return next((agent for agent in found.agents.values() if agent.path == path), None)


def _bare(agent: AgentInfo) -> str:
    return agent.path.name[: -len(layout.AGENT_SUFFIX)]


def _json_string(node: JsonNode | None, offset: int) -> str | None:
    if node is None or node.kind != "string" or not isinstance(node.value, str) or not node.value.strip():
        return None
    return node.value if node.start <= offset <= node.end else None


def _inner(document: JsonDocument, node: JsonNode) -> Range:
    """A JSON string's range without its quotes: what the user renames."""
    return document.range_of(node.start + 1, max(node.start + 1, node.end - 1))


def _plugin_target(
    view: WorkspaceView, path: Path, document: JsonDocument, root: JsonObject, offset: int
) -> RenameTarget | None:
    name_node = root.value_of("name")
    name = _json_string(name_node, offset)
    if name is not None and name_node is not None:
        return RenameTarget("plugin", name, _inner(document, name_node), path)
    bootstrap = root.value_of("bootstrapSkill")
    skill = _json_string(bootstrap, offset)
    if skill is None or bootstrap is None:
        return None
    for location in navigation.definition(view, path, document.text, document.range_of(offset, offset).start):
        return RenameTarget("skill", skill, _inner(document, bootstrap), location.path)
    return None


def _settings_target(view: WorkspaceView, document: JsonDocument, root: JsonObject, offset: int) -> RenameTarget | None:
    enabled = root.value_of("enabledPlugins")
    found = view.discovered
    if not isinstance(enabled, JsonArray) or found is None:
        return None
    for item in enabled.items:
        name = _json_string(item, offset)
        plugin = found.plugins.get(name) if name is not None else None
        if name is not None and plugin is not None and plugin.manifest is not None:
            return RenameTarget("plugin", name, _inner(document, item), plugin.manifest)
    return None


# -- the rename --------------------------------------------------------------------------------------------------


def rename(
    view: WorkspaceView, path: Path, text: str, position: Position, new_name: str, *, can_rename_files: bool
) -> RenamePlan:
    """Every edit that renames what is under ``position`` to ``new_name``. Raises ``RenameRefused`` when nothing
    there can be renamed, when ``new_name`` is not a valid name of its kind, or when the rename needs a file move
    the editor cannot make or that would overwrite another file."""
    target = prepare_rename(view, path, text, position)
    if target is None:
        raise RenameRefused("Nothing to rename here: put the cursor on a skill, agent or plugin name.")
    _validate(target.kind, new_name)
    if new_name == target.name:
        return RenamePlan(())
    if target.kind == "skill":
        return _rename_skill(view, target, new_name, can_rename_files)
    if target.kind == "agent":
        return _rename_agent(view, target, new_name, can_rename_files)
    return _rename_plugin(view, target, new_name, can_rename_files)


def rename_target(view: WorkspaceView, target: RenameTarget, new_name: str) -> RenamePlan:
    """The text edits that rename ``target`` to ``new_name``, moving no file: for an editor that moves the file or
    directory itself (``workspace/willRenameFiles``). Raises ``RenameRefused`` for an invalid name; an agent,
    known by its file name, cannot be renamed this way."""
    _validate(target.kind, new_name)
    if new_name == target.name:
        return RenamePlan(())
    if target.kind == "skill":
        return _rename_skill(view, target, new_name, can_rename_files=False)
    if target.kind == "plugin":
        return _rename_plugin(view, target, new_name, can_rename_files=False)
    raise RenameRefused("An agent is renamed with its file: rename the agent's name instead.")


def _validate(kind: TargetKind, name: str) -> None:
    """The checks ``skill/invalid-name`` and ``plugin/invalid-name`` make; an agent is named like a skill (its
    file name becomes what ``agent:`` and slash invocation write)."""
    if kind == "plugin":
        if not plugin_facts.NAME_PATTERN.match(name):
            raise RenameRefused(
                f"Invalid plugin name {json.dumps(name)}: use lowercase letters, digits, `.`, `_` and `-`, "
                "starting with a letter or digit."
            )
        return
    noun = "skill" if kind == "skill" else "agent"
    if not skill_facts.NAME_PATTERN.match(name):
        raise RenameRefused(
            f"Invalid {noun} name {json.dumps(name)}: use only letters, digits, `.`, `_` and `-`, with no spaces."
        )
    if len(name) > skill_facts.NAME_MAX_LENGTH:
        raise RenameRefused(
            f"The {noun} name is {len(name)} characters long; the limit is {skill_facts.NAME_MAX_LENGTH}."
        )


def _yaml_scalar(text: str) -> str:
    """``text`` written so that YAML reads it back as that string (``true`` or ``1.0`` get quotes)."""
    try:
        if yaml.safe_load(text) == text:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text, ensure_ascii=False)


def _frontmatter_name_edit(view: WorkspaceView, path: Path, old: str, new: str) -> list[TextEdit]:
    text = view.read_text(path)
    if text is None:
        return []
    entry = parse_skill(path, strip_bom(text)).entry("name")
    if entry is None or not entry.is_scalar or entry.value != old:
        return []
    return [TextEdit(path, entry.value_range, _yaml_scalar(new))]


def _move(old: Path, new: Path) -> FileRename:
    if os.path.lexists(new):
        raise RenameRefused(f"Cannot rename {old.name} to {new.name}: {new} already exists.")
    return FileRename(old, new)


def _rename_skill(view: WorkspaceView, target: RenameTarget, new: str, can_rename_files: bool) -> RenamePlan:
    skill_md = target.declaration
    edits = _frontmatter_name_edit(view, skill_md, target.name, new)
    edits += _bootstrap_edits(view, skill_md, target.name, new)
    directory = skill_md.parent
    files = (_move(directory, directory.with_name(new)),) if can_rename_files and directory.name == target.name else ()
    return RenamePlan(tuple(edits), files)


def _bootstrap_edits(view: WorkspaceView, skill_md: Path, old: str, new: str) -> list[TextEdit]:
    """The ``bootstrapSkill`` of the plugin whose ``skills/`` holds ``skill_md``, when it names ``old``."""
    skills_dir = skill_md.parent.parent
    if skills_dir.name != layout.SKILLS_DIR:
        return []
    manifest = skills_dir.parent / layout.PLUGIN_MANIFEST
    text = view.read_text(manifest)
    if text is None:
        return []
    document = parse_json(strip_bom(text))
    node = document.root.value_of("bootstrapSkill") if isinstance(document.root, JsonObject) else None
    if node is None or node.value != old:
        return []
    return [TextEdit(manifest, document.node_range(node), json.dumps(new, ensure_ascii=False))]


def _agent_reference_edits(view: WorkspaceView, agent_file: Path, qualified: str) -> list[TextEdit]:
    """Every SKILL.md ``agent`` that names the agent of ``agent_file``, rewritten to ``qualified``."""
    text = view.read_text(agent_file) or ""
    found = navigation.references(view, agent_file, text, Position(0, 0))
    return [TextEdit(location.path, location.range, _yaml_scalar(qualified)) for location in found]


def _rename_agent(view: WorkspaceView, target: RenameTarget, new: str, can_rename_files: bool) -> RenamePlan:
    agent_file = target.declaration
    if not can_rename_files:
        raise RenameRefused(
            f"Clarvis knows an agent by its file name, and this editor cannot rename files through a rename: "
            f"rename {agent_file.name} to {new}{layout.AGENT_SUFFIX} yourself, then the `agent:` fields."
        )
    agent = _agent_at(view, agent_file)
    prefix = f"{agent.plugin}:" if agent is not None and agent.plugin else ""
    edits = _frontmatter_name_edit(view, agent_file, target.name, new)
    edits += _agent_reference_edits(view, agent_file, prefix + new)
    moved = _move(agent_file, agent_file.with_name(new + layout.AGENT_SUFFIX))
    return RenamePlan(tuple(edits), (moved,))


def _rename_plugin(view: WorkspaceView, target: RenameTarget, new: str, can_rename_files: bool) -> RenamePlan:
    manifest = target.declaration
    text = view.read_text(manifest) or ""
    document = parse_json(strip_bom(text))
    node = document.root.value_of("name") if isinstance(document.root, JsonObject) else None
    if node is None:
        raise RenameRefused(f"{manifest} has no plugin name to rename.")
    at_name = document.node_range(node).start
    written = json.dumps(new, ensure_ascii=False)
    edits = [
        TextEdit(location.path, location.range, written)
        for location in navigation.references(view, manifest, text, at_name, include_declaration=True)
    ]
    found = view.discovered
    if found is not None:
        for agent in sorted(found.agents.values(), key=lambda item: item.name):
            if agent.plugin == target.name:
                edits += _agent_reference_edits(view, agent.path, f"{new}:{_bare(agent)}")
    directory = manifest.parent
    files = (_move(directory, directory.with_name(new)),) if can_rename_files and directory.name == target.name else ()
    return RenamePlan(tuple(edits), files)
