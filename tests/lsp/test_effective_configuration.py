"""The effective configuration in the editor: ``clarvis/effectiveConfiguration`` (the very object
``--effective --format json`` prints), ``clarvis/why``, the change notification, inlay hints, the trust-preview
code lens, the hook/server hover, and ``clarvis.trustWorkspace`` (which also hides the trust notices).

The workspace is ``tests/cli/effective_fixture`` copied per test; its personal home is the server's ``HOME``
(one copy per module, as the server is), read because this module's settings leave ``includeUser`` on.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, custom_request, diagnostics_for, open_document
from lsprotocol import types

FIXTURE = Path(__file__).resolve().parents[1] / "cli" / "effective_fixture"


@pytest.fixture(scope="module")
def module_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("effective-home") / "home"
    shutil.copytree(FIXTURE / "home", home)
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
    shutil.copytree(FIXTURE / "ws", ws)
    return ws


def cli_json(workspace: Path, home: Path, *args: str) -> dict[str, Any]:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "clarvis_lsp",
            "--effective",
            str(workspace),
            "--home",
            str(home),
            "--format",
            "json",
            *args,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def trust(client: ClarvisClient, trusted: bool) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"clarvis": {"trustWorkspace": trusted}})
    )


async def test_the_request_answers_what_effective_json_prints(
    client: ClarvisClient, workspace: Path, module_home: Path
) -> None:
    answer = await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()})
    printed = cli_json(workspace, module_home)
    assert answer["workspaces"] == printed["workspaces"]
    [model] = answer["workspaces"]
    assert model["trusted"] is False
    held = [hook for hook in model["hooks"] if hook["state"] == "held back until trust"]
    assert len(held) == 50 and held[0]["command"] == "./notify-team.sh"
    trusted = await custom_request(
        client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri(), "trusted": True}
    )
    assert trusted["workspaces"] == cli_json(workspace, module_home, "--trusted")["workspaces"]


async def test_why_walks_the_checklist_of_a_held_back_hook(client: ClarvisClient, workspace: Path) -> None:
    answer = await custom_request(client, "clarvis/why", {"name": "./notify-team.sh", "uri": workspace.as_uri()})
    [found] = answer["workspaces"]
    [hook] = found["answers"]
    assert hook["kind"] == "hook" and hook["state"] == "held back until trust"
    assert hook["failed"] == "workspace trusted"
    assert hook["place"]["path"] == str(workspace / ".clarvis/settings.json") and hook["place"]["line"] == 5


async def test_trusting_the_workspace_runs_its_hooks_and_hides_the_trust_notices(
    client: ClarvisClient, workspace: Path
) -> None:
    settings = workspace / ".clarvis/settings.json"
    open_document(client, settings)
    shown = await diagnostics_for(client, settings, lambda codes: "settings/requires-trust" in codes)
    assert "settings/requires-trust" in {str(item.code) for item in shown}
    await client.quiesce()
    seen = client.effective_configuration_changes
    trust(client, True)
    assert await client.wait_for(lambda: client.effective_configuration_changes > seen)
    answer = await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()})
    [model] = answer["workspaces"]
    assert model["trusted"] is True
    states = {hook["command"]: hook["state"] for hook in model["hooks"]}
    assert states["./notify-team.sh"] == "runs"
    search = {server["origin"]: server["state"] for server in model["mcpServers"] if server["name"] == "search"}
    assert search == {"personal": "replaced by the workspace's", "workspace": "active"}
    await client.quiesce()
    shown = await diagnostics_for(client, settings, lambda codes: "settings/requires-trust" not in codes)
    codes = {str(item.code) for item in shown}
    assert "settings/requires-trust" not in codes and "mcp/overrides-personal" in codes


async def test_inlay_hints_on_the_settings_and_a_skill(
    client: ClarvisClient, workspace: Path, module_home: Path
) -> None:
    everything = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10_000, character=0))

    async def labels(path: Path) -> list[tuple[int, str]]:
        open_document(client, path)
        hints = await client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), range=everything)
        )
        assert hints is not None
        return [(hint.position.line, str(hint.label)) for hint in hints]

    ws_hints = await labels(workspace / ".clarvis/settings.json")
    assert (4, "observer · cannot block") in ws_hints  # "event": "run_end"
    assert ("held back until trust") in {label for _line, label in ws_hints}
    assert (217, "held back until trust") in ws_hints  # the "ghost" entry of enabledPlugins
    assert any(label == "type: stdio" for _line, label in ws_hints)  # "tracker" leaves its transport out
    home_hints = await labels(module_home / ".clarvis/settings.json")
    assert (4, "control · can block and rewrite") in home_hints  # "event": "pre_tool_use"
    assert (9, "runs #1") in home_hints  # the end of the first hook object
    assert (260, "#1 of 2") in home_hints  # "lint"
    skill_hints = await labels(workspace / ".clarvis/skills/deploy/SKILL.md")
    assert skill_hints == [(1, "wins · 3 copies")]
    shadowed = await labels(workspace / ".agents/skills/deploy/SKILL.md")
    assert shadowed == [(1, "shadowed by .clarvis/skills/deploy/SKILL.md")]


async def test_the_trust_preview_lens_and_the_hover_on_a_server(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    open_document(client, settings)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=settings.as_uri()))
    )
    titles = [lens.command.title for lens in lenses or [] if lens.command is not None]
    assert any(
        title.startswith("Untrusted: approving this workspace would activate 50 workspace hooks, MCP server search")
        and "replace your MCP server search" in title
        for title in titles
    ), titles
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=settings.as_uri()),
            position=types.Position(line=206, character=6),  # "search" in mcpServers
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "held back until trust" in hover.contents.value
    assert "Once trusted, replaces the personal server" in hover.contents.value


async def test_an_unsaved_buffer_changes_the_model(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    edited = json.loads(settings.read_text(encoding="utf-8"))
    del edited["mcpServers"]["search"]
    edited["hooks"] = edited["hooks"][:3]
    open_document(client, settings, json.dumps(edited, indent=2) + "\n")
    answer = await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()})
    [model] = answer["workspaces"]
    workspace_servers = [server["name"] for server in model["mcpServers"] if server["origin"] == "workspace"]
    assert workspace_servers == ["tracker"]
    assert model["preview"]["activates"][0] == "3 workspace hooks"
    assert not any("search" in item for item in model["preview"]["replaces"])


async def test_toggling_trust_notifies_with_no_file_open(client: ClarvisClient, workspace: Path) -> None:
    """A view that shows the model (and nothing else open) learns that it changed when the setting does."""
    before = await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()})
    assert before["workspaces"][0]["trusted"] is False
    await client.quiesce()
    seen = client.effective_configuration_changes
    trust(client, True)
    assert await client.wait_for(lambda: client.effective_configuration_changes > seen)
    after = await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()})
    assert after["workspaces"][0]["trusted"] is True
