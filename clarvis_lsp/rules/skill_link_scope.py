"""What ``skill/broken-link`` checks beyond the syntax of a link: which definitions are links, and where a
plugin's skill may point (SPEC §3.1).

- A link reference definition (``[label]: destination``) is a link only when something references its label
  (``[text][label]``, ``[label][]`` or ``[label]``): CommonMark renders nothing for an unused one, so template
  lines such as ``- [Feature 1]: [Description]`` are not links. Which labels are referenced is read from the
  body's bracketed words, generously (a bracket pair in code counts too): a definition wrongly taken as
  referenced is checked as before, never one that a link uses skipped.
- A plugin is installed whole, so a plugin's skill may link to any file of the same plugin, and a leading
  ``${CLAUDE_PLUGIN_ROOT}`` (Claude Code's placeholder, common in skills ported from its plugins) stands for the
  plugin directory. Outside a plugin that placeholder cannot be resolved, and the link is not checked.

Kept apart from ``skill_links`` (the scan: where links are and what they say) so each can change on its own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from clarvis_lsp.knowledge.layout import PLUGIN_MANIFEST, PLUGINS_DIR, SKILLS_DIR

PLUGIN_ROOT_PLACEHOLDER = "${CLAUDE_PLUGIN_ROOT}"
"""A leading segment that stands for the plugin directory of a plugin's skill."""
CLAUDE_CODE_MANIFEST = os.path.join(".claude-plugin", "plugin.json")
"""Where a Claude Code plugin keeps its manifest: a plugin being ported, whose skills link the same way."""
_MAX_SKILL_DEPTH = 3
"""How many directories a SKILL.md may sit below its plugin's ``skills/`` (``skills/group/name/SKILL.md``)."""

# `[label]`, escapes allowed inside, no unescaped bracket (CommonMark labels hold none), at most 999 characters;
# and whether `:` follows, as after a definition's label.
_BRACKETED = re.compile(r"\[((?:[^\[\]\\]|\\.){1,999})\](:?)")
# What may stand before a definition's `[` on its line: spaces, quote markers and list markers.
_DEFINITION_PREFIX = re.compile(r"(?:[ \t>]|[-*+](?=[ \t])|[0-9]{1,9}[.)](?=[ \t]))*")

_last: tuple[str, frozenset[str]] | None = None
"""The last body asked about and its labels, as one tuple so that threads never pair one body with another's."""


def normalised_label(label: str) -> str:
    """A link label as CommonMark matches labels: white space collapsed, case folded (markdown-it's way)."""
    return " ".join(label.split()).lower().upper()


def is_referenced(body: str, label: str) -> bool:
    """Whether a link or image of ``body`` may use the definition of ``label`` (normalised)."""
    return label in referenced_labels(body)


def referenced_labels(body: str) -> frozenset[str]:
    """The normalised labels ``body`` writes in brackets anywhere but as a definition's own label. The last
    body's answer is kept: its definitions are asked about one after the other."""
    global _last
    last = _last
    if last is not None and last[0] is body:
        return last[1]
    labels = frozenset(_referenced(body))
    _last = (body, labels)
    return labels


def _referenced(body: str) -> set[str]:
    labels: set[str] = set()
    for match in _BRACKETED.finditer(body):
        label = match.group(1)
        if label.startswith("^"):
            continue  # a footnote, not a link label
        if match.group(2):
            line_start = body.rfind("\n", 0, match.start()) + 1
            prefix = _DEFINITION_PREFIX.match(body, line_start, match.start())
            if prefix is not None and prefix.end() == match.start():
                continue  # where a definition's label is written: that defines, it does not reference
        labels.add(normalised_label(label))
    return labels


def plugin_directory(skill_directory: str, lexists: Callable[[str], bool] = os.path.lexists) -> str | None:
    """The plugin directory a skill belongs to, or None: the directory holding the ``skills/`` the skill is in,
    when it holds a ``plugin.json`` (or Claude Code's ``.claude-plugin/plugin.json``) or is an installed plugin
    (``…/plugins/<name>/``)."""
    directory = skill_directory
    for _ in range(_MAX_SKILL_DEPTH):
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        if os.path.basename(parent) == SKILLS_DIR:
            plugin = os.path.dirname(parent)
            if (
                lexists(os.path.join(plugin, PLUGIN_MANIFEST))
                or lexists(os.path.join(plugin, CLAUDE_CODE_MANIFEST))
                or os.path.basename(os.path.dirname(plugin)) == PLUGINS_DIR
            ):
                return plugin
        directory = parent
    return None


def plugin_root_target(path: str, skill_directory: str) -> str | None:
    """The file a ``${CLAUDE_PLUGIN_ROOT}/…`` path names, or None outside a plugin (known only at run time)."""
    plugin = plugin_directory(skill_directory)
    if plugin is None:
        return None
    rest = path[len(PLUGIN_ROOT_PLACEHOLDER) :].lstrip("/")
    return os.path.normpath(os.path.join(plugin, rest))


def plugin_problem(
    target: str,
    kind: str,
    resolved: str,
    skill_directory: str,
    exists: Callable[[str], bool],
    lexists: Callable[[str], bool],
) -> tuple[bool, str | None]:
    """Whether the skill is in a plugin, and if so what is wrong with its link to ``resolved``, outside the skill
    directory: None when it names a file of the same plugin, a message otherwise. Outside a plugin the caller's
    messages apply."""
    plugin = plugin_directory(skill_directory, lexists)
    if plugin is None:
        return False, None
    name = os.path.basename(plugin)
    if not _is_under(resolved, plugin):
        return True, (
            f'{kind} "{target}" points outside the plugin "{name}": a plugin is installed as its directory, so '
            "the file is not there when this skill runs; copy it into the plugin and link to the copy."
        )
    if exists(resolved):
        return True, None
    relative = Path(os.path.relpath(resolved, plugin)).as_posix()
    return True, f'{kind} "{target}" points to no file: create {relative} in the plugin "{name}" or correct the link.'


def _is_under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
