"""The JSON-RPC protocol with the guarantees SPEC §9 asks of the server: every request gets an answer.

pygls drops a request whose params do not match the LSP types (it shows an error message but never answers, so
the client waits forever) and silently ignores requests after ``shutdown``. Here:

- a request whose params cannot be read gets a JSON-RPC ``InvalidParams`` error (a notification is logged);
- a request after ``shutdown`` gets ``InvalidRequest``;
- a ``didChange`` older than the document's version is ignored with a log message instead of corrupting the
  buffer (changes are applied in order, so an out-of-date one no longer fits the text).
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

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

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except (JsonRpcInvalidParams, JsonRpcInternalError) as error:
            method = data.get("method")
            if not isinstance(method, str):
                raise
            return UnreadableMessage(data.get("id"), method, error)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, UnreadableMessage):
            if message.id is None:
                LOG.warning("ignored the %s notification: its params cannot be read", message.method)
                return
            invalid = JsonRpcInvalidParams(f"{message.method}: the params do not match the LSP types")
            self._send_response(message.id, error=invalid.to_response_error())
            return
        method = getattr(message, "method", None)
        is_request = getattr(message, "id", None) is not None and method is not None
        if self._shutdown and is_request and method != types.EXIT:
            refused = JsonRpcInvalidRequest(f"{method} after shutdown: the server only accepts exit now")
            self._send_response(message.id, error=refused.to_response_error())
            return
        super().handle_message(message)

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """A cancel for a request already answered is normal (clients cancel on every keystroke): ignore it
        instead of logging an error to the user's output panel."""
        if msg_id in self._request_futures:
            super()._handle_cancel_notification(msg_id)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        uri = params.text_document.uri
        document = self.workspace.text_documents.get(uri)
        current = document.version if document is not None else None
        if current is not None and params.text_document.version < current:
            message = (
                f"clarvis-lsp: ignored a change to {uri} for version {params.text_document.version}: "
                f"the document is at version {current} already"
            )
            LOG.warning(message)
            self.notify(
                types.WINDOW_LOG_MESSAGE, types.LogMessageParams(type=types.MessageType.Warning, message=message)
            )
            return
        yield from super().lsp_text_document__did_change(params)
