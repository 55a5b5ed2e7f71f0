"""A plainly simple SKILL.md frontmatter's name and description, read without composing its YAML.

Discovery needs a skill's name and description for every SKILL.md of every root; an editor's first scan of
thousands of skills then opens a few of them. ``simple_identity_at`` reads the two values (and where the name is
written) from a frontmatter whose every line is plainly simple, exactly as ``parse_skill`` would give them; any
other frontmatter takes the full parse. A differential property test (tests/core/test_simple_identity.py)
compares the two.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from clarvis_lsp.documents.skill import CLOSING_FENCE, FENCE

# What a YAML scalar may not hold as it is, as the complement of a character class: control characters, a line
# break for any YAML version (U+0085, U+2028, U+2029), a byte-order mark, a surrogate, a non-character, anything
# outside the Basic Multilingual Plane. Negated, the class compiles in a millisecond; spelled out, in eight.
_NOT_TEXT = "\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff\U00010000-\U0010ffff"
# Letters a plain scalar may start with and still be a string: ASCII, and the Latin, Greek, Cyrillic, CJK, kana
# and Hangul blocks (no YAML indicator, space or line break among them, and no resolver reads them as anything else).
_LETTERS = "A-Za-z\u00c0-\u024f\u0370-\u1fff\u3040-\u9fff\uac00-\ud7a3"
# A plain scalar that starts with a letter, digit or one of ``_.(/$~`` (never an indicator), with no ``: `` or
# `` #`` inside (a mapping value, a comment) and no ``:`` or space at its end. Written as runs of ordinary
# characters between single colons and spaces, each checked for what follows it: a run is one repeat of a class,
# which the regular expression engine reads in C; a look-ahead at every character made the quick look cost as
# much as reading the file. Colons and spaces are outside the run's class, so each text matches in one way only
# and a failing line is not retried in many.
_PLAIN_RUN = "[^ :" + _NOT_TEXT + "]*"
_PLAIN = "[" + _LETTERS + "0-9_.(/$~]" + _PLAIN_RUN + "(?:(?::(?! )| (?!#))" + _PLAIN_RUN + ")*(?<![ :])"
_DOUBLE_QUOTED = '"[^"\\\\' + _NOT_TEXT + ']*"'  # without a backslash (no escapes) or a double quote inside
_SINGLE_QUOTED = "'[^'" + _NOT_TEXT + "]*'"  # without a single quote inside (none doubled)
_FLOW_WORDS = r"\[(?:[A-Za-z][A-Za-z0-9_./-]*(?:, [A-Za-z][A-Za-z0-9_./-]*)*)?\]"  # a flow list of plain words
_SIMPLE_VALUE = f"{_PLAIN}|{_DOUBLE_QUOTED}|{_SINGLE_QUOTED}|{_FLOW_WORDS}"


@functools.cache
def _simple_block() -> re.Pattern[str]:
    """A plainly simple frontmatter block (compiled on first use): each line ``key: value``, or empty, or a ``key:``
    followed by lines ``  key: value`` indented by two spaces (a one-level mapping, as ``metadata:`` usually
    is). A key is at most 128 characters: libyaml refuses a key longer than 1,024, and no real key comes near
    either."""
    key = "[A-Za-z][A-Za-z0-9_-]{0,127}"
    line = rf"{key}:(?: (?:{_SIMPLE_VALUE}))?\n"
    nested = rf"{key}:\n(?:  {line})+"
    block_scalar = rf"{key}: [>|]-?\n(?:  {_BLOCK_LINE}\n)+"
    return re.compile(rf"(?:{nested}|{block_scalar}|{line}|\n)*")


# A line of a block scalar (``>-``, ``>``, ``|-``, ``|``) that reads as it is: indented by exactly the two spaces of
# the first line (no more-indented line, which folding keeps apart), no trailing space, nothing a scalar may not hold.
_BLOCK_LINE = "[^ " + _NOT_TEXT + "](?:[^" + _NOT_TEXT + "]*[^ " + _NOT_TEXT + "])?"
_SIMPLE_KEYS = ("name", "description")
_BLOCK_FIELD = {key: re.compile(rf"^{key}: ([>|]-?)\n((?:  [^\n]*\n)+)", re.MULTILINE) for key in _SIMPLE_KEYS}


def _only_key_line(text: str, key: str, block_break: int, block_end: int) -> tuple[int, str] | None:
    """Where the one top-level line of ``key`` starts in a plainly simple block, and what follows its ``key: ``
    (empty for ``key:`` alone); None when there is no such line or more than one (even ``name:`` alone is a
    duplicate). The block is ``text`` after the line break at ``block_break``, up to the one at ``block_end``.

    Found by searching for the line break before ``key:``: in a block that ``_simple_block`` matched, a line that
    starts with it is that key's own line (nested and block-scalar lines are indented), and ``key:`` is followed
    by a space or the line's end. Several times faster than a multi-line regular expression tried at every
    character of the block."""
    marker = "\n" + key + ":"
    found = text.find(marker, block_break, block_end)
    if found == -1 or text.find(marker, found + 1, block_end) != -1:
        return None
    start = found + 1
    line_end = text.find("\n", start)
    return start, text[start + len(key) + len(": ") : line_end]


_NOT_A_STRING = frozenset({"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"})
_PLAIN_STRING = re.compile(f"[{_LETTERS}]")
_BLOCK_INDICATORS = frozenset({">-", ">", "|-", "|"})

SIMPLE_IDENTITY = True  # Kept: −12 % CPU of discovery (the server's first scan) at 20,000 realistic skills
"""Discovery reads a plainly simple frontmatter's name and description without composing it (a differential test
compares this with the full parse). A ``--check`` parses every file it checks anyway, so it buys the check under
5 %: it is kept for discovery alone (benchmarks/HISTORY.md, "Fast paths: what each buys")."""


NamePlace = tuple[int, int, int]
"""Where a skill's ``name`` value is written, as its line and its first and past-the-end columns (code points): the
``value_range`` of the parse's ``name`` entry, kept as three small integers (a language server holds one a skill)."""


