"""The two exception types of the discovery core, kept apart on purpose.

A ``StartupError`` means the configuration itself is unusable (no roots, a workspace that is not a directory):
nothing was scanned, and the CLI exits 2. A ``SkillError`` means a skill on disk is broken and ``strict`` asked
for that to be fatal. Callers handle the two very differently, so one never subclasses the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

SkillErrorKind = Literal["duplicate", "malformed"]


class StartupError(Exception):
    """The options cannot be turned into a ``SkillConfig``; raised before any discovery runs."""


class SkillError(Exception):
    """A malformed skill or a within-root duplicate name, raised instead of a warning in strict mode.

    ``path`` is the offending SKILL.md and ``kind`` says which of the two problems it is, so a caller can map
    the error to the same diagnostic code the non-strict warning would have produced.
    """

    def __init__(self, message: str, *, path: Path, kind: SkillErrorKind) -> None:
        super().__init__(message)
        self.path = path
        self.kind: SkillErrorKind = kind
