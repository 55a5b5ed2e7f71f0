"""A large skill root read in several processes: the ``ScanStrategy`` a headless run gives discovery.

Each forked child reads a share of the root's directories (``processes.map_in_processes``) and sends back what it
read in the form that travels between processes (``discovery.portable``), from which the parent builds the records
again. What a ``DirectoryVisit`` computed in the child for a directory (the check-ahead's findings,
``batch.ahead``) travels with it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Generic, TypeVar

from clarvis_lsp.batch.processes import MIN_SKILLS_PER_PROCESS, map_in_processes, process_count
from clarvis_lsp.discovery.io import DirectoryReader, DirectoryWork
from clarvis_lsp.discovery.portable import SentSkill, rebuilt, sent_form
from clarvis_lsp.discovery.skill_config import SkillRoot
from clarvis_lsp.discovery.skills import DirScan
from clarvis_lsp.knowledge.layout import SKILL_FILE

T = TypeVar("T")


class SpreadScan(Generic[T]):
    """Reads a root large enough to pay for it in ``processes.process_count`` processes (``jobs`` as ``--jobs``
    gives it; None: one a core when each gets ``MIN_SKILLS_PER_PROCESS`` directories). ``reader`` is the run's:
    the children list from what it had listed when they were forked, and the records a child sends are rebuilt
    with its ``path``. ``computed`` is where a visit keeps what it computed for each
    SKILL.md (by path), which the children's results are merged into."""

    def __init__(
        self,
        reader: DirectoryReader,
        jobs: int | None,
        computed: dict[str, T],
        *,
        follow_symlinks: bool = True,
    ) -> None:
        self._reader = reader
        self._follow_symlinks = follow_symlinks
        self._jobs = jobs
        self._computed = computed

    def __call__(
        self, work: DirectoryWork, names: Sequence[str], root: SkillRoot, root_index: int
    ) -> dict[str, DirScan | None]:
        processes = process_count(len(names), self._jobs, MIN_SKILLS_PER_PROCESS)
        if processes <= 1:
            return work(names)
        parent = os.getpid()
        computed = self._computed

        def share(chunk: Sequence[str]) -> dict[str, tuple[DirScan | SentSkill | None, T | None]]:
            read = work(chunk)
            if os.getpid() == parent:  # this process's own share: nothing travels
                return {name: (scan, None) for name, scan in read.items()}
            sent: dict[str, tuple[DirScan | SentSkill | None, T | None]] = {}
            for name, scan in read.items():
                extra = computed.pop(os.path.join(root.path, name, SKILL_FILE), None) if scan is not None else None
                sent[name] = (sent_form(scan, text_stays=extra is not None) if scan is not None else None, extra)
            return sent

        results: dict[str, DirScan | None] = {}
        for name, (received, extra) in map_in_processes(share, names, processes).items():
            if received is None:
                results[name] = None
                continue
            scan = results[name] = rebuilt(
                received, root, root_index, os.path.join(root.path, name), self._reader, self._follow_symlinks
            )
            if extra is not None and scan.skill is not None:
                computed[str(scan.skill.path)] = extra
        return results
