"""``workspace.plugin_skills``: a plugin's skills as discovery reads a root, open buffers first, whether or not
discovery scanned the plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.plugin_skills import plugin_skills

PLUGIN = ".clarvis/plugins/kit"


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write(ws, f"{PLUGIN}/plugin.json", '{"name": "kit"}\n')
    write(ws, f"{PLUGIN}/skills/format/SKILL.md", "---\nname: fmt\ndescription: Formats.\n---\n")
    write(ws, f"{PLUGIN}/skills/format-old/SKILL.md", "---\nname: fmt\ndescription: Old copy.\n---\n")
    write(ws, f"{PLUGIN}/skills/broken/SKILL.md", "---\nname: broken\n---\n")  # no description: not loaded
    write(ws, f"{PLUGIN}/skills/notes/README.md", "not a skill\n")
    (tmp_path / "home").mkdir()
    return ws


@pytest.mark.parametrize("enabled", [False, True])
def test_names_files_and_buffers(ws: Path, enabled: bool) -> None:
    if enabled:
        write(ws, ".clarvis/settings.json", '{"enabledPlugins": ["kit"]}\n')
    skills = ws / PLUGIN / "skills"
    (skills / "lint").mkdir()
    overlay = {
        skills / "format/SKILL.md": "---\nname: fmt-fast\ndescription: Renamed, unsaved.\n---\n",
        skills / "lint/SKILL.md": "---\nname: lint\ndescription: New, unsaved.\n---\n",
    }
    engine = WorkspaceEngine(
        directory=ws, config=ProjectConfig(), home=ws.parent / "home", overlay=overlay, trusted=True
    )
    registry = engine.discovered.registry
    scanned = any(scan.root.path == str(skills) for scan in registry.scans)
    assert scanned is enabled

    found = plugin_skills(registry, ws / PLUGIN, overlay)
    assert found.names == ("fmt", "fmt-fast", "lint")
    assert found.skills["fmt"].path == skills / "format-old/SKILL.md"
    assert found.files == tuple(skills / name / "SKILL.md" for name in ("broken", "format", "format-old", "lint"))


def test_a_duplicate_is_skipped_as_discovery_skips_it(ws: Path) -> None:
    engine = WorkspaceEngine(directory=ws, config=ProjectConfig(), home=ws.parent / "home")
    found = plugin_skills(engine.discovered.registry, ws / PLUGIN)
    assert found.names == ("fmt",)  # the first directory in sorted order wins: format-old is the duplicate
    assert found.skills["fmt"].path == ws / PLUGIN / "skills/format/SKILL.md"
    assert len(found.files) == 3  # broken, format, format-old


def test_a_plugin_without_skills(tmp_path: Path) -> None:
    write(tmp_path, f"{PLUGIN}/plugin.json", '{"name": "kit"}\n')
    (tmp_path / "home").mkdir()
    engine = WorkspaceEngine(directory=tmp_path, config=ProjectConfig(), home=tmp_path / "home")
    found = plugin_skills(engine.discovered.registry, tmp_path / PLUGIN)
    assert found.names == () and found.files == ()
