"""The check-ahead: a SKILL.md's own findings computed where discovery reads it.

A headless run checks every SKILL.md under the paths it was given. Discovery reads and (when asked) parses those
files anyway, in a worker process when a large root is spread over processes (``batch.spread``); computing the
file's own rules there uses the parse where it was made, instead of sending it back or parsing it twice. What is
computed waits in ``computed`` until the check step takes it (``own_findings``); a file nobody asks about is never
looked at again.

Once a file's findings are computed its parse is not kept: discovery keeps the record with a way to read the text
again (``read_again``), which only a cross-file finding (a duplicate name, a shadowed copy) uses. Kept, the
documents of 20,000 realistic skills held about 500 MB (peak RSS 629 MB in one process, 128 MB without), and
building that much memory cost 5-10 % of the check's CPU time (benchmarks/HISTORY.md).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from clarvis_lsp.discovery import AgentInfo
from clarvis_lsp.discovery.scan import read_again, skill_info
from clarvis_lsp.discovery.skills import DirScan
from clarvis_lsp.documents.skill import SkillDocument, UnparsedSkill
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.workspace.engine import WorkspaceEngine


class CheckAhead:
    """The ``DirectoryVisit`` of a run: each SKILL.md under ``targets`` (a directory as a prefix ending with a
    separator, a file as its path) gets its own findings computed as it is read."""

    def __init__(self, engine: WorkspaceEngine, targets: Sequence[Path]) -> None:
        self._engine = engine
        self._prefixes = tuple(str(target) + os.sep if target.is_dir() else str(target) for target in targets)
        self._agents: Mapping[str, AgentInfo] = {}
        self.computed: dict[str, list[Diagnostic]] = {}

    def start(self, agents: Mapping[str, AgentInfo]) -> None:
        """The agents discovery found before the skill roots, which one SKILL.md rule reads."""
        self._agents = agents

    def reads_document(self, skill_md: str) -> bool:
        return skill_md.startswith(self._prefixes)

    def __call__(self, scan: DirScan) -> DirScan | None:
        """Compute the file's own findings; discovery then keeps the record without its parse."""
        skill = scan.skill
        if skill is None:
            return None
        path = str(skill.path)
        if not path.startswith(self._prefixes) or skill.path in self._engine.overlay:
            return None  # an editor buffer may be refused by ``read``: the check step reads it as usual
        self.computed[path] = self._engine.skill_findings(skill, self._agents)
        if not isinstance(skill.parsed, SkillDocument):
            return None
        engine = self._engine
        text = UnparsedSkill(skill.path, read_again(engine.reader, path, engine.config.follow_symlinks))
        # Built as discovery builds a record (``dataclasses.replace`` asks the class for its fields each time).
        lighter = skill_info(
            skill.root, skill.root_index, skill.path, skill.name, skill.description, text, skill.resource_paths
        )
        return DirScan(scan.dir_name, lighter, scan.malformed, scan.warnings)

    def pending(self, path: Path) -> bool:
        """Whether the file's own findings were computed and not taken yet."""
        return str(path) in self.computed

    def own_findings(self, path: Path) -> list[Diagnostic]:
        """The file's own findings: the ones computed ahead (taken, so a second ask reads the file again), else the
        engine's ``check_file``."""
        found = self.computed.pop(str(path), None)
        return found if found is not None else self._engine.check_file(path)
