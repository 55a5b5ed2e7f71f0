"""Whether a piece of work grows linearly with its input: the one kind of timing the hostile tests assert.

A regular expression or scanner that backtracks grows quadratically or worse, so it is caught by comparing the
work at two sizes rather than against a clock: the time at ``n`` and at ``8 * n`` (each the least CPU time of a
few runs, so that other processes on the machine barely count) must differ by less than ``RATIO`` (linear work
gives about 8, quadratic 64). The size ``n`` is first doubled until one run costs ``FLOOR`` seconds, so that the
smaller measurement is well above the clock's resolution and the interpreter's constant costs.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

FACTOR = 8
RATIO = 20.0
FLOOR = 0.01  # seconds of CPU time for the smaller input
REPEATS = 3


@dataclass(frozen=True)
class Growth:
    """What was measured: the sizes and the least CPU time of the work at each."""

    small: int
    large: int
    small_seconds: float
    large_seconds: float

    @property
    def ratio(self) -> float:
        return self.large_seconds / max(self.small_seconds, 1e-9)

    def __str__(self) -> str:
        return (
            f"n={self.small}: {self.small_seconds * 1000:.1f} ms, n={self.large}: {self.large_seconds * 1000:.1f} ms "
            f"(x{self.ratio:.1f}; linear work gives about x{FACTOR}, the budget is x{RATIO:.0f})"
        )


def _cpu_seconds(work: Callable[[Any], object], data: Any) -> float:
    """The least CPU time of ``REPEATS`` runs, with the cyclic garbage collector paused: its full collections
    scan every live object, which is not the work measured."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(REPEATS):
            start = time.process_time()
            work(data)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def growth(work: Callable[[Any], object], build: Callable[[int], Any], start: int, *, limit: int = 1 << 20) -> Growth:
    """Measure ``work(build(n))`` at a calibrated ``n`` (from ``start``, doubled up to ``limit``) and at ``8 * n``."""
    size = start
    data = build(size)
    seconds = _cpu_seconds(work, data)
    while seconds < FLOOR and size * 2 <= limit:
        size *= 2
        data = build(size)
        seconds = _cpu_seconds(work, data)
    large = build(size * FACTOR)
    return Growth(size, size * FACTOR, seconds, _cpu_seconds(work, large))


def assert_linear(
    work: Callable[[Any], object], build: Callable[[int], Any], start: int, *, limit: int = 1 << 20
) -> Growth:
    """Fail unless the work grows less than ``RATIO`` times when its input grows ``FACTOR`` times, measured twice
    if need be (super-linear work exceeds the budget every time; a burst of load on the machine, once). ``limit``:
    the largest calibrated ``n`` (a tree's depth is bounded by the longest path the system accepts)."""
    measured = growth(work, build, start, limit=limit)
    if measured.ratio >= RATIO:
        again = growth(work, build, start, limit=limit)
        measured = min(measured, again, key=lambda growth: growth.ratio)
    assert measured.ratio < RATIO, str(measured)
    return measured