class SimpleIdentity(NamedTuple):
    """What ``simple_identity_at`` reads: the name and description, and where the name is written (None for a
    block scalar, whose range the parse gives)."""

    name: str
    description: str
    name_at: NamePlace | None


def simple_identity(text: str) -> tuple[str, str] | None:
    """The name and description of a SKILL.md whose frontmatter is plainly simple (``simple_identity_at``)."""
    found = simple_identity_at(text)
    return None if found is None else (found.name, found.description)


def simple_identity_at(text: str) -> SimpleIdentity | None:
    """The name and description of a SKILL.md whose frontmatter is plainly simple, exactly as ``parse_skill``
    would give them for a loadable skill, and where the name is written (what a shadowed copy's finding points
    at, with no parse); None for anything else, which the caller parses.

    Plainly simple: ``\n`` line breaks, and every frontmatter line a ``key: value`` with a one-line plain,
    quoted (without escapes) or flow-list value, or empty; ``name`` and ``description`` once each, each a
    non-empty string. Such a block is a valid YAML mapping whatever its other values are, so discovery needs no
    parse for it: the skill's document is parsed when something asks for it (``UnparsedSkill``), which in an
    editor's first scan is a few files of thousands. Anything unusual (comments, block scalars, indentation,
    escapes, a value that resolves to a boolean or null) takes the full parse.
    """
    if not SIMPLE_IDENTITY or "\r" in text or "\x85" in text:
        return None
    first_end = text.find("\n")
    if first_end == -1 or not FENCE.match(text[:first_end]):
        return None
    closing = CLOSING_FENCE.search(text, first_end)
    if closing is None:
        return None
    block = text[first_end + 1 : closing.start() + 1]
    if not _simple_block().fullmatch(block):
        return None
    found: list[str] = []
    name_at: NamePlace | None = None
    for key in _SIMPLE_KEYS:
        line = _only_key_line(text, key, first_end, closing.start())
        if line is None:
            return None
        start, raw = line
        if not raw:
            return None
        if key == "name" and raw not in _BLOCK_INDICATORS:  # on the fence's next line or below, after ``name: ``
            column = len("name: ")
            name_at = (1 + text.count("\n", first_end + 1, start), column, column + len(raw))
        if raw in _BLOCK_INDICATORS:
            scalar = _BLOCK_FIELD[key].search(block)
            if scalar is None:
                return None
            lines = [line[2:] for line in scalar.group(2).split("\n")[:-1]]
            value = (" " if raw[0] == ">" else "\n").join(lines) + ("" if raw.endswith("-") else "\n")
        elif raw[:1] in ("'", '"'):
            value = raw[1:-1]
        elif _PLAIN_STRING.match(raw) and raw not in _NOT_A_STRING:
            value = raw
        else:
            return None  # a plain scalar that may resolve to a number: the resolver decides
        if not value.strip():
            return None
        found.append(value)
    return SimpleIdentity(found[0], found[1], name_at)
