"""Which plugin a file belongs to: one answer for every rule, view and message that names a file's plugin.

Clarvis installs and loads a plugin as one directory (``.clarvis/plugins/<name>/``, SPEC §2.1), so a file anywhere
under an installed plugin's directory is that plugin's, however deep: a ``plugins/inner/`` kept inside it is part
of the installed plugin, not a plugin of its own (the effective configuration reads no nested plugin). Outside the
installed plugins (a repository that develops or publishes plugins), the plugin is the one whose manifest names
the file as its hooks document, else the nearest directory above the file that holds a ``plugin.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery.plugins import PluginInfo


@dataclass(frozen=True)
class PluginOwner:
    """A plugin by its identity: the name its directory gives it (Clarvis loads a plugin only when plugin.json
    names it so) and that directory."""

    name: str
    directory: Path


def plugin_owner(
    path: Path,
    installed: Iterable[PluginInfo],
    *,
    holds_manifest: Callable[[Path], bool],
    within: Sequence[Path],
    declared_by: Path | None = None,
) -> PluginOwner | None:
    """The plugin ``path`` belongs to, or None when it is no plugin's.

    ``installed``: the installed plugins, hidden ones included (a file of a hidden personal plugin is still that
    plugin's). ``declared_by``: the directory of the manifest that names ``path`` as its hooks document, if any.
    ``holds_manifest`` says whether a directory holds a ``plugin.json``; it is asked only for directories inside
    one of ``within`` (the workspace, the personal plugins), from the file up.
    """
    parents = path.parents
    for plugin in installed:
        if plugin.directory in parents:
            return PluginOwner(plugin.name, plugin.directory)
    if declared_by is not None:
        return PluginOwner(declared_by.name, declared_by)
    for directory in directories_within(path, within):
        if holds_manifest(directory):
            return PluginOwner(directory.name, directory)
    return None


def directories_within(path: Path, bases: Sequence[Path]) -> Iterator[Path]:
    """The directories above ``path``, nearest first, as long as they lie inside one of ``bases``: how far up a
    plugin's files are looked for (never above the workspace or the personal plugins)."""
    for directory in path.parents:
        if not any(directory == base or base in directory.parents for base in bases):
            return
        yield directory
