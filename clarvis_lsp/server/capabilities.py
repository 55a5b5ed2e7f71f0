"""What the server advertises in its answer to ``initialize``: each method's options, and the names of the
server's own requests and commands. Imports lsprotocol and ``clarvis_lsp.editor.advertised`` only.

``methods.py`` registers every handler with these options before ``initialize``, and the handlers' modules are
imported only when a handler first runs: so start-up imports this module, not the features, the engine or the
rules behind them. The features import from here whatever they also use (a command's name, a code action kind).
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.editor.advertised import (
    FOLDER_GLOBS,
    NEW_SKILL_FILE_GLOB,
    SKILL_FOLDER_GLOB,
    TOKEN_MODIFIERS,
    TOKEN_TYPES,
)

EFFECTIVE_CONFIGURATION = "clarvis/effectiveConfiguration"
"""The request for a workspace's effective configuration (``features/effective.py``)."""
WHY = "clarvis/why"
"""The request for why a skill, agent, plugin, hook or MCP server is (not) active (``features/effective.py``)."""
SHOW_LOCATIONS = "clarvis.showLocations"
"""The command behind an "overrides" / "shadowed by" code lens (``features/code_lens.py``)."""
FIX_ALL = "source.fixAll.clarvis"
"""The code action kind of "fix all" (``features/actions.py``)."""

DIAGNOSTIC_OPTIONS = types.DiagnosticOptions(
    identifier="clarvis", inter_file_dependencies=True, workspace_diagnostics=True
)
CODE_ACTION_OPTIONS = types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll, FIX_ALL],
    resolve_provider=False,
)
COMPLETION_OPTIONS = types.CompletionOptions(trigger_characters=['"', ":", " "], resolve_provider=False)
RENAME_OPTIONS = types.RenameOptions(prepare_provider=True)
CODE_LENS_OPTIONS = types.CodeLensOptions(resolve_provider=False)
DOCUMENT_LINK_OPTIONS = types.DocumentLinkOptions(resolve_provider=False)
INLAY_HINT_OPTIONS = types.InlayHintOptions(resolve_provider=False)
SEMANTIC_TOKENS_LEGEND = types.SemanticTokensLegend(
    token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS)
)
FOLDER_RENAME_OPTIONS = types.FileOperationRegistrationOptions(
    filters=[
        types.FileOperationFilter(
            scheme="file",
            pattern=types.FileOperationPattern(glob=glob, matches=types.FileOperationPatternKind.Folder),
        )
        for glob in FOLDER_GLOBS
    ]
)
"""``workspace/willRenameFiles`` and ``didRenameFiles``: skill and plugin directories (``features/file_operations``)."""
SKILL_FILE_OPTIONS = types.FileOperationRegistrationOptions(
    filters=[
        types.FileOperationFilter(scheme="file", pattern=types.FileOperationPattern(glob=glob, matches=kind))
        for glob, kind in (
            (SKILL_FOLDER_GLOB, types.FileOperationPatternKind.Folder),
            (NEW_SKILL_FILE_GLOB, types.FileOperationPatternKind.File),
        )
    ]
)
"""``workspace/didCreateFiles`` and ``willDeleteFiles``: skill folders and their SKILL.md
(``features/file_lifecycle``)."""
