"""Where the links of a SKILL.md body are: the scanning half of ``skill/broken-link`` (``skill_links`` holds the
rule, the block parse it falls back on, and what a destination resolves to).

Two readings find the same links. The fast scan (``_plain_regions``) takes a plainly structured body (headings,
paragraphs, lists, fenced examples, comments and ``<details>`` blocks) apart along its fences, masks each region
once (``_masked_text``: escapes, code spans, inline comments) and reads links and definitions off the masked text;
anything else that may hide a link makes it answer None, and ``skill_links._written_destinations`` parses the body
instead (``skill_links.FAST_PATH`` switches the fast scan off). ``_masked_destinations`` and ``_definitions`` read
the destinations of a masked stretch for both. Every regular expression here is linear in its input
(``tests/hostile/test_linear_link_scan.py`` times each on its worst case).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from clarvis_lsp.rules.skill_link_lines import (
    _HTML_START,
    _LIST_ITEM_START,
    _continues_a_paragraph,
    _has_code_indent,
    _starts_with_text,
)
from clarvis_lsp.rules.skill_link_scope import is_referenced, normalised_label

_BACKTICKS = re.compile(r"`+")
_ESCAPED = re.compile(r"\\[\\\[\]()<>`]")
# The markers that open quotes and list items at the start of a line, with the spaces between them.
_CONTAINER_MARKERS = r"^(?:[ \t>]|[-*+](?=[ \t])|[0-9]{1,9}[.)](?=[ \t]))*"
# A definition may start a quote's or a list item's text (markers before its `[`, none of them a `[`); its label
# holds more than white space.
_DEFINITION = re.compile(
    _CONTAINER_MARKERS + r"\[(?![ \t]*\])(?:[^\[\]\\\n]|\\.){1,999}\]:[ \t]*(?:\n[ \t]*)?"
    r"(<[^<>\n]*>|(?:[^\s()]|\((?:[^\s()]|\([^\s()]*\))*\))+)",  # parentheses balance, as in a link
    re.MULTILINE,
)
# What follows `](`: spaces and at most one line break, the destination (`<…>`, or a run without spaces whose
# parentheses balance, two levels deep), an optional title, and the closing parenthesis. The white space before
# the destination is matched as an atomic group (a lookahead captures it, a back reference consumes it), so that
# with an empty destination the engine does not try every way of sharing one run of spaces among the three gaps
# (quadratic in the run). Giving some of it back never lets a match succeed that the whole run fails: whatever
# follows the first gap begins with a gap of its own, and a gap's tail is a gap.
_GAP = r"[ \t]*(?:\r?\n[ \t]*)?"
_LINK_TAIL = re.compile(
    rf"(?=(?P<gap>{_GAP}))(?P=gap)"  # taken whole, never given back: see the comment above
    + r"(?P<destination><[^<>\r\n]*>|(?:[^\s()]|\((?:[^\s()]|\([^\s()]*\))*\))*)"
    + r"(?:"
    + _GAP
    + r"(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?"
    + _GAP
    + r"\)"
)
# The usual case, matched first because the general pattern costs a few microseconds a link: a destination with no
# space, parenthesis or `<`, closed at once. Where it matches, ``_LINK_TAIL`` gives the same destination.
_SIMPLE_TAIL = re.compile(r"(?:[^\s()<][^\s()]*)?\)")
_MAX_LINK_TEXT = 4096  # how far back a `](` looks for its `[`: a longer link text is no link
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NOT_A_LINE_BREAK = re.compile(r"[^\r\n]")
_MARKDOWN_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")  # CR LF, CR and LF end a line; nothing else does
_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LONE_CR = re.compile(r"\r(?!\n)")


def _may_hold_links(text: str) -> bool:
    """Whether ``text`` has a ``](`` or a ``]:``, found by looking at each ``]`` (see ``_find``)."""
    close = text.find("]")
    while close != -1:
        if text[close + 1 : close + 2] in ("(", ":"):
            return True
        close = text.find("]", close + 1)
    return False


def _find(text: str, needle: str, start: int = 0) -> int:
    """``text.find(needle, start)`` for a needle whose first character is rare in prose (``]``, ``~``, a line
    break). CPython finds one character with ``memchr`` but runs a character-by-character loop for a longer needle,
    about twice as slow on a SKILL.md body; and a body is searched several times. Not for backticks: inline code
    makes them common (``_find_marker``)."""
    first = needle[0]
    index = text.find(first, start)
    while index != -1:
        if text.startswith(needle, index):
            return index
        index = text.find(first, index + 1)
    return -1


def _find_marker(text: str, marker: str, start: int = 0) -> int:
    """The next fence marker (three backticks or three tildes) from ``start``: ``str.find`` for backticks, which
    inline code spans make common enough that ``_find`` would stop at dozens of them, ``_find`` for tildes."""
    return text.find(marker, start) if marker[0] == "`" else _find(text, marker, start)


# A fence marker after something else on its line: in a list item or a quote it may open a fenced block.
_FENCE_INSIDE_A_LINE = re.compile(r"^(?! {0,3}(?:```|~~~)).*?(?:```|~~~)", re.MULTILINE)
# An indented fence line: in a body with CR, left to the parse (see ``_indented_fences_hold``).
_INDENTED_FENCE = re.compile(r"^ {1,3}(?:```|~~~)", re.MULTILINE)
# A quote or a list item whose text may start indented as code (after `>` and two spaces, or a list marker and five).
_CONTAINER_INDENT = re.compile(
    _CONTAINER_MARKERS + r"(?:>(?:  |[ ]?\t)|(?:[-*+]|[0-9]{1,9}[.)])(?: {5}| {0,4}\t))",
    re.MULTILINE,
)
# A definition's title may continue on the next line. Each `]:` scans only to the next `]:` of its line (the last
# one of a line reaches its end), so a line of many `]:` is read once, not once for each.
_TITLE_ON_NEXT_LINE = re.compile(r"\]:(?:[^\]\r\n]|\](?!:))*\r?\n[ \t]*[\"'(]")
# A definition-like line after a line that is not blank: the last non-space character of a line, then only spaces
# up to its line break. (Written as "a line holding a non-space character", the search tried every split of every
# suffix of a long line: cubic in its length.) Only a space and a tab are white space here, as for CommonMark's
# blank lines: a line of no-break spaces is paragraph text, and a definition after it is too.
_DEFINITION_IN_PARAGRAPH = re.compile(r"[^ \t\r\n][ \t]*\r?\n[ \t>]*\[[^\]\r\n]+\]:")
# A label that spans lines (`[a\nb]: c`): a definition the fast scan's one-line patterns do not see. The part before
# the first line break holds none, so each `[` is read up to the next bracket once.
_LABEL_ACROSS_LINES = re.compile(r"\[[^\[\]\r\n]*[\r\n][^\[\]]*\]:")


def _plain_regions(body: str, *, every_region: bool = False) -> list[tuple[int, str]] | None:
    """The stretches of ``body`` outside fenced code, each as (offset, masked text), when fences are the only block
    structure that can hide a link here: then scanning them finds exactly what the CommonMark block parse finds, at
    a fraction of its cost (most SKILL.md bodies: headings, paragraphs, lists and fenced examples; comments and
    ``<details>`` blocks after a blank line are blanked, see ``_html_blocks_blanked``). None when anything else
    may: other HTML outside code, a line that may be indented code, a quote or list item whose text
    may be indented code, a fence marker after something else on its line, a definition-like line inside a
    paragraph or one with more on its line, a code span across lines. Only a region that holds a link, a
    definition or HTML is asked: what the others hold hides nothing elsewhere, since the fence lines are found
    apart and only an HTML block can hold one. That body takes the parse (as does one where
    ``_written_destinations`` meets a link across lines). Each region is masked once, here, for both the
    decision and the scan. ``tests/cli/test_links.py`` holds both readings to agreement on arbitrary mixes.
    ``every_region``: ask the others too, as the scan did when the share of public skills that take the parse
    was measured (the yardstick ``tests/core/test_benchmark_corpus.py`` holds the realistic corpus to).

    The scan stops at the first blank line after the last ``](`` or ``]:`` (``_read_up_to``)."""
    if not every_region:
        body = body[: _read_up_to(body)]
    if "\r" in body and _LONE_CR.search(body):
        return None  # a line ended by CR alone: `^` does not match after it, and the parse knows its lines
    fenced = body.find("```") != -1 or _find(body, "~~~") != -1
    fences: list[tuple[int, int, str, str]] | None = None
    if fenced and "\r" not in body:
        fences = _fence_lines(body)
        if fences is None or not _indented_fences_hold(body, fences):
            return None
    elif fenced and (_FENCE_INSIDE_A_LINE.search(body) or _INDENTED_FENCE.search(body)):
        return None
    # Code indentation starts a line (after a line break or at the start): four spaces there, or a tab.
    may_indent = "\t" in body or body.startswith("    ") or "\n    " in body
    regions: list[tuple[int, str]] = []
    for start, end in _unfenced_regions(body, fenced) if fences is None else _regions_between(body, fences):
        raw = body[start:end]
        if not every_region and "<" not in raw and _find(raw, "](") == -1 and _find(raw, "]:") == -1:
            continue  # no link, no definition, no HTML that a fence marker may stand in: nothing to read here
        # What _CONTAINER_INDENT needs, found first without it (it tries every line of the region otherwise).
        if _may_indent_a_container(raw) and _CONTAINER_INDENT.search(raw):
            return None
        region, crosses = _masked_text(raw, comments=False)
        if crosses:
            return None
        if "<" in region and _HTML_START.search(region):
            blanked = _html_blocks_blanked(region, raw, start + len(raw) == len(body))
            if blanked is None:
                return None
            region = blanked
        if may_indent and _has_code_indent(raw):
            return None
        if _find(raw, "]:") != -1 and not _definitions_plain(region, raw):
            return None
        regions.append((start, region))
    return regions


def _read_up_to(body: str) -> int:
    """Where reading ``body`` for links may stop: after the first blank line that follows the last ``](`` or ``]:``.
    A blank line ends every paragraph, so no link, link text or code span runs on past it, and what comes later
    changes no earlier line's block (a fence or HTML block it opens starts there). A fence or HTML block that was
    open at the blank line is open at the end of what is read, which holds no link after it. The fenced examples
    of many skills come after their last link."""
    last = max(body.rfind("]("), body.rfind("]:"))
    blank = _BLANK_LINE.search(body, last) if last != -1 else None
    return blank.end() if blank is not None else len(body)


# What opens an HTML block the fast scan reads itself, at the start of a line: a comment (CommonMark's kind 2, up to
# the line holding `-->`) or a `<details>`/`<summary>` tag (kind 6, up to a blank line). Public skills fold long
# sections into `<details>` and leave notes in comments; without these, those bodies took the block parse.
_HTML_BLOCK_OPENING = re.compile(r"<!--|</?(?:details|summary)(?=[ \t>\n]|/>|\Z)", re.IGNORECASE)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _html_blocks_blanked(masked: str, raw: str, at_end: bool) -> str | None:
    """``masked`` with its HTML blocks blanked (they hold no link), when every HTML start it holds opens one of the
    blocks of ``_HTML_BLOCK_OPENING`` at the start of a line after a blank one (column 0 after a blank line is
    outside any list item or quote, and no paragraph, definition or link text is open there). None when any other
    HTML is there, or when a block does not end inside the region (``at_end``: the region ends the body, where a
    block may end too); the parse decides those. A whole line is HTML when the block holds it, as the parse reads
    it."""
    if "\r" in raw:
        return None
    parts: list[str] = []
    done = 0
    search = 0
    while (html := _HTML_START.search(masked, search)) is not None:
        opening = html.start()
        if opening and (raw[opening - 1] != "\n" or raw[raw.rfind("\n", 0, opening - 1) + 1 : opening].strip(" \t\n")):
            return None  # not alone after a blank line: a paragraph, a definition or a link text may go on into it
        if (kind := _HTML_BLOCK_OPENING.match(raw, opening)) is None:
            return None
        if kind.group(0) == "<!--":
            closing = raw.find("-->", opening)  # `<!-->` ends where it starts, as in the parse
            if closing == -1:
                return None
            line_end = raw.find("\n", closing)
            end = len(raw) if line_end == -1 else line_end
        elif (blank := _BLANK_LINE.search(raw, opening)) is not None:
            end = blank.start()
        elif at_end:
            end = len(raw)
        else:
            return None
        parts.append(masked[done:opening])
        parts.append(_NOT_A_LINE_BREAK.sub(" ", masked[opening:end]))
        done = search = end
    parts.append(masked[done:])
    return "".join(parts)


def _may_indent_a_container(body: str) -> bool:
    """What ``_CONTAINER_INDENT`` needs somewhere in the body: a tab, ``>`` and two spaces, or a list marker and five
    spaces (five spaces alone are in most bodies' code, and the pattern is tried at every line)."""
    return (
        "\t" in body
        or _find(body, ">  ") != -1
        or ("     " in body and any(marker in body for marker in ("-     ", "*     ", "+     ", ".     ", ")     ")))
    )


def _definitions_plain(masked: str, raw: str) -> bool:
    """Whether the link definitions of a region (its ``masked`` and its ``raw`` text) are what the fast scan finds:
    none hidden by masking (definitions are read before code spans), none inside a paragraph, none with a title
    on the next line or a label across lines, each alone on its line. Both texts are asked: masking blanks escaped
    characters and code spans, which are text to a paragraph and to a definition's label or destination."""
    if raw.count("]:") != masked.count("]:") or _ODD_DESTINATION_START.search(raw):
        return False
    return not any(
        _definition_in_a_paragraph(text)
        or _TITLE_ON_NEXT_LINE.search(text)
        or _LABEL_ACROSS_LINES.search(text)
        or not _definitions_stand_alone(text)
        for text in (masked, raw)
    )


# A link definition alone on its line, at column 0, in its plainest form: a label of neither brackets nor a backslash
# nor a backtick (nor a footnote's `^`; at most 999 characters), a destination of no `<`, parenthesis, backslash or
# backtick, and no title. ``_plain_definition`` also asks for a label of more than white space.
_PLAIN_DEFINITION_LINE = re.compile(r"\[(?!\^)(?![ \t]*\])[^\[\]\\\r\n`]{1,999}\]:[ \t]*[^\s<()\\`][^\s()\\`]*[ \t]*")


def _definition_in_a_paragraph(text: str) -> bool:
    """Whether a definition-like line of ``text`` follows a line that is not blank (a paragraph's, where it is no
    definition), other than in a block of plain definitions (``_PLAIN_DEFINITION_LINE``) that starts after a blank
    line or at the start of the region: each of those is a definition to the parse, and public skills gather their
    reference-style links in such a block at the end."""
    if "\r" in text:
        return _DEFINITION_IN_PARAGRAPH.search(text) is not None
    verified = -1  # the start of the last line known to be a definition
    for match in _DEFINITION_IN_PARAGRAPH.finditer(text):
        line_break = text.index("\n", match.start())
        line_start = text.rfind("\n", 0, line_break) + 1
        next_start = line_break + 1
        if text[next_start] != "[":
            return True  # indented or in a quote
        if (
            line_start != verified
            and line_start
            and text[text.rfind("\n", 0, line_start - 1) + 1 : line_start].strip(" \t\n")
        ):
            return True  # the block does not start after a blank line
        next_end = text.find("\n", next_start)
        if not _plain_definition(text, line_start, line_break) or not _plain_definition(
            text, next_start, len(text) if next_end == -1 else next_end
        ):
            return True
        verified = next_start
    return False


def _plain_definition(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a line of ``_PLAIN_DEFINITION_LINE`` whose label holds more than white space
    (Unicode white space too: the parse folds it when it normalises a label)."""
    return (
        _PLAIN_DEFINITION_LINE.fullmatch(text, start, end) is not None
        and text[start + 1 : text.index("]", start)].strip() != ""
    )


# What may follow a definition's `]:` that the parse reads otherwise than the patterns here: white space that is no
# space, tab or line break to CommonMark (a no-break space, a form feed: a destination to the parse, none to
# ``_DEFINITION``, whose label a later definition could then seem to define first).
_ODD_DESTINATION_START = re.compile(r"\]:[ \t]*(?:\r?\n[ \t]*)?[^\S \t\r\n]")


def _definitions_stand_alone(region: str) -> bool:
    """Whether each link definition of ``region`` is alone on its line(s) and holds no link of its own, as the
    fast scan assumes (text after the destination makes it a paragraph instead, and the parse knows which). A
    destination with a backslash is left to the parse too: markdown-it reads a backslash before a space as an
    escape, which ends no destination there."""
    for match in _DEFINITION.finditer(region):
        if "\\" in match.group(1):
            return False
        label_start = region.index("[", match.start())
        if region[match.start() : label_start].strip(" \t>"):
            return False  # in a list item, which may or may not interrupt a paragraph: the parse knows
        if region.startswith("[^", label_start):
            continue  # a footnote definition: its text is a paragraph
        if not region[label_start + 1 : region.find("]", label_start)].strip():
            return False  # a label of Unicode white space (a no-break space): the parse folds it to nothing
        line_end = region.find("\n", match.end())
        rest = region[match.end() : line_end if line_end != -1 else len(region)]
        if rest.strip(" \t\r") or _find(match.group(0), "](") != -1:  # a no-break space is text to the parse
            return False
    return True


def _plainly_structured(body: str) -> bool:
    """Whether the body's links can be found without the block parse (see ``_plain_regions``)."""
    return _plain_regions(body) is not None


def _line_starts(text: str) -> list[int]:
    """The offset of every line of ``text`` as markdown-it counts lines (CR LF, CR and LF each end one)."""
    starts = [0]
    starts.extend(match.end() for match in _LINE_BREAK.finditer(text))
    return starts


def _at(starts: list[int], line: int, text: str) -> int:
    """The offset where ``line`` starts; the end of ``text`` for the line after the last (a block that ends the
    text: its last line may have no line break)."""
    return starts[line] if line < len(starts) else len(text)


def _unfenced_regions(body: str, fenced: bool | None = None) -> Iterator[tuple[int, int]]:
    """The stretches outside fenced code blocks (``fenced``: whether the body holds a fence marker, if known)."""
    if not ((body.find("```") != -1 or _find(body, "~~~") != -1) if fenced is None else fenced):
        yield 0, len(body)
        return
    fence: str | None = None
    region_start = 0
    for found in _MARKDOWN_LINE.finditer(body):
        line = found.group()
        match = _FENCE_LINE.match(line) if line[:4].lstrip()[:1] in ("`", "~") else None
        if match:
            marker, rest = match.group(1), line[match.end() :]
            if fence is None:
                if marker[0] == "`" and "`" in rest:
                    continue  # a backtick fence's info string holds no backtick: this line is text
                yield region_start, found.start()
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip(" \t\r\n"):
                fence = None  # a closing fence is followed by nothing but spaces
                region_start = found.end()
    if fence is None:
        yield region_start, len(body)


# A line that opens with a fence marker, read from its start in a body whose lines end only at LF.
_FENCE_TEXT = re.compile(r" {0,3}(`{3,}|~{3,})([^\n]*)")


def _fence_lines(body: str) -> list[tuple[int, int, str, str]] | None:
    """(start, end after its line break, marker, rest of the line) of each line that starts with a fence marker, in
    a body without CR; None when a fence marker stands on a line that does not start with one (in a list item or a
    quote it may open a fenced block). Found from the markers themselves (``_find``), not by a pattern tried at
    every line break, which cost a tenth of a check of realistic skills."""
    found: dict[int, tuple[int, int, str, str]] = {}
    for needle in ("```", "~~~"):
        marker = _find_marker(body, needle)
        while marker != -1:
            line_start = body.rfind("\n", 0, marker) + 1
            line = found.get(line_start)
            if line is None:
                opening = _FENCE_TEXT.match(body, line_start)
                if opening is None:
                    return None
                line = found[line_start] = (
                    line_start,
                    min(opening.end() + 1, len(body)),
                    opening.group(1),
                    opening.group(2),
                )
            marker = _find_marker(body, needle, line[1])  # every marker on a fence line is on one
    return [found[start] for start in sorted(found)]


# A line indented less than one, two or three spaces (by its indentation: index 1, 2 or 3), after a line break.
_LESS_INDENTED = (None, re.compile(r"\n[^ \n]"), re.compile(r"\n ?[^ \n]"), re.compile(r"\n {0,2}[^ \n]"))


def _indented_fences_hold(body: str, fences: list[tuple[int, int, str, str]]) -> bool:
    """Whether each fenced block of a body without CR whose opening fence is indented (one to three spaces: it may
    stand in a list item) keeps every line up to its closing fence indented at least as far. A line indented
    less may end the list item, and the block with it (a block inside an item ends with the item); the next fence
    marker then opens a block instead of closing one. The parse decides those bodies. The opening and closing
    rules are ``_regions_between``'s."""
    if all(body[start] != " " for start, _, _, _ in fences):
        return True  # most bodies: every fence at the start of its line
    fence: str | None = None
    indent = 0
    block_start = 0
    for start, end, marker, rest in fences:
        if fence is None:
            if marker[0] == "`" and "`" in rest:
                continue
            fence = marker
            indent = body.index(marker, start) - start
            block_start = end - 1
        elif marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip(" \t\r\n"):
            fence = None
            pattern = _LESS_INDENTED[indent]
            if pattern is not None and pattern.search(body, block_start, end) is not None:
                return False
    if fence is not None:
        pattern = _LESS_INDENTED[indent]
        return pattern is None or pattern.search(body, block_start) is None
    return True


def _regions_between(body: str, fences: list[tuple[int, int, str, str]]) -> Iterator[tuple[int, int]]:
    """``_unfenced_regions`` of a body without CR, from its ``_fence_lines``: the same opening and closing rules,
    asked of the fence lines only."""
    fence: str | None = None
    region_start = 0
    for start, end, marker, rest in fences:
        if fence is None:
            if marker[0] == "`" and "`" in rest:
                continue  # a backtick fence's info string holds no backtick: this line is text
            yield region_start, start
            fence = marker
        elif marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip(" \t\r\n"):
            fence = None  # a closing fence is followed by nothing but spaces
            region_start = end
    if fence is None:
        yield region_start, len(body)


def _masked(text: str) -> str:
    """``text`` with what cannot hold a link destination blanked out, every offset kept: backslash-escaped
    brackets, parentheses and backticks, code spans and inline HTML comments. Linear in the text, whatever it
    holds: a run of backticks is paired with the next run of the same length, as CommonMark pairs them."""
    return _masked_text(text, comments=True)[0]


def _masked_text(text: str, *, comments: bool) -> tuple[str, bool]:
    """``_masked``, with comments left as they are unless ``comments``; and whether a code span crossed a line
    break (the fast scan leaves those to the parse: a block boundary may end them)."""
    if "\\" in text:
        text = _ESCAPED.sub("  ", text)
    if "`" not in text:
        return (_blank(text, _comments(text)) if comments and "<" in text and "<!--" in text else text), False
    if "``" not in text:
        text, crosses = _single_backtick_spans_blanked(text)
        return (_blank(text, _comments(text)) if comments and "<" in text and "<!--" in text else text), crosses
    runs = [(match.start(), match.end()) for match in _BACKTICKS.finditer(text)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    cursor = dict.fromkeys(by_length, 0)
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        position = cursor[end - start]
        while position < len(same) and same[position] <= index:
            position += 1
        cursor[end - start] = position
        if position == len(same):
            index += 1
            continue
        closer = same[position]
        spans.append((start, runs[closer][1]))
        index = closer + 1
    crosses = any("\n" in text[start:end] or "\r" in text[start:end] for start, end in spans)
    text = _blank(text, spans)
    return (_blank(text, _comments(text)) if comments and "<" in text and "<!--" in text else text), crosses


def _single_backtick_spans_blanked(text: str) -> tuple[str, bool]:
    """The code spans of a text whose backtick runs are all single, blanked, and whether one crossed a line break.
    Each backtick then pairs with the next (CommonMark pairs a run with the next run of its length), so the pieces
    between backticks alternate text, span, text…; an odd last backtick opens nothing. The general pairing costs
    a dictionary and a cursor per run, and most SKILL.md bodies have dozens of `name`-like spans."""
    pieces = text.split("`")
    pairs = (len(pieces) - 1) // 2
    out = [pieces[0]]
    crosses = False
    for index in range(pairs):
        inside = pieces[2 * index + 1]
        if "\n" in inside or "\r" in inside:
            crosses = True
            out.append(" " + _NOT_A_LINE_BREAK.sub(" ", inside) + " ")
        else:
            out.append(" " * (len(inside) + 2))
        out.append(pieces[2 * index + 2])
    if len(pieces) % 2 == 0:  # an odd number of backticks: the last is text
        out.append("`" + pieces[-1])
    return "".join(out), crosses


def _comments(text: str) -> list[tuple[int, int]]:
    """The spans of HTML comments ``<!-- … -->`` (an unclosed one hides nothing)."""
    spans = []
    search = 0
    while (opening := text.find("<!--", search)) != -1:
        closing = text.find("-->", opening + 4)
        if closing == -1:
            break
        spans.append((opening, closing + 3))
        search = closing + 3
    return spans


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span's characters but line breaks replaced by spaces."""
    if not spans:
        return text
    parts: list[str] = []
    previous = 0
    for start, end in spans:
        parts.append(text[previous:start])
        parts.append(_NOT_A_LINE_BREAK.sub(" ", text[start:end]))
        previous = end
    parts.append(text[previous:])
    return "".join(parts)


def _destinations(body: str, start: int, end: int) -> Iterator[tuple[int, str, bool]]:
    """Inline links and images ``[text](destination "title")`` between ``start`` and ``end`` of ``body``."""
    source = body[start:end]
    if _find(source, "](") == -1:
        return
    yield from _masked_destinations(body, start, _masked(source))


class _LinkAcrossLines(Exception):
    """The fast scan met a link that spans a line break where a block boundary (a heading, a list item, a blank
    line) might cut it: only the block parse knows, so the body is parsed instead."""


def _within_one_paragraph(source: str, opener: int, link_end: int) -> bool:
    """Whether the link written from ``opener`` to ``link_end`` in ``source`` lies in one paragraph: on one line, or
    its line holds paragraph text (``_continues_a_paragraph``) and each line the link goes on to can only continue
    that paragraph (``_plain_continuation``), as hard-wrapped prose does (``see the [setup\nguide](setup.md)``)."""
    line_break = source.find("\n", opener, link_end)
    if line_break == -1 and source.find("\r", opener, link_end) == -1:
        return True
    if line_break == -1 or source.find("\r", opener, link_end) != -1:
        return False
    if not _continues_a_paragraph(source[source.rfind("\n", 0, opener) + 1 : line_break]):
        return False
    while line_break != -1:
        next_break = source.find("\n", line_break + 1)
        if not _plain_continuation(source[line_break + 1 : next_break if next_break != -1 else len(source)]):
            return False
        line_break = source.find("\n", line_break + 1, link_end)
    return True


def _plain_continuation(line: str) -> bool:
    """Whether ``line`` can only continue an open paragraph: text starting with a letter or a digit (emphasis or a
    code span around one aside), never a list item, heading, quote, fence, HTML, rule or blank line, which may
    start a block of their own."""
    text = line.lstrip(" ")
    return _LIST_ITEM_START.match(text) is None and _starts_with_text(text)


def _masked_destinations(
    body: str, start: int, masked: str, *, single_line: bool = False
) -> Iterator[tuple[int, str, bool]]:
    """``_destinations`` of the stretch of ``body`` at ``start`` whose masked text (``_masked``) is ``masked``.
    ``single_line``: raise ``_LinkAcrossLines`` for a link, from ``[`` to ``)``, that is not on one line.

    Linear in the stretch, whatever it holds: the nearest ``[`` before each ``](`` is carried forward from the
    previous one (each stretch of text is searched once), and where brackets nest, every ``]`` is paired with its
    ``[`` in one pass (``_bracket_pairs``) instead of a walk back from each ``](``."""
    close = _find(masked, "](")
    if close == -1:
        return
    source = body[start : start + len(masked)]
    nearest = -1  # the last `[` before `close`
    searched = 0  # masked[:searched] has been searched for `[`
    first_close = -1  # the first `]` after `nearest`
    pairs: dict[int, int] | None = None
    while close != -1:
        found = masked.rfind("[", searched, close)
        searched = close
        if found != -1:
            nearest = found
            first_close = masked.find("]", nearest, close + 1)
        opener: int | None = None
        if nearest != -1 and nearest >= close - _MAX_LINK_TEXT:
            if first_close == close:
                opener = nearest  # the usual case: no bracket inside the link text
            else:
                if pairs is None:
                    pairs = _bracket_pairs(masked)
                paired = pairs.get(close)
                opener = paired if paired is not None and paired >= close - _MAX_LINK_TEXT else None
        parsed = _destination_after(masked, close + 2) if opener is not None else None
        if opener is not None and parsed is not None:
            dest_start, dest_end, link_end = parsed
            if single_line and not _within_one_paragraph(source, opener, link_end):
                raise _LinkAcrossLines
            is_image = opener > 0 and masked[opener - 1] == "!"
            yield start + dest_start, source[dest_start:dest_end], is_image
        close = _find(masked, "](", close + 2)


_BRACKET = re.compile(r"[\[\]]")


def _bracket_pairs(masked: str) -> dict[int, int]:
    """The ``[`` that each ``]`` of ``masked`` closes (brackets nest; a ``]`` with none open closes nothing), by
    offset. A ``]`` pairs with the nearest ``[`` before it whose text in between is balanced: the one a walk back
    from it, counting brackets, would find."""
    pairs: dict[int, int] = {}
    opened: list[int] = []
    for match in _BRACKET.finditer(masked):
        index = match.start()
        if masked[index] == "[":
            opened.append(index)
        elif opened:
            pairs[index] = opened.pop()
    return pairs


def _destination_after(masked: str, index: int) -> tuple[int, int, int] | None:
    """The span of the destination that starts after ``](`` at ``index``, and the end of the link, if a whole
    ``(dest "title")`` follows."""
    simple = _SIMPLE_TAIL.match(masked, index)
    if simple is not None:
        return index, simple.end() - 1, simple.end()
    match = _LINK_TAIL.match(masked, index)
    if match is None:
        return None
    return (*match.span("destination"), match.end())


def _definitions(body: str, start: int, end: int, seen: set[str] | None = None) -> Iterator[tuple[int, str, bool]]:
    """The destination of each link reference definition ``[label]: destination`` between the offsets.
    ``seen``: the labels defined before, normalised; a label's first definition is the one links use, and the
    only one the block parse keeps."""
    source = body[start:end]
    if "]:" not in source:
        return
    for match in _DEFINITION.finditer(source):
        label_end = source.find("]:", match.start())
        label = source[source.index("[", match.start()) : label_end]
        if label.startswith("[^"):
            continue  # a footnote definition, not a link definition
        normalised = normalised_label(label[1:])
        if seen is not None:
            if normalised in seen:
                continue
            seen.add(normalised)
        if not is_referenced(body, normalised):
            continue  # a definition nothing uses is not a link (skill_link_scope)
        yield start + match.start(1), match.group(1), False
