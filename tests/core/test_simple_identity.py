"""Discovery's reading of a plainly simple frontmatter agrees with the full parse (issue: speed).

``simple_identity`` reads the name and description of a SKILL.md whose frontmatter is a list of one-line
``key: value`` pairs without composing the YAML, and answers None for anything else. Whenever it answers, the full
parse (``parse_skill``) must find a loadable skill with exactly that name and description. Hypothesis mixes lines
that are simple with lines that only look it (values that are booleans, numbers, comments, mapping values, quotes
with escapes, trailing spaces, other YAML line breaks).
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from clarvis_lsp.discovery.scan import malformed_reason
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.documents.skill_identity import simple_identity, simple_identity_at
from clarvis_lsp.findings import Range

PATH = Path("/skills/example/SKILL.md")

KEYS = ("name", "description", "version", "license", "allowed-tools", "names", "Name", "true", "x_y", "model")
VALUES = (
    "pdf-tools",
    "Generated skill number 0; use it when asked.",
    "Extract text: then tables",  # a mapping value inside a plain scalar
    "Use it # not the description",  # a comment
    "C# and a:b and 50% of (this)",
    "ends with a colon:",
    "ratio 1:2 and a::b and x:y:z",  # colons followed by no space, one after another
    "two  spaces  and a# and #start",  # spaces in a row, a hash after no space
    "a :b",
    "trailing space ",
    "true",
    "False",
    "null",
    "~",
    "1.0",
    "0x1F",
    ".inf",
    "...",
    "-1",
    "- item",
    "? key",
    "'single quoted'",
    "'it''s doubled'",
    '"double quoted"',
    '"with \\n escape"',
    '"unterminated',
    "''",
    '"  "',
    "[Read, Grep]",
    "[Read, Bash(git:*)]",
    "[]",
    "{a: b}",
    "&anchor value",
    "*alias",
    "!tag value",
    "|",
    ">",
    "@reserved",
    "`reserved`",
    "%directive",
    "café — naïve",
    "Über die Straße",
    "中文 技能",
    "Файлов текст",
    "설정 guide",
    "×multiplied",
    "line\u2028separator",
    "next\x85line",
    "bom\ufeffinside",
    "emoji \U0001f600",
    "tab\there",
    "nbsp\u00a0",
    "",
)
SEPARATORS = (": ", ":", " : ", ":  ", ":\t")
LINES = st.one_of(
    st.builds(
        lambda key, separator, value: f"{key}{separator}{value}",
        st.sampled_from(KEYS),
        st.sampled_from(SEPARATORS),
        st.sampled_from(VALUES),
    ),
    st.sampled_from(("", "# a comment", "  indented: value", "- item", "...", "---x", "name: a\r")),
    # A one-level nested mapping (``metadata:``) and lines that only look like one of its entries.
    st.sampled_from(("metadata:", "name:", "description:", '  version: "1.0"', "  author: example-org")),
    st.sampled_from(("  name: inner", "   three: spaces", "  - item", "  flag: true", "\tversion: 1", "  x:")),
    # Block scalars (``description: >-`` and its kin) and the lines that continue them, or only look like it.
    st.sampled_from(("description: >-", "name: >", "description: |", "name: |-", "x: >+", "description: >2")),
    st.sampled_from(("  folded words", "  true", "  # not a comment", "  trailing ", "    deeper", "  tab\there")),
)


def _check(text: str) -> None:
    found = simple_identity_at(text)
    assert simple_identity(text) == (None if found is None else found[:2])
    if found is None:
        return
    document = parse_skill(PATH, text)
    assert malformed_reason(document) is None, text
    assert (document.name, document.description) == (found.name, found.description), text
    entry = document.entry("name")
    assert entry is not None
    if found.name_at is None:  # only a block scalar's range is left to the parse
        assert re.search(r"^name: [>|]", text, re.MULTILINE), text
    else:
        line, start, end = found.name_at
        assert entry.value_range == Range.of(line, start, line, end), text


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(LINES, max_size=8),
    st.sampled_from(("---\n", "--- \n", "---\r\n")),
    st.sampled_from(("---\n", "---", "--- \nBody\n")),
)
def test_a_simple_reading_is_what_the_parse_finds(lines: list[str], opening: str, closing: str) -> None:
    _check(opening + "".join(f"{line}\n" for line in lines) + closing + "# Body\n")


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(VALUES), st.sampled_from(VALUES), st.lists(LINES, max_size=4))
def test_a_name_and_description_of_every_kind(name: str, description: str, others: list[str]) -> None:
    lines = [f"name: {name}", *others, f"description: {description}"]
    _check("---\n" + "".join(f"{line}\n" for line in lines) + "---\nBody\n")


def test_common_frontmatter_is_read_without_a_parse() -> None:
    """The reading really answers for the frontmatter most skills have (else the tests above prove nothing)."""
    common = (
        "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files; use it for PDFs.\n"
        'version: "1.0.0"\nlicense: MIT\nallowed-tools: [Read, Grep]\n---\n# PDF tools\n'
    )
    assert simple_identity(common) == ("pdf-tools", "Extract text and tables from PDF files; use it for PDFs.")
    assert simple_identity_at(common) == (
        "pdf-tools",
        "Extract text and tables from PDF files; use it for PDFs.",
        (1, 6, 15),
    )
    assert simple_identity_at("---\ndescription: b\nname: 'quoted'\n---\n") == ("quoted", "b", (2, 6, 14))
    assert simple_identity("---\nname: a\ndescription: 'Quoted: with a colon'\n\nmodel:\n---\n") == (
        "a",
        "Quoted: with a colon",
    )
    with_metadata = '---\nname: a\ndescription: b\nmetadata:\n  version: "0.7.0"\n  author: example-org\n---\n'
    assert simple_identity(with_metadata) == ("a", "b")
    folded = "---\nname: a\ndescription: >-\n  Folded over\n  two lines.\nlicense: MIT\n---\n"
    assert simple_identity(folded) == ("a", "Folded over two lines.")


def test_what_needs_the_parse_is_left_to_it() -> None:
    for text in (
        "---\nname: a\ndescription: b\nname: c\n---\n",  # a duplicate key: the last one counts
        "---\nname: a\ndescription: >+\n  kept\n\n---\n",  # a block scalar that keeps its final line breaks
        "---\nname: a\ndescription: >\n  folded\n    more indented\n---\n",  # a line folding keeps apart
        "---\nname: a # comment\ndescription: b\n---\n",
        "---\nname: a\ndescription: b\n",  # never closed
        "---\r\nname: a\r\ndescription: b\r\n---\r\n",
        "name: a\ndescription: b\n",  # no frontmatter
        "---\nname: 12\ndescription: b\n---\n",  # a number, not a string
        "---\nname: ''\ndescription: b\n---\n",
        "---\nname: a\ndescription: b\nname:\n---\n",  # a later empty name is a duplicate that wins (null)
        "---\nname: a\ndescription: b\n  more: c\n---\n",  # an indented line under a key with a value
        "---\nname:\n  first: a\ndescription: b\n---\n",  # a name that is a mapping
    ):
        assert simple_identity(text) is None, text
