"""Document links, protocol-free: the files a document names, so the editor can open them with a click.

- a SKILL.md body: its relative Markdown links and images (``[text](references/api.md)``, ``[x]: path``), exactly
  those ``skill/broken-link`` checks (``clarvis_lsp.rules.skill_links.body_links``, a CommonMark reading: nothing
  in code, HTML or comments), resolved against the skill directory as that rule resolves them;
- a plugin.json: its ``hooks`` path (the one path its schema declares), resolved against the plugin directory;
- the hooks of settings.json, plugin.json and hooks documents: the words of a hook's ``command`` that are
  relative paths (``./scripts/check.sh``, ``bash scripts/lint.sh``), resolved against the plugin directory for a
  plugin's hooks and against the workspace (the directory holding ``.clarvis``) for settings.

A plugin path or command path that leaves its directory (``../``, absolute, through a symlink; any symlink when
symlinks are off) is never linked: it is reported (``plugin/path-escapes``) and not read (SPEC §9).

Only a link whose target exists (on disk, or as an open buffer) is returned: a link the editor cannot open would
only mislead, and the missing targets are already diagnostics.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Container, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.documents.text import strip_bom
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.rules import skill_links
from clarvis_lsp.rules.plugin_paths import path_inside

__all__ = ["DocumentLink", "document_links"]

MAX_LINKS = 5000  # an editor draws every link: a huge generated file gets the first ones
_MAX_DEPTH = 8  # how deep hook objects are looked for in a JSON document

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class DocumentLink:
    """A range of the document that names an existing file ``target``."""

    range: Range
    target: Path
    tooltip: str


def document_links(
    kind: FileKind | None,
    path: Path,
    text: str,
    open_files: Container[Path] = (),
    *,
    follow_symlinks: bool = True,
) -> list[DocumentLink]:
    """The links of a document of ``kind`` whose target exists (``open_files``: the editor's open documents, which
    exist before they are saved); at most ``MAX_LINKS``. Never raises on broken input: what parsed is linked.
    ``follow_symlinks``: the workspace's setting (off: no JSON document's path through a symlink is linked)."""
    text = strip_bom(text)
    found: list[DocumentLink] = []
    if kind is FileKind.SKILL:
        found = list(itertools.islice(_skill_links(path, text, open_files), MAX_LINKS))
    elif kind in (FileKind.PLUGIN, FileKind.HOOKS, FileKind.SETTINGS):
        found = list(_json_links(kind, path, parse_json(text), open_files, follow_symlinks))
    return found[:MAX_LINKS]


# -- SKILL.md ----------------------------------------------------------------------------------------------------


def _skill_links(path: Path, text: str, open_files: Container[Path]) -> Iterator[DocumentLink]:
    """The body's links as ``skill/broken-link`` reads them, each to its resolved target when that exists: the
    rule and the editor's links can never disagree on what is a link or where it points."""
    document = parse_skill(path, text)
    exists: dict[str, bool] = {}  # each target looked up once, as the rule does
    for link in skill_links.body_links(document):
        if link.resolved is None:
            continue  # a URL, an anchor, an absolute path, a run-time placeholder
        target = Path(link.resolved)
        found = exists.get(link.resolved)
        if found is None:
            found = exists[link.resolved] = _exists(target, open_files)
        if not found:
            continue
        start, end = link.start, link.end
        if link.written.startswith("<") and link.written.endswith(">"):
            start, end = start + 1, end - 1  # the destination inside ``<…>``
        where = Range(document.lines.position(start), document.lines.position(end))
        yield DocumentLink(where, target, f"Open {link.target}")


def _exists(target: Path, open_files: Container[Path]) -> bool:
    return target in open_files or os.path.exists(target)


# -- plugin.json and hooks ---------------------------------------------------------------------------------------


def _resolve(written: str, base: Path, follow_symlinks: bool) -> Path | None:
    """A relative destination as a path under ``base``; None for a URL, an anchor, an absolute path, or a path
    that leaves ``base`` (``plugin_paths.path_inside``)."""
    target = unquote(written.split("#", 1)[0].split("?", 1)[0])
    if not target or _SCHEME.match(target):
        return None
    return path_inside(base, target, follow_symlinks=follow_symlinks)


def _plugin_directory(path: Path) -> Path | None:
    """The plugin a plugin.json or hooks document belongs to: the nearest directory up holding a plugin.json."""
    for directory in list(path.parents)[:3]:
        if (directory / layout.PLUGIN_MANIFEST).is_file() or path == directory / layout.PLUGIN_MANIFEST:
            return directory
    return None


def _json_links(
    kind: FileKind, path: Path, document: JsonDocument, open_files: Container[Path], follow_symlinks: bool
) -> Iterator[DocumentLink]:
    plugin_dir = _plugin_directory(path) if kind is not FileKind.SETTINGS else None
    if kind is FileKind.PLUGIN and isinstance(document.root, JsonObject):
        hooks = document.root.value_of("hooks")
        if hooks is not None and hooks.kind == "string" and isinstance(hooks.value, str):
            target = _resolve(hooks.value, path.parent, follow_symlinks)
            if target is not None and _exists(target, open_files):
                yield DocumentLink(_inner(document, hooks), target, f"Open the hooks document {hooks.value}")
    # A hook's command runs from the plugin directory for a plugin's hooks, from the workspace for settings'.
    base = plugin_dir if plugin_dir is not None else path.parent.parent
    for command in _hook_commands(document.root, 0):
        yield from _command_links(document, command, base, open_files, follow_symlinks)


def _inner(document: JsonDocument, node: JsonNode) -> Range:
    return document.range_of(node.start + 1, max(node.start + 1, node.end - 1))


def _hook_commands(node: JsonNode | None, depth: int) -> Iterator[JsonNode]:
    """The ``command`` string of every hook object (one with an ``event``) under ``node``."""
    if node is None or depth > _MAX_DEPTH:
        return
    if isinstance(node, JsonObject):
        command = node.value_of("command")
        if node.value_of("event") is not None and command is not None and command.kind == "string":
            yield command
            return
        for member in node.members:
            yield from _hook_commands(member.value, depth + 1)
    elif isinstance(node, JsonArray):
        for item in node.items:
            yield from _hook_commands(item, depth + 1)


def _command_links(
    document: JsonDocument, command: JsonNode, base: Path, open_files: Container[Path], follow_symlinks: bool
) -> Iterator[DocumentLink]:
    """The words of a command that are relative paths of existing files (``./x.sh``, ``scripts/x.sh``)."""
    raw_start, raw_end = command.start + 1, max(command.start + 1, command.end - 1)
    raw = document.text[raw_start:raw_end]
    for match in re.finditer(r"[^\s'\"`;|&<>()]+", raw):
        word = match.group(0)
        if "/" not in word or "\\" in word or "$" in word or _SCHEME.match(word):
            continue
        target = _resolve(word, base, follow_symlinks)
        if target is not None and (target in open_files or os.path.isfile(target)):
            begin, end = raw_start + match.start(), raw_start + match.end()
            yield DocumentLink(document.range_of(begin, end), target, f"Open {word}")
