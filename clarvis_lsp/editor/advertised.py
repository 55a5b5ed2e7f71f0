"""What the editor assistance tells a client before it runs: the semantic token legend and the file patterns the
file-operation features answer, protocol-free and cheap to import.

The language server advertises these in its answer to ``initialize`` (``clarvis_lsp.server.capabilities``), long
before any request needs the modules that use them (``semantic_tokens``, ``file_rename``, ``file_lifecycle``,
which read documents and the engine): here they cost the server's start-up nothing but this module.
"""

from __future__ import annotations

from clarvis_lsp.knowledge import layout

__all__ = ["FOLDER_GLOBS", "NEW_SKILL_FILE_GLOB", "SKILL_FOLDER_GLOB", "TOKEN_MODIFIERS", "TOKEN_TYPES"]

TOKEN_TYPES: tuple[str, ...] = (
    "namespace",
    "class",
    "interface",
    "function",
    "property",
    "variable",
    "parameter",
    "macro",
    "event",
    "enumMember",
    "string",
)
TOKEN_MODIFIERS: tuple[str, ...] = (
    "declaration",
    "deprecated",
    "readonly",
    "modification",
    "documentation",
    "static",
)

FOLDER_GLOBS = (f"**/{layout.SKILLS_DIR}/*", f"**/{layout.PLUGINS_DIR}/*")
"""The folders whose renames ``file_rename`` answers: skill directories and plugin directories (clients send
``willRenameFiles`` only for what matches)."""

SKILL_FOLDER_GLOB = f"**/{layout.SKILLS_DIR}/*"
"""A skill directory: created empty, it gets a SKILL.md; deleted, it takes its skill along (``file_lifecycle``)."""
NEW_SKILL_FILE_GLOB = f"**/{layout.SKILLS_DIR}/*/{layout.SKILL_FILE}"
