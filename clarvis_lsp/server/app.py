"""The language server's state: one engine per workspace, open buffers as an overlay, published findings.

The server is a thin adapter: every finding comes from ``WorkspaceEngine`` (the same engine as ``--check``);
this module decides which workspace a document belongs to, keeps the editor's unsaved text in the overlay
(open buffers override disk, for discovery too), and republishes the files whose findings changed.
"""

from __future__ import annotations

import asyncio
import functools
import os
import traceback
import uuid
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from clarvis_lsp import __version__
from clarvis_lsp.batch.memory import paused_collector
from clarvis_lsp.config.project import (
    ProjectConfig,
    config_from_mapping,
    layered,
    load_project_config,
    symlinks_followed,
)
from clarvis_lsp.discovery import StartupError, nearest_workspace
from clarvis_lsp.discovery.fs import read_regular_file, symlinked_component
from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.findings import Diagnostic, Position
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.output.paths import PathDisplay
from clarvis_lsp.rules.catalogue import TRUST_NOTICES
from clarvis_lsp.rules.selection import RuleSelection
from clarvis_lsp.server.convert import UTF16, from_client_position, to_lsp_diagnostic
from clarvis_lsp.server.protocol import ClarvisProtocol
from clarvis_lsp.workspace.engine import MAX_FILE_BYTES, WorkspaceEngine
from clarvis_lsp.workspace.findings import file_findings

EFFECTIVE_SKILLS = "clarvis/effectiveSkills"
EFFECTIVE_SKILLS_CHANGED = "clarvis/effectiveSkillsChanged"
EFFECTIVE_CONFIGURATION_CHANGED = "clarvis/effectiveConfigurationChanged"
Handler = TypeVar("Handler", bound=Callable[..., Any])


@dataclass(frozen=True)
class Snapshot:
    """One document as a feature sees it: its path, current text (buffer or disk), kind and workspace engine."""

    uri: str
    path: Path
    text: str
    lines: LineIndex
    kind: FileKind | None
    engine: WorkspaceEngine

    def position(self, client_position: types.Position, encoding: str) -> Position:
        return from_client_position(client_position, self.lines, encoding)

    def offset(self, client_position: types.Position, encoding: str) -> int:
        return self.lines.offset(self.position(client_position, encoding))


def uri_to_path(uri: str) -> Path | None:
    """The normalised file-system path of a ``file:`` URI, None for any other scheme. pygls decodes it per
    platform (Windows drive letters and separators, UNC shares), which a bare ``urlparse`` does not."""
    path = to_fs_path(uri)
    return None if path is None else Path(os.path.normpath(path))


class ScanSuperseded(Exception):
    """Raised inside a first scan whose engine was replaced meanwhile, to stop it early."""


