"""What the machine offers the front ends: the cores this process may run on.

A room of its own beside ``memory``: the headless run spreads a large check over processes, and the language
server shares a large first scan with helper processes. Both ask how many cores they may use, and neither imports
the other (``tests/core/test_architecture.py``).
"""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (its affinity mask, which containers and ``taskset`` narrow)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
