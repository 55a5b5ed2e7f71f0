"""The language server's state: one engine per workspace, open buffers as an overlay, published findings.

The server is a thin adapter: every finding comes from ``WorkspaceEngine`` (the same engine as ``--check``);
this module decides which workspace a document belongs to, keeps the editor's unsaved text in the overlay
(open buffers override disk, for discovery too), and republishes the files whose findings changed.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from clarvis_lsp import __version__
from clarvis_lsp.config import ProjectConfig, config_from_mapping, layered, load_project_config
from clarvis_lsp.discovery import StartupError, nearest_workspace
from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.engine import WorkspaceEngine, apply_rule_settings
from clarvis_lsp.model import Diagnostic
from clarvis_lsp.server.convert import UTF16, to_lsp_diagnostic

LOG = logging.getLogger(__name__)


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(os.path.normpath(unquote(parsed.path)))


class ClarvisServer(LanguageServer):
    """pygls server holding the per-workspace engines."""

    def __init__(self) -> None:
        super().__init__("clarvis-lsp", __version__)
        self.folders: list[Path] = []
        self.engines: dict[Path, WorkspaceEngine] = {}
        self.overlay: dict[Path, str] = {}
        self.editor_settings: dict[str, object] = {}
        self.home = Path.home()
        self.published: dict[Path, list[Diagnostic]] = {}
        self.pull_diagnostics = False

    # -- workspaces --------------------------------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or UTF16)

    def folder_for(self, path: Path) -> Path:
        for folder in sorted(self.folders, key=lambda item: len(item.parts), reverse=True):
            if path == folder or folder in path.parents:
                return folder
        return path.parent

    def engine_for(self, path: Path) -> WorkspaceEngine:
        folder = self.folder_for(path)
        directory = nearest_workspace(path, folder)
        engine = self.engines.get(directory)
        if engine is None:
            engine = WorkspaceEngine(
                directory=directory, config=self.config_for(directory), home=self.home, overlay=self.overlay
            )
            self.engines[directory] = engine
        return engine

    def config_for(self, directory: Path) -> ProjectConfig:
        load = load_project_config(directory)
        if load.status == "error":
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=load.message))
        try:
            return layered(load.config, self.editor_settings)
        except ValueError as error:
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Error, message=f"Invalid clarvis settings: {error}; using the defaults."
                )
            )
            return load.config

    def set_editor_settings(self, settings: object) -> None:
        if not isinstance(settings, dict):
            self.editor_settings = {}
            return
        try:
            config_from_mapping(settings)
            self.editor_settings = settings
        except ValueError as error:
            self.editor_settings = {}
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Error, message=f"Invalid clarvis settings: {error}; using the defaults."
                )
            )

    def reset_engines(self) -> None:
        self.engines.clear()

    # -- findings ----------------------------------------------------------------------------------------------

    def lines_of(self, path: Path) -> LineIndex:
        if path in self.overlay:
            return LineIndex(self.overlay[path])
        try:
            with open(path, "rb") as handle:
                return LineIndex(decode(handle.read()).text)
        except OSError:
            return LineIndex("")

    def findings_for(self, engine: WorkspaceEngine, paths: Iterable[Path]) -> dict[Path, list[Diagnostic]]:
        """Own and cross-file findings for ``paths`` (files of ``engine``), with configured severities."""
        wanted = set(paths)
        found: dict[Path, list[Diagnostic]] = {path: [] for path in wanted}
        try:
            cross = engine.cross_file()
        except StartupError as error:
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=str(error)))
            return found
        for diagnostic in cross:
            if diagnostic.path in found:
                found[diagnostic.path].append(diagnostic)
        for path in wanted:
            found[path].extend(engine.check_file(path))
        return {
            path: sorted(apply_rule_settings(items, engine.config), key=Diagnostic.sort_key)
            for path, items in found.items()
        }

    def refresh(self, changed: Path) -> None:
        """Re-check after ``changed`` changed: the file itself, every open file, and every file whose
        cross-file findings changed (a rename in one copy changes the shadowing of the others)."""
        engine = self.engine_for(changed)
        engine.invalidate()
        targets = {changed} | {path for path in self.overlay if self.engine_for(path) is engine}
        targets |= {path for path in self.published if self.engine_for(path) is engine}
        targets |= {diagnostic.path for diagnostic in _safe_cross(engine)}
        results = self.findings_for(engine, {path for path in targets if engine.kind_of(path) is not None})
        for path, diagnostics in results.items():
            self.publish(path, diagnostics)

    def publish(self, path: Path, diagnostics: list[Diagnostic]) -> None:
        previous = self.published.get(path)
        if previous == diagnostics:
            return
        if diagnostics:
            self.published[path] = diagnostics
        else:
            self.published.pop(path, None)
            if previous is None:
                return
        if self.pull_diagnostics and path in self.overlay:
            return  # the client pulls open documents; pushing too would show them twice
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=path.as_uri(),
                diagnostics=[to_lsp_diagnostic(item, self.lines_of, self.encoding) for item in diagnostics],
            )
        )


def _safe_cross(engine: WorkspaceEngine) -> list[Diagnostic]:
    try:
        return engine.cross_file()
    except StartupError:
        return []
