"""The paths a ``plugin.json`` names (``hooks``), resolved against the plugin directory (SPEC §9).

A path that leaves the plugin (``../x``, an absolute path, a URL, a symlink pointing outside) is reported and
never read; one that names no file is reported; ``hooks/hooks.json`` next to a manifest that declares ``hooks``
is reported as not read. Inline hooks are handed to the ``hooks/*`` rules.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from clarvis_lsp.discovery.fs import is_regular_file, is_symlink, symlinked_component
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.findings import Range, Related, Severity
from clarvis_lsp.knowledge import layout
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.hooks import check_hooks_value
from clarvis_lsp.rules.json_values import kind_phrase
from clarvis_lsp.rules.jsonedit import json_string
from clarvis_lsp.rules.plugin_manifest import INVALID_VALUE, directory_name

MISSING_PATH = rule(
    "plugin/missing-path",
    Severity.ERROR,
    "A relative path of the manifest (`hooks`) points to no file.",
    why="Clarvis reads the plugin's hooks from that file; when it does not exist the plugin contributes no hooks.",
    example='{\n  "name": "quality",\n  "hooks": "hooks/extra.json"\n}   (with no hooks/extra.json)',
    fix="Create the file or correct the path (relative to the plugin directory).",
    file_kind="plugin",
)


PATH_ESCAPES = rule(
    "plugin/path-escapes",
    Severity.ERROR,
    "A path of the manifest leaves the plugin directory (`../x`, an absolute path).",
    why="A plugin is installed and approved as one directory; a path outside it points at files that are not "
    "part of the plugin (and clarvis-lsp does not read them).",
    example='{\n  "name": "quality",\n  "hooks": "../shared/hooks.json"\n}',
    fix="Move the file into the plugin directory and use a relative path such as `hooks/hooks.json`.",
    file_kind="plugin",
)


HOOKS_JSON_IGNORED = rule(
    "plugin/hooks-json-ignored",
    Severity.INFORMATION,
    "`hooks/hooks.json` exists but the manifest declares `hooks`, so the file is not read.",
    why="Clarvis reads `hooks/hooks.json` only when the manifest contributes no hooks; hooks written there "
    "look active but never run.",
    example='{\n  "name": "quality",\n  "hooks": []\n}   (with a hooks/hooks.json next to it)',
    fix="Move the hooks into one place: remove `hooks` from the manifest, or point it at `hooks/hooks.json`, "
    "or delete the unused file.",
    file_kind="plugin",
)


def check_hooks(
    document: JsonDocument, root: JsonObject, plugin_dir: Path, context: JsonFileContext, findings: Findings
) -> None:
    member = root.get("hooks")
    if member is None:
        return
    node = member.value
    reads_hooks_json = False
    if node is None:
        pass  # json/syntax reports the missing value
    elif isinstance(node, (JsonArray, JsonObject)):
        # The plugin every finding about its files names (``discovery.owner``), its own directory by default.
        owner = context.plugin_owner
        name = owner.name if owner is not None else directory_name(context)
        check_hooks_value(document, node, findings, owner=f'plugin "{name}"')
    elif node.kind == "string" and isinstance(node.value, str):
        target = _check_relative_path(
            document, node, plugin_dir, "hooks", findings, follow_symlinks=context.registry.config.follow_symlinks
        )
        reads_hooks_json = target is not None and _same_file(target, plugin_dir / layout.PLUGIN_HOOKS_FILE)
    else:
        findings.add(
            INVALID_VALUE.code,
            document.node_range(node),
            f'"hooks" must be an array of hooks, a hooks document {{"hooks": [...]}} or a relative path to one, '
            f"not {kind_phrase(node)}.",
        )
    hooks_json = plugin_dir / layout.PLUGIN_HOOKS_FILE
    if not reads_hooks_json and _is_file(hooks_json, context.registry.config.follow_symlinks):
        findings.add(
            HOOKS_JSON_IGNORED.code,
            document.key_range(member),
            'The manifest declares "hooks", so Clarvis does not read hooks/hooks.json: move its hooks here, '
            'point "hooks" at it, or delete the file.',
            related=[Related(hooks_json, Range.point(0, 0), "not read while plugin.json declares hooks")],
        )


def _is_file(path: Path, follow_symlinks: bool) -> bool:
    """A regular file; with symlinks off a link is not followed (not even by ``stat``)."""
    return is_regular_file(str(path), follow_symlinks)


def _same_file(a: Path, b: Path) -> bool:
    return os.path.normcase(os.path.normpath(a)) == os.path.normcase(os.path.normpath(b))


def _escape_reason(value: str) -> str | None:
    """Why a manifest path is not a relative path inside the plugin, or None when it is (lexically)."""
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", value):
        return "is a URL, not a path inside the plugin directory"
    if value.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", value):
        return "is an absolute path"
    if value == "~" or value.startswith(("~/", "~\\")):
        return "points into the home directory"
    depth = 0
    for part in re.split(r"[/\\]+", value):
        if part == "..":
            depth -= 1
            if depth < 0:
                return "leaves the plugin directory"
        elif part not in ("", "."):
            depth += 1
    return None


def path_inside(base: Path, relative: str, *, follow_symlinks: bool) -> Path | None:
    """Where ``relative`` (a manifest path, a hook command's script) leads under ``base`` (the plugin directory),
    or None when it leaves it: lexically (``../x``, an absolute path, a URL, ``~``), or through a symlink (one
    pointing outside when symlinks are followed; any symlink on the way when they are not, since then no link is
    read at all). What the editor may open, link or read for a plugin path (SPEC §9); existence is the caller's
    question. Only ``lstat``/``readlink`` are used: nothing outside is opened to decide."""
    if not relative.strip() or _escape_reason(relative) is not None:
        return None
    target = Path(os.path.normpath(base / relative))
    try:
        if not follow_symlinks:
            on_the_way = symlinked_component(str(target), str(base)) is not None
            return None if on_the_way or is_symlink(str(target)) else target
        return target if _within(os.path.realpath(target), os.path.realpath(base)) else None
    except (OSError, ValueError):
        return None


def _check_relative_path(
    document: JsonDocument, node: JsonNode, plugin_dir: Path, field: str, findings: Findings, *, follow_symlinks: bool
) -> Path | None:
    """Check a relative path field; the resolved path when it is inside the plugin and exists."""
    value = node.value
    assert isinstance(value, str)
    if not value.strip():
        findings.add(
            INVALID_VALUE.code,
            document.node_range(node),
            f'"{field}" is empty: write a relative path inside the plugin such as "hooks/hooks.json", '
            "or remove the field.",
        )
        return None
    reason = _escape_reason(value)
    if reason is not None:
        findings.add(
            PATH_ESCAPES.code,
            document.node_range(node),
            f'"{field}" {json_string(value)} {reason}: a plugin may only refer to its own files; move the file into '
            'the plugin directory and use a relative path such as "hooks/hooks.json". It is not read.',
        )
        return None
    target = Path(os.path.normpath(plugin_dir / value))
    try:
        exists = os.path.lexists(target)
        # A symlink may still lead outside; with followSymlinks off no link is read at all (SPEC §9).
        inside = not exists or not follow_symlinks or _within(os.path.realpath(target), os.path.realpath(plugin_dir))
    except OSError:
        exists, inside = False, True
    if not inside:
        findings.add(
            PATH_ESCAPES.code,
            document.node_range(node),
            f'"{field}" {json_string(value)} leads outside the plugin directory through a symlink: a plugin may only '
            "refer to its own files; move the file into the plugin directory. It is not read.",
        )
        return None
    if not exists or not (_is_file(target, follow_symlinks) or (not follow_symlinks and is_symlink(str(target)))):
        what = "is a directory, not a file" if exists and target.is_dir() else "does not exist"
        findings.add(
            MISSING_PATH.code,
            document.node_range(node),
            f'"{field}" points to {json_string(value)}, which {what} in the plugin directory: create the file or '
            "correct the path (relative to the plugin directory).",
        )
        return None
    return target


def _within(path: str, directory: str) -> bool:
    path = os.path.normcase(path)
    directory = os.path.normcase(directory)
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
