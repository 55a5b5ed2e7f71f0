"""Editor assistance over the engine: navigation, symbols, completion and hover, with no protocol types.

Everything here works in code-point ranges (``clarvis_lsp.findings.Range``) and paths; ``clarvis_lsp.server``
turns the results into LSP messages.
"""
