"""The cyclic garbage collector's policy, decided by the front ends (``--check``, the server), never by the library.

A room of its own, between the library and the front ends: the headless run and the server both use it, and
neither imports the other (``tests/core/test_architecture.py``).

A scan builds tens of thousands of long-lived objects (documents, YAML nodes, JSON trees) at once. Every allocation
threshold crossed meanwhile triggers a collection that walks all of them again, and once the scan ends the
survivors are traversed again as they are promoted: on 20,000 skills that was a third of a check's time. Reference
counting frees everything acyclic either way, so pausing the collector during the scan loses nothing.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_collector() -> Iterator[None]:
    """Pause the cyclic collector for a burst of allocation (restored afterwards, if it was on)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def bulk_allocation() -> Iterator[None]:
    """Pause the collector while the objects a short-lived front end keeps are built (``--check``'s scan), then move
    what survived to the permanent generation (``gc.freeze``) so later collections never walk it again. Not for the
    server: in a long-lived process, frozen objects are never freed, so each rescan would leak the one before."""
    with paused_collector():
        try:
            yield
        finally:
            gc.freeze()


@contextmanager
def started_up() -> Iterator[None]:
    """A process's start-up imports (the server's: pygls, lsprotocol's thousand classes), with the collector paused,
    then moved to the permanent generation (``gc.freeze``), as they live as long as the process.

    Why: lsprotocol and cattrs allocate tens of thousands of objects as they import, and the collections that
    triggered, a full one among them, were about 50 ms of the 500 ms before the server could answer
    ``initialize`` (CPU to the answer, median of 20 interleaved spawns: 460 ms paused against 510 ms). The price:
    the cycles the imports left as garbage are never collected, about 9 MiB of resident memory (VmRSS after
    ``initialize``, 59.1 against 49.8 MiB), until a later scan unfreezes (``kept_scan``)."""
    with paused_collector():
        yield
        gc.freeze()


_frozen_a_scan = False


@contextmanager
def kept_scan() -> Iterator[None]:
    """The language server's scans. The collector waits during each. The process's first scan that succeeds then
    moves what survived to the permanent generation (``gc.freeze``); later scans do not.

    Why freeze the first: its records are what a server keeps for its whole life. Left to the collector, the
    objects allocated while it waited are walked at the first collection after it, again as they are promoted,
    and at every full collection after that. At 10,000 skills those were 33 ms before the scan's findings went
    out and a 98 ms pause soon after, in the middle of the user's first keystrokes (measured,
    ``benchmarks/README.md``).

    Why only the first: frozen objects are still freed by reference counting, but a cycle among them is never
    collected. Each later scan (a configuration changed, a folder was added) starts by unfreezing. Whatever the
    first scan left in cycles is then collected again, and the later scan's own objects are never made permanent,
    so a server whose settings change a hundred times does not keep a hundred scans."""
    global _frozen_a_scan
    first = not _frozen_a_scan
    if not first:
        gc.unfreeze()
    with paused_collector():
        yield
        if first:
            _frozen_a_scan = True
            gc.freeze()
