"""Applying the fixes that travel with diagnostics: ``--fix`` writes them, ``--diff`` shows them.

A fix changes only the bytes its edits name: the file is decoded, the edits are spliced into the text, and the
text is encoded back with the BOM it had, so line endings and everything else stay as they were. A file that
does not parse (or is not valid UTF-8) is never touched, because positions in a broken file are guesses.

A fix is written only where the user asked for one (SPEC §9): never through a symlink (a cloned repository can
link ``.clarvis/settings.json`` to a file of the user's own, and checks follow symlinks by default), never to a
file outside the paths checked, and atomically: the new text goes to a temporary file in the same directory,
which takes the file's mode and then replaces it, so an interrupted ``--fix`` leaves the old file or the new one.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import stat
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery.fs import read_regular_file
from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.findings import Diagnostic, Fix, TextEdit

# Findings that mean the file did not parse: no fix is applied to such a file.
UNPARSED_CODES = frozenset({"skill/no-frontmatter", "skill/invalid-yaml", "json/syntax", "file/encoding"})


@dataclass(frozen=True)
class FileFix:
    """The outcome of fixing one file."""

    path: Path
    before: str
    after: str
    had_bom: bool
    applied: tuple[Fix, ...]

    def diff(self, display: str) -> str:
        """The change as a unified diff that ``git apply`` and ``patch`` accept.

        Lines are split at ``\\n`` only, as diff and Git split them (``str.splitlines`` also splits at U+2028,
        U+0085, form feed…, which would cut a line in two), and a last line without a newline is followed by
        ``\\ No newline at end of file``, as diff writes it. A BOM stays on the first line, where the file has it.
        """
        bom = "\ufeff" if self.had_bom else ""
        lines = difflib.unified_diff(
            _diff_lines(bom + self.before),
            _diff_lines(bom + self.after),
            fromfile=f"a/{display}",
            tofile=f"b/{display}",
        )
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)

    def write(self) -> None:
        """Replace the file with the fixed text atomically, keeping its mode (and its owner, where allowed).

        Raises ``OSError`` when the directory or the file cannot be written; the file is then unchanged.
        """
        data = self.after.encode("utf-8")
        if self.had_bom:
            data = b"\xef\xbb\xbf" + data
        target = str(self.path)
        status = os.lstat(target)
        descriptor, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".fix", dir=self.path.parent)
        try:
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, stat.S_IMODE(status.st_mode))
            with contextlib.suppress(OSError):  # only a privileged user can give a file away: keep what we can
                os.chown(temporary, status.st_uid, status.st_gid)
            os.replace(temporary, target)  # replaces the name itself: never writes through a link put there since
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def write_refusal(path: Path, checked: Sequence[str], cwd: str) -> str | None:
    """Why a fix must not be written to ``path``, or None when it may be.

    ``checked`` are the paths given to ``--check`` (relative to ``cwd``): a fix goes only to a file under one of
    them, reached without a symlink below it. A path the user typed may itself be a link (a checkout reached
    through one); what a repository's files can change, the links inside it, is what is refused.
    """
    absolute = os.path.normpath(os.path.join(cwd, path))
    if os.path.islink(absolute):
        return "the file is a symlink, and a fix is never written through one"
    real = os.path.realpath(absolute)
    for given in checked:
        base = os.path.normpath(os.path.join(cwd, given))
        if absolute != base and not absolute.startswith(base.rstrip(os.sep) + os.sep):
            continue
        expected = os.path.normpath(os.path.join(os.path.realpath(base), os.path.relpath(absolute, base)))
        if real != expected:
            return f"a directory on its way is a symlink (the file is {real}), and a fix is never written through one"
        return None
    return "the file lies outside the paths checked"


def _diff_lines(text: str) -> list[str]:
    """``text`` cut after each ``\\n`` (each line keeps it; a last line without one stays as it is)."""
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])


def plan_fixes(diagnostics: Iterable[Diagnostic], *, unsafe: bool = False) -> list[FileFix]:
    """Work out the fixed text of every file that has applicable fixes (nothing is written)."""
    by_path: dict[Path, list[Diagnostic]] = defaultdict(list)
    for diagnostic in diagnostics:
        by_path[diagnostic.path].append(diagnostic)
    planned: list[FileFix] = []
    for path, found in sorted(by_path.items()):
        if any(diagnostic.code in UNPARSED_CODES for diagnostic in found):
            continue
        fixes = [fix for diagnostic in found for fix in diagnostic.fixes[:1] if fix.safe or unsafe]
        if not fixes:
            continue
        # A file with findings was read through the same guard (a link only when symlinks are followed).
        data, _why = read_regular_file(str(path), follow_symlinks=True)
        if data is None:
            continue
        decoded = decode(data)
        if decoded.invalid_utf8_offset is not None:
            continue
        after, applied = _apply(decoded.text, path, fixes)
        if applied and after != decoded.text:
            planned.append(FileFix(path, decoded.text, after, decoded.had_bom, tuple(applied)))
    return planned


def fixes_to_apply(diagnostics: Iterable[Diagnostic], text: str, path: Path) -> list[Fix]:
    """The fixes "fix all" applies to one file: the first safe fix of each finding, none at all when the file
    did not parse, and only fixes that do not overlap one already taken (the rest wait for a next run)."""
    found = list(diagnostics)
    if any(diagnostic.code in UNPARSED_CODES for diagnostic in found):
        return []
    fixes = [fix for diagnostic in found for fix in diagnostic.fixes[:1] if fix.safe]
    return _non_overlapping(LineIndex(text), path, fixes)


def _non_overlapping(lines: LineIndex, path: Path, fixes: list[Fix]) -> list[Fix]:
    taken: list[tuple[int, int]] = []
    chosen: list[Fix] = []
    for fix in fixes:
        spans = [_span(lines, edit) for edit in fix.edits if edit.path == path]
        if len(spans) != len(fix.edits) or any(_overlaps(span, taken) for span in spans):
            continue
        taken.extend(spans)
        chosen.append(fix)
    return chosen


def _apply(text: str, path: Path, fixes: list[Fix]) -> tuple[str, list[Fix]]:
    """Splice non-overlapping fixes into ``text``; a fix that overlaps one already taken waits for a next run."""
    lines = LineIndex(text)
    applied = _non_overlapping(lines, path, fixes)
    chosen = [(*_span(lines, edit), edit.new_text) for fix in applied for edit in fix.edits]
    for start, end, new_text in sorted(chosen, key=lambda item: (item[0], item[1]), reverse=True):
        text = text[:start] + new_text + text[end:]
    return text, applied


def _span(lines: LineIndex, edit: TextEdit) -> tuple[int, int]:
    return lines.offset(edit.range.start), lines.offset(edit.range.end)


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    start, end = span
    for other_start, other_end in taken:
        if start < other_end and other_start < end:
            return True
        if start == end == other_start == other_end:  # two insertions at one point: order would be a guess
            return True
    return False
