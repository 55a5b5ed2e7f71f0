"""The server's state in one owner: the open buffers and their versions, the editor's settings, and one engine
per workspace with its first scan.

**One copy of each open document, pygls's.** pygls keeps every document the client opens in its workspace
(``TextDocument``: text, version, language id) whatever the server does with it. The server's protocol
(``ClarvisProtocol``) applies each ``didChange`` with ``clarvis_lsp.server.edits`` (LSP's line ends and
clamping, not ``str.splitlines``, on which pygls's own application drifted) and puts the result back into that
workspace, so pygls's copy is the client's, byte for byte. The session stores no text and no version beside it:
``Buffers`` is a read-only mapping path → text over pygls's documents, restricted to the kinds of file the server
checks (the README.md an editor also sends is synced by pygls but never reaches discovery), and a document's
version is pygls's. A second copy could only drift from the first or cost memory; keeping the session's copy
instead and none in pygls would mean overriding pygls's ``didOpen`` and ``didClose`` too, and leaving every
pygls helper that reads documents (``workspace.get_text_document``) reading the disk. The test-only request
``clarvis/test/serverState`` (``features/sync.py``) shows that the text the features read is pygls's object.

**Engines.** Every engine is built by ``_build_engine`` from ``config_for``: the project file layered under the
editor's two settings layers with ``clarvis_lsp.config.project``, as ``--check`` layers its options. An engine
reads the buffers as its ``overlay`` (live; its first scan copies them for the worker thread). Configuration
changes replace only the engines whose configuration changed.

**First scans** run in a worker thread; their state (running, waiting files, failed) is keyed by the engine
object, weakly: an engine that was replaced or dropped takes its entries with it. Nothing is ``gc.freeze``-d: in a
long-lived process every configuration change's objects would become permanent.

The session speaks to the client only through ``SessionClient`` (the server implements it).
"""

from __future__ import annotations

import asyncio
import os
import traceback
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote

from lsprotocol import types
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument, Workspace

from clarvis_lsp.batch.memory import paused_collector
from clarvis_lsp.config.project import (
    ProjectConfig,
    config_from_mapping,
    layered,
    load_project_config,
    symlinks_followed,
)
from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.findings import Diagnostic, Position
from clarvis_lsp.server.convert import from_client_position

if TYPE_CHECKING:  # discovery, the engine and the rules are imported when first used: ``initialize`` needs none
    from clarvis_lsp.knowledge.files import FileKind
    from clarvis_lsp.output.paths import PathDisplay
    from clarvis_lsp.workspace.engine import WorkspaceEngine

CONFIG_FILES = (".clarvis-lsp.toml", "pyproject.toml")


def uri_to_path(uri: str) -> Path | None:
    """The normalised file-system path of a ``file:`` URI, None for any other scheme. pygls decodes it per
    platform (Windows drive letters and separators, UNC shares), which a bare ``urlparse`` does not."""
    path = to_fs_path(uri)
    return None if path is None else Path(os.path.normpath(path))


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


class Buffers(Mapping[Path, str]):
    """The open documents of the kinds the server checks, path → text, read from pygls's workspace (the one copy:
    see the module docstring). Only which paths are open buffers is kept here, with pygls's key for each."""

    def __init__(self, workspace: Callable[[], Workspace]) -> None:
        self._workspace = workspace  # pygls makes its workspace at ``initialize``: looked up when read
        self._keys: dict[Path, str] = {}  # path → the key of its document in pygls's workspace

    def open(self, path: Path, uri: str) -> None:
        """``path`` is an open buffer now: its text is the document pygls holds for ``uri``."""
        self._keys[path] = self._key(uri)

    def close(self, path: Path) -> bool:
        """Back to the disk content, for discovery too; False when ``path`` was not an open buffer."""
        return self._keys.pop(path, None) is not None

    def document(self, path: Path) -> TextDocument | None:
        key = self._keys.get(path)
        return None if key is None else self._workspace().text_documents.get(key)

    def version(self, path: Path) -> int | None:
        """The client's version of the open buffer ``path`` (None when it is not one)."""
        document = self.document(path)
        return None if document is None else document.version

    def versions(self) -> tuple[tuple[str, int | None], ...]:
        """Every open buffer's version, in path order: what changes whenever any buffer's text does."""
        return tuple(sorted((str(path), self.version(path)) for path in self._keys))

    def __getitem__(self, path: Path) -> str:
        document = self.document(path)
        if document is None:
            raise KeyError(path)
        return document.source

    def __contains__(self, path: object) -> bool:
        return isinstance(path, Path) and self.document(path) is not None

    def __iter__(self) -> Iterator[Path]:
        return iter(list(self._keys))  # a copy: a buffer may be closed while a caller walks them

    def __len__(self) -> int:
        return len(self._keys)

    @staticmethod
    def _key(uri: str) -> str:
        """pygls keys its documents by the URI with its escapes decoded."""
        return unquote(uri)


