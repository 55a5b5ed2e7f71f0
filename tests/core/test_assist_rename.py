"""Rename in the core (``clarvis_lsp.editor.rename``): which name is under the cursor, what a rename edits and
moves, and the names it refuses. The workspace lives in ``tmp_path/ws``; the real home directory is never read."""

from __future__ import annotations

from pathlib import Path

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor import rename
from clarvis_lsp.findings import Position
from clarvis_lsp.knowledge.skill import NAME_MAX_LENGTH
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.view import WorkspaceView

FILES = {
    ".clarvis/skills/review/SKILL.md": "---\nname: review\ndescription: Reviews.\nagent: helper\n---\n",
    ".clarvis/skills/other/SKILL.md": "---\nname: other\ndescription: Other.\nagent: p:assistant\n---\n",
    ".clarvis/agents/helper.md": "---\nname: helper\n---\nHelps.\n",
    ".clarvis/plugins/p/plugin.json": '{\n  "name": "p",\n  "bootstrapSkill": "boot"\n}\n',
    ".clarvis/plugins/p/skills/boot/SKILL.md": "---\nname: boot\ndescription: Boots.\n---\n",
    ".clarvis/plugins/p/agents/assistant.md": "# Assistant\n",
    ".clarvis/settings.json": '{"enabledPlugins": ["p"]}\n',
    "marketplace.json": '{"plugins": [{"name": "p", "source": "./p"}]}\n',
}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    for relative, text in FILES.items():
        path = tmp_path / "ws" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "home").mkdir()
    return tmp_path / "ws"


def view_of(ws: Path, overlay: dict[Path, str] | None = None) -> WorkspaceView:
    """The workspace after its first scan, as a rename request of the server reads it."""
    home = ws.parent / "home"
    engine = WorkspaceEngine(directory=ws, config=ProjectConfig(include_user=False), home=home, overlay=overlay or {})
    engine.warm()
    return engine.view()


def at(path: Path, needle: str, delta: int = 1) -> tuple[str, Position]:
    text = path.read_text(encoding="utf-8")
    return text, LineIndex(text).position(text.index(needle) + delta)


def written(plan: rename.RenamePlan, ws: Path) -> list[tuple[str, str, str]]:
    """Each edit as (file, the text it replaces, the new text)."""
    result = []
    for edit in plan.edits:
        lines = LineIndex(edit.path.read_text(encoding="utf-8"))
        old = lines.text[lines.offset(edit.range.start) : lines.offset(edit.range.end)]
        result.append((edit.path.relative_to(ws).as_posix(), old, edit.new_text))
    return result


def test_prepare_gives_the_exact_name_range_and_nothing_elsewhere(ws: Path) -> None:
    view = view_of(ws)
    skill = ws / ".clarvis/skills/other/SKILL.md"
    text, position = at(skill, "p:assistant", 4)
    target = rename.prepare_rename(view, skill, text, position)
    assert target is not None and (target.kind, target.name) == ("agent", "assistant")
    assert (target.range.start.character, target.range.end.character) == (9, 18)  # "assistant", after "agent: p:"
    text, position = at(skill, "description")
    assert rename.prepare_rename(view, skill, text, position) is None
    manifest = ws / ".clarvis/plugins/p/plugin.json"
    text, position = at(manifest, '"p"')
    target = rename.prepare_rename(view, manifest, text, position)
    assert target is not None and target.kind == "plugin"
    assert (target.range.start.character, target.range.end.character) == (11, 12)  # inside the quotes


def test_skill_rename_edits_its_name_and_bootstrap_and_moves_its_directory(ws: Path) -> None:
    view = view_of(ws)
    manifest = ws / ".clarvis/plugins/p/plugin.json"
    text, position = at(manifest, '"boot"', 2)
    plan = rename.rename(view, manifest, text, position, "start", can_rename_files=True)
    assert written(plan, ws) == [
        (".clarvis/plugins/p/skills/boot/SKILL.md", "boot", "start"),
        (".clarvis/plugins/p/plugin.json", '"boot"', '"start"'),
    ]
    skills = ws / ".clarvis/plugins/p/skills"
    assert plan.files == (rename.FileRename(skills / "boot", skills / "start"),)
    without_moves = rename.rename(view, manifest, text, position, "start", can_rename_files=False)
    assert without_moves.files == () and without_moves.edits == plan.edits


def test_agent_rename_moves_the_file_and_rewrites_every_agent_field(ws: Path) -> None:
    view = view_of(ws)
    agent = ws / ".clarvis/agents/helper.md"
    text, position = at(agent, "helper")
    plan = rename.rename(view, agent, text, position, "true", can_rename_files=True)
    assert written(plan, ws) == [
        (".clarvis/agents/helper.md", "helper", '"true"'),  # quoted: YAML would read a bare true as a boolean
        (".clarvis/skills/review/SKILL.md", "helper", '"true"'),
    ]
    assert plan.files == (rename.FileRename(agent, agent.with_name("true.md")),)
    with pytest.raises(rename.RenameRefused, match="cannot rename files"):
        rename.rename(view, agent, text, position, "aide", can_rename_files=False)


def test_plugin_rename_follows_settings_marketplace_and_plugin_agents(ws: Path) -> None:
    view = view_of(ws)
    settings = ws / ".clarvis/settings.json"
    text, position = at(settings, '"p"')
    plan = rename.rename(view, settings, text, position, "quality", can_rename_files=True)
    assert written(plan, ws) == [
        (".clarvis/plugins/p/plugin.json", '"p"', '"quality"'),
        (".clarvis/settings.json", '"p"', '"quality"'),
        ("marketplace.json", '"p"', '"quality"'),
        (".clarvis/skills/other/SKILL.md", "p:assistant", "quality:assistant"),
    ]
    plugins = ws / ".clarvis/plugins"
    assert plan.files == (rename.FileRename(plugins / "p", plugins / "quality"),)


@pytest.mark.parametrize(
    ("file", "needle", "new_name", "message"),
    [
        (".clarvis/skills/review/SKILL.md", "review", "two words", "Invalid skill name"),
        (".clarvis/skills/review/SKILL.md", "review", "x" * (NAME_MAX_LENGTH + 1), "characters long"),
        (".clarvis/plugins/p/plugin.json", '"p"', "Quality", "Invalid plugin name"),
        (".clarvis/skills/review/SKILL.md", "helper", "a/b", "Invalid agent name"),
        (".clarvis/skills/review/SKILL.md", "Reviews", "x", "Nothing to rename"),
        (".clarvis/skills/review/SKILL.md", "review", "other", "already exists"),
    ],
)
def test_refused_renames_say_why(ws: Path, file: str, needle: str, new_name: str, message: str) -> None:
    path = ws / file
    text, position = at(path, needle)
    with pytest.raises(rename.RenameRefused, match=message):
        rename.rename(view_of(ws), path, text, position, new_name, can_rename_files=True)


def test_an_unsaved_buffer_is_what_gets_renamed(ws: Path) -> None:
    skill = ws / ".clarvis/skills/review/SKILL.md"
    buffer = "---\ndescription: Moved down.\nname: review\n---\n"
    view = view_of(ws, {skill: buffer})
    position = LineIndex(buffer).position(buffer.index("review"))
    plan = rename.rename(view, skill, buffer, position, "audit", can_rename_files=False)
    assert [(edit.range.start.line, edit.new_text) for edit in plan.edits] == [(2, "audit")]
