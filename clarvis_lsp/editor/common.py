"""What completion and hover share: the schema of each file kind, SKILL.md frontmatter lines, display helpers.

Everything here works on half-typed documents: the frontmatter is read line by line (a key is a word at column
0 followed by ``:``), so it still answers while the YAML does not parse.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonDocument, parse_json
from clarvis_lsp.documents.skill import FENCE, closing_fence_line
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.schema_docs import PathKey, PropertyDoc, describe, property_names
from clarvis_lsp.workspace.discovered import Discovered
from clarvis_lsp.workspace.plugin_skills import plugin_skills as skills_of_plugin

SCHEMA_FOR_KIND: dict[FileKind, str] = {
    FileKind.SKILL: "skill-frontmatter",
    FileKind.SETTINGS: "settings",
    FileKind.PLUGIN: "plugin",
    FileKind.HOOKS: "hooks",
    FileKind.MARKETPLACE: "marketplace",
}

# Kinds whose documents hold hook objects (and so ``event`` values).
HOOK_KINDS = frozenset({FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS})

# Where hook objects sit in each kind: arrays whose items are hooks. A path into one of those items is asked of
# the hook schema itself: reached through the ``anyOf`` of a hooks document (hooks.json, plugin.json ``hooks``),
# the schema walk would treat the hook as one alternative among several and no longer trust its ``required``,
# its forbidden fields or the ``on_failure`` narrowing of its event.
_HOOK_ARRAYS: dict[FileKind, tuple[tuple[str, ...], ...]] = {
    FileKind.SETTINGS: (("hooks",),),
    FileKind.PLUGIN: (("hooks", "hooks"), ("hooks",)),
    FileKind.HOOKS: (("hooks",), ()),
}

_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_COLON = re.compile(r"[ \t]*:(?=[ \t]|\Z)")
_COMMENT = re.compile(r"[ \t]#")


# ---------------------------------------------------------------------------------------------- schemas


@functools.lru_cache(maxsize=8)
def parsed_json(text: str) -> JsonDocument:
    """``parse_json`` for the last few texts: hovering around an unchanged buffer parses it once.

    The result is shared: treat it as read-only.
    """
    return parse_json(text)


class _Missing:
    pass


_MISSING = _Missing()


def schema_target(kind: FileKind, path: Sequence[PathKey], data: object) -> tuple[str, list[PathKey], object]:
    """The schema to ask about ``path`` of a document of ``kind``, the path within it, and the value there.

    Inside a hook object that is the ``hook`` schema and the hook itself (see ``_HOOK_ARRAYS``); else the kind's
    schema and the whole document. The value is ``_MISSING`` when the document has nothing at that place.
    """
    for prefix in _HOOK_ARRAYS.get(kind, ()):
        size = len(prefix)
        if len(path) > size and tuple(path[:size]) == prefix and isinstance(path[size], int):
            return "hook", list(path[size + 1 :]), _value_at(data, path[: size + 1])
    return SCHEMA_FOR_KIND[kind], list(path), data


def _value_at(data: object, path: Sequence[PathKey]) -> object:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str) and part in data:
            data = data[part]
            continue
        if not (isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)):
            return _MISSING
        data = data[part]
    return data


def describe_at(kind: FileKind, path: Sequence[PathKey], data: object) -> PropertyDoc | None:
    """``schema_docs.describe`` for ``path`` of a document of ``kind`` whose parsed value is ``data``."""
    name, inner, instance = schema_target(kind, path, data)
    if isinstance(instance, _Missing):
        return describe(name, inner)
    return describe(name, inner, instance)


def properties_at(kind: FileKind, path: Sequence[PathKey], data: object) -> list[PropertyDoc]:
    """``schema_docs.property_names`` for the object at ``path`` of a document of ``kind``."""
    name, inner, instance = schema_target(kind, path, data)
    if isinstance(instance, _Missing):
        return property_names(name, inner)
    return property_names(name, inner, instance)


# ------------------------------------------------------------------------------------------ frontmatter


def frontmatter_lines(lines: LineIndex) -> range | None:
    """The lines inside the frontmatter (after the opening ``---``, before the closing one or to the end)."""
    if not FENCE.match(lines.line_text(0)):
        return None
    closing = closing_fence_line(lines)
    return range(1, lines.line_count if closing is None else closing)


@dataclass(frozen=True)
class FrontmatterLine:
    """One top-level line of the frontmatter as typed: ``key: value`` or a key being typed (columns)."""

    line: int
    text: str
    key: str  # "" on an empty line
    key_start: int
    key_end: int
    colon: int | None  # column of ':' (None while the key is being typed)
    value_start: int  # first non-blank column after the colon (== value_end when there is no value)
    value_end: int  # end of the value, trailing blanks excluded

    @property
    def value(self) -> str:
        return self.text[self.value_start : self.value_end]

    def unquoted_value(self) -> tuple[str, int, int]:
        """The value without surrounding quotes, and its columns."""
        start, end = self.value_start, self.value_end
        text = self.text
        if start < end and text[start] in "\"'":
            start += 1
            if end > start and text[end - 1] == text[start - 1]:
                end -= 1
        return text[start:end], start, end


def frontmatter_line(lines: LineIndex, line: int) -> FrontmatterLine | None:
    """The top-level frontmatter line ``line`` (None outside the frontmatter, or for an indented/list/comment line).

    An empty line is a key position with an empty key; a line that is only a word is a key being typed.
    """
    inside = frontmatter_lines(lines)
    if inside is None or line not in inside:
        return None
    text = lines.line_text(line)
    if not text.strip():
        return FrontmatterLine(line, text, "", 0, 0, None, len(text), len(text)) if not text else None
    match = _KEY.match(text)
    if match is None:
        return None
    key_end = match.end()
    colon_match = _COLON.match(text, key_end)
    if colon_match is None:
        if text[key_end:].strip():
            return None  # not a key: prose or a malformed line
        return FrontmatterLine(line, text, match.group(), 0, key_end, None, len(text), len(text))
    colon = colon_match.end() - 1
    value_start = colon + 1
    while value_start < len(text) and text[value_start] in " \t":
        value_start += 1
    value_end = len(text.rstrip(" \t"))
    if text[value_start : value_start + 1] not in ("'", '"'):
        comment = _COMMENT.search(text, colon)
        if comment is not None:
            value_end = len(text[: comment.start()].rstrip(" \t"))
    if value_end < value_start:  # no value (blanks or a comment only)
        value_end = value_start = min(value_start, value_end if value_end > colon else value_start)
    return FrontmatterLine(line, text, match.group(), 0, key_end, colon, value_start, value_end)


def frontmatter_keys(lines: LineIndex, skip_line: int | None = None) -> set[str]:
    """Every top-level key written in the frontmatter (line by line, so it works while the YAML is broken)."""
    inside = frontmatter_lines(lines)
    if inside is None:
        return set()
    keys: set[str] = set()
    for line in inside:
        if line == skip_line:
            continue
        text = lines.line_text(line)
        match = _KEY.match(text)
        if match is not None and _COLON.match(text, match.end()) is not None:
            keys.add(match.group())
    return keys


# ------------------------------------------------------------------------------------------------- facts


def plugin_skills(
    discovered: Discovered | None, plugin_dir: Path, overlay: Mapping[Path, str] | None = None
) -> dict[str, Path]:
    """The skills in ``<plugin_dir>/skills/`` by frontmatter name, with their SKILL.md, the open buffers
    (``overlay``) read first: ``workspace.plugin_skills``, the answer every view of a plugin's skills gives."""
    if discovered is None:
        return {}
    found = skills_of_plugin(discovered.registry, plugin_dir, overlay)
    return {name: info.path for name, info in found.skills.items()}


def display_path(path: Path | str, discovered: Discovered | None) -> str:
    """A path as a person reads it: relative to the workspace, ``~/…`` under the home, else absolute."""
    text = os.path.normpath(str(path))
    if discovered is not None:
        workspace = os.path.normpath(discovered.skill_config.workspace_dir)
        home = os.path.normpath(discovered.skill_config.home)
        for base, prefix in ((workspace, ""), (home, "~/")):
            if text.startswith(base + os.sep):
                return prefix + os.path.relpath(text, base).replace(os.sep, "/")
    return text


def path_link(path: Path | str, discovered: Discovered | None) -> str:
    """A Markdown link to ``path`` that shows its display form."""
    return f"[`{display_path(path, discovered)}`]({Path(os.path.normpath(str(path))).as_uri()})"


def same_path(a: Path | str | None, b: Path | str | None) -> bool:
    return a is not None and b is not None and os.path.normpath(str(a)) == os.path.normpath(str(b))
