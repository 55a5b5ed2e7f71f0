"""Completion candidates by position, for every file kind, in documents that are still being typed.

The JSON kinds locate the cursor with ``JsonDocument.path_at`` (it recovers from unclosed quotes and braces) and
ask the schemas (``schema_docs``) what may go there: property names not yet present, enum values (narrowed by
the document, so a hook on ``run_end`` offers only ``on_failure: "pass"`` and an ``http`` MCP server no
``command``), booleans, and the schemas' ``defaultSnippets`` as LSP snippets. Facts discovery knows add values
the schemas cannot: installed plugins for ``enabledPlugins``, the plugin's skills for ``bootstrapSkill`` and
``capabilityRunPolicies``, discovered agents for a skill's ``agent``. SKILL.md frontmatter is read line by line,
so completion works while the YAML does not parse.

Ranges are engine ranges (code points); the server converts them to the client's encoding.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import SCHEMA_FOR_KIND, parsed_json
from clarvis_lsp.editor.completion_item import CandidateKind, CompletionCandidate
from clarvis_lsp.editor.completion_json import JsonCompletion
from clarvis_lsp.editor.completion_skill import complete_skill
from clarvis_lsp.editor.completion_snippets import snippet_json
from clarvis_lsp.findings import Position
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.discovered import Discovered

__all__ = ["CandidateKind", "CompletionCandidate", "complete", "snippet_json"]


def complete(
    text: str,
    kind: FileKind | None,
    position: Position,
    discovered: Discovered | None = None,
    *,
    path: Path | None = None,
    snippets: bool = False,
    trigger: str | None = None,
    lines: LineIndex | None = None,
    overlay: Mapping[Path, str] | None = None,
) -> list[CompletionCandidate]:
    """The candidates at ``position`` (code points) in ``text``, a document of ``kind`` at ``path``.

    ``snippets``: the client accepts snippet syntax (otherwise no snippet is offered and properties insert plain
    ``"key": ``). ``trigger``: the character that triggered the request, if any; ``:`` and a space answer only
    in a value position, so that typing between members does not pop a list up. ``overlay``: the open buffers,
    read before the disk where completion scans beyond discovery (a plugin's skills).
    """
    if kind is None or kind not in SCHEMA_FOR_KIND:
        return []
    lines = lines if lines is not None else LineIndex(text)
    if kind is FileKind.SKILL:
        return complete_skill(lines, position, discovered, path, snippets, trigger)
    return JsonCompletion(
        parsed_json(text), kind, lines.offset(position), discovered, path, snippets, trigger, overlay
    ).candidates()
