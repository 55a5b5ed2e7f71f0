"""The clarvis-lsp the benchmarks measure: the console script installed beside the running interpreter, as users
run it.

Not ``python -m clarvis_lsp``: run from the repository root, that imports the source tree in the current
directory instead of the installed package, which works for an editable install only (a regular install keeps its
schemas inside the package, the source tree beside it).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def clarvis_lsp() -> str:
    """The path of the ``clarvis-lsp`` script of this interpreter's environment (``pip install .`` made it)."""
    found = shutil.which("clarvis-lsp", path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit(f"no clarvis-lsp beside {sys.executable}: install it there first (pip install '.[benchmark]')")
    return found
