"""A SKILL.md body's document links and ``skill/broken-link`` read the same links (the rule's CommonMark
extraction): what one skips (indented code, HTML blocks, comments, footnote definitions) the other skips, a
reference-style link is checked and linked where its definition is, and every local link is a document link when
its file exists and a broken-link finding when it does not (or lies outside the skill: then it is both, since the
file does open)."""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor import links
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.findings import check_text

# Each line that holds a link destination says what it is; a regex-per-line reading (the document links' own
# extraction before they used the rule's) links the first five, which are no links at all in CommonMark.
BODY = """---
name: review
description: Reviews changes.
---
Intro paragraph.

    [indented code](references/api.md)

<!-- [in a comment](references/api.md) -->

<div>
[in an HTML block](references/api.md)
</div>

[^1]: references/api.md

See [the guide][ref] and [a paren](references/a(1).md) and [placeholder]({baseDir}/references/api.md).
Also [missing](references/missing.md) and [outside](../other/SKILL.md), and [gone].

[ref]: guide.md
[gone]: references/gone.md
[unused]: references/unused.md
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def spans(text: str, ranges: list[tuple[int, int, int, int]]) -> list[str]:
    lines = LineIndex(text)
    found = []
    for start_line, start_col, end_line, end_col in ranges:
        start = lines.line_start(start_line) + start_col
        end = lines.line_start(end_line) + end_col
        found.append(text[start:end])
    return found


def test_document_links_and_broken_link_findings_partition_the_same_links(tmp_path: Path) -> None:
    skill = write(tmp_path / "ws/.clarvis/skills/review/SKILL.md", BODY)
    directory = skill.parent
    write(directory / "references/api.md", "# API\n")
    write(directory / "references/a(1).md", "# A\n")
    write(directory / "guide.md", "# Guide\n")
    write(tmp_path / "ws/.clarvis/skills/other/SKILL.md", "---\nname: other\ndescription: d\n---\n")
    (tmp_path / "home").mkdir()

    found = links.document_links(FileKind.SKILL, skill, BODY)
    linked = spans(
        BODY, [(x.range.start.line, x.range.start.character, x.range.end.line, x.range.end.character) for x in found]
    )
    assert linked == ["references/a(1).md", "{baseDir}/references/api.md", "../other/SKILL.md", "guide.md"]
    assert [link.target for link in found] == [
        directory / "references/a(1).md",
        directory / "references/api.md",
        tmp_path / "ws/.clarvis/skills/other/SKILL.md",
        directory / "guide.md",
    ]

    findings = [
        item
        for item in check_text(skill, BODY, home=tmp_path / "home", ceiling=tmp_path)
        if item.code == "skill/broken-link"
    ]
    broken = spans(
        BODY,
        [
            (item.range.start.line, item.range.start.character, item.range.end.line, item.range.end.character)
            for item in findings
        ],
    )
    assert sorted(broken) == ["../other/SKILL.md", "references/gone.md", "references/missing.md"]
    # Nothing in code, HTML, a comment or a footnote definition is either a link or a finding.
    hidden = {number for number, line in enumerate(BODY.splitlines()) if "(references/api.md)" in line}
    hidden.add(BODY.splitlines().index("[^1]: references/api.md"))
    assert len(hidden) == 4
    # A definition nothing references is no link either.
    hidden.add(BODY.splitlines().index("[unused]: references/unused.md"))
    assert not {link.range.start.line for link in found} & hidden
    assert not {item.range.start.line for item in findings} & hidden


def test_a_reference_style_link_is_linked_at_its_definition(tmp_path: Path) -> None:
    text = "---\nname: review\ndescription: d\n---\nRead [the guide][g] first.\n\n[g]: <docs/the guide.md>\n"
    skill = write(tmp_path / "review/SKILL.md", text)
    write(skill.parent / "docs/the guide.md", "# Guide\n")
    found = links.document_links(FileKind.SKILL, skill, text)
    assert [(link.range.start.line, link.target) for link in found] == [(6, skill.parent / "docs/the guide.md")]
    assert spans(text, [(6, found[0].range.start.character, 6, found[0].range.end.character)]) == ["docs/the guide.md"]
