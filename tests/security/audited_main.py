"""``clarvis-lsp`` with an audit hook that logs every file it opens and every directory it lists.

Each line of ``$CLARVIS_AUDIT_LOG`` is ``open <path>`` or ``list <path>``, the path as the call reaches it: the
real path, except that an ``O_NOFOLLOW`` open does not follow its last component (it fails on a link). Used by
``test_symlinked_roots.py`` around ``--check`` and the language server alike, so what a whole process touches is
observed, worker threads included.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any


def _reached(path: str, flags: int) -> str:
    if flags & getattr(os, "O_NOFOLLOW", 0):
        return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
    return os.path.realpath(path)


def _install(log_path: str) -> None:
    log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 - open for the life of the process, before the hook
    lock = threading.Lock()
    inside = threading.local()

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if getattr(inside, "busy", False):  # realpath below stats and reads links: not events of the program's own
            return
        line = None
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
            inside.busy = True
            try:
                line = f"open {_reached(os.fsdecode(args[0]), flags)}\n"
            finally:
                inside.busy = False
        elif event in ("os.scandir", "os.listdir") and isinstance(args[0], (str, bytes, os.PathLike)):
            inside.busy = True
            try:
                line = f"list {os.path.realpath(os.fsdecode(args[0]))}\n"
            finally:
                inside.busy = False
        if line is not None:
            with lock:
                log.write(line)
                log.flush()

    sys.addaudithook(hook)


if __name__ == "__main__":
    _install(os.environ["CLARVIS_AUDIT_LOG"])
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from clarvis_lsp.cli import main

    raise SystemExit(main())
