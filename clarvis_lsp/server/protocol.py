"""The JSON-RPC protocol with the guarantees SPEC §9 asks of the server: every request gets an answer, the
server's copy of a document is the client's, and memory does not grow with the number of messages.

``ClarvisProtocol`` overrides these parts of pygls 2.1.1 (so ``pyproject.toml`` pins pygls to 2.1 from 2.1.1;
``tests/lsp/test_pygls_upstream.py`` checks, against plain pygls, that each defect is still there):

- ``structure_message`` (with ``UnreadableMessage``) and ``handle_message``: a request whose params do not match
  the LSP types gets a JSON-RPC ``InvalidParams`` error (a notification is logged). pygls raises from
  ``structure_message``; its reader logs "Unable to handle message", shows the user an error and never answers, so
  the client waits for ever. A client's answer to the server's own request that does not match the LSP type (a
  client that answers ``window/showDocument`` with ``null``) settles that request with the result as sent; pygls
  left it waiting for ever, and with it the ``workspace/executeCommand`` that made it. Not reported upstream as of
  pygls 2.1.1 (https://github.com/openlawlibrary/pygls/issues/326 asks for lenient structuring in general).
- ``handle_message``: a request after ``shutdown`` gets ``InvalidRequest`` (LSP, "Shutdown Request"); pygls logs
  "Server shutting down. No more requests!" and never answers. Not reported upstream as of pygls 2.1.1
  (https://github.com/openlawlibrary/pygls/issues/605 is the same check dropping the client's responses).
- ``_accepts_before_initialize``: a request before ``initialize`` gets ``-32002 ServerNotInitialized``, a
  notification before it is dropped (but ``exit``), and a second ``initialize`` gets ``InvalidRequest`` (LSP,
  "Initialize Request"). pygls handles them as any other (``shutdown`` before ``initialize`` is answered ``null``)
  and a second ``initialize`` makes a new workspace, losing the negotiated position encoding and the open
  documents with their edits. Not reported upstream as of pygls 2.1.1.
- ``_execute_handler``: a handler's finished future is forgotten. pygls removes a request's future when it
  answers, but keeps the future of every notification (one per keystroke) and of every handler a generator yields
  to in ``_request_futures`` for ever, about 2 KB each (benchmarks/pygls-request-futures-leak.md). Not reported
  upstream as of pygls 2.1.1.
- ``_handle_response``: the expected result type of a server request that the client answered with an error is
  forgotten; pygls pops it from ``_result_types`` for a result only. Not reported upstream as of pygls 2.1.1
  (https://github.com/openlawlibrary/pygls/issues/608 reports the never-answered case; its proposed fix, a
  done-callback, would cover this one).
- ``_handle_cancel_notification``: a cancel for a request already answered (clients cancel on every keystroke) is
  ignored; pygls logs the warning "Cancel notification for unknown message id". Not reported upstream as a defect
  of its own as of pygls 2.1.1 (the warning shows in https://github.com/openlawlibrary/pygls/issues/517, which
  asks for cancelled requests to be skipped).
- ``lsp_shutdown``: the pending futures are cancelled from a copy of the table. pygls walks the table itself, and
  a cancelled future's callbacks run at once and remove it: ``shutdown`` with a request still pending is answered
  "dictionary changed size during iteration" and the server is not shut down.
  https://github.com/openlawlibrary/pygls/issues/606.
- ``lsp_text_document__did_change``: the changes are applied by ``clarvis_lsp.server.edits`` (LSP's line ends and
  clamping; pygls applies them to the lines of ``str.splitlines``, which also ends a line at U+2028, U+2029,
  U+0085, form feed, vertical tab and U+001C-U+001E, so an edit below one lands on the wrong line); a change older
  than the document's version is ignored with a log message (pygls applies it: changes are applied in order, so an
  out-of-date one no longer fits the text); a change to a document that is not open is logged (pygls raises
  ``KeyError``, shown to the user as "Error in server"). Not reported upstream as of pygls 2.1.1.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import JsonRPCResponseMessage, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from clarvis_lsp.server.edits import apply_changes

LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class UnreadableMessage:
    """A message whose params could not be structured; answered with ``error`` if it was a request."""

    id: int | str | None
    method: str
    error: JsonRpcException
    jsonrpc: str = "2.0"


class ClarvisProtocol(LanguageServerProtocol):
    """pygls' language server protocol, answering every request (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_received = False

    # Upstream: not reported as of pygls 2.1.1 (related: https://github.com/openlawlibrary/pygls/issues/326, lenient
    # structuring in general). pygls raises JsonRpcInvalidParams here and its reader answers nothing.
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except (JsonRpcInvalidParams, JsonRpcInternalError) as error:
            method = data.get("method")
            if isinstance(method, str):
                return UnreadableMessage(data.get("id"), method, error)
            if "id" in data and "error" not in data:
                # A result that does not match the LSP type (``null`` for window/showDocument): handed over as
                # sent, so the request waiting for it is settled and its caller decides what it means.
                return JsonRPCResponseMessage(id=data["id"], result=data.get("result"), jsonrpc="2.0")
            raise

    # Upstream: not reported as of pygls 2.1.1 (related: https://github.com/openlawlibrary/pygls/issues/605, the same
    # check dropping responses). pygls drops a request after shutdown unanswered.
    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        msg_id = getattr(message, "id", None)
        is_request = msg_id is not None and method is not None
        if not self._accepts_before_initialize(message, method, is_request):
            return
        if isinstance(message, UnreadableMessage):
            if message.id is None:
                LOG.warning("ignored the %s notification: its params cannot be read", message.method)
                return
            invalid = JsonRpcInvalidParams(f"{message.method}: the params do not match the LSP types")
            self._send_response(message.id, error=invalid.to_response_error())
            return
        if self._shutdown and is_request and method != types.EXIT:
            refused = JsonRpcInvalidRequest(f"{method} after shutdown: the server only accepts exit now")
            self._send_response(message.id, error=refused.to_response_error())
            return
        super().handle_message(message)

    # Upstream: not reported as of pygls 2.1.1. pygls handles a message before initialize as any other, and a
    # second initialize replaces the workspace.
    def _accepts_before_initialize(self, message: Any, method: str | None, is_request: bool) -> bool:
        """LSP's rules around ``initialize``: False (the message answered or dropped here) for a second
        ``initialize``, a request before the first (``ServerNotInitialized``) and a notification before it but
        ``exit``. Responses to the server's own requests always pass."""
        if method is None:
            return True
        if is_request and method == types.INITIALIZE:
            if self._initialize_received:
                again = JsonRpcInvalidRequest("initialize may only be sent once")
                self._send_response(message.id, error=again.to_response_error())
                return False
            # An initialize whose params cannot be read is answered InvalidParams and does not count.
            self._initialize_received = not isinstance(message, UnreadableMessage)
            return True
        if self._initialize_received or method == types.EXIT:
            return True
        if is_request:
            early = JsonRpcServerNotInitialized(f"{method} before initialize: send initialize first")
            self._send_response(message.id, error=early.to_response_error())
        else:
            LOG.warning("dropped the %s notification: it came before initialize", method)
        return False

    # Upstream: not reported as of pygls 2.1.1 (benchmarks/pygls-request-futures-leak.md is the report, unfiled).
    def _execute_handler(
        self,
        msg_id: Any,
        handler: Any,
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls' handler execution, forgetting the handler's future once it is done. pygls removes a request's
        future when it answers, but never a notification's (nor the inner future of a handler that yields to
        another): one finished future per ``didChange`` stayed in ``_request_futures`` for ever."""

        def forget_then_callback(future: Future[Any]) -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, forget_then_callback, args, kwargs)

    # Upstream: not reported for error responses as of pygls 2.1.1 (related:
    # https://github.com/openlawlibrary/pygls/issues/608, the never-answered case).
    def _handle_response(self, msg_id: Any, result: Any | None = None, error: Any | None = None) -> None:
        """A response to one of the server's requests; its expected result type is forgotten as well (pygls
        forgets it only when the response is a result, not an error)."""
        self._result_types.pop(msg_id, None)
        super()._handle_response(msg_id, result, error)

    # Upstream: not reported as a defect of its own as of pygls 2.1.1 (related:
    # https://github.com/openlawlibrary/pygls/issues/517, where the warning shows).
    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """A cancel for a request already answered is normal (clients cancel on every keystroke): ignore it
        instead of logging a warning to the user's output panel."""
        if msg_id in self._request_futures:
            super()._handle_cancel_notification(msg_id)

    # Upstream: https://github.com/openlawlibrary/pygls/issues/606 (pygls walks _request_futures while cancelling).
    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """``shutdown``: the server's own handler, then every other handler still running is cancelled and only
        ``exit`` is accepted. The pending futures are walked in a copy of the table: a cancelled future's callbacks
        run at once and remove it from the table (pygls walks the table itself, and a shutdown that came while
        ``initialized`` still waited for the client's configuration failed with "dictionary changed size")."""
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        this_request = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != this_request and not future.done():
                future.cancel()
        self._shutdown = True

    # Upstream: not reported as of pygls 2.1.1. pygls applies changes to str.splitlines lines, applies an older
    # version's change, and raises KeyError for a document that is not open.
    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        uri = params.text_document.uri
        document = self.workspace.text_documents.get(unquote(uri))  # pygls keys its documents so
        if document is None:
            self._warn(f"clarvis-lsp: ignored a change to {uri}: the document is not open")
            return
        current = document.version
        if current is not None and params.text_document.version < current:
            self._warn(
                f"clarvis-lsp: ignored a change to {uri} for version {params.text_document.version}: "
                f"the document is at version {current} already"
            )
            return
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        text = apply_changes(document.source, params.content_changes, encoding)
        self.workspace.put_text_document(
            types.TextDocumentItem(
                uri=uri, language_id=document.language_id or "", version=params.text_document.version, text=text
            )
        )
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None

    def _warn(self, message: str) -> None:
        LOG.warning(message)
        self.notify(types.WINDOW_LOG_MESSAGE, types.LogMessageParams(type=types.MessageType.Warning, message=message))
