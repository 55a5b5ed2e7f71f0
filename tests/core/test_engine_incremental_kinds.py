"""Targeted invalidation for every file kind: after each edit of a randomised sequence (settings, plugin manifests,
hooks documents, marketplaces, agents, skills; in open buffers and on disk) the incrementally updated engine
reports exactly what a fresh engine computes from scratch, for the cross-file findings and every file's own."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.findings import file_findings

SKILL = "---\nname: {name}\ndescription: Does {name} things.\n{extra}---\nBody.\n"


def _hooks(count: int, event: str = "run_end") -> list[dict[str, object]]:
    return [{"event": event, "command": f"./hook-{index}.sh"} for index in range(count)]


def _settings(rng: random.Random) -> str:
    enabled = rng.sample(["quality", "docs", "ghost"], rng.randint(0, 3))
    return json.dumps({"enabledPlugins": enabled, "hooks": _hooks(rng.choice([0, 60, 64, 65]))})


def _plugin(rng: random.Random, directory: str) -> str:
    name = rng.choice([directory, directory, f"{directory}-renamed"])
    manifest: dict[str, object] = {"name": name, "description": "A plugin."}
    if rng.random() < 0.5:
        manifest["hooks"] = _hooks(rng.choice([10, 40, 70]))
    if rng.random() < 0.3:
        manifest["bootstrapSkill"] = rng.choice(["lint-fix", "missing"])
    return json.dumps(manifest)


def _layout(ws: Path, home: Path) -> None:
    (home / ".clarvis").mkdir(parents=True)
    (home / ".clarvis/settings.json").write_text(json.dumps({"hooks": _hooks(30)}))
    for relative, name in [
        (".clarvis/skills/review", "review"),
        (".agents/skills/review", "review"),
        (".clarvis/skills/notes", "notes"),
        (".clarvis/plugins/quality/skills/lint-fix", "lint-fix"),
        (".clarvis/plugins/quality/skills/review", "review"),
        (".clarvis/plugins/docs/skills/notes", "notes"),
    ]:
        path = ws / relative / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SKILL.format(name=name, extra="agent: reviewer\n" if name == "review" else ""))
    for plugin in ("quality", "docs"):
        (ws / f".clarvis/plugins/{plugin}/plugin.json").write_text(json.dumps({"name": plugin}))
    (ws / ".clarvis/plugins/quality/hooks").mkdir()
    (ws / ".clarvis/plugins/quality/hooks/hooks.json").write_text(json.dumps(_hooks(20)))
    (ws / ".clarvis/agents").mkdir()
    (ws / ".clarvis/settings.json").write_text(json.dumps({"enabledPlugins": ["quality"]}))
    (ws / "marketplace.json").write_text(json.dumps({"plugins": [{"name": "quality", "source": "./quality"}]}))


def _state(engine: WorkspaceEngine) -> dict[Path, list[tuple[str, str, object]]]:
    found = file_findings(engine, list(engine.files()))
    return {path: [(item.code, item.message, item.range) for item in items] for path, items in found.items()}


@pytest.mark.parametrize("seed", range(6))
def test_every_kind_of_edit_matches_a_full_recomputation(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    ws, home = tmp_path / "ws", tmp_path / "home"
    _layout(ws, home)
    config = ProjectConfig()
    buffers: dict[Path, str] = {}  # the editor's unsaved text, as the server keeps it
    engine = WorkspaceEngine(directory=ws, config=config, home=home, overlay=MappingProxyType(buffers))
    engine.cross_by_path()
    edits: list[tuple[Path, Callable[[], str]]] = [
        (ws / ".clarvis/settings.json", lambda: _settings(rng)),
        (home / ".clarvis/settings.json", lambda: json.dumps({"hooks": _hooks(rng.choice([0, 30, 64]))})),
        (ws / ".clarvis/plugins/quality/plugin.json", lambda: _plugin(rng, "quality")),
        (ws / ".clarvis/plugins/docs/plugin.json", lambda: _plugin(rng, "docs")),
        (ws / ".clarvis/plugins/quality/hooks/hooks.json", lambda: json.dumps(_hooks(rng.choice([0, 20, 50])))),
        (ws / "marketplace.json", lambda: json.dumps({"plugins": [{"name": rng.choice(["a", "b"]), "source": "./a"}]})),
        (ws / ".clarvis/agents/reviewer.md", lambda: rng.choice(["", "---\nname: reviewer\n---\nReviews.\n"])),
        (ws / ".clarvis/skills/notes/SKILL.md", lambda: SKILL.format(name=rng.choice(["notes", "review"]), extra="")),
    ]
    for step in range(30):
        path, make = rng.choice(edits)
        text = make()
        if rng.random() < 0.5:
            buffers[path] = text  # an unsaved buffer
        else:
            buffers.pop(path, None)
            if path.name.endswith(".md") and path.parent.name == "agents" and not text:
                path.unlink(missing_ok=True)  # the agent file deleted
            else:
                path.write_text(text)
        engine.update([path])
        fresh = WorkspaceEngine(directory=ws, config=config, home=home, overlay=dict(buffers))
        assert _state(engine) == _state(fresh), (seed, step, path.name)
