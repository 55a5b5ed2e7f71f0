"""The server's world: the open buffers and their versions, the editor's settings and folders, and one
``Workspace`` per workspace directory (``clarvis_lsp.workspace.live``: its engine, first scan, published findings
and pull state, in one owner), with the first scans run off the event loop.

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

**Workspaces.** The nearest workspace of a path is looked up once and kept until a watched file is created or
deleted (a new ``.clarvis/`` makes a nearer one) or the folders change: a keystroke never walks up the tree.
Every engine is built by ``_build_engine`` from ``config_for``: the project file layered under the editor's two
settings layers with ``clarvis_lsp.config.project``, as ``--check`` layers its options. An engine reads the
buffers as its ``overlay`` (live; its first scan copies them for the worker thread). Configuration changes
replace only the engines whose configuration changed, inside the same ``Workspace``.

**Snapshots.** A feature reads a document through a ``Snapshot``: its text and lines, and its workspace as a
``WorkspaceView`` (``clarvis_lsp.workspace.view``) taken in the same step, never the live engine. A feature that
waits for the first scan takes its snapshot after the wait (``scanned_snapshot``, ``scanned_views``), so one
request never mixes the discovery from before an edit with the discovery after it.

**First scans** run in a worker thread; the running ones are keyed by the engine object, weakly: an engine that
was replaced or dropped takes its entry with it. Only the process's first scan is ``gc.freeze``-d, and the next
scan unfreezes it (``memory.kept_scan``): no configuration change's objects become permanent. A large first scan
shares its roots with helper processes, started when the client is ready if they will be (``start_scan_helpers``).

The session speaks to the client only through ``SessionClient`` (the server implements it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import traceback
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import unquote

from lsprotocol import types
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace import Workspace as DocumentStore

from clarvis_lsp.config.project import (
    ProjectConfig,
    config_from_mapping,
    layered,
    load_project_config,
    symlinks_followed,
)
from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.findings import Diagnostic, Position
from clarvis_lsp.memory import kept_scan
from clarvis_lsp.server.convert import from_client_position

if TYPE_CHECKING:  # discovery, the engine and the rules are imported when first used: ``initialize`` needs none
    from clarvis_lsp.knowledge.files import FileKind
    from clarvis_lsp.output.paths import PathDisplay
    from clarvis_lsp.server.helper_processes import StartedHelpers
    from clarvis_lsp.workspace.engine import WorkspaceEngine
    from clarvis_lsp.workspace.live import Workspace as WorkspaceState
    from clarvis_lsp.workspace.view import WorkspaceView

CONFIG_FILES = (".clarvis-lsp.toml", "pyproject.toml")
LONG_SCAN = 1_000
"""Directories a first scan has still to read above which a request with a patience (a hover, a completion) does
not wait for it: at about 0.15 ms a directory (10,000 realistic skills), that is longer than any such patience, so
waiting would only delay an answer that comes without the scan's findings anyway."""


def uri_to_path(uri: str) -> Path | None:
    """The normalised file-system path of a ``file:`` URI, None for any other scheme. pygls decodes it per
    platform (Windows drive letters and separators, UNC shares), which a bare ``urlparse`` does not."""
    path = to_fs_path(uri)
    return None if path is None else Path(os.path.normpath(path))


@dataclass(frozen=True)
class Snapshot:
    """One document as a feature sees it, at one moment: its path, text (buffer or disk), kind, and its workspace
    as it was then (``view``: the discovery and open buffers of that moment, no live engine). A feature that
    waits for the first scan takes its snapshot after the wait (``Session.scanned_snapshot``), so everything it
    reads belongs to one state."""

    uri: str
    path: Path
    text: str
    lines: LineIndex
    kind: FileKind | None
    view: WorkspaceView

    def position(self, client_position: types.Position, encoding: str) -> Position:
        return from_client_position(client_position, self.lines, encoding)

    def offset(self, client_position: types.Position, encoding: str) -> int:
        return self.lines.offset(self.position(client_position, encoding))


class Buffers(Mapping[Path, str]):
    """The open documents of the kinds the server checks, path → text, read from pygls's workspace (the one copy:
    see the module docstring). Only which paths are open buffers is kept here, with pygls's key for each."""

    def __init__(self, workspace: Callable[[], DocumentStore]) -> None:
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

    def config_file_checked(self, workspace: WorkspaceState, path: Path, findings: list[Diagnostic]) -> None:
        """A project configuration file of ``workspace`` was loaded (again): its ``config/invalid`` findings."""

    async def begin_progress(self, title: str) -> str | None: ...

    def report_progress(self, token: str, root_index: int, done: int, total: int) -> None: ...

    def end_progress(self, token: str, message: str) -> None: ...

    def progress_cancelled(self, token: str) -> bool:
        """Whether the user cancelled the progress ``token`` (asked from the scan's worker thread)."""

    def scan_ended(self, workspace: WorkspaceState) -> None:
        """``workspace``'s first scan ended (its ``scan_waiting`` files were checked on their own meanwhile)."""