class SessionClient(Protocol):
    """What the session tells the client (the server implements it)."""

    def show_error(self, message: str) -> None: ...

    def log_error(self, message: str) -> None: ...

    def config_file_checked(self, path: Path, findings: list[Diagnostic]) -> None:
        """A project configuration file was loaded (again): its ``config/invalid`` findings, maybe none."""

    async def begin_progress(self, title: str) -> str | None: ...

    def report_progress(self, token: str, root_index: int, done: int, total: int) -> None: ...

    def end_progress(self, token: str, message: str) -> None: ...

    def scan_ended(self, engine: WorkspaceEngine, waiting: set[Path]) -> None:
        """``engine``'s first scan ended: ``waiting`` are the files checked on their own meanwhile."""


class ScanSuperseded(Exception):
    """Raised inside a first scan whose engine was replaced meanwhile, to stop it early."""


@dataclass
class EditorSettings:
    """The editor's settings in two layers, each replaced whole when the client sends it again (a key the user
    removes falls back to the layer below): ``init`` (initializationOptions), then ``client`` (the
    workspace/configuration answer or didChangeConfiguration). ``clarvis.trustWorkspace`` is kept per layer
    apart: editor settings only, never a project file (SPEC §7)."""

    init: dict[str, object] = field(default_factory=dict)
    client: dict[str, object] = field(default_factory=dict)
    trust: dict[str, bool] = field(default_factory=dict)

    @property
    def trust_workspace(self) -> bool:
        """``clarvis.trustWorkspace``: the workspace/configuration answer, else initializationOptions, else False."""
        return self.trust.get("client", self.trust.get("init", False))

    def replace(self, settings: object, layer: str) -> str | None:
        """Replace one layer; an invalid one is left empty and the error returned."""
        valid: dict[str, object] = {}
        error_message = None
        if isinstance(settings, dict) and "trustWorkspace" in settings:
            settings = dict(settings)
            trust = settings.pop("trustWorkspace")
            if trust is None:
                self.trust.pop(layer, None)
            else:
                self.trust[layer] = trust is True
        elif layer in self.trust:
            del self.trust[layer]
        if isinstance(settings, dict):
            try:
                config_from_mapping(settings)
                valid = settings
            except ValueError as error:
                error_message = f"Invalid clarvis settings: {error}; using the defaults."
        if layer == "init":
            self.init = valid
        else:
            self.client = valid
        return error_message


