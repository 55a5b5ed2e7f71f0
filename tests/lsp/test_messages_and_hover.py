"""What the server writes for people, through the protocol under both capability sets: the paths inside a
diagnostic's message read as ``--check`` prints them (relative to the workspace folder, ``~/`` under the home
directory), never absolute; and the hover on an ``enabledPlugins`` entry never says it is overridden by a plugin
that is not installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, diagnostics_for, open_document, write_file
from lsprotocol import types


@pytest.fixture(scope="module")
def module_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    write_file(home, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Personal copy ✓.\n---\n")
    return home


@pytest.fixture(scope="module")
def server_command(module_home: Path) -> list[str]:
    """The server with the module's home directory as its home (where the personal roots are)."""
    return ["env", f"HOME={module_home}", sys.executable, "-m", "clarvis_lsp"]


@pytest.fixture(scope="module")
def settings() -> dict[str, object]:
    return {"includeUser": True}


SETTINGS = '{"enabledPlugins": ["lint", "ghost"]}\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\n")
    write_file(ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared copy.\n---\n")
    write_file(ws, ".clarvis/plugins/lint/plugin.json", '{"name": "lint"}\n')
    write_file(ws, ".clarvis/settings.json", SETTINGS)
    return ws


async def test_paths_in_messages_are_relative_or_under_home(client: ClarvisClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, winner)
    [overrides] = await diagnostics_for(client, winner, until=lambda codes: codes == ["discovery/overrides"])
    assert overrides.code == "discovery/overrides"
    assert overrides.message == (
        'Overrides 2 lower-precedence copies of "review": '
        ".agents/skills/review/SKILL.md, ~/.agents/skills/review/SKILL.md."
    )
    assert str(workspace) not in overrides.message


async def test_a_shadowed_copy_names_the_winner_relative_to_the_workspace(
    client: ClarvisClient, workspace: Path
) -> None:
    loser = workspace / ".agents/skills/review/SKILL.md"
    open_document(client, loser)
    [shadowed] = await diagnostics_for(client, loser, until=lambda codes: codes == ["discovery/shadowed"])
    assert shadowed.message.startswith("Shadowed by .clarvis/skills/review/SKILL.md (")
    assert str(workspace) not in shadowed.message


async def test_an_uninstalled_plugin_overrides_nothing(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    for needle in ("lint", "ghost"):
        column = SETTINGS.index(needle) + 1
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(settings.as_uri()), types.Position(0, column))
        )
        assert hover is not None and isinstance(hover.contents, types.MarkupContent), hover
        text = hover.contents.value
        assert "Overridden by" not in text and "Overrides" not in text, text
        if needle == "lint":
            assert "**1 of 1**" in text
        else:
            assert "not installed" in text
