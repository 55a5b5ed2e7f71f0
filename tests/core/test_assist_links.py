"""Document links in the core (``clarvis_lsp.editor.links``): which written paths become links, with which range,
and that a link is only made to a file that exists (or is open in the editor)."""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor import links
from clarvis_lsp.knowledge.files import FileKind

BODY = """---
name: review
description: "Links: [not](a.md) in the frontmatter"
---
See [the API](references/api.md#auth), ![logo](<assets/logo 1.png>) and [gone](missing.md).
[site](https://example.com) [top](#steps) `[code](references/api.md)` [abs](/etc/passwd) [ref]
```md
[fenced](references/api.md)
```
[ref]: references/api.md
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def linked(found: list[links.DocumentLink], text: str) -> list[tuple[str, str]]:
    lines = LineIndex(text)
    return [(text[lines.offset(link.range.start) : lines.offset(link.range.end)], link.target.name) for link in found]


def test_skill_body_links_to_existing_files_only(tmp_path: Path) -> None:
    skill = write(tmp_path / "review/SKILL.md", BODY)
    write(tmp_path / "review/references/api.md", "# API\n")
    write(tmp_path / "review/assets/logo 1.png", "png")
    write(tmp_path / "review/a.md", "frontmatter text is no link\n")
    found = links.document_links(FileKind.SKILL, skill, BODY)
    assert linked(found, BODY) == [
        ("references/api.md#auth", "api.md"),
        ("assets/logo 1.png", "logo 1.png"),
        ("references/api.md", "api.md"),
    ]
    assert found[0].target == tmp_path / "review/references/api.md"


def test_an_open_buffer_counts_as_an_existing_target(tmp_path: Path) -> None:
    skill = write(tmp_path / "review/SKILL.md", BODY)
    unsaved = tmp_path / "review/missing.md"
    found = links.document_links(FileKind.SKILL, skill, BODY, {unsaved: "# New\n"})
    assert [link.target for link in found] == [unsaved]


def test_plugin_hooks_path_and_hook_script_paths(tmp_path: Path) -> None:
    plugin = tmp_path / "plugins/p"
    text = '{"name": "p", "hooks": "hooks/extra.json",\n "mcpServers": {"db": {"command": "./bin/db"}}}\n'
    manifest = write(plugin / "plugin.json", text)
    write(plugin / "bin/db", "")
    hooks_text = (
        '{"hooks": [{"event": "pre_tool_use", "command": "bash ./scripts/check.sh --fast && scripts/none.sh"}]}'
    )
    extra = write(plugin / "hooks/extra.json", hooks_text)
    write(plugin / "scripts/check.sh", "#!/bin/sh\n")
    assert linked(links.document_links(FileKind.PLUGIN, manifest, text), text) == [("hooks/extra.json", "extra.json")]
    found = links.document_links(FileKind.HOOKS, extra, hooks_text)
    assert linked(found, hooks_text) == [("./scripts/check.sh", "check.sh")]
    assert found[0].target == plugin / "scripts/check.sh"  # a plugin's hook runs from the plugin directory


def test_settings_hooks_resolve_against_the_workspace(tmp_path: Path) -> None:
    text = '{"hooks": [{"event": "run_end", "command": "tools/notify.sh done"}], "model": "tools/notify.sh"}'
    settings = write(tmp_path / ".clarvis/settings.json", text)
    write(tmp_path / "tools/notify.sh", "")
    found = links.document_links(FileKind.SETTINGS, settings, text)
    assert [(link.target, link.range.start.character) for link in found] == [
        (tmp_path / "tools/notify.sh", text.index("tools/notify.sh"))
    ]
    assert links.document_links(FileKind.SETTINGS, settings, '{"hooks": [{"event": ') == []