class Session:
    """The one owner of the server's buffers, versions, settings and engines (see the module docstring)."""

    def __init__(self, workspace: Callable[[], Workspace], client: SessionClient) -> None:
        self._workspace = workspace
        self._client = client
        self.buffers = Buffers(workspace)
        self.folders: list[Path] = []
        self.home = Path.home()
        self.settings = EditorSettings()
        self.engines: dict[Path, WorkspaceEngine] = {}
        # Keyed by the engine itself, weakly: an engine that was replaced or dropped takes its entries with it (keyed
        # by ``id()``, a later engine that reused a freed id inherited a failed scan and never scanned at all).
        self.scans: weakref.WeakKeyDictionary[WorkspaceEngine, asyncio.Future[None]] = weakref.WeakKeyDictionary()
        self.scan_waiting: weakref.WeakKeyDictionary[WorkspaceEngine, set[Path]] = weakref.WeakKeyDictionary()
        self.scan_failed: weakref.WeakSet[WorkspaceEngine] = weakref.WeakSet()
        # What features compute once per engine state (the effective configuration per trust setting), dropped
        # with the engine.
        self.models: weakref.WeakKeyDictionary[WorkspaceEngine, dict[object, Any]] = weakref.WeakKeyDictionary()
        self._lines: dict[Path, tuple[object, LineIndex]] = {}  # lines_of's last answers, oldest first
        self._path_displays: dict[tuple[Path, Path], PathDisplay] = {}

    # -- documents ------------------------------------------------------------------------------------------------

    def open_paths(self) -> set[Path]:
        """The paths of every document the client has open, of any kind (pygls's workspace)."""
        try:
            documents = self._workspace().text_documents
        except RuntimeError:  # before ``initialize``: nothing is open
            return set()
        return {path for uri in documents if (path := uri_to_path(uri)) is not None}

    def snapshot(self, uri: str) -> Snapshot | None:
        """The document at ``uri`` as features see it, or None for a non-file URI."""
        path = uri_to_path(uri)
        if path is None:
            return None
        text = self.buffers.get(path)
        lines = LineIndex(text) if text is not None else self.lines_of(path)
        engine = self.engine_for(path)
        return Snapshot(uri, path, lines.text, lines, engine.kind_of(path), engine)

    def lines_of(self, path: Path) -> LineIndex:
        """A file's lines, read as the engine reads files: a regular file only (a FIFO never blocks the server),
        no symlink when symlinks are off, at most the size cap. A file that cannot be read has no lines.

        Asked once per diagnostic and related location: the last few answers are kept while the buffer (or the
        file's size and modification time) is unchanged, so 250,000 findings on a 10 MB file read it once."""
        text = self.buffers.get(path)
        cached = self._lines.get(path)
        key: object
        if text is not None:
            if cached is not None and cached[0] is text:
                return cached[1]
            key, lines = text, LineIndex(text)
        else:
            from clarvis_lsp.discovery.fs import read_regular_file, symlinked_component
            from clarvis_lsp.workspace.engine import MAX_FILE_BYTES

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

    # -- folders and engines --------------------------------------------------------------------------------------

    def folder_for(self, path: Path) -> Path:
        for folder in sorted(self.folders, key=lambda item: len(item.parts), reverse=True):
            if path == folder or folder in path.parents:
                return folder
        return path.parent

    def change_folders(self, added: list[Path], removed: set[Path]) -> None:
        """Workspace folders added and removed; the engines of workspaces inside a removed folder are dropped."""
        self.folders = [folder for folder in self.folders if folder not in removed]
        self.folders += added
        for directory in [directory for directory in self.engines if within(directory, removed)]:
            del self.engines[directory]

    def engine_for(self, path: Path) -> WorkspaceEngine:
        from clarvis_lsp.discovery import nearest_workspace

        folder = self.folder_for(path)
        directory = nearest_workspace(path, folder)
        engine = self.engines.get(directory)
        if engine is None:
            engine = self.engines[directory] = self._build_engine(directory, self.config_for(directory))
        return engine

    def folder_engines(self) -> list[WorkspaceEngine]:
        """The engine of every workspace in the workspace folders, nested ones included, each once."""
        from clarvis_lsp.discovery import find_workspaces

        engines: list[WorkspaceEngine] = []
        for folder in list(self.folders):
            for directory in find_workspaces(folder, home=self.home):
                engine = self.engine_for(directory / ".clarvis")
                if engine not in engines:
                    engines.append(engine)
        return engines

    def _build_engine(self, directory: Path, config: ProjectConfig) -> WorkspaceEngine:
        """The one place an engine is made: over the buffers, the trust notices ignored in a trusted workspace."""
        from clarvis_lsp.rules.catalogue import TRUST_NOTICES
        from clarvis_lsp.rules.selection import RuleSelection
        from clarvis_lsp.workspace.engine import WorkspaceEngine

        return WorkspaceEngine(
            directory=directory,
            config=config,
            home=self.home,
            overlay=self.buffers,
            trusted=self.settings.trust_workspace,
            rules=RuleSelection(ignore=TRUST_NOTICES if self.settings.trust_workspace else ()),
        )

    def config_for(self, directory: Path) -> ProjectConfig:
        """``directory``'s configuration: its project file, under initializationOptions, under the
        workspace/configuration answer. The editor's setting decides whether a symlinked project file may be
        opened, before it is."""
        follow = symlinks_followed(self.settings.init, self.settings.client)
        load = load_project_config(directory, follow_symlinks=follow)
        if load.status == "error":
            self._client.show_error(load.message)
        # The config/invalid findings live on the configuration file itself (cleared once it loads again).
        for config_file in (directory / name for name in CONFIG_FILES):
            self._client.config_file_checked(
                config_file, [diagnostic for diagnostic in load.diagnostics if diagnostic.path == config_file]
            )
        try:
            return layered(layered(load.config, self.settings.init), self.settings.client)
        except ValueError as error:
            self._client.show_error(f"Invalid clarvis settings: {error}; using the defaults.")
            return load.config

    def set_editor_settings(self, settings: object, *, layer: str = "client") -> None:
        """Replace one layer of editor settings (``init``: initializationOptions; ``client``: the
        workspace/configuration answer or didChangeConfiguration). Invalid settings leave that layer empty."""
        error = self.settings.replace(settings, layer)
        if error is not None:
            self._client.show_error(error)

    def reset_engines(self) -> list[Path]:
        """After the settings, a configuration file or the folders changed: every workspace's configuration is
        layered again, and only an engine whose configuration changed is replaced. The answer to
        ``workspace/configuration`` that follows ``initialized`` usually changes nothing, and dropping the engine
        then started a second first scan beside the running one (twice the time and the memory).

        Answers the workspaces whose trust setting changed (what their effective configuration shows)."""
        trust_changed: list[Path] = []
        for directory, engine in list(self.engines.items()):
            config = self.config_for(directory)
            trusted_before = engine.trusted
            if config != engine.config or trusted_before != self.settings.trust_workspace:
                self.engines[directory] = self._build_engine(directory, config)
            if trusted_before != self.settings.trust_workspace:
                trust_changed.append(directory)
        return trust_changed

    def shown_paths(self, engine: WorkspaceEngine) -> PathDisplay:
        """How a message shows a path, as ``--check`` run from the workspace folder prints it: relative to the
        editor's workspace folder holding ``engine``'s workspace, ``~/…`` under the home directory (the personal
        roots), else absolute."""
        from clarvis_lsp.output.paths import PathDisplay

        folder = self.folder_for(engine.directory)
        key = (folder, self.home)
        display = self._path_displays.get(key)
        if display is None:
            targets = ((".", folder), ("~", self.home))
            display = self._path_displays[key] = PathDisplay.for_arguments(targets, folder)
        return display

    # -- the first scan, off the event loop -----------------------------------------------------------------------

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

    def wait_for_scan(self, engine: WorkspaceEngine, path: Path) -> None:
        """``path`` was checked on its own while ``engine``'s first scan runs: it is checked in full after it."""
        self.scan_waiting.setdefault(engine, set()).add(path)

    def _superseded(self, engine: WorkspaceEngine) -> bool:
        """Whether ``engine`` was replaced (its configuration changed) or dropped (its folder was removed)."""
        return self.engines.get(engine.directory) is not engine

    async def _first_scan(self, engine: WorkspaceEngine) -> None:
        from clarvis_lsp.discovery import StartupError

        detached = engine.detached()
        token = await self._client.begin_progress(f"Discovering skills in {engine.directory.name or engine.directory}")
        loop = asyncio.get_running_loop()

        def progress(root_index: int, done: int, total: int) -> None:  # called on the worker thread
            if self._superseded(engine):
                raise ScanSuperseded  # the settings changed: the engine that replaced this one scans anew
            if token is not None:
                loop.call_soon_threadsafe(self._client.report_progress, token, root_index, done, total)

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
                self._client.log_error(
                    f"clarvis-lsp: the first scan of {engine.directory} failed:\n{traceback.format_exc()}"
                )
        else:
            engine.adopt(detached)
            self._client.scan_ended(engine, self.scan_waiting.pop(engine, set()))
        finally:
            self.scans.pop(engine, None)
            if token is not None:
                count = len(engine.discovered.registry) if engine.is_discovered else 0
                self._client.end_progress(token, "stopped: the settings changed" if superseded else f"{count} skills")


def within(path: Path, folders: set[Path]) -> bool:
    """Whether ``path`` is one of ``folders`` or inside one."""
    return any(path == folder or folder in path.parents for folder in folders)
