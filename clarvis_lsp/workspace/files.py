"""Finding, recognising and reading a workspace's files: one implementation for the engine and its views.

``WorkspaceFiles`` answers which files a workspace holds (``files``), what each is (``kind_of``: the name's rules,
a marketplace's plugin directories, a manifest's hooks document), which plugin a file belongs to
(``plugin_owner``) and what it holds (``read``, the open buffers winning over the disk). It is written once over a
few attributes, so the ``WorkspaceEngine`` (``workspace.engine``), whose answers follow every edit, and a
``WorkspaceView`` (``workspace.view``), whose answers belong to one moment, cannot recognise or read a file
differently. Each keeps its own answers: the engine forgets them when a file they depend on changes, a view never
(nothing it depends on changes for it).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.discovery import PluginInfo, scan_plugins
from clarvis_lsp.discovery.fs import (
    MEGABYTE,
    SYMLINK_REFUSED,
    is_symlink,
    is_within,
    read_regular_file,
    symlinked_component,
)
from clarvis_lsp.discovery.io import DirectoryReader
from clarvis_lsp.discovery.owner import PluginOwner, directories_within, plugin_owner
from clarvis_lsp.discovery.walk import Excludes, walk_tree
from clarvis_lsp.documents.text import LineIndex, decode, strip_bom
from clarvis_lsp.knowledge.files import CANDIDATE_NAMES, FileKind, file_kind
from clarvis_lsp.knowledge.layout import MARKETPLACE_FILE, PLUGIN_MANIFEST, plugins_dir
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.file import check_encoding
from clarvis_lsp.workspace.marketplaces import marketplace_sources
from clarvis_lsp.workspace.plugin_files import holds_manifest, named_hooks_file, relative_to, walked_hooks_file


class WorkspaceFiles(ABC):
    """A workspace's files over its directory, home, configuration and open buffers (see the module docstring).

    What a subclass provides: where it keeps its answers (``manifest_hooks``, ``marketplace_plugin_dirs``,
    ``_installed_plugins``) and whether it records which files could not be read (``_record_read``)."""

    directory: Path
    home: Path
    config: ProjectConfig
    overlay: Mapping[Path, str]
    """Open editor buffers by path: they replace the disk content."""
    outer_excludes: Excludes | None
    reader: DirectoryReader

    @abstractmethod
    def manifest_hooks(self, manifest: Path) -> Path | None:
        """``_read_manifest_hooks``'s answer for ``manifest``, kept."""

    @abstractmethod
    def marketplace_plugin_dirs(self) -> frozenset[Path]:
        """``_find_marketplace_plugin_dirs``'s answer, kept (and ``frozenset()`` while it is worked out: the walk
        asks ``kind_of`` about the plugin.json files it meets)."""

    @abstractmethod
    def _installed_plugins(self) -> list[PluginInfo]:
        """The installed plugins, hidden ones included: discovery's, or ``_scan_installed_plugins``'s, kept."""

    @abstractmethod
    def _record_read(self, path: Path, why: str | None) -> None:
        """``read`` read ``path`` (``why`` None) or could not, for the reason ``why``."""

    def kind_of(self, path: Path) -> FileKind | None:
        kind = file_kind(path, workspace_dirs=frozenset({self.directory}))
        if kind is None and path.name == PLUGIN_MANIFEST and path.parent in self.marketplace_plugin_dirs():
            return FileKind.PLUGIN
        if kind is None and path.suffix == ".json" and path.name != PLUGIN_MANIFEST and self.declaring_plugin(path):
            return FileKind.HOOKS
        return kind

    def _scan_installed_plugins(self) -> list[PluginInfo]:
        """The installed plugins, hidden ones included, from a scan of the plugin directories: what ``plugin_owner``
        reads while discovery has not run (a SKILL.md checked where it is read, ``batch.ahead``)."""
        follow = self.config.follow_symlinks
        scan = scan_plugins(self.directory, self.home, include_user=self.config.include_user, follow_symlinks=follow)
        return [*scan.plugins.values(), *scan.hidden]

    def _plugin_bases(self) -> tuple[Path, ...]:
        """Where a plugin's files may be looked for above a file: the workspace, and the personal plugins."""
        return (self.directory, plugins_dir(self.home)) if self.config.include_user else (self.directory,)

    def _read_manifest_hooks(self, manifest: Path) -> Path | None:
        """The hooks document a recognised ``plugin.json`` names (``"hooks": "./config/hooks.json"``) when that
        path stays inside the plugin (``plugin/path-escapes`` reports one that leaves it, and it is never read);
        None for inline hooks or no ``hooks``. Whether the manifest is a plugin's is the caller's to ask."""
        if manifest not in self.overlay and not self.reader.lexists(str(manifest)):
            return None
        return named_hooks_file(manifest, self.read_text(manifest), follow_symlinks=self.config.follow_symlinks)

    def declaring_plugin(self, path: Path) -> Path | None:
        """The plugin directory whose ``plugin.json`` names ``path`` as its hooks document: such a file is a hooks
        file whatever its name (SPEC §3.5), so it is checked as ``<plugin>/hooks/hooks.json`` is. Only the manifests
        of the directories above it, inside the workspace or the personal plugins, are asked."""
        for directory in directories_within(path, self._plugin_bases()):
            manifest = directory / PLUGIN_MANIFEST
            if self.manifest_hooks(manifest) == path and self.kind_of(manifest) is FileKind.PLUGIN:
                return directory
        return None

    def plugin_owner(self, path: Path) -> PluginOwner | None:
        """The plugin ``path`` belongs to, the one every finding names (``discovery.owner``): the installed plugin
        holding it, as the effective configuration counts it, else the plugin developed or published here."""
        return plugin_owner(
            path,
            self._installed_plugins(),
            holds_manifest=lambda directory: holds_manifest(directory, self.overlay, self.reader.lexists),
            within=self._plugin_bases(),
            declared_by=self.declaring_plugin(path) if path.suffix == ".json" else None,
        )

    def _find_marketplace_plugin_dirs(self) -> frozenset[Path]:
        """The directories inside the workspace that a ``marketplace.json`` entry's relative ``source`` points to:
        a ``plugin.json`` there is a plugin (SPEC §3), wherever it sits (open buffers count). Walks the workspace:
        only asked for a ``plugin.json`` no other rule recognises."""
        marketplaces = [path for path in self.files() if path.name == MARKETPLACE_FILE]
        return frozenset(
            directory
            for path in marketplaces
            for directory in marketplace_sources(path, self.read(path))
            if directory.is_relative_to(self.directory)  # a source that leaves the workspace is never followed
        )

    def files(self, under: Path | None = None, *, nested: Iterable[Path] = ()) -> Iterator[Path]:
        """Every recognised file under the workspace (or ``under`` it), skipping the ``nested`` workspaces (checked
        on their own) and what the ``exclude`` patterns exclude (``.gitignore`` semantics, relative to the
        workspace).

        Works on strings and builds a ``Path`` only for the files it yields: the walk visits every entry of the
        tree, and pathlib objects per entry were a large part of a check's time.
        """
        excludes = Excludes(tuple(self.config.exclude))
        if self.outer_excludes is not None:
            excludes = excludes.within(self.outer_excludes)
        base = str(self.directory)
        top = str(under or self.directory)
        prefix = "" if top == base else os.path.relpath(top, base).replace(os.sep, "/")
        # The home directory's .clarvis is the personal configuration, never workspace files.
        skipped = [str(path) for path in nested] + [str(self.home)]
        follow = self.config.follow_symlinks
        excludes = excludes.below(prefix)
        no_patterns = excludes.empty
        for directory in walk_tree(top, excludes, skip_paths=skipped, reader=self.reader):
            # Any other ``*.md`` is recognised only as an agent, directly in an ``agents`` directory
            # (knowledge/files.py): elsewhere it is skipped before a stat and a Path are spent on it.
            in_agents = os.path.basename(directory.path) == "agents"
            for entry in directory.files:
                name = entry.name
                if name not in CANDIDATE_NAMES and not (in_agents and name.endswith(".md")):
                    continue
                if not no_patterns and excludes.file(directory.child_relative(name)):
                    continue
                try:
                    is_file = entry.is_file(follow_symlinks=follow)
                    # A FIFO, socket or device under a recognised name is checked too: it gets a finding.
                    # So is a symlink when symlinks are off (discovery/symlink-ignored, never read), and a dangling
                    # link or a link to a device when they are followed (discovery/unreadable).
                    is_special = not is_file and not entry.is_dir(follow_symlinks=follow)
                except OSError:
                    continue
                if is_file or is_special:
                    path = self.reader.path(entry.path)
                    if self.kind_of(path) is not None:
                        yield path
                        if name == PLUGIN_MANIFEST:
                            named = walked_hooks_file(self.manifest_hooks(path), top, skipped, self.overlay)
                            if named is not None and (no_patterns or not excludes.file(relative_to(named, top))):
                                yield named

    def read(self, path: Path) -> tuple[str, Findings] | None:
        """The text of a file (the overlay wins over disk), with encoding findings; None if it cannot be read."""
        findings = Findings(path)
        within = self.read_base(path)
        if path in self.overlay:
            # With symlinks off an open buffer of a symlink, or of a file reached through a symlinked directory,
            # stands for a file Clarvis ignores: it is reported as --check reports that file, not checked.
            link = None if self.config.follow_symlinks else self.refused_link(path, within)
            if link is None:
                self._record_read(path, None)
                return strip_bom(self.overlay[path]), findings
            self._record_read(path, f"{link} {SYMLINK_REFUSED}")
            return None
        # Never a blocking read: a FIFO, socket or device under a recognised name is refused, not waited on.
        limit = int(self.config.max_file_size_mb * MEGABYTE) + 1024  # the slack keeps a 10 MB file checked
        data, why = read_regular_file(str(path), self.config.follow_symlinks, limit, within=within)
        if data is None:
            self._record_read(path, why)
            return None
        self._record_read(path, None)
        decoded = decode(data)
        if decoded.invalid_utf8_offset is not None:
            check_encoding(decoded, LineIndex(decoded.text), findings)
        return decoded.text, findings

    def read_base(self, path: Path) -> str:
        """Below which directory no symlink may lead a read of ``path`` when symlinks are off: the workspace, or
        the home for the personal files (and plugins) outside it."""
        return str(self.directory) if is_within(str(path), str(self.directory)) else str(self.home)

    @staticmethod
    def refused_link(path: Path, within: str) -> str | None:
        """With symlinks off, the symlink that stops a read of ``path``: ``path`` itself, or a directory between
        ``within`` and it (``lstat`` only); None when nothing does."""
        if is_symlink(str(path)):
            return str(path)
        return symlinked_component(str(path), within)

    def read_text(self, path: Path) -> str | None:
        """A file's text (the overlay wins), or None when it cannot be read."""
        read = self.read(path)
        return read[0] if read is not None else None
