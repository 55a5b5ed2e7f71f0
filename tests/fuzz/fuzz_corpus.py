"""The documents the property tests start from, and the checks every property shares.

Seeds are the shipped example workspace (``examples/``, every kind, with deliberate findings and their fixes) plus
one clean document of each JSON kind, copied into a temporary workspace so that each mutated text is checked where
its kind is recognised, with discovery seeing the same tree ``--check`` would see.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.documents.text import LineIndex, strip_bom
from clarvis_lsp.findings import Diagnostic, Range
from clarvis_lsp.knowledge.files import FileKind, file_kind
from clarvis_lsp.workspace.findings import check_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Clean documents of each JSON kind (the examples show every finding, so none of them is clean).
CLEAN = {
    "clean/.clarvis/settings.json": '{\n  "enabledPlugins": ["tidy"],\n  "hooks": [\n    {"event": "pre_tool_use", '
    '"command": "echo ok", "match": {"tool": "bash"}, "timeout_ms": 1000}\n  ]\n}\n',
    "clean/.clarvis/plugins/tidy/plugin.json": '{\n  "name": "tidy",\n  "version": "1.0.0",\n  "description": '
    '"Keeps things tidy.",\n  "author": {"name": "Ada"}\n}\n',
    "clean/.clarvis/plugins/tidy/hooks/hooks.json": '[\n  {"event": "session_start", "command": "echo hi"}\n]\n',
    "clean/marketplace.json": '{\n  "name": "team",\n  "plugins": [\n    {"name": "tidy", "source": '
    '"https://github.com/acme/tidy.git", "description": "Tidy."}\n  ]\n}\n',
    "clean/.clarvis/skills/tidy-up/SKILL.md": "---\nname: tidy-up\ndescription: Tidies the working tree.\n"
    "user-invocable: true\nargument-hint: [path]\n---\n# Tidy\r\nRun `tidy` on $ARGUMENTS.\n",
}

OPTIONS = {"includeUser": False}


@dataclass(frozen=True)
class Seed:
    path: Path
    text: str
    kind: FileKind
    baseline: tuple[str, ...]  # the finding codes of the unmodified text, sorted


def build_workspace(base: Path) -> tuple[Path, list[Seed]]:
    """Copy the examples and the clean documents under ``base``; the home directory and every recognised file."""
    home = base / "home"
    home.mkdir()
    shutil.copytree(EXAMPLES, base / "examples")
    for relative, text in CLEAN.items():
        target = base / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    seeds: list[Seed] = []
    for top in (base / "examples", base / "clean"):
        for path in sorted(top.rglob("*")):
            kind = file_kind(path, workspace_dirs=frozenset({top}))
            if kind is None or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            codes = tuple(sorted(item.code for item in check(path, text, home)))
            seeds.append(Seed(path, text, kind, codes))
    return home, seeds


def check(path: Path, text: str, home: Path) -> list[Diagnostic]:
    return check_text(path, text, home=home, overrides=OPTIONS)


def assert_inside(lines: LineIndex, where: Range, what: object) -> None:
    """``where`` is an ordered range of existing lines and columns of ``lines``."""
    assert where.start <= where.end, what
    for position in (where.start, where.end):
        assert 0 <= position.line < lines.line_count, what
        assert 0 <= position.character <= len(lines.line_text(position.line)), what


def assert_sound(path: Path, text: str, found: list[Diagnostic]) -> None:
    """No rule raised, and every finding and fix on this file lies inside the document."""
    lines = LineIndex(strip_bom(text))
    for item in found:
        assert item.code != "internal/rule-failed", item.message
        if item.path != path:
            continue
        assert_inside(lines, item.range, item)
        for fix in item.fixes:
            for edit in fix.edits:
                if edit.path == path:
                    assert_inside(lines, edit.range, fix)
