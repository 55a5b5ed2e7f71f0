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