class ScanSuperseded(Exception):
    """Raised inside a first scan whose engine was replaced meanwhile, to stop it early."""


class ScanCancelled(Exception):
    """Raised inside a first scan the user cancelled from its progress, to stop it."""


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
    """The buffers, folders and settings, and one ``Workspace`` per workspace directory (see the module docstring)."""

    def __init__(self, workspace: Callable[[], DocumentStore], client: SessionClient) -> None:
        self._workspace = workspace
        self._client = client
        self.buffers = Buffers(workspace)
        self.folders: list[Path] = []
        self.home = Path.home()
        self.settings = EditorSettings()
        self.workspaces: dict[Path, WorkspaceState] = {}
        # Keyed by the engine itself, weakly: an engine that was replaced or dropped takes its entry with it (keyed
        # by ``id()``, a later engine that reused a freed id inherited a scan and never scanned at all).
        self.scans: weakref.WeakKeyDictionary[WorkspaceEngine, asyncio.Future[None]] = weakref.WeakKeyDictionary()
        # Each running first scan's directories still to read, by root, as its progress reports them.
        self._scan_left: weakref.WeakKeyDictionary[WorkspaceEngine, dict[int, int]] = weakref.WeakKeyDictionary()
        # Each running first scan's first report: until it comes, how long the scan will take is not known.
        self._scan_sized: weakref.WeakKeyDictionary[WorkspaceEngine, asyncio.Future[None]] = weakref.WeakKeyDictionary()
        self._nearest: dict[Path, Path] = {}  # path → the directory of its nearest workspace (``workspace_for``)
        # The project files' own findings ``config_for`` found, until the workspace they belong to takes them.
        self._pending_config: dict[Path, dict[Path, list[Diagnostic]]] = {}
        self._lines: dict[Path, tuple[object, LineIndex]] = {}  # lines_of's last answers, oldest first
        self._path_displays: dict[tuple[Path, Path], PathDisplay] = {}
        self.helpers_ahead: StartedHelpers | None = None  # started by ``start_scan_helpers``, for the first scan

    # -- documents ------------------------------------------------------------------------------------------------

    def open_paths(self) -> set[Path]:
        """The paths of every document the client has open, of any kind (pygls's workspace)."""
        try:
            documents = self._workspace().text_documents
        except RuntimeError:  # before ``initialize``: nothing is open
            return set()
        return {path for uri in documents if (path := uri_to_path(uri)) is not None}

    def snapshot(self, uri: str) -> Snapshot | None:
        """The document at ``uri`` as features see it now, or None for a non-file URI."""
        path = uri_to_path(uri)
        if path is None:
            return None
        engine = self.engine_for(path)
        kind = engine.kind_of(path)  # asked of the engine first: what it works out, it keeps for the next request
        lines = self.lines_of(path)
        return Snapshot(uri, path, lines.text, lines, kind, engine.view())

    async def scanned_snapshot(self, uri: str, *, at_most: float | None = None) -> Snapshot | None:
        """The document at ``uri`` once its workspace's first scan has ended (or ``at_most`` seconds of it): the
        snapshot is taken after the wait, from the engine serving the workspace then, so a request reads one
        state. A file the server does not check is answered at once (its ``kind`` None), starting no scan."""
        path = uri_to_path(uri)
        if path is None:
            return None
        engine = self.engine_for(path)
        if engine.kind_of(path) is not None:
            await self.scanned(engine, at_most=at_most)
        return self.snapshot(uri)

    async def scanned_views(self, engines: list[WorkspaceEngine]) -> list[WorkspaceView]:
        """The workspaces of ``engines`` once each first scan has ended, all taken at one moment after the waits,
        each from the engine serving its workspace then (a settings change may have replaced one meanwhile)."""
        for engine in engines:
            await self.scanned(engine)
        current = [self._serving(engine) for engine in engines]
        return [engine.view() for engine in current]

    def _serving(self, engine: WorkspaceEngine) -> WorkspaceEngine:
        """The engine serving ``engine``'s workspace now: ``engine`` itself unless it was replaced."""
        workspace = self.workspaces.get(engine.directory)
        return workspace.engine if workspace is not None else engine

    def open_buffer(self, path: Path, uri: str) -> WorkspaceState:
        """``path`` is an open buffer of the workspace it belongs to now."""
        self.buffers.open(path, uri)
        workspace = self.workspace_for(path)
        workspace.open.add(path)
        return workspace

    def close_buffer(self, path: Path) -> bool:
        """Back to the disk content; False when ``path`` was not an open buffer."""
        for workspace in self.workspaces.values():
            workspace.open.discard(path)
            workspace.pull.forget(path)  # a closed document is pushed again, not pulled
        return self.buffers.close(path)

    def newly_checked(self, workspace: WorkspaceState) -> set[Path]:
        """The open documents of ``workspace`` that were no file the server checks when opened and are one now
        (a plugin.json names one as its hooks document, SPEC §3.5): open buffers from now on."""
        found: set[Path] = set()
        for uri in list(self._workspace().text_documents):
            path = uri_to_path(uri)
            if path is None or path in self.buffers or self.workspace_for(path) is not workspace:
                continue
            if workspace.engine.kind_of(path) is not None:
                self.buffers.open(path, uri)
                found.add(path)
        return found

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

    def start_scan_helpers(self) -> None:
        """Start the first scan's helpers now if a folder's skill roots are large (``start_for_folders``): the first
        scan takes them (``_first_scan``), and stops them when it ends, whether it used them or not."""
        from clarvis_lsp.server.helper_processes import start_for_folders

        if self.helpers_ahead is None:
            self.helpers_ahead = start_for_folders(self.folders, self.home)

    def folder_for(self, path: Path) -> Path:
        for folder in sorted(self.folders, key=lambda item: len(item.parts), reverse=True):
            if path == folder or folder in path.parents:
                return folder
        return path.parent

    def change_folders(self, added: list[Path], removed: set[Path]) -> list[WorkspaceState]:
        """Workspace folders added and removed; the workspaces inside a removed folder are dropped (and answered,
        for their published findings to be withdrawn)."""
        self.folders = [folder for folder in self.folders if folder not in removed]
        self.folders += added
        from clarvis_lsp.workspace.live import within

        dropped = [self.workspaces.pop(directory) for directory in list(self.workspaces) if within(directory, removed)]
        self.forget_nearest()
        return dropped

    def forget_nearest(self) -> None:
        """A file was created or deleted, or the folders changed: a workspace may have appeared or gone, so each
        path's nearest workspace is looked up again. A file whose findings another workspace published moves to
        the workspace it belongs to now."""
        self._nearest.clear()
        for workspace in list(self.workspaces.values()):
            for path in [*workspace.published, *workspace.open]:
                owner = self.workspace_for(path)
                if owner is workspace:
                    continue
                if path in workspace.open:
                    workspace.open.discard(path)
                    owner.open.add(path)
                if path in workspace.published:
                    owner.published.setdefault(path, workspace.published.pop(path))
                workspace.pull.forget(path)

    def workspace_for(self, path: Path) -> WorkspaceState:
        """The workspace ``path`` belongs to: the nearest one up to its folder (looked up once, see
        ``forget_nearest``), made with its engine on first use."""
        directory = self._nearest.get(path)
        if directory is None:
            from clarvis_lsp.discovery import nearest_workspace

            directory = nearest_workspace(path, self.folder_for(path))
            if len(self._nearest) >= 50_000:  # the files an editor asks about: bounded all the same
                self._nearest.clear()
            self._nearest[path] = directory
        workspace = self.workspaces.get(directory)
        if workspace is None:
            from clarvis_lsp.workspace.live import Workspace as WorkspaceState

            workspace = WorkspaceState(engine=self._build_engine(directory, self.config_for(directory)))
            self.workspaces[directory] = workspace
            self._client_config_findings(workspace)
        return workspace

    def engine_for(self, path: Path) -> WorkspaceEngine:
        return self.workspace_for(path).engine

    def folder_workspaces(self) -> list[WorkspaceState]:
        """Every workspace in the workspace folders, nested ones included, each once."""
        from clarvis_lsp.discovery import find_workspaces

        found: list[WorkspaceState] = []
        for folder in list(self.folders):
            for directory in find_workspaces(folder, home=self.home):
                workspace = self.workspace_for(directory / ".clarvis")
                if workspace not in found:
                    found.append(workspace)
        return found

    def folder_engines(self) -> list[WorkspaceEngine]:
        """The engine of every workspace in the workspace folders, nested ones included, each once."""
        return [workspace.engine for workspace in self.folder_workspaces()]

    def _build_engine(self, directory: Path, config: ProjectConfig) -> WorkspaceEngine:
        """The one place an engine is made: over the buffers, the trust notices ignored in a trusted workspace."""
        from clarvis_lsp.discovery.io import REREADING_OS_READER
        from clarvis_lsp.rules.catalogue import TRUST_NOTICES
        from clarvis_lsp.rules.selection import RuleSelection
        from clarvis_lsp.workspace.engine import WorkspaceEngine

        return WorkspaceEngine(
            directory=directory,
            config=config,
            home=self.home,
            overlay=self.buffers,
            reader=REREADING_OS_READER,  # a long-lived process keeps no copy of every SKILL.md it found
            trusted=self.settings.trust_workspace,
            rules=RuleSelection(ignore=TRUST_NOTICES if self.settings.trust_workspace else ()),
        )

    def config_for(self, directory: Path) -> ProjectConfig:
        """``directory``'s configuration: its project file, under initializationOptions, under the
        workspace/configuration answer. The editor's setting decides whether a symlinked project file may be
        opened, before it is. The project file's own findings are kept for the workspace (``_pending_config``)."""
        follow = symlinks_followed(self.settings.init, self.settings.client)
        load = load_project_config(directory, follow_symlinks=follow)
        if load.status == "error":
            self._client.show_error(load.message)
        # The config/invalid findings live on the configuration file itself (cleared once it loads again).
        self._pending_config[directory] = {
            config_file: [diagnostic for diagnostic in load.diagnostics if diagnostic.path == config_file]
            for config_file in (directory / name for name in CONFIG_FILES)
        }
        try:
            return layered(layered(load.config, self.settings.init), self.settings.client)
        except ValueError as error:
            self._client.show_error(f"Invalid clarvis settings: {error}; using the defaults.")
            return load.config

    def _client_config_findings(self, workspace: WorkspaceState) -> None:
        """Tell the client the configuration files' findings ``config_for`` found for ``workspace``."""
        for path, findings in self._pending_config.pop(workspace.directory, {}).items():
            self._client.config_file_checked(workspace, path, findings)

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
        for directory, workspace in list(self.workspaces.items()):
            engine = workspace.engine
            config = self.config_for(directory)
            self._client_config_findings(workspace)
            trusted_before = engine.trusted
            if config != engine.config or trusted_before != self.settings.trust_workspace:
                workspace.replace_engine(self._build_engine(directory, config))
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
        workspace = self.workspaces.get(engine.directory)
        if engine.is_discovered or (workspace is not None and workspace.engine is engine and workspace.scan_failed):
            return True
        if workspace is not None and workspace.engine is engine and workspace.scan_cancelled:
            return False  # cancelled by the user: no scan until ``resume_scan``
        if engine not in self.scans:
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # no event loop (a synchronous caller): discover here
                return True
            self.scans[engine] = asyncio.ensure_future(self._first_scan(engine))
        return False

    async def scanned(self, engine: WorkspaceEngine, *, at_most: float | None = None) -> bool:
        """Wait for ``engine``'s first scan (a cancelled request stops waiting; the scan goes on), or ``at_most``
        seconds of it, and with ``at_most`` not at all while it has more than ``LONG_SCAN`` directories to read;
        True when discovery is ready. A request that waited on a scan the settings made obsolete
        gets the discovery of the engine that replaced it."""
        if self.ready(engine):
            return True
        running = self.scans.get(engine)
        if running is None:  # cancelled: answer without discovery rather than wait for a scan that will not come
            return False
        scan = asyncio.shield(running)
        if at_most is not None:
            sized = self._scan_sized.get(engine)
            if sized is not None and not sized.done():
                # The scan has not listed its first root yet: wait for that, or for its end, within the patience.
                loop = asyncio.get_running_loop()
                began = loop.time()
                await asyncio.wait({scan, sized}, timeout=at_most, return_when=asyncio.FIRST_COMPLETED)
                at_most = max(0.0, at_most - (loop.time() - began))
            if not running.done() and self.scan_left(engine) > LONG_SCAN:
                return False  # it would not end within the patience: answer now
        try:
            await (scan if at_most is None else asyncio.wait_for(scan, at_most))
        except asyncio.TimeoutError:
            return False
        current = self.workspaces.get(engine.directory)
        superseded_by = current.engine if current is not None and current.engine is not engine else None
        if engine.is_discovered:
            superseded_by = None
        if (
            superseded_by is not None
            and await self.scanned(superseded_by, at_most=at_most)
            and superseded_by.is_discovered
        ):
            engine.adopt(superseded_by)
        return self.ready(engine)

    def resume_scan(self, path: Path) -> None:
        """A file was saved or changed on disk: a workspace whose first scan the user cancelled scans again."""
        workspace = self.workspace_for(path)
        if workspace.scan_cancelled:
            workspace.scan_cancelled = False
            self.ready(workspace.engine)

    def scan_left(self, engine: WorkspaceEngine) -> int:
        """How many directories ``engine``'s first scan has still to read in the roots it has listed so far (0 when
        none is running, or before its first report)."""
        left = self._scan_left.get(engine, {}).copy()  # one step: the worker thread adds roots as it lists them
        return sum(left.values())

    def _superseded(self, engine: WorkspaceEngine) -> bool:
        """Whether ``engine`` was replaced (its configuration changed) or dropped (its folder was removed)."""
        workspace = self.workspaces.get(engine.directory)
        return workspace is None or workspace.engine is not engine

    async def _first_scan(self, engine: WorkspaceEngine) -> None:
        from clarvis_lsp.discovery import StartupError
        from clarvis_lsp.server.scan_helper import HelperScan

        detached = engine.detached()
        loop = asyncio.get_running_loop()
        # The progress token is known once the client has answered for it; the scan does not wait for that round
        # trip (a hover sent meanwhile waits for the first report to learn whether the scan is long).
        token: str | None = None
        left = self._scan_left[engine] = {}
        sized = self._scan_sized[engine] = loop.create_future()

        last: list[tuple[int, int, int]] = []  # the latest report, given to the client once its token is known

        def progress(root_index: int, done: int, total: int) -> None:  # called on the worker thread
            last[:] = [(root_index, done, total)]
            first_report = not left
            left[root_index] = total - done
            if first_report:
                loop.call_soon_threadsafe(_settle, sized)
            if self._superseded(engine):
                raise ScanSuperseded  # the settings changed: the engine that replaced this one scans anew
            if token is not None and self._client.progress_cancelled(token):
                raise ScanCancelled
            if token is not None:
                loop.call_soon_threadsafe(self._client.report_progress, token, root_index, done, total)

        def warm() -> None:
            # The collector waits while the scan allocates; the process's first scan is then frozen, later ones
            # are not (``memory.kept_scan``).
            with kept_scan(), helpers:
                detached.warm(progress, strategy=helpers)

        ahead, self.helpers_ahead = self.helpers_ahead, None
        helpers = HelperScan(
            detached.overlay, follow_symlinks=detached.config.follow_symlinks, reader=detached.reader, ahead=ahead
        )
        # Started here, before the worker thread runs: a helper's start overlaps the scan's own first steps. A
        # configuration that gives no roots raises again in the scan, which reports it.
        with contextlib.suppress(Exception):
            helpers.start_early(
                os.path.join(detached.directory, os.path.expanduser(root.path)) for root in detached.standalone_roots()
            )

        superseded = cancelled = False
        work = loop.run_in_executor(None, warm)
        try:
            token = await self._client.begin_progress(
                f"Discovering skills in {engine.directory.name or engine.directory}"
            )
            if token is not None and last:  # the scan reported before the client answered for the token
                self._client.report_progress(token, *last[0])
            await work
        except ScanSuperseded:
            superseded = True  # the replacement's scan re-checks the open files
        except ScanCancelled:
            cancelled = True
            workspace = self.workspaces.get(engine.directory)
            if workspace is not None and workspace.engine is engine:
                workspace.scan_cancelled = True
        except Exception as error:  # StartupError or a bug: the synchronous path reports it where it is handled
            workspace = self.workspaces.get(engine.directory)
            if workspace is not None and workspace.engine is engine:
                workspace.scan_failed = True
            if not isinstance(error, StartupError):
                self._client.log_error(
                    f"clarvis-lsp: the first scan of {engine.directory} failed:\n{traceback.format_exc()}"
                )
        else:
            if self._superseded(engine):  # replaced after its last report: what it read is not this workspace's
                superseded = True
            else:
                engine.adopt(detached)
                self._client.scan_ended(self.workspaces[engine.directory])
        finally:
            self.scans.pop(engine, None)
            self._scan_left.pop(engine, None)
            self._scan_sized.pop(engine, None)
            _settle(sized)
            if token is not None:
                count = len(engine.discovered.registry) if engine.is_discovered else 0
                message = f"{count} skills"
                if superseded:
                    message = "stopped: the settings changed"
                elif cancelled:
                    message = "cancelled: each file is checked on its own until one is saved"
                self._client.end_progress(token, message)


def _settle(future: asyncio.Future[None]) -> None:
    """Resolve ``future`` unless it already is."""
    if not future.done():
        future.set_result(None)
