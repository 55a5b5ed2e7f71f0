"""An edit updates the cross-file findings incrementally; the result must equal a full recomputation."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.workspace.engine import WorkspaceEngine

SKILL = "---\nname: {name}\ndescription: Does {name} things.\n---\n"


def write(root: Path, relative: str, name: str) -> Path:
    path = root / relative / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SKILL.format(name=name))
    return path


def findings(engine: WorkspaceEngine) -> set[tuple[Path, str, str]]:
    return {(d.path, d.code, d.message) for items in engine.cross_by_path().values() for d in items}


@pytest.mark.parametrize("strict", [False, True])
def test_incremental_updates_match_a_full_recomputation(tmp_path: Path, strict: bool) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    edited = write(ws, ".clarvis/skills/alpha", "alpha")
    write(ws, ".clarvis/skills/beta", "beta")
    write(ws, ".clarvis/skills/gamma", "beta")  # a within-root duplicate
    write(ws, ".agents/skills/alpha", "alpha")  # shadowed by .clarvis
    write(ws, ".agents/skills/delta", "delta")
    write(home, ".clarvis/skills/delta", "delta")  # personal .clarvis beats workspace .agents
    config = ProjectConfig(strict=strict)
    buffers: dict[Path, str] = {}  # the editor's unsaved text, as the server keeps it
    engine = WorkspaceEngine(directory=ws, config=config, home=home, overlay=MappingProxyType(buffers))
    engine.cross_by_path()
    for name in ["beta", "delta", "zeta", "alpha", "beta", "", "alpha"]:
        buffers[edited] = SKILL.format(name=name) if name else "no frontmatter\n"
        engine.update([edited])
        fresh = WorkspaceEngine(directory=ws, config=config, home=home, overlay=dict(buffers))
        assert findings(engine) == findings(fresh), name
    assert any(code == "discovery/shadowed" for _, code, _ in findings(engine))
