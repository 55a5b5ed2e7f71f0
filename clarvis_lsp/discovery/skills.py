"""What discovery produces: skills, the copies it skipped, and the warnings it raised along the way.

These are plain frozen records shared by the scanner (``scan.py``) and the registry (``registry.py``); they hold
no behaviour beyond what a reader of a diagnostic needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from clarvis_lsp.discovery.skill_config import SkillRoot, SkillScope
from clarvis_lsp.documents.skill import SkillDocument, UnparsedSkill
from clarvis_lsp.documents.skill_identity import NamePlace

WarningKind = Literal["duplicate", "malformed", "symlink-ignored", "unreadable"]

RESOURCE_DIRS: tuple[str, ...] = ("assets", "examples", "references", "scripts")
"""Conventional resource directories of a skill. ``agents/`` is deliberately absent: it is presentation metadata
for the host and never exposed as a resource."""


@dataclass(frozen=True)
class DiscoveryWarning:
    """Something discovery skipped or could not read, and why.

    ``kind``: ``duplicate`` (a within-root duplicate name, ``path`` is the skipped SKILL.md and ``other`` the
    kept one), ``malformed`` (no frontmatter, invalid YAML, no name or description), ``symlink-ignored``
    (``follow_symlinks`` is off and ``path`` is a symlink), ``unreadable`` (permission denied, a file that
    vanished mid-scan, a broken symlink, a SKILL.md that is not a regular file). ``root_index`` is the index of
    the root being scanned, or None for warnings outside skill roots (plugins, agents).
    """

    kind: WarningKind
    path: Path
    message: str
    other: Path | None = None
    root_index: int | None = None
    name: str | None = None


@dataclass(frozen=True)
class SkillInfo:
    """One loaded copy of a skill.

    ``path`` is the SKILL.md, ``directory`` the skill directory, both absolute and spelled as seen under the root
    (a followed symlink is not resolved). ``frontmatter`` holds the plain values (the last duplicate key wins, as
    a YAML loader would; computed on first use); ``document`` is the position-keeping parse, kept so the linter
    never reads or parses the file twice. ``resources`` are the files under the conventional resource
    directories, in sorted order.
    """

    name: str
    description: str
    path: Path
    directory: Path
    root: SkillRoot
    root_index: int
    scope: SkillScope
    source: str
    parsed: SkillDocument | UnparsedSkill = field(compare=False, repr=False)  # see ``document``
    resource_paths: tuple[str, ...] = field(default=(), compare=False, repr=False)  # see ``resources``
    name_at: NamePlace | None = field(default=None, compare=False, repr=False)
    """Where the name is written, when discovery read it without a parse (``simple_identity_at``): a shadowed or
    shadowing copy's finding points there without parsing the document (``rules.discovery.skill_name_range``)."""

    @property
    def document(self) -> SkillDocument:
        """The position-keeping parse of SKILL.md. A copy read in a worker process arrives as its text and is
        parsed here on first use (``UnparsedSkill``)."""
        return _parsed(self)

    @cached_property
    def resources(self) -> tuple[Path, ...]:
        """The files under the conventional resource directories, in sorted order (``Path`` objects made on
        first use: discovery lists every skill's resources, and nothing on the check path reads them)."""
        return tuple(Path(path) for path in self.resource_paths)

    @cached_property
    def frontmatter(self) -> dict[str, Any]:
        """The frontmatter as plain values (last duplicate key wins), built on first use.

        Lazy because building values from YAML nodes costs as much as a third of a parse, and discovery itself
        only needs ``name`` and ``description``.
        """
        return self.document.fields()


@dataclass(frozen=True)
class SkippedSkill:
    """A SKILL.md that discovery found but did not load, with the warning that says why.

    For a within-root duplicate ``skill`` is the parsed copy that lost (its name and description are known); for
    a malformed skill ``skill`` is None and ``document`` is whatever could be parsed (None if nothing could).
    """

    path: Path
    warning: DiscoveryWarning
    skill: SkillInfo | None = None
    parsed: SkillDocument | UnparsedSkill | None = field(default=None, compare=False, repr=False)  # see ``document``

    @property
    def document(self) -> SkillDocument | None:
        """Whatever could be parsed of the SKILL.md (None if nothing could), parsed on first use when the file was
        read in a worker process (``UnparsedSkill``)."""
        if self.parsed is None:  # a within-root duplicate shares its skill's parse
            return self.skill.document if self.skill is not None else None
        return _parsed(self)


def _parsed(record: SkillInfo | SkippedSkill) -> SkillDocument:
    """``record.parsed``, parsing an ``UnparsedSkill`` once and keeping the result in the frozen record (two threads
    asking at once both parse the same text; either result is kept)."""
    parsed = record.parsed
    if isinstance(parsed, UnparsedSkill):
        parsed = parsed.parse()
        object.__setattr__(record, "parsed", parsed)
    assert parsed is not None
    return parsed


class DirScan:
    """What one ``<root>/<dir>`` produced: a well-formed skill, a malformed SKILL.md, and/or warnings.

    ``skill`` is the parsed skill before within-root duplicate resolution (the ``RootScan`` decides whether it is
    kept); ``malformed`` is set when SKILL.md exists but cannot be a skill. ``warnings`` never include duplicate
    warnings, which depend on the sibling directories.
    """

    __slots__ = ("dir_name", "malformed", "skill", "warnings")

    def __init__(
        self,
        dir_name: str,
        skill: SkillInfo | None = None,
        malformed: SkippedSkill | None = None,
        warnings: tuple[DiscoveryWarning, ...] = (),
    ) -> None:
        self.dir_name = dir_name
        self.skill = skill
        self.malformed = malformed
        self.warnings = warnings

    def __repr__(self) -> str:
        name = self.skill.name if self.skill else None
        return f"DirScan({self.dir_name!r}, skill={name!r}, warnings={len(self.warnings)})"
