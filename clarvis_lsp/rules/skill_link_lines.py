"""Which lines of a SKILL.md body's region are code, continue a paragraph or start a list item: the line reading
half of the fast link scan (``skill_link_scan``), which asks it whether a line indented four spaces may be an
indented code block that hides a link. Each answer is CommonMark's as markdown-it reads it, or a conservative
"maybe" that sends the body to the block parse; ``tests/cli/test_links.py`` holds both readings to agreement.
"""

from __future__ import annotations

import re

_HTML_START = re.compile(r"<[A-Za-z!/?]")
# A line indented as code (four spaces or a tab before its text), at the start or after a line break: two
# patterns, because one that starts with `(?:\A|\n)` is tried at every offset while `\n…` is searched for fast.
# Its text is anything but a space, a tab or a line break (a no-break space or a form feed is text to CommonMark).
_CODE_INDENT_AT_START = re.compile(r"(?: {4}| {0,3}\t)[ \t]*[^ \t\r\n]")
_CODE_INDENT_AFTER_BREAK = re.compile(r"\n(?: {4}| {0,3}\t)[ \t]*[^ \t\r\n]")


def _has_code_indent(region: str) -> bool:
    """Whether a line of ``region`` may be indented code: four spaces (or a tab) before its text, unless the line
    before it holds plain paragraph text, which the indented line continues (an indented code block cannot
    interrupt a paragraph: CommonMark 4.4), and unless blank lines separate it from the first line of a list item
    it belongs to (``_inside_a_list_item``). Those are the nested list items of most skills (``- step`` then
    ``    - detail``, with a blank line between them or not). Anything else before it (a heading, a quote, a tab,
    the region's start after a fence, blank lines after other text) leaves the question to the parse."""
    if _CODE_INDENT_AT_START.match(region) is not None:
        return True
    if "\r" in region or "\t" in region:
        return _CODE_INDENT_AFTER_BREAK.search(region) is not None
    # An HTML block of the region may end at a blank line: what follows it is read by the parse.
    after_blank_lines = "<" not in region or _HTML_START.search(region) is None
    for indented in _CODE_INDENT_AFTER_BREAK.finditer(region):
        line_break = indented.start()
        line_start = region.rfind("\n", 0, line_break) + 1
        previous = region[line_start:line_break]
        indent = indented.end() - line_break - 2  # spaces only: a region with a tab was answered above
        # A line holding `-->` may close an HTML comment block, after which no paragraph is open.
        if "-->" not in previous and _continues_a_paragraph(previous):
            if _LIST_ITEM_START.match(region, indented.end() - 1) and not _stays_in_an_open_block(
                region, line_break, indent
            ):
                return True
            continue
        if previous.strip(" ") or not after_blank_lines:
            return True
        if not _inside_a_list_item(region, line_start, indent):
            return True
    return False


def _stays_in_an_open_block(region: str, line_break: int, indent: int) -> bool:
    """Whether a list marker indented ``indent`` spaces (four or more), on the line after ``line_break``, leaves no
    list item above it in a way that makes it code. A marker ends the paragraph of a deeper item and closes each
    item whose text starts to its right; where it then stands four columns beyond the text of the item it lands
    in, markdown-it reads it as code (``   - a`` then ``    - b``). So the nearest list item above at most as
    indented must hold it (its text starts at or before the marker) or stand at the same indent (the marker then
    lands where that item did). With no such item up to a blank line (or the region's start), the first line after
    it must be indented no further than the marker: that line stands in the block the marker lands in, whose text
    starts at or before it. A quote on the way, or no answer within ``_LINES_READ_BACK`` lines, leaves the
    question to the parse."""
    end = line_break
    budget = _LINES_READ_BACK
    top_indent = indent  # the indent of the highest line read so far
    while end >= 0:
        budget -= 1
        if budget < 0:
            return False
        start = region.rfind("\n", 0, end) + 1
        line = region[start:end]
        text = line.lstrip(" ")
        if not text:
            break
        if ">" in line[: len(line) - len(line.lstrip(" >-*+0123456789.)"))]:
            return False
        above_indent = len(line) - len(text)
        if above_indent <= indent:
            opening = _LIST_ITEM_START.match(text)
            if opening is not None:
                return above_indent == indent or above_indent + opening.end() <= indent
        top_indent = above_indent
        end = start - 1
    return top_indent <= indent


def _inside_a_list_item(region: str, blank_start: int, indent: int) -> bool:
    """Whether a line indented ``indent`` spaces after blank lines (the first one starting at ``blank_start``) is
    part of the list item whose first line is the nearest line above them, and not code there: indented at least to
    the item's text and less than four columns beyond it (CommonMark 5.2: ``- step``, a blank line, then
    ``    - detail`` is a nested list). Only an item that surely starts on that line counts: a bullet, or an ordered
    marker that may interrupt a paragraph (``1.``), or any ordered marker after a blank line."""
    end = blank_start - 1
    while end >= 0:
        start = region.rfind("\n", 0, end) + 1
        line = region[start:end]
        if line.strip(" "):
            break
        end = start - 1
    else:
        return False  # only blank lines above: the region starts after a fence, or the body starts here
    item = _LIST_ITEM_START.match(line)
    if item is None or _THEMATIC_BREAK.fullmatch(line) is not None:
        return False
    if not _surely_an_item(region, start, line):
        return False
    text_column = item.end()
    return text_column <= indent < text_column + 4


