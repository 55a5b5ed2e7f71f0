"""Document highlight, protocol-free: every place in the document that names what the cursor is on.

The same skill, agent, plugin or MCP server name (``clarvis_lsp.editor.occurrences``): in a settings.json the
plugin named by an ``enabledPlugins`` entry is also the ``memory.provider`` of that name; in a SKILL.md the plugin
of ``agent: p:x``. The declaration (a ``name``, an MCP server's key) is a write, every other place a read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.editor.occurrences import occurrences
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge.files import FileKind

__all__ = ["Highlight", "document_highlights"]


@dataclass(frozen=True)
class Highlight:
    """A place that names the thing under the cursor; ``write`` on its declaration."""

    range: Range
    write: bool


def document_highlights(kind: FileKind | None, path: Path, text: str, position: Position) -> list[Highlight]:
    """The places naming the skill, agent, plugin or MCP server at ``position``; empty anywhere else."""
    found = occurrences(kind, path, text)
    under = next((item for item in found if item.range.contains(position)), None)
    if under is None:
        return []
    return [
        Highlight(item.range, item.declaration) for item in found if item.kind == under.kind and item.name == under.name
    ]
