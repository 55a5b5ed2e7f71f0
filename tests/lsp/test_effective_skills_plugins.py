"""``clarvis/effectiveSkills`` for a plugin Clarvis does not load (its plugin.json names it otherwise than its
directory): its skills are listed as not loaded, with why, never as winners."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsp_support import ClarvisClient, custom_request, write_file


async def effective(client: ClarvisClient) -> dict[str, Any]:
    return await custom_request(client, "clarvis/effectiveSkills", {})


async def test_skills_of_a_misnamed_plugin_are_not_loaded(client: ClarvisClient, workspace: Path) -> None:
    write_file(workspace, ".clarvis/settings.json", '{"enabledPlugins": ["kit"]}\n')
    write_file(workspace, ".clarvis/plugins/kit/plugin.json", '{"name": "toolkit"}\n')
    skill = write_file(workspace, ".clarvis/plugins/kit/skills/fmt/SKILL.md", "---\nname: fmt\ndescription: d\n---\n")
    answer = await effective(client)
    [found] = answer["workspaces"]
    assert "fmt" not in [item["name"] for item in found["skills"]]
    assert [root["source"] for root in found["roots"]] == ["agents", "clarvis"]
    assert found["unloaded"] == [
        {
            "path": str(skill),
            "uri": skill.as_uri(),
            "scope": "workspace",
            "source": "plugin:kit",
            "reason": 'not loaded: plugin.json names the plugin "toolkit", not "kit" (its directory), so Clarvis '
            "does not load it",
        }
    ]
