"""Helpers for the end-to-end tests: reading diagnostics the way each client shows them, opening documents."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient


def write_file(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


async def diagnostics_for(
    client: LanguageClient, path: Path, until: Callable[[list[str]], bool] = bool
) -> list[types.Diagnostic]:
    """The diagnostics the client shows for ``path``: pulled when the client pulls; else pushed ones, waiting
    (up to 10 s) until their codes satisfy ``until`` — a push may already have arrived, or still be coming."""
    if client.client_name == "neovim":  # type: ignore[attr-defined]
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        return list(report.items)
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        current = client.diagnostics.get(path.as_uri(), [])
        remaining = deadline - asyncio.get_running_loop().time()
        if until([str(item.code) for item in current]) or remaining <= 0:
            return current
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining)
        except asyncio.TimeoutError:
            return client.diagnostics.get(path.as_uri(), [])


def is_neovim(client: LanguageClient) -> bool:
    return client.client_name == "neovim"  # type: ignore[attr-defined]


def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> None:
    """didOpen with ``text`` (default: the file's content on disk)."""
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="markdown", version=version, text=text)
        )
    )
