"""The language server: LSP in, findings out. Every finding comes from ``WorkspaceEngine`` (the same engine as
``--check``); each workspace's state (its engine, first scan, published findings and pull state) is owned by its
``Workspace`` (``clarvis_lsp.workspace.live``), and the buffers, settings and folders by the session
(``server/session.py``). This module hands a workspace the changes the client reports and sends out the ``Delta``
it answers, and tells the client what the session reports.
"""

from __future__ import annotations

import asyncio
import functools
import traceback
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from clarvis_lsp import __version__
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.memory import paused_collector
from clarvis_lsp.server.convert import UTF16, to_lsp_diagnostic
from clarvis_lsp.server.protocol import ClarvisProtocol
from clarvis_lsp.server.session import Session

if TYPE_CHECKING:  # the engine, discovery and the rules are imported when first used: start-up needs none of them
    from clarvis_lsp.workspace.engine import WorkspaceEngine
    from clarvis_lsp.workspace.live import Delta, Workspace

EFFECTIVE_SKILLS = "clarvis/effectiveSkills"
EFFECTIVE_SKILLS_CHANGED = "clarvis/effectiveSkillsChanged"
EFFECTIVE_CONFIGURATION_CHANGED = "clarvis/effectiveConfigurationChanged"
Handler = TypeVar("Handler", bound=Callable[..., Any])


class ClarvisServer(LanguageServer):
    """pygls server publishing the findings of the session's engines."""

    def __init__(self) -> None:
        super().__init__("clarvis-lsp", __version__, protocol_cls=ClarvisProtocol)
        self.session = Session(lambda: self.workspace, self)
        self.pull_diagnostics = False
        self.pending: set[Path] = set()
        self._flush_scheduled = False
        self._refresh_pulls = False  # a pull client should pull again once the current check is published

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

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or UTF16)

    def reset_engines(self) -> None:
        """Layer every workspace's configuration again (``Session.reset_engines``); where the trust setting
        changed, the client is told that the effective configuration, the hints and the lenses changed (no open
        file's findings are re-checked for it)."""
        for directory in self.session.reset_engines():
            self.protocol.notify(EFFECTIVE_CONFIGURATION_CHANGED, {"uri": directory.as_uri()})
            self.request_inlay_hint_refresh()
            self.request_code_lens_refresh()

    # -- findings ----------------------------------------------------------------------------------------------

    def findings_for(
        self, engine: WorkspaceEngine, paths: Iterable[Path], *, alone: bool = False
    ) -> dict[Path, list[Diagnostic]]:
        """Own and cross-file findings for ``paths`` (files of ``engine``), assembled as ``--check`` does (own
        findings only with ``alone``), with the paths in their messages shown as ``shown_paths`` shows them."""
        from clarvis_lsp.workspace.live import shown_findings

        errors: list[str] = []
        found = shown_findings(engine, paths, self.session.shown_paths(engine).diagnostic, alone=alone, errors=errors)
        for message in errors:
            self.show_error(message)
        return found

    def refresh(self, changed: Path) -> None:
        """Re-check after ``changed`` changed, in the workspace it belongs to, and send out what changed."""
        session = self.session
        workspace = session.workspace_for(changed)
        display = session.shown_paths(workspace.engine).diagnostic
        if not session.ready(workspace.engine):
            # The first scan is still running: publish what this file shows on its own now, the rest when it ends.
            self.send(workspace, workspace.apply_alone(changed, display))
        else:
            with paused_collector():  # a context edit rebuilds the cross-file findings: the collector waits
                delta = workspace.apply(changed, display, lambda: session.newly_checked(workspace))
            self.send(workspace, delta)

    def send(self, workspace: Workspace, delta: Delta) -> None:
        """Tell the client what ``delta`` changed in ``workspace``: the findings, then what to ask again for."""
        for message in delta.errors:
            self.show_error(message)
        for path, findings in delta.findings.items():
            self.push(path, findings)
        if delta.others_changed:
            self._refresh_pulls = True
        if not self.pending:  # one refresh for a batch of changes (the last of a flush sends it)
            self.request_pull_refresh()
        if delta.skills_changed:
            self.protocol.notify(EFFECTIVE_SKILLS_CHANGED, {})
            self.protocol.notify(EFFECTIVE_CONFIGURATION_CHANGED, {"uri": workspace.directory.as_uri()})
        if delta.editor_refresh:
            self.request_editor_refresh(tokens=delta.tokens)

    # -- what the session reports (``SessionClient``) -------------------------------------------------------------

    def show_error(self, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))

    def log_error(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    def config_file_checked(self, workspace: Workspace, path: Path, findings: list[Diagnostic]) -> None:
        """A configuration file's ``config/invalid`` findings are published on it (and cleared once it loads)."""
        if findings or path in workspace.published:
            workspace.config_findings[path] = findings
            self.publish(workspace, path, findings)

    def scan_ended(self, workspace: Workspace) -> None:
        """Publish the full findings of every file checked on its own while the first scan ran, and tell the
        client the winners and lenses are known."""
        display = self.session.shown_paths(workspace.engine).diagnostic
        self.send(workspace, workspace.scan_ended(display, lambda: self.session.newly_checked(workspace)))

    async def begin_progress(self, title: str) -> str | None:
        """A work-done progress token, begun, when the client shows progress; else None."""
        window = self.client_capabilities.window
        if not (window and window.work_done_progress):
            return None
        token = f"clarvis-scan-{uuid.uuid4()}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception:  # a client that refuses the token just gets no progress
            return None
        self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title, percentage=0, cancellable=True))
        return token

    def report_progress(self, token: str, root_index: int, done: int, total: int) -> None:
        percentage = int(100 * done / total) if total else 100
        message = f"Discovering skills… {done:,}/{total:,} (root {root_index + 1})"
        self.work_done_progress.report(token, types.WorkDoneProgressReport(message=message, percentage=percentage))

    def progress_cancelled(self, token: str) -> bool:
        """pygls cancels the token's future when the client sends ``window/workDoneProgress/cancel``."""
        future = self.work_done_progress.tokens.get(token)
        return future is not None and future.cancelled()

    def end_progress(self, token: str, message: str) -> None:
        self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))

    # -- publishing ------------------------------------------------------------------------------------------------

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

    def publish(self, workspace: Workspace, path: Path, diagnostics: list[Diagnostic]) -> None:
        """Publish ``path``'s findings, recorded by ``workspace``, if they changed."""
        if workspace.record(path, diagnostics)[0]:
            self.push(path, diagnostics)

    def push(self, path: Path, diagnostics: list[Diagnostic]) -> None:
        """Send ``path``'s findings to a push client. A pull client is never pushed: it pulls its open documents
        (and the workspace's, when it pulls those), and gets ``workspace/diagnostic/refresh`` when they change; a
        push for a file it never opened would put findings in its list that no pull of it asked for, and that
        nothing would ever clear."""
        if self.pull_diagnostics:
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=path.as_uri(),
                version=self.session.buffers.version(path),
                diagnostics=[to_lsp_diagnostic(item, self.session.lines_of, self.encoding) for item in diagnostics],
            )
        )

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
