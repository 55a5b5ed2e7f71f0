"""The first scan's helper processes: started (perhaps ahead of the scan), read from, and stopped.

Why a new interpreter (``subprocess``) and not ``os.fork`` as ``--check`` does: by the time the server scans it
has threads (the executor's, the handler imports'), and a fork copies whatever lock one of them holds at that
instant (the import lock, a module's, an allocator's) into a child that would wait on it for ever. A new
interpreter shares nothing. Its start costs about 70 ms of imports on another core, which is why the server starts
its helpers when the client says it is ready (``initialized``), before the first document is opened: the imports
then overlap the server's own handler imports and its check of that document, not the scan.

This module imports nothing of the engine, so starting helpers costs the server's event loop only the ``fork``
and ``exec``; the helper's own side, and how a scan shares a root with helpers, is ``scan_helper``.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from clarvis_lsp.host import available_cores
from clarvis_lsp.knowledge.layout import SKILLS_DIR, WORKSPACE_MARKERS

if TYPE_CHECKING:
    from clarvis_lsp.discovery.portable import SentSkill
    from clarvis_lsp.discovery.skills import DirScan

HELPER_MODULE = "clarvis_lsp.server.scan_helper"
"""What a helper runs (``python -m``): it reads chunks of a root from the queue and sends each one back."""
MIN_DIRECTORIES = 1000
"""A root with fewer directories is read by the server alone: a helper's start and the records built again cost
more than it saves (measured: benchmarks/README.md, the language server at 10,000 skills)."""
MAX_HELPERS = 3
HELPERS_VARIABLE = "CLARVIS_LSP_SCAN_HELPERS"
"""The environment variable that sets how many helpers a scan may start (``0``: none, the scan stays in the
server's process), instead of one a spare core."""
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
"""The directory the package this server runs is imported from. A helper starts there: ``python -m`` puts its
working directory first on ``sys.path``, so a helper started where the editor started the server (a workspace,
perhaps one the user does not trust) would import a ``clarvis_lsp`` directory found there instead of this one."""


def lists_at_least(directory: str, count: int) -> bool:
    """Whether ``directory`` lists ``count`` entries or more (the listing stops there)."""
    try:
        with os.scandir(directory) as entries:
            return any(index + 1 >= count for index, _entry in enumerate(entries))
    except (OSError, ValueError):
        return False


def start_for_folders(folders: Sequence[Path], home: Path) -> StartedHelpers | None:
    """Helpers started now (``helpers_wanted`` of them) when a conventional skill root (``.clarvis/skills`` or
    ``.agents/skills`` of a folder, or of the home directory) lists at least ``MIN_DIRECTORIES`` entries; else None.
    Only the conventional roots are looked at: a project's own roots are known once its configuration is read, and
    the scan then starts its helpers itself if it needs them (``HelperScan.start_early``). A root with a symbolic
    link on its way from the folder is not listed: the scan may be told not to follow links."""
    wanted = helpers_wanted()
    if wanted < 1:
        return None
    roots = (base / marker / SKILLS_DIR for base in [*folders, home] for marker in WORKSPACE_MARKERS)
    return start_helpers(wanted) if any(_large_and_unlinked(root) for root in roots) else None


def _large_and_unlinked(root: Path) -> bool:
    """Whether ``root`` lists ``MIN_DIRECTORIES`` entries, reached from its folder without a link. A root that
    cannot be looked at (no permission, a name the system refuses) is not large: the scan reports it, not this."""
    try:
        if root.parent.is_symlink() or root.is_symlink():
            return False
    except (OSError, ValueError):
        return False
    return lists_at_least(str(root), MIN_DIRECTORIES)


def helpers_wanted(environ: Mapping[str, str] = os.environ) -> int:
    """How many helpers a large root is shared with: ``HELPERS_VARIABLE`` when it holds a whole number, else one a
    spare core (at most ``MAX_HELPERS``)."""
    chosen = environ.get(HELPERS_VARIABLE, "").strip()
    if chosen.isdigit():
        return int(chosen)
    return min(MAX_HELPERS, available_cores() - 1)


class StartedHelpers:
    """Helper processes started and importing, with the chunk queue they read: what ``start_helpers`` gives, and
    what a ``HelperScan`` takes (``ahead``) instead of starting its own. Closing it stops them (each leaves when its
    input ends; one that does not is killed) and closes the queue."""

    def __init__(self, queue: tuple[int, int], helpers: list[subprocess.Popen[bytes]]) -> None:
        self.queue = queue
        self.helpers = helpers
        self.answers: list[Answers] = [Answers(helper) for helper in helpers]

    def close(self) -> None:
        helpers, self.helpers = self.helpers, []
        self.answers = []
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
        for end in self.queue:
            with contextlib.suppress(OSError):
                os.close(end)


def start_helpers(count: int) -> StartedHelpers | None:
    """Start ``count`` helpers now (None when none could start, or ``count`` is 0 or the platform passes no file
    descriptor). A helper's start is about 70 ms of imports on another core: started while the server still
    imports its handlers and checks the first document, a helper is ready when the scan's first large root is."""
    if count < 1 or os.name != "posix":
        return None
    try:
        queue = os.pipe()
    except OSError:
        return None
    command = [sys.executable, "-m", HELPER_MODULE, str(queue[0])]
    helpers: list[subprocess.Popen[bytes]] = []
    for _ in range(count):
        try:
            helper = subprocess.Popen(
                command, cwd=_PACKAGE_PARENT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=(queue[0],)
            )
        except OSError:
            break
        helpers.append(helper)
    started = StartedHelpers(queue, helpers)
    if not helpers:
        started.close()
        return None
    return started


class Answers:
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
