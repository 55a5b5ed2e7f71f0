"""The skills of a plugin, one answer everywhere: completion and hover on a ``plugin.json``'s ``bootstrapSkill``,
``clarvis/effectiveConfiguration`` (what each plugin contributes) and ``clarvis/effectiveSkills`` (the skills of
a plugin Clarvis does not load) read an unsaved SKILL.md buffer as discovery does, and once the buffer is saved
``clarvis-lsp --effective`` and ``--list`` print the very same answer.

The editor's buffers are the only difference between the two doors: the server must not answer with the disk
while the command line, after the save, answers with what the user typed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_support import ClarvisClient, custom_request, diagnostics_for, open_document, write_file
from lsprotocol import types

PLUGIN = ".clarvis/plugins/kit"
RENAMED = "---\nname: lint-strict\ndescription: Lints strictly.\n---\n"


def cli(workspace: Path, home: Path, *args: str) -> str:
    command = [sys.executable, "-m", "clarvis_lsp", *args, str(workspace), "--home", str(home), "--no-user"]
    return subprocess.run(command, capture_output=True, text=True, check=True, cwd=workspace).stdout


def kit_entry(model: dict[str, Any]) -> dict[str, Any]:
    [workspace] = model["workspaces"]
    entry: dict[str, Any] = next(plugin for plugin in workspace["plugins"] if plugin["name"] == "kit")
    return entry


async def bootstrap_candidates(client: ClarvisClient, manifest: Path) -> list[str]:
    text = '{"name": "kit", "bootstrapSkill": ""}'
    open_document(client, manifest, text)
    answer = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=manifest.as_uri()),
            position=types.Position(line=0, character=text.rindex('"')),  # ASCII: one unit per character
        )
    )
    items = answer.items if isinstance(answer, types.CompletionList) else answer or []
    return [item.label for item in items]


async def bootstrap_hover(client: ClarvisClient, manifest: Path, name: str) -> str:
    text = json.dumps({"name": "kit", "bootstrapSkill": name})
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=manifest.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=manifest.as_uri()),
            position=types.Position(line=0, character=text.index(name) + 1),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value


async def test_a_plugin_not_enabled_answers_with_its_unsaved_skill_everywhere(
    client: ClarvisClient, workspace: Path, home: Path
) -> None:
    """Installed, not enabled: discovery never scans its skills, so every view scans them alone, buffers first.
    ``format-old`` declares ``fmt`` again and is skipped as a duplicate, as discovery would."""
    manifest = write_file(workspace, f"{PLUGIN}/plugin.json", '{"name": "kit"}\n')
    write_file(workspace, f"{PLUGIN}/skills/format/SKILL.md", "---\nname: fmt\ndescription: Formats.\n---\n")
    write_file(workspace, f"{PLUGIN}/skills/format-old/SKILL.md", "---\nname: fmt\ndescription: Old copy.\n---\n")
    lint = write_file(workspace, f"{PLUGIN}/skills/lint/SKILL.md", "---\nname: lint-check\ndescription: Lints.\n---\n")
    open_document(client, lint, RENAMED)  # renamed, not saved

    assert await bootstrap_candidates(client, manifest) == ["fmt", "lint-strict"]
    assert "Bootstrap skill `lint-strict`** — [" in await bootstrap_hover(client, manifest, "lint-strict")
    served = kit_entry(await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()}))
    assert served["contributes"]["skills"] == ["fmt", "lint-strict"]

    lint.write_text(RENAMED, encoding="utf-8")  # the save
    printed = kit_entry(json.loads(cli(workspace, home, "--effective", "--format", "json")))
    assert printed == served


async def test_a_plugin_not_loaded_lists_a_new_unsaved_skill(
    client: ClarvisClient, workspace: Path, home: Path
) -> None:
    """Enabled, but its plugin.json names it otherwise, so Clarvis does not load it: ``clarvis/effectiveSkills``
    lists its skills as not loaded, a SKILL.md that exists only in an editor buffer among them."""
    write_file(workspace, ".clarvis/settings.json", '{"enabledPlugins": ["kit"]}\n')
    write_file(workspace, f"{PLUGIN}/plugin.json", '{"name": "toolkit"}\n')
    write_file(workspace, f"{PLUGIN}/skills/format/SKILL.md", "---\nname: fmt\ndescription: Formats.\n---\n")
    (workspace / PLUGIN / "skills" / "lint").mkdir()
    new = workspace / PLUGIN / "skills" / "lint" / "SKILL.md"
    open_document(client, new, RENAMED)  # a new file, never saved

    answer = await custom_request(client, "clarvis/effectiveSkills", {})
    [found] = answer["workspaces"]
    served = [item["path"] for item in found["unloaded"] if item["source"] == "plugin:kit"]
    assert served == [str(workspace / PLUGIN / "skills/format/SKILL.md"), str(new)]
    model = await custom_request(client, "clarvis/effectiveConfiguration", {"uri": workspace.as_uri()})
    assert kit_entry(model)["contributes"]["skills"] == ["fmt", "lint-strict"]

    new.write_text(RENAMED, encoding="utf-8")  # the save
    listed = [line.split("\t") for line in cli(workspace, home, "--list").splitlines()]
    printed = [str(workspace / fields[1]) for fields in listed if fields[0] == "(not loaded)"]
    assert printed == served


@pytest.mark.parametrize("enabled", [False, True])
async def test_a_bootstrap_skill_renamed_in_an_unsaved_buffer_is_known_to_the_plugin_json(
    client: ClarvisClient, workspace: Path, enabled: bool
) -> None:
    """``plugin/unknown-bootstrap-skill`` reads the plugin's skills as every other view does, buffers first, and
    the open ``plugin.json`` is checked again when one of its plugin's skills changes: renaming the skill to the
    name ``bootstrapSkill`` gives makes the finding go, before anything is saved, and renaming it again brings it
    back. Enabled, the plugin's skills are discovery's; not enabled, they are scanned for the rule alone."""
    if enabled:
        write_file(workspace, ".clarvis/settings.json", '{"enabledPlugins": ["kit"]}\n')
    manifest = write_file(workspace, f"{PLUGIN}/plugin.json", '{"name": "kit", "bootstrapSkill": "lint-strict"}\n')
    lint = write_file(workspace, f"{PLUGIN}/skills/lint/SKILL.md", "---\nname: lint-check\ndescription: Lints.\n---\n")
    open_document(client, manifest)
    shown = await diagnostics_for(client, manifest, lambda codes: "plugin/unknown-bootstrap-skill" in codes)
    assert "plugin/unknown-bootstrap-skill" in {str(item.code) for item in shown}

    open_document(client, lint, RENAMED)  # renamed to lint-strict, not saved
    await client.quiesce()
    shown = await diagnostics_for(client, manifest, lambda codes: "plugin/unknown-bootstrap-skill" not in codes)
    assert "plugin/unknown-bootstrap-skill" not in {str(item.code) for item in shown}

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=lint.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=RENAMED.replace("strict", "lax"))],
        )
    )
    await client.quiesce()
    shown = await diagnostics_for(client, manifest, lambda codes: "plugin/unknown-bootstrap-skill" in codes)
    assert "plugin/unknown-bootstrap-skill" in {str(item.code) for item in shown}
