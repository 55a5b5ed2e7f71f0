"""Output formats of ``clarvis-lsp --check`` (text, JSON, SARIF, GitHub annotations) and how paths are shown;
see ``formats`` for why each looks the way it does. Reads findings and the rule catalogue only: it never runs a
check, and nothing in it imports the engine, discovery or a front end."""

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
