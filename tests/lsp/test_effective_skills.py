"""``clarvis/effectiveSkills``: the editor's view of which copy wins is ``--list``'s, through the protocol."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from lsp_support import ClarvisClient, custom_request, open_document, write_file
from lsprotocol import types


async def effective(client: ClarvisClient, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return await custom_request(client, "clarvis/effectiveSkills", params or {})


async def test_winner_and_shadowed_copies_in_precedence_order(client: ClarvisClient, workspace: Path) -> None:
    answer = await effective(client)
    [found] = answer["workspaces"]
    assert found["directory"] == str(workspace)
    assert [root["source"] for root in found["roots"]] == ["agents", "clarvis"]
    [review] = found["skills"]
    assert review["name"] == "review"
    assert review["winner"]["path"] == str(workspace / ".clarvis/skills/review/SKILL.md")
    assert review["winner"]["uri"] == (workspace / ".clarvis/skills/review/SKILL.md").as_uri()
    assert [copy["path"] for copy in review["shadowed"]] == [str(workspace / ".agents/skills/review/SKILL.md")]
    assert review["shadowed"][0]["scope"] == "workspace" and review["shadowed"][0]["rootIndex"] == 0


async def test_answer_is_what_list_prints(client: ClarvisClient, workspace: Path, home: Path) -> None:
    write_file(workspace, ".clarvis/skills/notes/SKILL.md", "---\nname: notes\ndescription: Notes.\n---\n")
    # A within-root duplicate, a name Clarvis rejects and a SKILL.md that cannot load: all shown, all marked.
    write_file(workspace, ".clarvis/skills/notes-copy/SKILL.md", "---\nname: notes\ndescription: Copy.\n---\n")
    write_file(workspace, ".clarvis/skills/my-notes/SKILL.md", "---\nname: my notes\ndescription: N.\n---\n")
    write_file(workspace, ".clarvis/skills/draft/SKILL.md", "---\nname: draft\n---\n")
    answer = await effective(client, {"uri": (workspace / ".clarvis/skills/notes/SKILL.md").as_uri()})
    listed = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--list", str(workspace), "--no-user", "--home", str(home)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = [line.split("\t") for line in listed.splitlines() if not line.startswith("#")]
    from_server: list[list[str]] = []
    for skill in answer["workspaces"][0]["skills"]:
        winner = skill["winner"]
        row = [skill["name"], winner["path"], f"{winner['scope']}/{winner['source']}"]
        from_server.append(row if skill["validName"] else [*row, "not loaded: invalid name"])
        from_server += [["  shadows", copy["path"], f"{copy['scope']}/{copy['source']}"] for copy in skill["shadowed"]]
        from_server += [
            ["  skipped", c["path"], f"{c['scope']}/{c['source']}", f"duplicate: {c['keptPath']} comes first"]
            for c in skill["skipped"]
        ]
    from_server += [
        ["(not loaded)", item["path"], f"{item['scope']}/{item['source']}", item["reason"]]
        for item in answer["workspaces"][0]["unloaded"]
    ]
    assert from_server == rows
    assert {"not loaded: invalid name", "(not loaded)", "  skipped"} <= {cell for row in rows for cell in row}


async def test_a_rename_in_a_buffer_tells_the_client_to_ask_again(client: ClarvisClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, winner)
    assert await client.wait_for(lambda: client.effective_skills_changes > 0)  # the first scan
    await client.settle()  # every notification the open brought has arrived
    seen = client.effective_skills_changes
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=winner.as_uri(), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text="---\nname: audit\ndescription: d\n---\n")
            ],
        )
    )
    assert await client.wait_for(lambda: client.effective_skills_changes > seen)
    names = {skill["name"]: skill for skill in (await effective(client))["workspaces"][0]["skills"]}
    assert set(names) == {"audit", "review"}
    assert names["review"]["shadowed"] == []  # the unsaved rename already counts
