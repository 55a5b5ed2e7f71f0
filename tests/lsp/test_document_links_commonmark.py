"""Document links and ``skill/broken-link`` agree through the protocol, under both capability sets: a link in an
HTML comment or an indented code block is neither a document link nor a finding, a reference-style link is linked
at its definition, and a missing target is a finding and no link."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, diagnostics_for, open_document, write_file
from lsprotocol import types

SKILL = """---
name: review
description: Reviews.
---
Intro.

    [in indented code](guide.md) and [here](gone.md)

<!-- [in a comment](guide.md) and [here](gone.md) -->

Read [the guide][guide] and [the notes](notes(v2).md), not [this](missing.md).

[guide]: guide.md
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", SKILL)
    write_file(ws, ".clarvis/skills/review/guide.md", "# Guide\n")
    write_file(ws, ".clarvis/skills/review/notes(v2).md", "# Notes\n")
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


async def test_links_and_broken_link_findings_read_the_same_links(client: ClarvisClient, workspace: Path) -> None:
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, skill)
    answer = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=skill.as_uri()))
    )
    lines = SKILL.splitlines()
    linked = [(link.range.start.line, link.target) for link in answer or []]
    directory = skill.parent
    assert linked == [
        (
            lines.index("Read [the guide][guide] and [the notes](notes(v2).md), not [this](missing.md)."),
            (directory / "notes(v2).md").as_uri(),
        ),
        (lines.index("[guide]: guide.md"), (directory / "guide.md").as_uri()),
    ]
    found = await diagnostics_for(client, skill, until=lambda codes: "skill/broken-link" in codes)
    broken = [item for item in found if item.code == "skill/broken-link"]
    assert len(broken) == 1 and "missing.md" in broken[0].message  # not the links in code or in the comment
