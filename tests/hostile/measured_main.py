"""``clarvis-lsp`` that writes its peak resident memory (``VmHWM``, kB) to ``$CLARVIS_PEAK_FILE`` when it exits.

``wait4``'s ``ru_maxrss`` counts the pages a child had as a fork of the test process before it ran the program, so
a child of a 400 MB test run "peaks" at 400 MB; ``VmHWM`` belongs to the program's own address space.
"""

from __future__ import annotations

import atexit
import os
import sys


def _write_peak() -> None:
    target = os.environ.get("CLARVIS_PEAK_FILE")
    if not target:
        return
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            peak = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "")
        with open(target, "w", encoding="ascii") as out:
            out.write(peak)
    except OSError:
        pass


atexit.register(_write_peak)
if os.environ.get("CLARVIS_SITE_DIR"):  # another user's copy of the interpreter: the project's packages, .pth included
    import site

    site.addsitedir(os.environ["CLARVIS_SITE_DIR"])
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from clarvis_lsp.cli import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
