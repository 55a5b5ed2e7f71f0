"""Discovery's reading of a plainly simple frontmatter agrees with the full parse (issue: speed).

``simple_identity`` reads the name and description of a SKILL.md whose frontmatter is a list of one-line
``key: value`` pairs without composing the YAML, and answers None for anything else. Whenever it answers, the full
parse (``parse_skill``) must find a loadable skill with exactly that name and description. Hypothesis mixes lines
that are simple with lines that only look it (values that are booleans, numbers, comments, mapping values, quotes
with escapes, trailing spaces, other YAML line breaks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from clarvis_lsp.discovery.scan import malformed_reason
from clarvis_lsp.documents.skill import Yaml12Loader, _compose_simple, _simple_block, parse_skill, simple_identity

PATH = Path("/skills/example/SKILL.md")

KEYS = ("name", "description", "version", "license", "allowed-tools", "names", "Name", "true", "x_y", "model")
VALUES = (
    "pdf-tools",
    "Generated skill number 0; use it when asked.",
    "Extract text: then tables",  # a mapping value inside a plain scalar
    "Use it # not the description",  # a comment
    "C# and a:b and 50% of (this)",
    "ends with a colon:",
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
)


def _check(text: str) -> None:
    found = simple_identity(text)
    if found is None:
        return
    document = parse_skill(PATH, text)
    assert malformed_reason(document) is None, text
    assert (document.name, document.description) == found, text


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
    assert simple_identity("---\nname: a\ndescription: 'Quoted: with a colon'\n\nmodel:\n---\n") == (
        "a",
        "Quoted: with a colon",
    )


def test_what_needs_the_parse_is_left_to_it() -> None:
    for text in (
        "---\nname: a\ndescription: b\nname: c\n---\n",  # a duplicate key: the last one counts
        "---\nname: a\ndescription: >\n  folded\n---\n",  # a block scalar
        "---\nname: a # comment\ndescription: b\n---\n",
        "---\nname: a\ndescription: b\n",  # never closed
        "---\r\nname: a\r\ndescription: b\r\n---\r\n",
        "name: a\ndescription: b\n",  # no frontmatter
        "---\nname: 12\ndescription: b\n---\n",  # a number, not a string
        "---\nname: ''\ndescription: b\n---\n",
    ):
        assert simple_identity(text) is None, text


# --- the frontmatter of a plainly simple block composed without libyaml ------------------------------------------


def _tree(node: yaml.Node | None) -> object:
    """Everything of a node tree a reader can see: types, tags, values, styles and every mark's fields."""
    if node is None:
        return None

    def mark(at: Any) -> tuple[object, ...]:
        return (at.name, at.index, at.line, at.column, at.buffer, at.pointer)

    shape = (type(node).__name__, node.tag, mark(node.start_mark), mark(node.end_mark))
    if isinstance(node, yaml.ScalarNode):
        return (*shape, node.style, node.value)
    if isinstance(node, yaml.SequenceNode):
        return (*shape, node.flow_style, [_tree(item) for item in node.value])
    assert isinstance(node, yaml.MappingNode)
    return (*shape, node.flow_style, [(_tree(key), _tree(value)) for key, value in node.value])


def _compare_composed(block: str) -> bool:
    """Whether the block took the simple composer; if it did, its tree must be libyaml's, node for node."""
    if _simple_block().fullmatch(block) is None:
        return False
    assert _tree(_compose_simple(block)) == _tree(yaml.compose(block, Loader=Yaml12Loader)), block
    return True


@settings(max_examples=4000, deadline=None)
@given(st.lists(LINES, max_size=10))
def test_a_simple_block_composes_to_libyamls_tree(lines: list[str]) -> None:
    _compare_composed("".join(f"{line}\n" for line in lines))


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.builds(
            lambda key, value: f"{key}: {value}" if value else f"{key}:",
            st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,12}", fullmatch=True),
            st.one_of(
                st.text(st.characters(codec="utf-8"), max_size=12),
                st.lists(st.from_regex(r"[A-Za-z][A-Za-z0-9_./-]{0,6}", fullmatch=True), max_size=4).map(
                    lambda words: "[" + ", ".join(words) + "]"
                ),
                st.text(st.characters(codec="utf-8"), max_size=8).map(lambda text: f'"{text}"'),
                st.text(st.characters(codec="utf-8"), max_size=8).map(lambda text: f"'{text}'"),
            ),
        ),
        max_size=6,
    ),
    st.lists(st.integers(0, 2), min_size=7, max_size=7),
)
def test_any_text_the_simple_block_accepts_composes_alike(lines: list[str], blanks: list[int]) -> None:
    block = "".join("\n" * blank + f"{line}\n" for blank, line in zip(blanks, lines, strict=False))
    _compare_composed(block)


def test_the_simple_composer_takes_common_frontmatter() -> None:
    """It really answers for the frontmatter most skills have, and leaves the rest to libyaml."""
    assert _compare_composed(
        'name: pdf-tools\ndescription: Extract text; use it for PDFs.\nversion: "1.0.0"\n\nlicense: MIT\n'
        "allowed-tools: [Read, Grep]\nempty: []\nmodel:\ntrue: ~\nn: 0x1F\n"
    )
    assert _compare_composed("\n\n") and _compare_composed("")
    for block in ("k" * 1100 + ": v\n", "a: b # c\n", "a: |\n  x\n", "a:\r\n", "- a\n", "a: 'it''s'\n"):
        assert not _compare_composed(block), block
