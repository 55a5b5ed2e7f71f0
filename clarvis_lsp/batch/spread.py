"""A large skill root read in several processes: the ``ScanStrategy`` a headless run gives discovery.

Each forked child reads a share of the root's directories (``processes.map_in_processes``) and sends back what it
read. A directory that holds just a skill travels in a compact form, plain strings, which unpickle many times faster
than the records and paths they stand for; the parent builds the records again and parses a document only if
something asks for it (``UnparsedSkill``). What a ``DirectoryVisit`` computed in the child for a directory (the
check-ahead's findings, ``batch.ahead``) travels with it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import Generic, TypeVar

from clarvis_lsp.batch.processes import MIN_SKILLS_PER_PROCESS, map_in_processes, process_count
from clarvis_lsp.discovery.io import DirectoryReader, DirectoryWork
from clarvis_lsp.discovery.scan import read_again, skill_info
from clarvis_lsp.discovery.skill_config import SkillRoot
from clarvis_lsp.discovery.skills import DirScan
from clarvis_lsp.documents.skill import SkillDocument, UnparsedSkill
from clarvis_lsp.knowledge.layout import SKILL_FILE

_SentSkill = tuple[str, str, "str | bytes | None", tuple[str, ...]]
"""A directory that holds just a skill, as a worker process sends it: name, description, SKILL.md's content (its
bytes when they decode cleanly, ``UnparsedSkill``; None when the worker checked it, see ``_sent``) and the
resources."""

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

        def share(chunk: Sequence[str]) -> dict[str, tuple[DirScan | _SentSkill | None, T | None]]:
            read = work(chunk)
            if os.getpid() == parent:  # this process's own share: nothing travels
                return {name: (scan, None) for name, scan in read.items()}
            sent: dict[str, tuple[DirScan | _SentSkill | None, T | None]] = {}
            for name, scan in read.items():
                extra = computed.pop(os.path.join(root.path, name, SKILL_FILE), None) if scan is not None else None
                sent[name] = (_sent(scan, checked=extra is not None) if scan is not None else None, extra)
            return sent

        results: dict[str, DirScan | None] = {}
        for name, (received, extra) in map_in_processes(share, names, processes).items():
            if received is None:
                results[name] = None
                continue
            scan = results[name] = self._received(received, root, root_index, os.path.join(root.path, name))
            if extra is not None and scan.skill is not None:
                computed[str(scan.skill.path)] = extra
        return results

    def _received(self, received: DirScan | _SentSkill, root: SkillRoot, root_index: int, dir_path: str) -> DirScan:
        if isinstance(received, DirScan):
            return received
        name, description, content, resources = received
        path = self._reader.path(os.path.join(dir_path, SKILL_FILE))
        parsed = UnparsedSkill(
            path, content if content is not None else read_again(self._reader, str(path), self._follow_symlinks)
        )
        skill = skill_info(root, root_index, path, name, description, parsed, resources)
        return DirScan(os.path.basename(dir_path), skill=skill)


def _sent(scan: DirScan, *, checked: bool) -> DirScan | _SentSkill:
    """What a worker sends for a directory it read. The text of a SKILL.md it also checked (``checked``: its
    findings travel beside it) stays behind: a ``--check`` reads it again only for a cross-file finding, and
    sending every body through a pipe cost about a sixth of a spread check's CPU and wall time (the pickling, the
    copies and their page faults; benchmarks/HISTORY.md)."""
    skill = scan.skill
    if skill is None or scan.malformed is not None or scan.warnings:
        return portable(scan)  # the rare directory with a problem goes as it is, its documents as text
    parsed = skill.parsed
    content = None if checked else parsed.content if isinstance(parsed, UnparsedSkill) else parsed.text
    if callable(content):  # pragma: no cover - a record read again was checked, and its text is not sent
        content = content()
    return (skill.name, skill.description, content, skill.resource_paths)


def portable(scan: DirScan) -> DirScan:
    """``scan`` with its documents replaced by their text (``UnparsedSkill``), as it is sent between processes. A
    record the check-ahead left with a way to read its text again (a function, which does not pickle) goes with
    its text too: read now, for the rare directory with a problem."""
    skill = scan.skill
    if skill is not None and (isinstance(skill.parsed, SkillDocument) or callable(skill.parsed.content)):
        skill = replace(skill, parsed=UnparsedSkill(skill.parsed.path, skill.parsed.text))
    malformed = scan.malformed
    if malformed is not None and isinstance(malformed.parsed, SkillDocument):
        malformed = replace(malformed, parsed=UnparsedSkill(malformed.parsed.path, malformed.parsed.text))
    return DirScan(scan.dir_name, skill, malformed, scan.warnings)
