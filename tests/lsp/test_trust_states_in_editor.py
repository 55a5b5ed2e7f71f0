"""One trust state for every view in the editor (SPEC §2.1), on the workspace of ``trust_tree``: the Effective
skills view, ``clarvis/effectiveConfiguration`` (skills, rejected fields, capability executables), the shadowing
diagnostics and the override lens, untrusted (the default) and with ``clarvis.trustWorkspace``.

The personal home is the server's ``HOME`` (one per module, as the server is), read because this module's settings
leave ``includeUser`` on."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, custom_request, diagnostics_for, open_document
from lsprotocol import types
from trust_tree import alpha_skill, beta_skill, build_home, build_workspace


@pytest.fixture(scope="module")
def module_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("trust-home") / "home"
    build_home(home)
    return home


@pytest.fixture(scope="module")
def server_command(module_home: Path) -> list[str]:
    return ["env", f"HOME={module_home}", sys.executable, "-m", "clarvis_lsp"]


@pytest.fixture(scope="module")
def settings() -> dict[str, object]:
    return {}  # includeUser on: the personal configuration is half of the story


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    build_workspace(ws)
    return ws


async def trust(client: ClarvisClient, trusted: bool) -> None:
    await client.quiesce()
    seen = client.effective_configuration_changes
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"clarvis": {"trustWorkspace": trusted}})
    )
    assert await client.wait_for(lambda: client.effective_configuration_changes > seen)


async def skills_view(client: ClarvisClient) -> dict[str, Any]:
    answer = await custom_request(client, "clarvis/effectiveSkills", {})
    [found] = answer["workspaces"]
    view: dict[str, Any] = found
    return view


async def model(client: ClarvisClient, workspace: Path) -> dict[str, Any]:
    answer = await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()})
    [found] = answer["workspaces"]
    effective: dict[str, Any] = found
    return effective


def winners(view: dict[str, Any]) -> dict[str, str]:
    return {skill["name"]: skill["winner"]["path"] for skill in view["skills"]}


async def test_the_skills_view_and_the_model_answer_from_one_state(
    client: ClarvisClient, workspace: Path, module_home: Path
) -> None:
    view = await skills_view(client)
    assert winners(view) == {"common": str(alpha_skill(module_home))}
    held = "held back: only the workspace settings enable this plugin, until /workspace-trust"
    assert [(item["path"], item["reason"]) for item in view["unloaded"]] == [(str(beta_skill(workspace)), held)]
    states = {skill["place"]["path"]: skill["state"] for skill in (await model(client, workspace))["skills"]}
    assert states == {str(alpha_skill(module_home)): "active", str(beta_skill(workspace)): "held back until trust"}

    await trust(client, True)
    view = await skills_view(client)
    assert winners(view) == {"common": str(beta_skill(workspace))} and view["unloaded"] == []
    states = {skill["place"]["path"]: skill["state"] for skill in (await model(client, workspace))["skills"]}
    assert states == {str(beta_skill(workspace)): "active"}


async def test_the_shadowing_diagnostic_and_lens_follow_trust(
    client: ClarvisClient, workspace: Path, module_home: Path
) -> None:
    """The workspace enables beta then alpha: trusted, alpha's copy shadows beta's; untrusted, beta is held back,
    so its copy is neither shadowed nor shadowing."""
    settings = workspace / ".clarvis/settings.json"
    settings.write_text(json.dumps({"enabledPlugins": ["beta", "alpha"]}) + "\n", encoding="utf-8")
    skill = beta_skill(workspace)
    open_document(client, skill)

    async def lens_titles() -> list[str]:
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=skill.as_uri()))
        )
        return [lens.command.title for lens in lenses or [] if lens.command is not None]

    shown = await diagnostics_for(client, skill, lambda codes: True)
    assert not [item for item in shown if str(item.code).startswith("discovery/")]
    assert await lens_titles() == []

    await trust(client, True)
    shown = await diagnostics_for(client, skill, lambda codes: "discovery/shadowed" in codes)
    [shadowed] = [item for item in shown if item.code == "discovery/shadowed"]
    assert shadowed.related_information is not None
    assert shadowed.related_information[0].location.uri == alpha_skill(module_home).as_uri()
    assert await lens_titles() == ["shadowed by ~/.clarvis/plugins/alpha/skills/common/SKILL.md"]


@pytest.mark.parametrize("trusted", [False, True])
async def test_rejected_fields_and_executables_in_both_states(
    client: ClarvisClient, workspace: Path, trusted: bool
) -> None:
    if trusted:
        await trust(client, True)
    found = await model(client, workspace)
    assert found["trusted"] is trusted
    assert "providers" not in [item["name"] for item in found["settings"]]
    assert [item["name"] for item in found["rejected"]] == ["providers"]
    states = {(item["plugin"], item["capability"]): item["state"] for item in found["capabilityExecutables"]}
    serving = "beta" if trusted else "alpha"
    assert states[(serving, "memory")] == "active"
    assert [key for key, state in states.items() if state == "active"] == [(serving, "memory")]
