"""What every navigation feature shares: a place in a file (``Location``), how a path is shown, and the
lookups from a name or a value under the cursor to the skill, plugin or file it names."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from clarvis_lsp.discovery import SkillInfo
from clarvis_lsp.documents.jsondoc import JsonNode, JsonObject, parse_json
from clarvis_lsp.documents.skill import FrontmatterEntry, SkillDocument, parse_skill
from clarvis_lsp.documents.text import strip_bom
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.rules.discovery import skill_name_range
from clarvis_lsp.workspace.discovered import Discovered
from clarvis_lsp.workspace.plugin_skills import plugin_skills
from clarvis_lsp.workspace.view import WorkspaceView

FILE_START = Range.point(0, 0)


@dataclass(frozen=True)
class Location:
    """A place in a file: code-point range, as the engine counts."""

    path: Path
    range: Range
    ascii_before: bool = field(default=False, compare=False)
    """Whether the range's line holds only ASCII up to the range's end (a name discovery read without a parse,
    ``SkillInfo.name_at``): its columns are then the same in every position encoding, and a client's are worked out
    without reading the file again (a workspace symbol search locates up to 1,000 copies)."""


def skill_document(path: Path, text: str) -> SkillDocument:
    return parse_skill(path, strip_bom(text))


def on_value(entry: FrontmatterEntry | None, position: Position) -> bool:
    return entry is not None and entry.is_scalar and entry.value_range.contains(position)


def on_name(document: SkillDocument, position: Position) -> str | None:
    """The skill name when ``position`` is on the ``name`` entry (its key or its value)."""
    entry = document.entry("name")
    if entry is None or not (entry.key_range.contains(position) or entry.value_range.contains(position)):
        return None
    return document.name


def on_node(node: JsonNode | None, offset: int) -> bool:
    return node is not None and node.start <= offset <= node.end


def string_value(node: JsonNode | None) -> str | None:
    if node is not None and node.kind == "string" and isinstance(node.value, str) and node.value.strip():
        return node.value
    return None


def name_location(skill: SkillInfo) -> Location:
    # ``name_at`` is a top-level ``name: `` line: ASCII up to the value, which is ASCII when the name is.
    return Location(skill.path, skill_name_range(skill), skill.name_at is not None and skill.name.isascii())


def display_path(path: Path, view: WorkspaceView) -> str:
    """``path`` as a person reads it: relative to the workspace, else ``~/…``, else absolute."""
    for base, prefix in ((view.directory, ""), (view.home, "~/")):
        try:
            return prefix + path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def root_label(skill: SkillInfo) -> str:
    """The root a copy comes from, as ``--list`` prints it: ``workspace/clarvis``, ``user/plugin:p``…"""
    return f"{skill.scope}/{skill.source}" if skill.source else skill.scope


def first_file(directory: Path, budget: int = 1000) -> Path | None:
    """The first regular file of ``directory`` in sorted order, files before subdirectories, breadth-first."""
    pending = [directory]
    while pending and budget > 0:
        current = pending.pop(0)
        try:
            with os.scandir(current) as iterator:
                entries = sorted(iterator, key=lambda entry: entry.name)
        except OSError:
            continue
        budget -= len(entries)
        subdirectories: list[Path] = []
        for entry in entries:
            try:
                if entry.is_file():
                    return Path(entry.path)
                if entry.is_dir(follow_symlinks=False):
                    subdirectories.append(Path(entry.path))
            except OSError:
                continue
        pending.extend(subdirectories)
    return None


def plugin_location(view: WorkspaceView, manifest: Path | None, directory: Path) -> Location | None:
    """The plugin's manifest at its ``name`` value (the file's start when it has none), else its first file."""
    if manifest is None:
        first = first_file(directory)
        return Location(first, FILE_START) if first is not None else None
    text = view.read_text(manifest)
    if text is not None:
        document = parse_json(text)
        if isinstance(document.root, JsonObject):
            name = document.root.value_of("name")
            if name is not None:
                return Location(manifest, document.node_range(name))
    return Location(manifest, FILE_START)


def plugin_skill(view: WorkspaceView, found: Discovered, plugin_dir: Path, name: str) -> SkillInfo | None:
    """The skill ``name`` of the plugin in ``plugin_dir`` (``workspace.plugin_skills``, open buffers first)."""
    return plugin_skills(found.registry, plugin_dir, view.overlay).skills.get(name)
