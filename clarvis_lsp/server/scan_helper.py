"""A large skill root of the first scan read with a helper process on another core (``HelperScan``).

The server reads a workspace's skills on one worker thread, beside the event loop and the handler imports, all
under one interpreter lock; a root of thousands of directories is mostly CPU (reading each SKILL.md, decoding it,
the quick look at its frontmatter). A helper process reads a share of such a root on another core and sends each
directory back in the form that travels between processes (``discovery.portable``); the server builds the records
again and reads the rest itself.

The helper processes themselves (why a new interpreter, how they are started, perhaps ahead of the scan, and
stopped) are ``helper_processes``; this module is how a scan shares a root with them, and what a helper runs.

How the work is shared: the directory names of a root are cut into chunks whose numbers wait in one pipe, the
chunk queue, which the server and every helper read four bytes at a time (a read of four bytes from a pipe that
only ever holds whole numbers is never split), each until it reads an end mark; the server writes one end mark
per reader after the numbers. A slower reader takes fewer chunks, and nobody waits idle on a fixed share. A helper
sends each chunk back as soon as it has read it, and the server builds those records between its own chunks: at
the root's end it has only the last few to build, and the helper is not left idle while it builds a whole root's.
Whatever a helper does not send back (it failed, or its own listing of the root missed a directory), the server
reads.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from clarvis_lsp.discovery.io import REREADING_OS_READER, DirectoryReader, DirectoryWork
from clarvis_lsp.discovery.portable import SentSkill, rebuilt, sent_form
from clarvis_lsp.discovery.scan import listed_work, normalise_overlay
from clarvis_lsp.discovery.skill_config import SkillConfig, SkillRoot
from clarvis_lsp.discovery.skills import DirScan
from clarvis_lsp.server.helper_processes import (
    MIN_DIRECTORIES,
    StartedHelpers,
    helpers_wanted,
    lists_at_least,
    start_helpers,
)

CHUNKS_PER_READER = 16
_END = 0xFFFFFFFF
"""The end mark in the chunk queue: a reader that reads it takes no more chunks of this root."""


@dataclass(frozen=True)
class _Job:
    """One root's share for a helper: where to read, how, and the chunks whose numbers the queue holds."""

    root: SkillRoot
    root_index: int
    follow_symlinks: bool
    overlay: dict[str, str]
    chunks: list[Sequence[str]]


