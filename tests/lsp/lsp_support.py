"""Helpers for the end-to-end tests: the test client, reading diagnostics the way each client shows them, files.

One server runs per test module and client capability set (``conftest.py``); ``ClarvisClient.one_test``
gives each test a fresh workspace folder on it and leaves the server as the next test expects it: documents
closed, settings as the module set them, what the client observed forgotten. Nothing here sleeps: a test waits
for a message from the server (``ClarvisClient.wait_for``) or makes a round trip (``ClarvisClient.settle``).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, create_work_done_progress, register_lsp_features
from pytest_lsp.protocol import LanguageClientProtocol

CLIENT_SPECS = {"visual_studio_code": "visual-studio-code@v1.65.2", "neovim": "neovim@v0.11.0"}
"""The capability sets every test runs under: VS Code pushes diagnostics and counts positions in UTF-16;
Neovim pulls diagnostics for open documents and negotiates UTF-8."""
EFFECTIVE_SKILLS_CHANGED = "clarvis/effectiveSkillsChanged"
EFFECTIVE_CONFIGURATION_CHANGED = "clarvis/effectiveConfigurationChanged"
TIMEOUT = 10.0  # seconds a test waits for a message that must come


class _Protocol(LanguageClientProtocol):
    """pytest-lsp's client protocol, waking the client's waiters after each message from the server."""

    _server: ClarvisClient

    def handle_message(self, message: Any) -> None:
        super().handle_message(message)
        self._server.message_arrived()


class ClarvisClient(LanguageClient):
    """pytest-lsp's test client, recording what these tests observe, shared by the tests of one module."""

    def __init__(self) -> None:
        super().__init__(protocol_cls=_Protocol, converter_factory=default_converter)
        self.client_name = ""
        self.settings: dict[str, object] = {}
        """The ``clarvis`` settings the module's server was started with (initializationOptions)."""
        self.folders: list[types.WorkspaceFolder] = []
        """The workspace folders the server was told about."""
        self.open_documents: set[str] = set()
        self.registrations: list[types.Registration] = []
        self.configuration_requests = 0
        self.server_capabilities = types.ServerCapabilities()
        """What the server answered ``initialize`` with."""
        self.code_lens_refreshes = 0
        self.semantic_tokens_refreshes = 0
        self.inlay_hint_refreshes = 0
        self.effective_skills_changes = 0
        self.progress_gate: asyncio.Event | None = None
        """While set to an event, the client answers ``window/workDoneProgress/create`` only once it is set: the
        server's first scan waits for that answer, so a test can hold the scan before its end."""
        self.progress_requests = 0
        self.effective_configuration_changes = 0
        self.applied_edits: list[types.ApplyWorkspaceEditParams] = []
        """Every ``workspace/applyEdit`` the server sent; the client applies each to the files on disk, as an
        editor applies one to a file it has not opened."""
        self._arrived: asyncio.Event | None = None
        self._initial_configuration = copy.deepcopy(self._configuration)
        self._settings_changed = False
        register_lsp_features(
            self,
            {
                **DEFAULT_CLIENT_FEATURES,
                types.WORKSPACE_CONFIGURATION: _configuration,
                types.CLIENT_REGISTER_CAPABILITY: _register_capability,
                types.WORKSPACE_CODE_LENS_REFRESH: _code_lens_refresh,
                types.WORKSPACE_SEMANTIC_TOKENS_REFRESH: _semantic_tokens_refresh,
                types.WORKSPACE_INLAY_HINT_REFRESH: _inlay_hint_refresh,
                types.WINDOW_WORK_DONE_PROGRESS_CREATE: _create_progress,
                types.WORKSPACE_APPLY_EDIT: _apply_edit,
                EFFECTIVE_SKILLS_CHANGED: _effective_skills_changed,
                EFFECTIVE_CONFIGURATION_CHANGED: _effective_configuration_changed,
            },
        )

    # -- waiting -----------------------------------------------------------------------------------------------

    def message_arrived(self) -> None:
        if self._arrived is not None:
            self._arrived.set()

    async def wait_for(self, condition: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
        """Wait until ``condition()`` holds, re-checking after every message from the server; False if it
        still does not after ``timeout`` seconds (the caller's assertion then shows what was there instead)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if self._arrived is None:
            self._arrived = asyncio.Event()
        while not condition():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            self._arrived.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), remaining)
        return True

    async def settle(self) -> None:
        """One round trip: the server answers in order, so when this returns, every message it sent while
        handling what the client sent before has arrived. (A hover outside any file: answered, changing nothing.)"""
        await self.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri="untitled:settle"), position=types.Position(0, 0)
            )
        )

    def progress_in_flight(self) -> list[types.ProgressToken]:
        """The work-done progress the server has created and not ended (its first scans run in the background)."""
        return [
            token
            for token, reports in self.progress_reports.items()
            if not (reports and isinstance(reports[-1], types.WorkDoneProgressEnd))
        ]

    async def quiesce(self) -> None:
        """Settle, then wait until the background work that started meanwhile (reported as work-done progress,
        which both capability sets accept) has ended: whatever it sends has arrived then."""
        await self.settle()
        if not await self.wait_for(lambda: not self.progress_in_flight()):
            raise RuntimeError(f"the server's work-done progress never ended: {self.progress_in_flight()}")

    # -- the module's session ----------------------------------------------------------------------------------

    async def start_session(
        self,
        client_name: str,
        capabilities: types.ClientCapabilities,
        root: Path,
        settings: dict[str, object],
        configuration: dict[str, object] | None = None,
    ) -> None:
        """initialize with ``capabilities``, ``root`` as the workspace folder and ``settings`` as
        initializationOptions, answering ``workspace/configuration`` with ``configuration`` (None: no ``clarvis``
        section); return once the server's ``initialized`` work (registrations, then its
        ``workspace/configuration`` request) is done."""
        self.client_name = client_name
        self.settings = settings
        if configuration is not None:
            self.set_configuration(configuration, section="clarvis")
        self._initial_configuration = copy.deepcopy(self._configuration)
        self._settings_changed = False
        self.folders = [types.WorkspaceFolder(uri=root.as_uri(), name=root.name)]
        result = await self.initialize_session(
            types.InitializeParams(
                capabilities=capabilities,
                root_uri=root.as_uri(),
                workspace_folders=list(self.folders),
                initialization_options={"clarvis": settings},
            )
        )
        self.server_capabilities = result.capabilities
        if not await self.wait_for(lambda: self.configuration_requests > 0):
            raise RuntimeError("the server did not ask for its configuration after `initialized`")

    @contextlib.asynccontextmanager
    async def one_test(self, workspace: Path) -> AsyncIterator[ClarvisClient]:
        """One test on the module's server: ``workspace`` replaces the workspace folders; afterwards the test's
        open documents are closed and changed settings restored. What the client observed before the test
        (diagnostics, messages, logs, shown documents, refresh counts) is forgotten once the server has
        answered for the folder change; the registrations of ``initialized`` stay."""
        folder = types.WorkspaceFolder(uri=workspace.as_uri(), name=workspace.name)
        self.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(added=[folder], removed=list(self.folders))
            )
        )
        await self.quiesce()  # also the work that re-checking the files of earlier tests started
        self._forget_observations()
        try:
            yield self
        finally:
            if self.error is None:
                for uri in sorted(self.open_documents):
                    self.text_document_did_close(
                        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
                    )
                self._restore_settings()
                await self.quiesce()  # what the server says about it belongs to this test's report

    def _forget_observations(self) -> None:
        self.diagnostics.clear()
        self.messages.clear()
        self.log_messages.clear()
        self._last_log_index = 0  # pytest-lsp's pointer into log_messages for the test report
        self.shown_documents.clear()
        for token in set(self.progress_reports) - set(self.progress_in_flight()):
            del self.progress_reports[token]
        self.diagnostic_refresh_count = 0
        self.code_lens_refreshes = 0
        self.semantic_tokens_refreshes = 0
        self.inlay_hint_refreshes = 0
        self.effective_skills_changes = 0
        self.effective_configuration_changes = 0

    def _restore_settings(self) -> None:
        """If the test changed settings (pushed them, or changed the ``workspace/configuration`` answer): the
        module's answer again, and the server told it (the answer replaces the server's previous one whole)."""
        if not self._settings_changed:
            return
        self._configuration = copy.deepcopy(self._initial_configuration)
        section = self.get_configuration(section="clarvis")
        restored = {"clarvis": section if isinstance(section, dict) else {}}
        super().workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=restored))
        self._settings_changed = False

    # -- what the test sends, tracked --------------------------------------------------------------------------

    def text_document_did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self.open_documents.add(params.text_document.uri)
        super().text_document_did_open(params)

    def text_document_did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self.open_documents.discard(params.text_document.uri)
        super().text_document_did_close(params)

    def workspace_did_change_workspace_folders(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {folder.uri for folder in params.event.removed}
        self.folders = [folder for folder in self.folders if folder.uri not in removed] + list(params.event.added)
        super().workspace_did_change_workspace_folders(params)

    def workspace_did_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        self._settings_changed = True
        super().workspace_did_change_configuration(params)

    def set_configuration(self, item: Any, *, section: str | None = None, scope_uri: str | None = None) -> None:
        self._settings_changed = True
        super().set_configuration(item, section=section, scope_uri=scope_uri)


# pygls passes the client first to a handler whose first parameter is annotated with the client's class.


def _configuration(client: ClarvisClient, params: types.ConfigurationParams) -> list[Any]:
    client.configuration_requests += 1
    return [client.get_configuration(section=item.section, scope_uri=item.scope_uri) for item in params.items]


def _register_capability(client: ClarvisClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)


async def _create_progress(client: ClarvisClient, params: types.WorkDoneProgressCreateParams) -> None:
    client.progress_requests += 1
    if client.progress_gate is not None:
        await client.progress_gate.wait()
    create_work_done_progress(client, params)


def _apply_edit(client: ClarvisClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
    """Apply a server's edit to the files on disk: each ``CreateFile`` (failing, as editors do, when the file
    exists and neither ``overwrite`` nor ``ignoreIfExists`` is set), then each text edit."""
    client.applied_edits.append(params)
    edit = params.edit
    changes: list[tuple[str, Sequence[Any]]] = list((edit.changes or {}).items())
    for change in edit.document_changes or []:
        if isinstance(change, types.CreateFile):
            path = Path(uri_to_fs(change.uri))
            if path.exists() and not (change.options and (change.options.overwrite or change.options.ignore_if_exists)):
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason=f"{path} exists")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
        elif isinstance(change, types.TextDocumentEdit):
            changes.append((change.text_document.uri, change.edits))
        else:
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason=f"not supported here: {change}")
    for uri, edits in changes:
        path = Path(uri_to_fs(uri))
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True) or [""]
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        for item in sorted(edits, key=lambda item: (item.range.start.line, item.range.start.character), reverse=True):
            start = starts[item.range.start.line] + item.range.start.character  # the edits here are ASCII
            end = starts[item.range.end.line] + item.range.end.character
            text = text[:start] + item.new_text + text[end:]
        path.write_text(text, encoding="utf-8")
    return types.ApplyWorkspaceEditResult(applied=True)


def uri_to_fs(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    return unquote(urlparse(uri).path)


def _code_lens_refresh(client: ClarvisClient, params: None) -> None:
    client.code_lens_refreshes += 1


def _semantic_tokens_refresh(client: ClarvisClient, params: None) -> None:
    client.semantic_tokens_refreshes += 1


def _inlay_hint_refresh(client: ClarvisClient, params: None) -> None:
    client.inlay_hint_refreshes += 1


def _effective_skills_changed(client: ClarvisClient, params: object) -> None:
    client.effective_skills_changes += 1


def _effective_configuration_changed(client: ClarvisClient, params: object) -> None:
    client.effective_configuration_changes += 1


# -- helpers for the tests ---------------------------------------------------------------------------------------


def wire_form(value: Any) -> Any:
    """A custom request's result as a client reads it off the wire: pygls hands it back as attribute objects."""
    if hasattr(value, "_asdict"):
        return {key: wire_form(item) for key, item in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [wire_form(item) for item in value]
    if isinstance(value, dict):
        return {key: wire_form(item) for key, item in value.items()}
    return value


async def custom_request(client: ClarvisClient, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Send one of the server's own requests (``clarvis/…``) and return its result in wire form."""
    result: Any = await client.protocol.send_request_async(method, params)  # type: ignore[no-untyped-call]
    plain: dict[str, Any] = wire_form(result)
    return plain


def write_file(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_numbered_skills(workspace: Path, count: int) -> None:
    """``count`` skills ``skill-00000``… in ``workspace``'s ``.clarvis/skills``: a root large enough that the first
    scan is long, or shared with a helper process."""
    for index in range(count):
        name = f"skill-{index:05d}"
        write_file(
            workspace, f".clarvis/skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: Skill {index}.\n---\n"
        )


def is_neovim(client: ClarvisClient) -> bool:
    return client.client_name == "neovim"


async def diagnostics_for(
    client: ClarvisClient,
    path: Path,
    until: Callable[[list[str]], bool] = bool,
    *,
    where: Callable[[list[types.Diagnostic]], bool] | None = None,
) -> list[types.Diagnostic]:
    """The diagnostics the client shows for ``path``: pulled (once, as a pull client does after a change) when
    the client pulls; else the pushed ones, waiting (up to 10 s) until their codes satisfy ``until`` and the
    diagnostics themselves ``where`` — a push may already have arrived, or still be coming."""
    if is_neovim(client):
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)  # nothing was pulled before
        return list(report.items)

    def shown() -> list[types.Diagnostic]:
        return list(client.diagnostics.get(path.as_uri(), []))

    await client.wait_for(lambda: until([str(item.code) for item in shown()]) and (where is None or where(shown())))
    return shown()


def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> None:
    """didOpen with ``text`` (default: the file's content on disk)."""
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="markdown", version=version, text=text)
        )
    )


