"""One workspace as it was at one moment, read-only and free of any protocol: what an editor request reads.

The engine (``workspace.engine``) changes as the user types: an edit re-reads a skill, a settings change starts
discovery over. A request that reads the engine, waits (for the first scan), and reads it again could answer from
two states at once: the winner of a skill from before an edit and its copies from after. A ``WorkspaceView``
cannot: ``WorkspaceEngine.view`` takes one synchronously and it holds the discovery of that moment (discovery is
never changed in place: an edit builds a new ``Discovered`` and a new registry), a copy of the open buffers, the
configuration and the rule selection, and no reference to the engine. It finds, recognises and reads files with
the engine's own code (``workspace.files``), over that state.

``WorkspaceRead`` is the part both answer, for code that reads a workspace from either: the server's requests pass
a view, a headless run (``--effective``) the engine, which discovers on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.discovery import PluginInfo
from clarvis_lsp.discovery.io import OS_READER, DirectoryReader
from clarvis_lsp.discovery.walk import Excludes
from clarvis_lsp.rules.selection import RuleSelection
from clarvis_lsp.workspace.discovered import Discovered
from clarvis_lsp.workspace.files import WorkspaceFiles

__all__ = ["FileAnswers", "WorkspaceRead", "WorkspaceView"]


class WorkspaceRead(Protocol):
    """What reading a workspace needs: a ``WorkspaceView`` answers it, and so does the engine itself."""

    @property
    def directory(self) -> Path: ...

    @property
    def home(self) -> Path: ...

    @property
    def config(self) -> ProjectConfig: ...

    @property
    def overlay(self) -> Mapping[Path, str]: ...

    @property
    def discovered(self) -> Discovered | None:
        """The workspace's discovery; a view's is None before the first scan ended or when the configuration is
        invalid (the engine's is made on first use, and raises ``StartupError`` then)."""

    def read_text(self, path: Path) -> str | None: ...


@dataclass
class FileAnswers:
    """What a view knows of its files: first what the engine knew when the view was taken, then what the view
    worked out itself. Each answer depends only on the view's state (its open buffers, the files on disk), so it
    is kept for as long as the view lives and never given back to the engine."""

    manifest_hooks: dict[Path, Path | None] = field(default_factory=dict)
    marketplace_plugin_dirs: frozenset[Path] | None = None
    installed_plugins: list[PluginInfo] | None = None


@dataclass(frozen=True, eq=False)
class WorkspaceView(WorkspaceFiles):
    """A workspace at one moment (see the module docstring). Compared by identity: two views of the same moment
    are two views."""

    directory: Path
    home: Path
    config: ProjectConfig
    rules: RuleSelection
    trusted: bool
    discovered: Discovered | None
    """The discovery of the moment: None before the first scan ended, or when the configuration is invalid."""
    overlay: Mapping[Path, str]
    """The open buffers of the moment (a read-only copy)."""
    reader: DirectoryReader = field(default=OS_READER, repr=False)
    outer_excludes: Excludes | None = None
    answers: FileAnswers = field(default_factory=FileAnswers, repr=False)

    @property
    def is_discovered(self) -> bool:
        return self.discovered is not None

    def manifest_hooks(self, manifest: Path) -> Path | None:
        known = self.answers.manifest_hooks
        if manifest not in known:
            known[manifest] = self._read_manifest_hooks(manifest)
        return known[manifest]

    def marketplace_plugin_dirs(self) -> frozenset[Path]:
        answers = self.answers
        if answers.marketplace_plugin_dirs is None:
            answers.marketplace_plugin_dirs = frozenset()  # while the walk asks kind_of about its plugin.json files
            answers.marketplace_plugin_dirs = self._find_marketplace_plugin_dirs()
        return answers.marketplace_plugin_dirs

    def _installed_plugins(self) -> list[PluginInfo]:
        if self.discovered is not None:
            return [*self.discovered.plugins.values(), *self.discovered.hidden_plugins]
        if self.answers.installed_plugins is None:
            self.answers.installed_plugins = self._scan_installed_plugins()
        return self.answers.installed_plugins

    def _record_read(self, path: Path, why: str | None) -> None:
        """Nothing to record: which files cannot be read is the engine's to report, with their findings."""
