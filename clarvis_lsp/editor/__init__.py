"""Editor assistance over a workspace: navigation, symbols, completion, hover, lenses, semantic tokens, folding,
formatting and renames, with no protocol types. What a helper reads of the workspace is a ``WorkspaceView``
(``clarvis_lsp.workspace.view``): one moment's discovery and buffers, never the live engine.

Everything here works in code-point ranges (``clarvis_lsp.findings.Range``) and paths; ``clarvis_lsp.server``
turns the results into LSP messages. May import the engine (``workspace/``), the effective model, the rules, the
parsers and ``knowledge/``; never pygls or lsprotocol, ``server/``, ``batch/`` or the CLI.
"""
