"""The clarvis-lsp the benchmarks measure: the console script installed beside the running interpreter, as users
run it; and the other tools they run, found there first (``pip install '.[benchmark]'`` puts agnix beside the
interpreter of a virtual environment that need not be activated, so not on PATH), then on PATH.

Not ``python -m clarvis_lsp``: run from the repository root, that imports the source tree in the current
directory instead of the installed package, which works for an editable install only (a regular install keeps its
schemas inside the package, the source tree beside it).
"""

from __future__ import annotations

import compileall
import functools
import importlib.util
import os
import shutil
import sys
from pathlib import Path


def clarvis_lsp() -> str:
    """The path of the ``clarvis-lsp`` script of this interpreter's environment (``pip install .`` made it), its
    package compiled to bytecode first (``compiled``)."""
    found = shutil.which("clarvis-lsp", path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit(f"no clarvis-lsp beside {sys.executable}: install it there first (pip install '.[benchmark]')")
    compiled()
    return found


@functools.cache
def compiled() -> None:
    """Write the bytecode of the installed package, as ``pip install .`` does, once a benchmark run. An editable
    install has none until the package is imported with ``PYTHONDONTWRITEBYTECODE`` unset; with it set (as on some
    CI hosts), every start compiled the whole package again: a hover's handler imports took 300 ms instead of
    155 ms."""
    spec = importlib.util.find_spec("clarvis_lsp")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        compileall.compile_dir(location, quiet=1)


def find_tool(name: str) -> str | None:
    """The executable ``name`` beside this interpreter, else on PATH; None when it is in neither."""
    beside = str(Path(sys.executable).parent)
    return shutil.which(name, path=os.pathsep.join([beside, os.environ.get("PATH", os.defpath)]))
