"""Completion in SKILL.md frontmatter, read line by line so that it works while the YAML does not parse: the keys
not yet present, values from the schema and from discovery (a skill's ``agent``), and a frontmatter snippet."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import (
    FrontmatterLine,
    display_path,
    frontmatter_keys,
    frontmatter_line,
    frontmatter_lines,
)
from clarvis_lsp.editor.completion_item import CandidateKind, CompletionCandidate
from clarvis_lsp.editor.completion_snippets import preview, type_label
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge.skill import NAME_PATTERN
from clarvis_lsp.schema_docs import describe, load_schema, property_names
from clarvis_lsp.workspace.discovered import Discovered

__all__ = ["complete_skill"]


def complete_skill(
    lines: LineIndex,
    position: Position,
    discovered: Discovered | None,
    path: Path | None,
    snippets: bool,
    trigger: str | None,
) -> list[CompletionCandidate]:
    if frontmatter_lines(lines) is None:
        if snippets and position.line == 0 and trigger is None:
            return _frontmatter_snippet(lines, position, path)
        return []
    current = frontmatter_line(lines, position.line)
    if current is None:
        return []
    column = position.character
    if current.colon is None or column <= current.key_end:
        if trigger in (":", " ", '"'):
            return []
        if column < current.key_start:
            return []
        return _skill_keys(lines, current.line, current.key, current.key_end, current.colon is not None)
    if column <= current.colon:
        return []
    return _skill_values(current.key, current, column, discovered)


def _skill_keys(lines: LineIndex, line: int, typed: str, key_end: int, has_colon: bool) -> list[CompletionCandidate]:
    present = frontmatter_keys(lines, skip_line=line)
    replace = Range(Position(line, 0), Position(line, key_end))
    result = []
    for index, doc in enumerate(property_names("skill-frontmatter", [])):
        name = doc.name
        if name is None or name in present:
            continue
        result.append(
            CompletionCandidate(
                label=name,
                kind="property",
                detail=type_label(doc) + (" (required)" if doc.required else ""),
                documentation_markdown=doc.markdown or None,
                insert_text=name if has_colon else f"{name}: ",
                is_snippet=False,
                replace_range=replace,
                sort_text=f"{0 if doc.required else 1}{index:04d}",
            )
        )
    return result


def _skill_values(
    key: str, current: FrontmatterLine, column: int, discovered: Discovered | None
) -> list[CompletionCandidate]:
    line = current.line
    text = current.text
    if current.value_start < current.value_end:
        start, end = current.value_start, current.value_end
    else:
        start = end = column
    if not start <= column <= end:
        return []
    quote = text[start] if start < end and text[start] in "\"'" else ""
    prefix = " " if start > 0 and text[start - 1] == ":" else ""
    replace = Range(Position(line, start), Position(line, end))

    def candidate(
        label: str, kind: CandidateKind, detail: str | None, doc: str | None, index: int
    ) -> CompletionCandidate:
        literal = f"{quote}{label}{quote}" if quote else label
        return CompletionCandidate(
            label=label,
            kind=kind,
            detail=detail,
            documentation_markdown=doc,
            insert_text=prefix + literal,
            is_snippet=False,
            replace_range=replace,
            sort_text=f"0{index:04d}",
            filter_text=literal if quote else None,
        )

    if key == "agent":
        if discovered is None:
            return []
        ordered = sorted(discovered.agents.values(), key=lambda agent: (not agent.enabled, agent.name))
        result = []
        for index, agent in enumerate(ordered):
            where = display_path(agent.path, discovered)
            if agent.plugin is not None:
                detail = f"agent of plugin {agent.plugin}" + ("" if agent.enabled else " (not enabled)")
            else:
                detail = f"{agent.scope} agent"
            note = "" if agent.enabled else f"\n\nThe plugin `{agent.plugin}` is not in `enabledPlugins`."
            result.append(candidate(agent.name, "reference", detail, f"Agent `{agent.name}`: `{where}`.{note}", index))
        return result
    doc = describe("skill-frontmatter", [key])
    if doc is None:
        return []
    if doc.enum:
        return [
            candidate(str(item.value), "enum", None, item.markdown_description or item.description, index)
            for index, item in enumerate(doc.enum)
        ]
    if "boolean" in doc.types:
        return [
            candidate(
                label,
                "value",
                "default" if doc.has_default and doc.default is value else "boolean",
                doc.markdown or None,
                index,
            )
            for index, (label, value) in enumerate((("true", True), ("false", False)))
        ]
    return []


def _frontmatter_snippet(lines: LineIndex, position: Position, path: Path | None) -> list[CompletionCandidate]:
    """A new frontmatter block for a SKILL.md that has none, with the directory's name as the default name."""
    text = lines.line_text(0)
    if text.strip() and not "---".startswith(text.strip()):
        return []
    schema = load_schema("skill-frontmatter")
    result = []
    for index, snippet in enumerate(schema.get("defaultSnippets", ())):
        body = snippet.get("body")
        if not isinstance(body, Mapping):
            continue
        entries = []
        for key, value in body.items():
            rendered = str(value)
            if key == "name" and path is not None and NAME_PATTERN.match(path.parent.name):
                rendered = re.sub(
                    r"\$\{(\d+):[^}]*\}", lambda m: "${" + m.group(1) + ":" + path.parent.name + "}", rendered
                )
            entries.append(f"{key}: {rendered}")
        insert = "---\n" + "\n".join(entries) + "\n---\n$0"
        result.append(
            CompletionCandidate(
                label=str(snippet.get("label", "New skill frontmatter")),
                kind="snippet",
                detail="SKILL.md frontmatter",
                documentation_markdown="```yaml\n" + preview(insert) + "\n```",
                insert_text=insert,
                is_snippet=True,
                replace_range=Range(Position(0, 0), Position(0, len(text))),
                sort_text=f"2{index:04d}",
                filter_text=None,
            )
        )
    return result
