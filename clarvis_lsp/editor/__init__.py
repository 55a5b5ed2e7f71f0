"""Editor assistance over the engine: navigation, symbols, completion, hover, lenses, semantic tokens, folding,
formatting and renames, with no protocol types.

Everything here works in code-point ranges (``clarvis_lsp.findings.Range``) and paths; ``clarvis_lsp.server``
turns the results into LSP messages. May import the engine (``workspace/``), the effective model, the rules, the
parsers and ``knowledge/``; never pygls or lsprotocol, ``server/``, ``batch/`` or the CLI.
"""