def _surely_an_item(region: str, start: int, line: str) -> bool:
    """Whether ``line`` (at ``start`` in ``region``), which opens with a list marker and text at most three columns
    in, starts a list item. A bullet does, and so does ``1.``. Another ordered marker right after paragraph text
    continues that paragraph (CommonMark 5.3) unless the paragraph is inside a list item whose text starts to the
    right of the marker: ``2. step``, then ``    - detail`` lines, then ``3. next`` is the list going on. So the
    lines above must be nested bullets (indented to the text of an item and less than four columns beyond it),
    up to an item that surely starts itself (blank lines between them keep the item open, as the bullets are
    indented to its text), read back at most ``_LINES_READ_BACK`` lines; anything else leaves the question to
    the parse."""
    budget = _LINES_READ_BACK
    while True:
        marker = line.lstrip(" ")
        if not marker[0].isdigit() or marker.startswith(("1.", "1)")):
            return True
        item_indent = len(line) - len(marker)
        nested: list[int] = []  # the indents of the nested bullets between the item above and this one
        end = start - 1
        while True:
            if end < 0:
                return not nested  # the region starts here
            budget -= 1
            if budget < 0:
                return False
            above_start = region.rfind("\n", 0, end) + 1
            above = region[above_start:end]
            text = above.lstrip(" ")
            end = above_start - 1
            if not text:
                if not nested:
                    return True  # after a blank line an ordered marker starts a list
                continue  # blank lines inside the item above (a loose list): its bullets are below them
            indent = len(above) - len(text)
            opening = _LIST_ITEM_START.match(text)
            if opening is None or _THEMATIC_BREAK.fullmatch(text) is not None:
                return False
            if indent < 4:
                break
            if text[0] not in "-+*":
                return False
            nested.append(indent)
        column = indent + opening.end()
        if item_indent >= column or not all(column <= nested_indent < column + 4 for nested_indent in nested):
            return False
        start, line = above_start, above  # the item above must surely start too


_LINES_READ_BACK = 64
"""How many lines above a line ``_surely_an_item`` and ``_stays_in_an_open_block`` read at most: enough for the
lists people write, and each line of a body is then read a bounded number of times (linear in the body)."""


_THEMATIC_BREAK = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})")


_LIST_ITEM_START = re.compile(r" {0,3}(?:[-+*]|[0-9]{1,9}[.)]) {1,4}(?=[^ ])")


def _continues_a_paragraph(line: str) -> bool:
    """Whether ``line`` is plain paragraph text (alone or as a list item's first line, a task's box aside), so that
    a paragraph is open after it: text starting with a letter or a digit, or with emphasis or a code span around
    one. A line indented four spaces or more here was accepted as not code (``_has_code_indent`` reads in order):
    as a paragraph's continuation or as the text of a list item, where it opens a paragraph only if its own text is
    plain as well (``# heading`` there is a heading, after which an indented line may be code)."""
    text = line.lstrip(" ")
    if len(line) - len(text) >= 4:
        line = text
    item = _LIST_ITEM_START.match(line)
    if item is not None:
        text = line[item.end() :]
        if text[:4] in ("[ ] ", "[x] ", "[X] "):  # a task's box: text, and never a link definition's label
            text = text[4:]
    return _starts_with_text(text)


def _starts_with_text(text: str) -> bool:
    """Whether ``text`` starts with a letter or a digit, or with emphasis or a code span around one. A printable
    character beyond ASCII that is not white space counts as a letter here (``❌ avoid``, ``→ next``, ``– aside``):
    no block starts with one, and public skills open many list items with a symbol."""
    opening = _PARAGRAPH_OPENING.match(text)
    if opening is None or _EMPTY_ORDERED_ITEM.match(text) is not None:
        return False
    first = text[opening.end() : opening.end() + 1]
    return first.isalnum() or (first > "\x7f" and first.isprintable() and not first.isspace())


# Emphasis or a code span that may open a paragraph's text (``**Bold**``, ``_term_``, `` `name` ``, ``**`name`**``),
# before its letter. Neither a run of `*` and `_` followed by a letter nor one or two backticks starts a block.
_PARAGRAPH_OPENING = re.compile(r"(?:[*_]+`{0,2}|`{1,2})?")
# An ordered marker with nothing after it (``3.``): an empty list item where no paragraph is open, not text.
_EMPTY_ORDERED_ITEM = re.compile(r"[0-9]{1,9}[.)][ \t]*$")