class ClarvisServer(LanguageServer):
    """pygls server holding the per-workspace engines."""

    def __init__(self) -> None:
        super().__init__("clarvis-lsp", __version__, protocol_cls=ClarvisProtocol)
        self.folders: list[Path] = []
        self.engines: dict[Path, WorkspaceEngine] = {}
        self.overlay: dict[Path, str] = {}
        # Editor settings in two layers, each replaced whole when the client sends it again (a key the user
        # removes falls back to the layer below): initializationOptions, then the workspace/configuration answer.
        self.init_settings: dict[str, object] = {}
        self.client_settings: dict[str, object] = {}
        # ``clarvis.trustWorkspace`` per settings layer: editor settings only, never a project file (SPEC §7).
        self.trust_layers: dict[str, bool] = {}
        # The effective configuration per (engine, trusted), with what it was computed from (features/effective.py).
        self.effective_cache: dict[tuple[int, bool], tuple[tuple[object, object, object], Any]] = {}
        self.home = Path.home()
        self.published: dict[Path, list[Diagnostic]] = {}
        self.pull_diagnostics = False
        self.versions: dict[Path, int] = {}
        self.config_findings: dict[Path, list[Diagnostic]] = {}
        self.pending: set[Path] = set()
        self._flush_scheduled = False
        self._refresh_pulls = False  # a pull client should pull again once the current check is published
        # Keyed by the engine itself, weakly: an engine that was replaced or dropped takes its entries with it (keyed
        # by ``id()``, a later engine that reused a freed id inherited a failed scan and never scanned at all).
        self.scans: weakref.WeakKeyDictionary[WorkspaceEngine, asyncio.Future[None]] = weakref.WeakKeyDictionary()
        self.scan_waiting: weakref.WeakKeyDictionary[WorkspaceEngine, set[Path]] = weakref.WeakKeyDictionary()
        self.scan_failed: weakref.WeakSet[WorkspaceEngine] = weakref.WeakSet()
        self._lines: dict[Path, tuple[object, LineIndex]] = {}  # lines_of's last answers, oldest first
        self._path_displays: dict[tuple[Path, Path], PathDisplay] = {}

    # -- robustness --------------------------------------------------------------------------------------------

    def guarded(self, handler: Handler) -> Handler:
        """Log a feature's exception to the client and re-raise it as that request's error alone."""

        def report() -> None:
            self.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Error,
                    message=f"clarvis-lsp: {handler.__name__} failed:\n{traceback.format_exc()}",
                )
            )

        if asyncio.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await handler(*args, **kwargs)
                except JsonRpcException:  # a deliberate answer (a refused rename), not a failure to log
                    raise
                except Exception:
                    report()
                    raise

            return async_wrapper  # type: ignore[return-value]

        @functools.wraps(handler)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except Exception:
                report()
                raise

        return wrapper  # type: ignore[return-value]

    def snapshot(self, uri: str) -> Snapshot | None:
        """The document at ``uri`` as features see it, or None for a non-file URI."""
        path = uri_to_path(uri)
        if path is None:
            return None
        text = self.overlay.get(path)
        lines = LineIndex(text) if text is not None else self.lines_of(path)
        engine = self.engine_for(path)
        return Snapshot(uri, path, lines.text, lines, engine.kind_of(path), engine)

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
            engine = self.engines[directory] = self._new_engine(directory, self.config_for(directory))
        return engine

    @property
    def trust_workspace(self) -> bool:
        """``clarvis.trustWorkspace``: the workspace/configuration answer, else initializationOptions, else False."""
        return self.trust_layers.get("client", self.trust_layers.get("init", False))

    def _new_engine(self, directory: Path, config: ProjectConfig) -> WorkspaceEngine:
        return WorkspaceEngine(
            directory=directory,
            config=config,
            home=self.home,
            overlay=MappingProxyType(self.overlay),
            rules=RuleSelection(ignore=TRUST_NOTICES if self.trust_workspace else ()),
        )

    def config_for(self, directory: Path) -> ProjectConfig:
        # The editor's setting decides whether a symlinked project file may be opened, before it is.
        load = load_project_config(
            directory, follow_symlinks=symlinks_followed(self.init_settings, self.client_settings)
        )
        if load.status == "error":
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=load.message))
        # The config/invalid findings live on the configuration file itself (cleared once it loads again).
        for config_file in (directory / ".clarvis-lsp.toml", directory / "pyproject.toml"):
            found = [diagnostic for diagnostic in load.diagnostics if diagnostic.path == config_file]
            if found or config_file in self.published:
                self.config_findings[config_file] = found
                self.publish(config_file, found)
        try:
            return layered(layered(load.config, self.init_settings), self.client_settings)
        except ValueError as error:
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Error, message=f"Invalid clarvis settings: {error}; using the defaults."
                )
            )
            return load.config

    def set_editor_settings(self, settings: object, *, layer: str = "client") -> None:
        """Replace one layer of editor settings (``init``: initializationOptions; ``client``: the
        workspace/configuration answer or didChangeConfiguration). Invalid settings leave that layer empty."""
        valid: dict[str, object] = {}
        if isinstance(settings, dict) and "trustWorkspace" in settings:
            settings = dict(settings)
            trust = settings.pop("trustWorkspace")
            if trust is None:
                self.trust_layers.pop(layer, None)
            else:
                self.trust_layers[layer] = trust is True
        elif layer in self.trust_layers:
            del self.trust_layers[layer]
        if isinstance(settings, dict):
            try:
                config_from_mapping(settings)
                valid = settings
            except ValueError as error:
                self.window_show_message(
                    types.ShowMessageParams(
                        type=types.MessageType.Error, message=f"Invalid clarvis settings: {error}; using the defaults."
                    )
                )
        if layer == "init":
            self.init_settings = valid
        else:
            self.client_settings = valid

    def reset_engines(self) -> None:
        """After the settings, a configuration file or the folders changed: every workspace's configuration is
        layered again, and only an engine whose configuration changed is replaced. The answer to
        ``workspace/configuration`` that follows ``initialized`` usually changes nothing, and dropping the engine
        then started a second first scan beside the running one (twice the time and the memory)."""
        for directory, engine in list(self.engines.items()):
            config = self.config_for(directory)
            trust_changed = bool(engine.rules.ignore) != self.trust_workspace
            if config != engine.config or trust_changed:
                self.engines[directory] = self._new_engine(directory, config)
            if trust_changed:  # the state the effective configuration shows (no open file may be re-checked)
                self.protocol.notify(EFFECTIVE_CONFIGURATION_CHANGED, {"uri": directory.as_uri()})
                self.request_inlay_hint_refresh()
                self.request_code_lens_refresh()

    # -- findings ----------------------------------------------------------------------------------------------

    def lines_of(self, path: Path) -> LineIndex:
        """A file's lines, read as the engine reads files: a regular file only (a FIFO never blocks the server),
        no symlink when symlinks are off, at most the size cap. A file that cannot be read has no lines.

        Asked once per diagnostic and related location: the last few answers are kept while the buffer (or the
        file's size and modification time) is unchanged, so 250,000 findings on a 10 MB file read it once."""
        text = self.overlay.get(path)
        cached = self._lines.get(path)
        key: object
        if text is not None:
            if cached is not None and cached[0] is text:
                return cached[1]
            key, lines = text, LineIndex(text)
        else:
            engine = self.engine_for(path)
            follow = engine.config.follow_symlinks
            within = engine.read_base(path)
            # With symlinks off a file reached through a symlinked directory (a symlinked ``.clarvis``) is not
            # looked at, not even by ``lstat``, which follows the directories on the way.
            if not follow and symlinked_component(str(path), within) is not None:
                return LineIndex("")
            try:
                info = os.stat(path) if follow else os.lstat(path)
            except (OSError, ValueError):
                return LineIndex("")
            key = (info.st_mtime_ns, info.st_size, info.st_ino, follow)
            if cached is not None and cached[0] == key:
                return cached[1]
            data, _why = read_regular_file(str(path), follow, MAX_FILE_BYTES, within=within)
            lines = LineIndex(decode(data).text if data is not None else "")
        self._lines.pop(path, None)
        self._lines[path] = (key, lines)
        if len(self._lines) > 16:
            self._lines.pop(next(iter(self._lines)))
        return lines

    def findings_for(
        self, engine: WorkspaceEngine, paths: Iterable[Path], *, alone: bool = False
    ) -> dict[Path, list[Diagnostic]]:
        """Own and cross-file findings for ``paths`` (files of ``engine``), assembled as ``--check`` does (own
        findings only with ``alone``), with the paths in their messages shown as ``shown_paths`` shows them."""
        try:
            found = file_findings(engine, paths, alone=alone)
        except StartupError as error:
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=str(error)))
            found = file_findings(engine, paths, alone=True)
        display = self.shown_paths(engine)
        return {path: [display.diagnostic(item) for item in items] for path, items in found.items()}

    def shown_paths(self, engine: WorkspaceEngine) -> PathDisplay:
        """How a message shows a path, as ``--check`` run from the workspace folder prints it: relative to the
        editor's workspace folder holding ``engine``'s workspace, ``~/…`` under the home directory (the personal
        roots), else absolute."""
        folder = self.folder_for(engine.directory)
        key = (folder, self.home)
        display = self._path_displays.get(key)
        if display is None:
            targets = ((".", folder), ("~", self.home))
            display = self._path_displays[key] = PathDisplay.for_arguments(targets, folder)
        return display

    def refresh(self, changed: Path) -> None:
        """Re-check after ``changed`` changed: the file itself, and every file whose cross-file findings changed
        (renaming one copy of a skill changes the shadowing findings of the others). A change to anything but a
        SKILL.md (settings, plugins, agents) can change any open file's findings, so those are re-checked too."""
        engine = self.engine_for(changed)
        if not self.ready(engine):
            # The first scan is still running: publish what this file shows on its own now, the rest when it ends.
            self.scan_waiting.setdefault(engine, set()).add(changed)
            if engine.kind_of(changed) is not None:
                alone = self.findings_for(engine, [changed], alone=True)[changed]
                self.publish(changed, alone, force=changed in self.overlay)
            return
        first_scan = not engine.is_discovered
        try:
            name_before = None if first_scan else engine.discovered.registry.declared_name(changed)
            with paused_collector():
                affected = engine.update([changed])
                if first_scan:
                    engine.cross_by_path()  # the workspace's cross-file findings, built while the collector waits
            name_after = engine.discovered.registry.declared_name(changed)
        except StartupError as error:
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=str(error)))
            return
        # Which copy wins can change with a rename, a new or deleted skill, or settings and plugins.
        skills_changed = first_scan or changed.name != "SKILL.md" or name_before != name_after
        if changed.name != "SKILL.md":
            affected |= {path for path in [*self.overlay, *self.published] if self.engine_for(path) is engine}
        visible = {path for path in affected if path in self.overlay or path in self.published}
        visible |= set(engine.cross_by_path()) & affected
        visible.add(changed)
        results = self.findings_for(engine, {path for path in visible if engine.kind_of(path) is not None})
        for path, diagnostics in results.items():
            # The edited buffer always gets a publish: it tells the client its new version was checked.
            is_edited = path == changed and path in self.overlay
            if self.publish(path, diagnostics, force=is_edited) and path != changed:
                self._refresh_pulls = True  # another file's findings changed: a pull client must ask again
        if first_scan:
            self._refresh_pulls = True  # the cross-file findings of every file are known now
        if not self.pending:  # one refresh for a batch of changes (the last of a flush sends it)
            self.request_pull_refresh()
        if skills_changed:
            self.protocol.notify(EFFECTIVE_SKILLS_CHANGED, {})
            self.protocol.notify(EFFECTIVE_CONFIGURATION_CHANGED, {"uri": engine.directory.as_uri()})
        if skills_changed or any(path != changed and path in self.overlay for path in affected):
            # An open copy's "overrides"/"shadowed by" lens may have changed, and with it the hints; a file that
            # appeared or went away on disk may be a link target.
            self.request_editor_refresh(tokens=changed not in self.overlay)

    # -- the first scan, off the event loop ---------------------------------------------------------------------

    def ready(self, engine: WorkspaceEngine) -> bool:
        """Whether ``engine`` has discovered its workspace. If not, its first scan starts in a worker thread (once)
        and this answers False until it ends: callers answer what they can without the registry meanwhile."""
        if engine.is_discovered or engine in self.scan_failed:
            return True
        if engine not in self.scans:
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # no event loop (a synchronous caller): discover here
                return True
            self.scans[engine] = asyncio.ensure_future(self._first_scan(engine))
        return False

    async def scanned(self, engine: WorkspaceEngine, *, at_most: float | None = None) -> bool:
        """Wait for ``engine``'s first scan (a cancelled request stops waiting; the scan goes on), or ``at_most``
        seconds of it; True when discovery is ready. A request that waited on a scan the settings made obsolete
        gets the discovery of the engine that replaced it."""
        if self.ready(engine):
            return True
        scan = asyncio.shield(self.scans[engine])
        try:
            await (scan if at_most is None else asyncio.wait_for(scan, at_most))
        except asyncio.TimeoutError:
            return False
        superseded_by = (
            self.engines.get(engine.directory) if self._superseded(engine) and not engine.is_discovered else None
        )
        if (
            superseded_by is not None
            and await self.scanned(superseded_by, at_most=at_most)
            and superseded_by.is_discovered
        ):
            engine.adopt(superseded_by)
        return self.ready(engine)

    def _superseded(self, engine: WorkspaceEngine) -> bool:
        """Whether ``engine`` was replaced (its configuration changed) or dropped (its folder was removed)."""
        return self.engines.get(engine.directory) is not engine

    async def _first_scan(self, engine: WorkspaceEngine) -> None:
        detached = engine.detached()
        token = await self._begin_progress(f"Discovering skills in {engine.directory.name or engine.directory}")
        loop = asyncio.get_running_loop()

        def progress(root_index: int, done: int, total: int) -> None:  # called on the worker thread
            if self._superseded(engine):
                raise ScanSuperseded  # the settings changed: the engine that replaced this one scans anew
            if token is not None:
                loop.call_soon_threadsafe(self._report_progress, token, root_index, done, total)

        def warm() -> None:
            # The collector waits while the scan allocates, but nothing is frozen: ``gc.freeze`` in a long-lived
            # process would make every configuration change's objects permanent.
            with paused_collector():
                detached.warm(progress)

        superseded = False
        try:
            await loop.run_in_executor(None, warm)
        except ScanSuperseded:
            superseded = True
            self.scan_waiting.pop(engine, None)  # the replacement's scan re-checks the open files
        except Exception as error:  # StartupError or a bug: the synchronous path reports it where it is handled
            self.scan_failed.add(engine)
            if not isinstance(error, StartupError):
                self.window_log_message(
                    types.LogMessageParams(
                        type=types.MessageType.Error,
                        message=f"clarvis-lsp: the first scan of {engine.directory} failed:\n{traceback.format_exc()}",
                    )
                )
        else:
            engine.adopt(detached)
            self._after_first_scan(engine)
        finally:
            self.scans.pop(engine, None)
            if token is not None:
                count = len(engine.discovered.registry) if engine.is_discovered else 0
                message = "stopped: the settings changed" if superseded else f"{count} skills"
                self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))

    def _after_first_scan(self, engine: WorkspaceEngine) -> None:
        """Bring the scan up to the edits made while it ran, then publish the full findings of every file that
        was checked meanwhile, and tell the client the winners and lenses are known."""
        waiting = self.scan_waiting.pop(engine, set())
        edited = {path for path in waiting if path in self.overlay or path in self.published}
        if edited:
            engine.update(edited)
        for path in sorted(waiting):
            self.refresh(path)
        self._refresh_pulls = True
        self.request_pull_refresh()
        self.protocol.notify(EFFECTIVE_SKILLS_CHANGED, {})
        self.request_editor_refresh(tokens=False)

    async def _begin_progress(self, title: str) -> str | None:
        """A work-done progress token, begun, when the client shows progress; else None."""
        window = self.client_capabilities.window
        if not (window and window.work_done_progress):
            return None
        token = f"clarvis-scan-{uuid.uuid4()}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception:  # a client that refuses the token just gets no progress
            return None
        self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title, percentage=0, cancellable=False))
        return token

    def _report_progress(self, token: str, root_index: int, done: int, total: int) -> None:
        percentage = int(100 * done / total) if total else 100
        message = f"Discovering skills… {done:,}/{total:,} (root {root_index + 1})"
        self.work_done_progress.report(token, types.WorkDoneProgressReport(message=message, percentage=percentage))

    def schedule_refresh(self, path: Path) -> None:
        """Debounce: changes that arrive together (one read from the client) are checked once, right after."""
        self.pending.add(path)
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a synchronous caller): check now
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_soon(self.flush)

    def flush(self) -> None:
        """Run the pending re-checks now."""
        self._flush_scheduled = False
        pending, self.pending = self.pending, set()
        for path in sorted(pending):
            try:
                self.refresh(path)
            except Exception:
                self.window_log_message(
                    types.LogMessageParams(
                        type=types.MessageType.Error,
                        message=f"clarvis-lsp: re-checking {path} failed:\n{traceback.format_exc()}",
                    )
                )

    def publish(self, path: Path, diagnostics: list[Diagnostic], *, force: bool = False) -> bool:
        """Publish ``path``'s findings if they changed (or ``force``); True when they changed. A pull client is
        never pushed: it pulls its open documents (and the workspace's, when it pulls those), and gets
        ``workspace/diagnostic/refresh`` when they change; a push for a file it never opened would put findings
        in its list that no pull of it asked for, and that nothing would ever clear."""
        previous = self.published.get(path)
        if previous == diagnostics and not force:
            return False
        changed = previous != diagnostics and not (previous is None and not diagnostics)
        if diagnostics:
            self.published[path] = diagnostics
        else:
            self.published.pop(path, None)
            if previous is None and not force:
                return False
        if self.pull_diagnostics:
            return changed
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=path.as_uri(),
                version=self.versions.get(path),
                diagnostics=[to_lsp_diagnostic(item, self.lines_of, self.encoding) for item in diagnostics],
            )
        )
        return changed

    def request_code_lens_refresh(self) -> None:
        workspace = self.client_capabilities.workspace
        code_lens = workspace.code_lens if workspace else None
        if code_lens is not None and code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    def request_editor_refresh(self, *, tokens: bool = True) -> None:
        """Ask the client to ask again for what discovery or the configuration decides: code lenses, inlay hints
        (when the server serves them) and, with ``tokens``, semantic tokens (a link target that appeared or went
        away changes its token) — each where the client declares it can be asked."""
        self.request_code_lens_refresh()
        workspace = self.client_capabilities.workspace
        inlay = workspace.inlay_hint if workspace else None
        serves_inlay = types.TEXT_DOCUMENT_INLAY_HINT in self.protocol.fm.features
        if serves_inlay and inlay is not None and inlay.refresh_support:
            self.workspace_inlay_hint_refresh(None)
        semantic = workspace.semantic_tokens if workspace else None
        if tokens and semantic is not None and semantic.refresh_support:
            self.workspace_semantic_tokens_refresh(None)

    def request_inlay_hint_refresh(self) -> None:
        workspace = self.client_capabilities.workspace
        inlay_hint = workspace.inlay_hint if workspace else None
        if inlay_hint is not None and inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    @property
    def can_refresh_pulls(self) -> bool:
        workspace = self.client_capabilities.workspace
        diagnostics = workspace.diagnostics if workspace else None
        return bool(diagnostics is not None and diagnostics.refresh_support)

    def request_pull_refresh(self, *, force: bool = False) -> None:
        """Ask a pull client to pull again when another file's edit, the first scan or a configuration change
        changed findings it has pulled (``force``: always, as after a configuration change)."""
        if not (self._refresh_pulls or force):
            return
        self._refresh_pulls = False
        workspace = self.client_capabilities.workspace
        diagnostics = workspace.diagnostics if workspace else None
        if diagnostics is not None and diagnostics.refresh_support:
            self.workspace_diagnostic_refresh(None)
