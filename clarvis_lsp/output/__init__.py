"""Output formats of ``clarvis-lsp --check``; see ``formats`` for why each looks the way it does."""

from __future__ import annotations

from clarvis_lsp.output.formats import (
    INFORMATION_URI,
    SARIF_SCHEMA_URI,
    format_github,
    format_json,
    format_sarif,
    format_text,
)

__all__ = [
    "INFORMATION_URI",
    "SARIF_SCHEMA_URI",
    "format_github",
    "format_json",
    "format_sarif",
    "format_text",
]