class HelperScan:
    """The ``ScanStrategy`` of the server's first scan: a root of at least ``MIN_DIRECTORIES`` directories is
    shared with helper processes: those started ``ahead`` (``start_helpers``), else ``helpers`` of them (by default
    ``helpers_wanted``) started at the first such root; all stopped by ``close`` (a ``with`` block). Records are
    rebuilt with ``reader``, which must keep no text (``REREADING_OS_READER``, the server's): a helper sends no
    skill's text, and a record reads it again when asked for it, as the server's own do."""

    def __init__(
        self,
        overlay: Mapping[Path, str],
        *,
        follow_symlinks: bool,
        reader: DirectoryReader = REREADING_OS_READER,
        helpers: int | None = None,
        ahead: StartedHelpers | None = None,
    ) -> None:
        self._overlay = normalise_overlay(overlay)
        self._follow_symlinks = follow_symlinks
        self._reader = reader
        self._started = ahead
        if ahead is not None:
            self._wanted = 0
        else:
            self._wanted = helpers_wanted() if helpers is None else helpers

    def __enter__(self) -> HelperScan:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __call__(
        self, work: DirectoryWork, names: Sequence[str], root: SkillRoot, root_index: int
    ) -> dict[str, DirScan | None]:
        started = self._start() if len(names) >= MIN_DIRECTORIES else None
        if started is None:
            return work(names)
        queue, feed = started.queue
        readers = len(started.helpers) + 1
        size = max(1, -(-len(names) // (readers * CHUNKS_PER_READER)), -(-len(names) // 8192))
        chunks = [names[start : start + size] for start in range(0, len(names), size)]
        # At most 8,192 chunk numbers and a few end marks, about 32 KiB: the pipe takes them all before anyone reads.
        os.write(feed, b"".join(number.to_bytes(4, "little") for number in [*range(len(chunks)), *[_END] * readers]))
        job = _Job(root, root_index, self._follow_symlinks, self._within(root), chunks)
        for helper in started.helpers:
            _send(helper, job)
        results: dict[str, DirScan | None] = {}
        for answers in started.answers:
            answers.ended = False
        try:
            while (number := int.from_bytes(os.read(queue, 4), "little")) != _END:
                results.update(work(chunks[number]))
                self._take(started, results, root, root_index, wait=False)
        except BaseException:
            self.close()  # the scan stops (the settings changed, the user cancelled): so do the helpers
            raise
        self._take(started, results, root, root_index, wait=True)
        if any(answers.failed for answers in started.answers):
            self.close()  # its end mark may still wait in the queue: no helper for the rest of the scan
        missing = [name for name in names if name not in results]
        if missing:
            results.update(work(missing))
        return {name: results[name] for name in names}

    def _take(
        self,
        started: StartedHelpers,
        results: dict[str, DirScan | None],
        root: SkillRoot,
        root_index: int,
        *,
        wait: bool,
    ) -> None:
        """Build the records of what the helpers have sent so far, between the server's own chunks (a helper never
        waits for the server to build the records of a whole root), or, with ``wait``, until each has sent its
        end of the root. A helper that fails is not asked again; what it did not send, the server reads."""
        for answers in started.answers:
            arrived = answers.arrived(wait=wait)
            for received in arrived:
                for name, sent in received.items():
                    dir_path = os.path.join(root.path, name)
                    results[name] = None if sent is None else self._rebuilt(sent, root, root_index, dir_path)

    def start_early(self, root_paths: Iterable[str]) -> None:
        """Start the helpers now when one of ``root_paths`` (the workspace's own roots, known before the plugins
        are read) holds at least ``MIN_DIRECTORIES`` entries: a helper's start then overlaps the scan's own, and it
        takes chunks of the first large root from the beginning. A root that cannot be listed is no reason. With
        symlinks not followed nothing is listed here (a root may be reached through a link the scan refuses to
        read); the helpers then start at the first large root the scan itself reads."""
        if not self._follow_symlinks:
            return
        if self._wanted > 0 and any(lists_at_least(path, MIN_DIRECTORIES) for path in root_paths):
            self._start()

    def _rebuilt(self, sent: DirScan | SentSkill, root: SkillRoot, root_index: int, dir_path: str) -> DirScan:
        return rebuilt(sent, root, root_index, dir_path, self._reader, self._follow_symlinks)

    def _within(self, root: SkillRoot) -> dict[str, str]:
        """The open buffers under ``root``, which the helper reads instead of the disk as the server does."""
        prefix = root.path.rstrip(os.sep) + os.sep
        return {path: text for path, text in self._overlay.items() if path.startswith(prefix)}

    def _start(self) -> StartedHelpers | None:
        """The helpers, started once at the first root that wants them (None when there are none)."""
        if self._started is None and self._wanted > 0:
            wanted, self._wanted = self._wanted, 0
            self._started = start_helpers(wanted)
        return self._started if self._started is not None and self._started.helpers else None

    @property
    def queue(self) -> tuple[int, int] | None:
        """The chunk queue's two ends (read, write) while helpers are started."""
        return self._started.queue if self._started is not None else None

    def close(self) -> None:
        """Stop the helpers and close the queue."""
        started, self._started = self._started, None
        self._wanted = 0
        if started is not None:
            started.close()


def _send(helper: subprocess.Popen[bytes], job: _Job) -> None:
    """Hand ``job`` to ``helper`` on a thread of its own: a large root's names fill the pipe before a helper still
    starting reads them, and the scan reads its own chunks meanwhile."""

    def write() -> None:
        with contextlib.suppress(OSError, ValueError):  # a helper gone: the scan reads its share
            assert helper.stdin is not None
            pickle.dump(job, helper.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            helper.stdin.flush()

    threading.Thread(target=write, name="clarvis-scan-helper-job", daemon=True).start()


def _write_frame(out: BinaryIO, frame: bytes) -> None:
    out.write(len(frame).to_bytes(4, "little") + frame)
    out.flush()


def serve(queue: int, jobs: BinaryIO, out: BinaryIO) -> None:
    """The helper: read each job's chunks from the queue until the end mark, and send back what each chunk held as
    soon as it is read (``_Answers``), then the root's end."""
    while True:
        try:
            job: _Job = pickle.load(jobs)
        except EOFError:
            return
        config = SkillConfig("", "", (job.root,), strict=False, follow_symlinks=job.follow_symlinks)
        work = listed_work(job.root, job.root_index, config, job.overlay, REREADING_OS_READER)
        while (number := int.from_bytes(os.read(queue, 4), "little")) != _END:
            read = {
                name: None if scan is None else sent_form(scan, text_stays=False)
                for name, scan in work(job.chunks[number]).items()
            }
            _write_frame(out, pickle.dumps(read, protocol=pickle.HIGHEST_PROTOCOL))
        _write_frame(out, b"")


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.stdin.buffer, sys.stdout.buffer)
    # Every answer is flushed: leave without the interpreter's teardown, which the server's scan waits for.
    os._exit(0)
