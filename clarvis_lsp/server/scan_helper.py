"""A large skill root of the first scan read with a helper process on another core (``HelperScan``).

The server reads a workspace's skills on one worker thread, beside the event loop and the handler imports, all
under one interpreter lock; a root of thousands of directories is mostly CPU (reading each SKILL.md, decoding it,
the quick look at its frontmatter). A helper process reads a share of such a root on another core and sends each
directory back in the form that travels between processes (``discovery.portable``); the server builds the records
again and reads the rest itself.

Why a new interpreter (``subprocess``) and not ``os.fork`` as ``--check`` does: by the time the server scans it
has threads (the executor's, the handler imports'), and a fork copies whatever lock one of them holds at that
instant (the import lock, a module's, an allocator's) into a child that would wait on it for ever. A new
interpreter shares nothing. Its start costs about 70 ms of imports on the other core, paid once a scan: the helper
reads for every large root of the scan and leaves when the scan ends.

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
import queue
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
from clarvis_lsp.host import available_cores

MIN_DIRECTORIES = 1000
"""A root with fewer directories is read by the server alone: a helper's start and the records built again cost
more than it saves (measured: benchmarks/README.md, the language server at 10,000 skills)."""
MAX_HELPERS = 3
HELPERS_VARIABLE = "CLARVIS_LSP_SCAN_HELPERS"
"""The environment variable that sets how many helpers a scan may start (``0``: none, the scan stays in the
server's process), instead of one a spare core."""
CHUNKS_PER_READER = 16
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
"""The directory the package this server runs is imported from. A helper starts there: ``python -m`` puts its
working directory first on ``sys.path``, so a helper started where the editor started the server (a workspace,
perhaps one the user does not trust) would import a ``clarvis_lsp`` directory found there instead of this one."""
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


def helpers_wanted(environ: Mapping[str, str] = os.environ) -> int:
    """How many helpers a large root is shared with: ``HELPERS_VARIABLE`` when it holds a whole number, else one a
    spare core (at most ``MAX_HELPERS``)."""
    chosen = environ.get(HELPERS_VARIABLE, "").strip()
    if chosen.isdigit():
        return int(chosen)
    return min(MAX_HELPERS, available_cores() - 1)


class HelperScan:
    """The ``ScanStrategy`` of the server's first scan: a root of at least ``MIN_DIRECTORIES`` directories is
    shared with helper processes (``helpers``, by default ``helpers_wanted``), started
    at the first such root and stopped by ``close`` (a ``with`` block). Records are rebuilt with ``reader``, which
    must keep no text (``REREADING_OS_READER``, the server's): a helper sends no skill's text, and a record reads
    it again when asked for it, as the server's own do."""

    def __init__(
        self,
        overlay: Mapping[Path, str],
        *,
        follow_symlinks: bool,
        reader: DirectoryReader = REREADING_OS_READER,
        helpers: int | None = None,
    ) -> None:
        self._overlay = normalise_overlay(overlay)
        self._follow_symlinks = follow_symlinks
        self._reader = reader
        wanted = helpers_wanted() if helpers is None else helpers
        self._wanted = wanted if os.name == "posix" else 0  # the queue is passed as a file descriptor
        self._helpers: list[subprocess.Popen[bytes]] = []
        self._answers: list[_Answers] = []
        self._queue: tuple[int, int] | None = None

    def __enter__(self) -> HelperScan:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __call__(
        self, work: DirectoryWork, names: Sequence[str], root: SkillRoot, root_index: int
    ) -> dict[str, DirScan | None]:
        if len(names) < MIN_DIRECTORIES or not self._start():
            return work(names)
        assert self._queue is not None
        queue, feed = self._queue
        readers = len(self._helpers) + 1
        size = max(1, -(-len(names) // (readers * CHUNKS_PER_READER)), -(-len(names) // 8192))
        chunks = [names[start : start + size] for start in range(0, len(names), size)]
        # At most 8,192 chunk numbers and a few end marks, about 32 KiB: the pipe takes them all before anyone reads.
        os.write(feed, b"".join(number.to_bytes(4, "little") for number in [*range(len(chunks)), *[_END] * readers]))
        job = _Job(root, root_index, self._follow_symlinks, self._within(root), chunks)
        for helper in self._helpers:
            _send(helper, job)
        results: dict[str, DirScan | None] = {}
        for answers in self._answers:
            answers.ended = False
        try:
            while (number := int.from_bytes(os.read(queue, 4), "little")) != _END:
                results.update(work(chunks[number]))
                self._take(results, root, root_index, wait=False)
        except BaseException:
            self.close()  # the scan stops (the settings changed, the user cancelled): so do the helpers
            raise
        self._take(results, root, root_index, wait=True)
        if any(answers.failed for answers in self._answers):
            self.close()  # its end mark may still wait in the queue: no helper for the rest of the scan
        missing = [name for name in names if name not in results]
        if missing:
            results.update(work(missing))
        return {name: results[name] for name in names}

    def _take(self, results: dict[str, DirScan | None], root: SkillRoot, root_index: int, *, wait: bool) -> None:
        """Build the records of what the helpers have sent so far, between the server's own chunks (a helper never
        waits for the server to build the records of a whole root), or, with ``wait``, until each has sent its
        end of the root. A helper that fails is not asked again; what it did not send, the server reads."""
        for answers in self._answers:
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
        if self._wanted > 0 and any(_at_least(path, MIN_DIRECTORIES) for path in root_paths):
            self._start()

    def _rebuilt(self, sent: DirScan | SentSkill, root: SkillRoot, root_index: int, dir_path: str) -> DirScan:
        return rebuilt(sent, root, root_index, dir_path, self._reader, self._follow_symlinks)

    def _within(self, root: SkillRoot) -> dict[str, str]:
        """The open buffers under ``root``, which the helper reads instead of the disk as the server does."""
        prefix = root.path.rstrip(os.sep) + os.sep
        return {path: text for path, text in self._overlay.items() if path.startswith(prefix)}

    def _start(self) -> bool:
        """Start the helpers once, at the first root that wants them; False when there are none."""
        if self._helpers:
            return True
        if self._wanted < 1:
            return False
        self._wanted, wanted = 0, self._wanted
        try:
            self._queue = queue, _feed = os.pipe()
        except OSError:
            return False
        command = [sys.executable, "-m", __name__, str(queue)]
        for _ in range(wanted):
            try:
                helper = subprocess.Popen(
                    command, cwd=_PACKAGE_PARENT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=(queue,)
                )
            except OSError:
                break
            self._helpers.append(helper)
            self._answers.append(_Answers(helper))
        if not self._helpers:
            self.close()
        return bool(self._helpers)

    def close(self) -> None:
        """Stop the helpers (each leaves when its input ends; one that does not is killed) and the queue."""
        helpers, self._helpers = self._helpers, []
        self._answers = []
        self._wanted = 0
        for helper in helpers:
            with contextlib.suppress(OSError):
                assert helper.stdin is not None
                helper.stdin.close()
        for helper in helpers:
            try:
                helper.wait(timeout=2)
            except subprocess.TimeoutExpired:
                helper.kill()
                helper.wait()
            if helper.stdout is not None:
                helper.stdout.close()
        if self._queue is not None:
            for end in self._queue:
                with contextlib.suppress(OSError):
                    os.close(end)
            self._queue = None


def _at_least(directory: str, count: int) -> bool:
    """Whether ``directory`` lists ``count`` entries or more (the listing stops there)."""
    try:
        with os.scandir(directory) as entries:
            return any(index + 1 >= count for index, _entry in enumerate(entries))
    except OSError:
        return False


def _send(helper: subprocess.Popen[bytes], job: _Job) -> None:
    """Hand ``job`` to ``helper`` on a thread of its own: a large root's names fill the pipe before a helper still
    starting reads them, and the scan reads its own chunks meanwhile."""

    def write() -> None:
        with contextlib.suppress(OSError, ValueError):  # a helper gone: the scan reads its share
            assert helper.stdin is not None
            pickle.dump(job, helper.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            helper.stdin.flush()

    threading.Thread(target=write, name="clarvis-scan-helper-job", daemon=True).start()


class _Answers:
    """What one helper sends back for the current root, as frames of a four-byte length and a pickle: one a chunk
    (its directories' compact forms), then an empty frame at the root's end.

    A thread of its own reads the frames as soon as the helper writes them. A chunk of a large root is larger than a
    pipe holds (about 200 KB at 12,500 directories a root, against 64 KiB): read only when the scan looks between
    its own chunks, every such write held the helper until the server's chunk was done, and the helper read a
    fifth of a 50,000-skill workspace instead of half of it."""

    def __init__(self, helper: subprocess.Popen[bytes]) -> None:
        assert helper.stdout is not None
        self._frames: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()  # None: the helper has left
        self.ended = False  # the current root's end frame has arrived
        self.failed = False
        threading.Thread(
            target=self._drain, args=(helper.stdout,), name="clarvis-scan-helper-answers", daemon=True
        ).start()

    def _drain(self, out: BinaryIO) -> None:
        with contextlib.suppress(OSError, ValueError):  # ValueError: the scan closed the pipe
            while len(head := out.read(4)) == 4:
                size = int.from_bytes(head, "little")
                frame = out.read(size)
                if len(frame) != size:
                    break
                self._frames.put(frame)
        self._frames.put(None)

    def arrived(self, *, wait: bool) -> list[dict[str, DirScan | SentSkill | None]]:
        """The chunks sent since the last call; with ``wait``, until the root's end frame. A helper that has left,
        or sent what does not unpickle, is ``failed``: what it sent before still counts."""
        found: list[dict[str, DirScan | SentSkill | None]] = []
        while not (self.ended or self.failed):
            try:
                frame = self._frames.get(block=wait)
            except queue.Empty:
                break
            if frame is None:
                self.failed = True
            elif not frame:
                self.ended = True
            else:
                try:
                    found.append(pickle.loads(frame))
                except Exception:
                    self.failed = True
        return found


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