# -- narrowing the protocol's optional answers, so a test fails with a clear assert, not an AttributeError ---------


def edits_in(action: types.Command | types.CodeAction, uri: str) -> list[types.TextEdit]:
    """The edits a code action makes to ``uri``."""
    assert isinstance(action, types.CodeAction), action
    assert action.edit is not None and action.edit.changes is not None, action
    return list(action.edit.changes[uri])


def actions_of(answer: Sequence[types.Command | types.CodeAction] | None) -> list[types.CodeAction]:
    """A code action answer's actions (commands alone would be a bug here)."""
    assert answer is not None
    assert all(isinstance(action, types.CodeAction) for action in answer), answer
    return [action for action in answer if isinstance(action, types.CodeAction)]


def items_of(report: object) -> list[types.Diagnostic]:
    """The findings of a full pull report (document or workspace item)."""
    assert isinstance(
        report,
        (
            types.RelatedFullDocumentDiagnosticReport,
            types.FullDocumentDiagnosticReport,
            types.WorkspaceFullDocumentDiagnosticReport,
        ),
    ), report
    return list(report.items)


def related_uri(diagnostic: types.Diagnostic, index: int = 0) -> str:
    """The URI of a finding's related location."""
    assert diagnostic.related_information is not None, diagnostic
    return diagnostic.related_information[index].location.uri
