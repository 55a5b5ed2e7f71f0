"""``python -m clarvis_lsp``: the same entry point as the ``clarvis-lsp`` console script."""

from clarvis_lsp.cli import run

run()
