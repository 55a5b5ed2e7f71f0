"""Workspace symbols from a skill root outside the workspace folder (a personal or team root), under both
capability sets: the symbols are found, and searching again scans nothing more. (Placing each symbol reads its
file, which gives the server an engine for that file's directory; workspace/symbol once searched every engine the
server held, so each later search started one first scan of all the roots per outside skill: 12 GB and minutes
at 10,000 skills.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, write_file
from lsprotocol import types

OUTSIDE_SKILLS = 12


@pytest.fixture(scope="module")
def team_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("team") / "skills"
    for index in range(OUTSIDE_SKILLS):
        name = f"team-{index:02d}"
        write_file(root, f"{name}/SKILL.md", f"---\nname: {name}\ndescription: Team skill {index}.\n---\n")
    return root


@pytest.fixture(scope="module")
def settings(team_root: Path) -> dict[str, object]:
    return {"includeUser": False, "roots": [f"{team_root}:user:team", ".clarvis/skills"]}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\n")
    return ws


def scans_begun(client: ClarvisClient) -> list[str]:
    titles: list[str] = []
    for token, reports in client.progress_reports.items():
        for report in reports:
            if str(token).startswith("clarvis-scan-") and isinstance(report, types.WorkDoneProgressBegin):
                titles.append(report.title)
    return titles


async def test_symbols_of_an_outside_root_are_found_without_rescanning(
    client: ClarvisClient, workspace: Path, team_root: Path
) -> None:
    for _ in range(3):
        found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="team"))
        assert found is not None
        assert sorted(item.name for item in found) == [f"team-{index:02d}" for index in range(OUTSIDE_SKILLS)]
        assert {item.location.uri for item in found if isinstance(item, types.SymbolInformation)} == {
            (team_root / f"team-{index:02d}/SKILL.md").as_uri() for index in range(OUTSIDE_SKILLS)
        }
    await client.quiesce()
    window = client.capabilities.window if client.capabilities else None
    if window is not None and window.work_done_progress:
        assert scans_begun(client) == [f"Discovering skills in {workspace.name}"]  # the workspace's scan, once
