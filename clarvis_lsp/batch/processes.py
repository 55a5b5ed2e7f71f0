"""Spread a large check's per-file work over the machine's cores, with results identical to one process.

Why ``os.fork`` by hand rather than ``multiprocessing``: the work of a file needs the whole engine (the discovered
registry, the agents, the project configuration), which a forked child has for free and a spawned one would have
to rebuild or unpickle; ``concurrent.futures`` would add a manager thread (forking a threaded process is
deprecated) and tens of milliseconds of imports to every ``--check``. A child computes its share, pickles the
findings into a pipe and leaves with ``os._exit`` (no buffered output of the parent is flushed twice). When a child
fails in any way, the parent computes that share itself: parallelism may save time, never lose a finding.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from clarvis_lsp.host import available_cores

Item = TypeVar("Item")
Result = TypeVar("Result")

# Below this many files per process a fork costs more than it saves (measured: benchmarks/HISTORY.md).
MIN_FILES_PER_PROCESS = 800
# The same for skill directories read during discovery: each costs less than a file the check parses itself,
# and the parent rebuilds every record a child sends (a fork at 2,000 skills saved no wall time, measured).
MIN_SKILLS_PER_PROCESS = 2000


def can_fork() -> bool:
    """A fork copies a pure-Python process safely on Linux and the BSDs; macOS's system libraries are not
    fork-safe and Windows has no fork, so both check in one process."""
    return hasattr(os, "fork") and sys.platform != "darwin"


def process_count(items: int, jobs: int | None, per_process: int = MIN_FILES_PER_PROCESS) -> int:
    """How many processes share ``items`` files: ``jobs`` when the user chose (``--jobs``), else one per core as
    long as each gets at least ``per_process``."""
    if not can_fork():
        return 1
    if jobs is not None:
        return max(1, min(jobs, items))
    return max(1, min(available_cores(), items // per_process))


CHUNKS_PER_PROCESS = 16
"""Each process claims the items in chunks, as many as it gets through: a slower core takes fewer, and no process
waits idle on another's fixed share."""


def map_in_processes(
    work: Callable[[Sequence[Item]], dict[Item, Result]],
    items: Sequence[Item],
    processes: int,
) -> dict[Item, Result]:
    """``work(items)``, computed by ``processes`` processes (this one among them), merged in the order of
    ``items``. ``work`` must return picklable values; it runs in forked children that share this process's state
    as it is at the call.

    The items are cut into chunks whose numbers wait in a pipe; each process reads one number at a time (a
    four-byte read from a pipe that only ever holds whole numbers is never split) until the pipe is empty. Items
    a failed child had claimed are computed here afterwards."""
    if processes <= 1 or len(items) < 2:
        return work(items)
    # At most 8,192 chunk numbers, 32 KiB: the pipe takes them all before anyone reads.
    size = max(1, -(-len(items) // (processes * CHUNKS_PER_PROCESS)), -(-len(items) // 8192))
    chunks = [items[start : start + size] for start in range(0, len(items), size)]
    try:
        queue, feed = os.pipe()
    except OSError:
        return work(items)
    os.write(feed, b"".join(number.to_bytes(4, "little") for number in range(len(chunks))))  # < 64 KiB: no wait
    os.close(feed)

    def claimed() -> dict[Item, Result]:
        done: dict[Item, Result] = {}
        while len(number := os.read(queue, 4)) == 4:
            done.update(work(chunks[int.from_bytes(number, "little")]))
        return done

    children: list[tuple[int, int]] = []
    try:
        for _ in range(processes - 1):
            started = _start_child(claimed, queue)
            if started is not None:
                children.append(started)
        merged = claimed()
    except BaseException:
        _stop(children)  # the caller stops (an editor's scan the settings made obsolete): so do the children
        raise
    finally:
        os.close(queue)
    for pid, reader in children:
        received: dict[Item, Result] | None = _collect_child(pid, reader)
        if received is not None:
            merged.update(received)
    if len(merged) < len(items):  # a child failed with chunks it had claimed: they are computed here
        merged.update(work([item for item in items if item not in merged]))
    return {item: merged[item] for item in items}


def _stop(children: Sequence[tuple[int, int]]) -> None:
    """Kill and reap children whose results are no longer wanted, so none is left blocked on a full pipe."""
    import signal  # like pickle, imported only where a process is forked: a check that never forks skips them

    for pid, reader in children:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.close(reader)
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)


def _start_child(work: Callable[[], dict[Item, Result]], queue: int) -> tuple[int, int] | None:
    """Fork a child that writes ``pickle(work())`` into a pipe of its own: (its pid, the pipe's read end), or None
    when the system refuses a process or a pipe. ``queue``: the parent's chunk queue, which the child reads."""
    try:
        reader, writer = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the child
        import pickle

        status = 1
        try:
            os.close(reader)
            data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            os.close(queue)
            with os.fdopen(writer, "wb") as out:
                out.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(writer)
    return pid, reader


def _collect_child(pid: int, reader: int) -> dict[Item, Result] | None:
    """The child's results, or None when it did not exit cleanly or wrote something that does not unpickle."""
    import pickle

    with os.fdopen(reader, "rb") as source:
        data = source.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    try:
        received: dict[Item, Result] = pickle.loads(data)
    except Exception:  # a truncated pipe: the parent redoes the share
        return None
    return received
