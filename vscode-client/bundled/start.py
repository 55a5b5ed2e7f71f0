"""Start the clarvis-lsp server shipped inside the VS Code extension, with any CPython the .vsix has libraries for.

The extension runs ``python -I start.py [ARGS]``: isolated mode, so neither PYTHONPATH, the user's site-packages
nor the current directory can put another clarvis_lsp (a source tree, an old install) in front of the bundled one.
``libs/common`` holds the pure-Python packages, ``libs/cp3XY`` the compiled ones for that Python version; both go
first on ``sys.path``. An interpreter the bundle has no libraries for exits with status 3 and one line on stderr,
which the extension shows as is, then tries the next interpreter.
"""

import os
import runpy
import sys

LIBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libs")
UNSUPPORTED = 3


def main() -> None:
    version = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    compiled = os.path.join(LIBS, version)
    if sys.implementation.name != "cpython" or not os.path.isdir(compiled):
        have = sorted(name for name in os.listdir(LIBS) if name.startswith("cp")) if os.path.isdir(LIBS) else []
        supported = ", ".join(f"{name[2]}.{name[3:]}" for name in have) or "none"
        running = f"{sys.implementation.name} {sys.version_info[0]}.{sys.version_info[1]} ({sys.executable})"
        message = f"the bundled server has no libraries for {running}; it runs on CPython {supported}"
        sys.stderr.write(f"clarvis-lsp: {message}\n")
        sys.exit(UNSUPPORTED)
    sys.path[:0] = [compiled, os.path.join(LIBS, "common")]
    sys.argv[0] = "clarvis-lsp"
    runpy.run_module("clarvis_lsp", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
