"""The engine's vocabulary: positions, ranges, findings and their fixes.

Everything here is independent of the Language Server Protocol. Positions are 0-based lines and 0-based
columns counted in Unicode code points of the decoded text (what Python's ``str`` indexes); only
``clarvis_lsp.server.convert`` turns them into a client's position encoding, and the CLI adds 1 for display.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


class Severity(enum.IntEnum):
    """Severity levels, numbered as LSP numbers them so the server can pass them through."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        """Read a severity name as written in configuration (``error``, ``warning``, ``information``, ``hint``)."""
        aliases = {"info": "information", "warn": "warning"}
        key = aliases.get(text.strip().lower(), text.strip().lower())
        return cls[key.upper()]


@dataclass(frozen=True, order=True)
class Position:
    """A 0-based line and a 0-based column in code points."""

    line: int
    character: int


@dataclass(frozen=True)
class Range:
    """A half-open range between two positions."""

    start: Position
    end: Position

    @classmethod
    def of(cls, start_line: int, start_char: int, end_line: int, end_char: int) -> Range:
        return cls(Position(start_line, start_char), Position(end_line, end_char))

    @classmethod
    def point(cls, line: int, character: int) -> Range:
        return cls(Position(line, character), Position(line, character))

    def contains(self, position: Position) -> bool:
        return self.start <= position <= self.end


@dataclass(frozen=True)
class TextEdit:
    """Replace ``range`` of the file at ``path`` with ``new_text``."""

    path: Path
    range: Range
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A quick fix: a title that says exactly what changes, and the edits that make that change.

    ``safe`` fixes are applied by ``--fix``; unsafe ones (removing a user's field, guessing a value) are offered
    in the editor and printed by ``--diff`` only when asked with ``--unsafe-fixes``.
    """

    title: str
    edits: tuple[TextEdit, ...]
    safe: bool = True


@dataclass(frozen=True)
class Related:
    """Another place a cross-file finding is about (LSP ``relatedInformation``)."""

    path: Path
    range: Range
    message: str


@dataclass(frozen=True)
class Diagnostic:
    """One finding of one rule on one file."""

    path: Path
    range: Range
    severity: Severity
    code: str
    message: str
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()
    # Free-form facts a front end may show (e.g. the winning copy's path for discovery/shadowed).
    data: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (str(self.path), self.range.start.line, self.range.start.character, self.code, self.message)


def _absolute_display(path: Path) -> str:
    return str(path)


@dataclass
class CheckResult:
    """What a check of one or more trees found.

    ``display_path`` turns an absolute file path into the text shown to the user (the CLI joins the path given
    on the command line with the file's relative path, so relative input gives relative output).
    """

    files_checked: int
    diagnostics: list[Diagnostic]
    display_path: Callable[[Path], str] = _absolute_display

    def count(self, severity: Severity) -> int:
        return sum(1 for diagnostic in self.diagnostics if diagnostic.severity == severity)

    def summary(self) -> dict[str, int]:
        return {severity.label: self.count(severity) for severity in Severity}
