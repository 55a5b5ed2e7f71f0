"""``skill/broken-link``: the relative links and images of a SKILL.md body, read as CommonMark reads them.

Where a link can be comes from a CommonMark block parse (markdown-it-py, with the footnote plugin): paragraphs
and headings hold links; fenced and indented code, HTML blocks and comments do not, and footnote definitions
(``[^1]: …``) are not link definitions. Inside a paragraph a small scanner finds each ``](destination)`` with
the exact offsets the editor needs (markdown-it keeps only block line numbers): code spans and inline HTML
comments are masked, an escaped ``\\]`` closes nothing, a destination is ``<…>`` or a run with balanced
parentheses (``references/a(1).md``), and an image inside a link (``[![logo](a.png)](b.md)``) gives both
targets. Reference-style links resolve through their definitions, which are checked once, where they are
written.

A destination whose first segment is a placeholder for the skill directory (``{baseDir}/…``,
``${CLAUDE_SKILL_DIR}/…``, ``{{skill_dir}}/…``) is resolved against the skill directory; any other placeholder
means the target is only known at run time, and it is not checked. Costs stay bounded on hostile files: a body
with no ``](`` or ``]:`` is not parsed at all, one above ``BLOCK_PARSE_LIMIT`` characters is split into lines
and fenced code instead of parsed (markdown-it-py needs about a second a megabyte), each target is looked up on
disk once per check, and after ``MAX_REPORTED`` broken links one finding says how many links were left unchecked.

Most bodies are not scanned at all: the rule first looks up what every ``](`` and ``]:`` of the raw text may name
(``LOOKUP_FIRST_FAST_PATH``), and only a body where one of them may be broken is read for where its links are.

The scanning itself (the fast scan of plainly structured bodies, masking, the inline scanner, definitions) lives in
``skill_link_scan``; this module holds the rule, the choice between the fast scan and the block parse
(``FAST_PATH``), and what a destination resolves to.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from clarvis_lsp.documents.skill import SkillDocument
from clarvis_lsp.findings import Fix, Range, Severity, TextEdit
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule

# The scan, under the names the rule's tests have always read here (``as``: named on purpose).
from clarvis_lsp.rules.skill_link_lines import _CODE_INDENT_AFTER_BREAK as _CODE_INDENT_AFTER_BREAK
from clarvis_lsp.rules.skill_link_lines import _CODE_INDENT_AT_START as _CODE_INDENT_AT_START
from clarvis_lsp.rules.skill_link_lines import _HTML_START as _HTML_START
from clarvis_lsp.rules.skill_link_scan import _BACKTICKS as _BACKTICKS
from clarvis_lsp.rules.skill_link_scan import _BLANK_LINE as _BLANK_LINE
from clarvis_lsp.rules.skill_link_scan import _BRACKET as _BRACKET
from clarvis_lsp.rules.skill_link_scan import _CONTAINER_INDENT as _CONTAINER_INDENT
from clarvis_lsp.rules.skill_link_scan import _CONTAINER_MARKERS as _CONTAINER_MARKERS
from clarvis_lsp.rules.skill_link_scan import _DEFINITION as _DEFINITION
from clarvis_lsp.rules.skill_link_scan import _DEFINITION_IN_PARAGRAPH as _DEFINITION_IN_PARAGRAPH
from clarvis_lsp.rules.skill_link_scan import _ESCAPED as _ESCAPED
from clarvis_lsp.rules.skill_link_scan import _FENCE_INSIDE_A_LINE as _FENCE_INSIDE_A_LINE
from clarvis_lsp.rules.skill_link_scan import _FENCE_LINE as _FENCE_LINE
from clarvis_lsp.rules.skill_link_scan import _FENCE_TEXT as _FENCE_TEXT
from clarvis_lsp.rules.skill_link_scan import _HTML_BLOCK_OPENING as _HTML_BLOCK_OPENING
from clarvis_lsp.rules.skill_link_scan import _LABEL_ACROSS_LINES as _LABEL_ACROSS_LINES
from clarvis_lsp.rules.skill_link_scan import _LINE_BREAK as _LINE_BREAK
from clarvis_lsp.rules.skill_link_scan import _LINK_TAIL as _LINK_TAIL
from clarvis_lsp.rules.skill_link_scan import _MARKDOWN_LINE as _MARKDOWN_LINE
from clarvis_lsp.rules.skill_link_scan import _NOT_A_LINE_BREAK as _NOT_A_LINE_BREAK
from clarvis_lsp.rules.skill_link_scan import _PLAIN_DEFINITION_LINE as _PLAIN_DEFINITION_LINE
from clarvis_lsp.rules.skill_link_scan import _SIMPLE_TAIL as _SIMPLE_TAIL
from clarvis_lsp.rules.skill_link_scan import _TITLE_ON_NEXT_LINE as _TITLE_ON_NEXT_LINE
from clarvis_lsp.rules.skill_link_scan import _at as _at
from clarvis_lsp.rules.skill_link_scan import _bracket_pairs as _bracket_pairs
from clarvis_lsp.rules.skill_link_scan import _definitions as _definitions
from clarvis_lsp.rules.skill_link_scan import _destinations as _destinations
from clarvis_lsp.rules.skill_link_scan import _fence_lines as _fence_lines
from clarvis_lsp.rules.skill_link_scan import _find as _find
from clarvis_lsp.rules.skill_link_scan import _line_starts as _line_starts
from clarvis_lsp.rules.skill_link_scan import _LinkAcrossLines as _LinkAcrossLines
from clarvis_lsp.rules.skill_link_scan import _masked as _masked
from clarvis_lsp.rules.skill_link_scan import _masked_destinations as _masked_destinations
from clarvis_lsp.rules.skill_link_scan import _masked_text as _masked_text
from clarvis_lsp.rules.skill_link_scan import _may_hold_links as _may_hold_links
from clarvis_lsp.rules.skill_link_scan import _may_indent_a_container as _may_indent_a_container
from clarvis_lsp.rules.skill_link_scan import _plain_regions as _plain_regions
from clarvis_lsp.rules.skill_link_scan import _plainly_structured as _plainly_structured
from clarvis_lsp.rules.skill_link_scan import _regions_between as _regions_between
from clarvis_lsp.rules.skill_link_scan import _single_backtick_spans_blanked as _single_backtick_spans_blanked
from clarvis_lsp.rules.skill_link_scan import _unfenced_regions as _unfenced_regions
from clarvis_lsp.rules.skill_link_scope import (
    PLUGIN_ROOT_PLACEHOLDER,
    plugin_directory,
    plugin_problem,
    plugin_root_target,
)

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

BROKEN_LINK = rule(
    "skill/broken-link",
    Severity.WARNING,
    "A relative link or image in the body points to no file inside the skill directory.",
    why="Skills are copied and installed as directories; a link to a missing file, or to one outside the "
    "skill (another skill's directory included: skills are loaded one at a time), is broken for the agent and "
    "for people reading the skill. Links in code, HTML comments and footnote definitions are not links, nor is a "
    "link reference definition that nothing references; a leading `{baseDir}/` or `${CLAUDE_SKILL_DIR}/` stands "
    "for the skill directory. A plugin is installed whole: a plugin's skill may link to any file of its plugin, "
    "and a leading `${CLAUDE_PLUGIN_ROOT}/` stands for the plugin directory (outside a plugin it is known only "
    "at run time, and not checked).",
    example="See [the reference](references/api.md)   (with no references/api.md)",
    fix="Create the file inside the skill directory or correct the link.",
    file_kind="skill",
)

ROOT_RELATIVE_LINK = rule(
    "skill/root-relative-link",
    Severity.WARNING,
    "A link or image in the body starts with `/`: it names a file from the root of a site or repository, which "
    "an installed skill does not carry.",
    why="On a forge a leading `/` resolves against the repository root, but a skill is installed as its own "
    "directory and read by the agent from there: `/docs/adr/001.md` names nothing the installed skill has. The "
    "finding says what the destination is relative to the skill directory when the file exists in the skill or "
    "the workspace. A `//host/…` link is a URL, and a path that names a file of the machine (`/etc/hosts`) an "
    "absolute path: neither is checked.",
    example="See [the ADR](/docs/adr/001.md)",
    fix="Write the destination relative to the skill directory, and copy into the skill what lies outside it. "
    "Where the file exists, the unsafe quick fix writes the relative destination.",
    file_kind="skill",
)

BLOCK_PARSE_LIMIT = 1_000_000
"""Bodies longer than this (characters) are scanned line by line for fenced code instead of parsed."""
MAX_REPORTED = 100
"""Broken links reported per file; the next link gets one finding for all that were not checked."""

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_PLACEHOLDER_SEGMENT = re.compile(r"(?:\$\{[^/{}]+\}|\{\{[^/{}]+\}\}|\{[^/{}]+\})/")
_PLACEHOLDER = re.compile(r"\$|\{[^/{}]*\}")


@dataclass(frozen=True)
class BodyLink:
    """One link or image destination of a SKILL.md body, as written.

    ``start``/``end`` are offsets into the whole file's text (the destination, ``<…>`` included); ``target`` is
    what it names, decoded (no fragment, query, escapes or percent-encoding); ``resolved`` the absolute path it
    points to, or None when the link is not a local file (a URL, an anchor, an absolute path, a run-time
    placeholder).
    """

    start: int
    end: int
    written: str
    target: str
    is_image: bool
    resolved: str | None


@functools.cache
def _block_parser() -> MarkdownIt:
    """CommonMark block rules only: what is a paragraph, what is code, and the link definitions with their lines.
    The inline rules (the slow half of markdown-it-py) are left to ``_destinations``."""
    from markdown_it import MarkdownIt  # imported here: a plainly structured body needs no block parse
    from mdit_py_plugins.footnote import footnote_plugin

    parser = MarkdownIt("commonmark").use(footnote_plugin)
    parser.disable(["inline", "footnote_tail", "text_join"], ignoreInvalid=True)
    return parser


def body_links(document: SkillDocument) -> Iterator[BodyLink]:
    """Every link and image destination of the body, in the order written; definitions of reference-style links
    come where the definition is. For ``skill/broken-link`` and for an editor's document links."""
    directory = os.path.dirname(str(document.path))  # a Path built and printed costs more
    for start, written, is_image in _body_destinations(document):
        target, resolved = _resolve(written, directory)
        yield BodyLink(start, start + len(written), written, target, is_image, resolved)


def _body_destinations(document: SkillDocument) -> list[tuple[int, str, bool]]:
    """(offset in the file, destination as written, is an image) for each link of the body, in order."""
    body_offset = document.body_offset
    body = document.text[body_offset:]
    if not _may_hold_links(body):
        return []
    found = _written_destinations(body)
    if body_offset:
        found = [(body_offset + offset, written, is_image) for offset, written, is_image in found]
    return found


def _written_destinations(body: str) -> list[tuple[int, str, bool]]:
    """(offset in ``body``, destination as written, is an image) for each link, sorted by offset."""
    found: list[tuple[int, str, bool]] = []
    if len(body) > BLOCK_PARSE_LIMIT:
        regions: list[tuple[int, str]] | None = [
            (start, _masked(body[start:end])) for start, end in _unfenced_regions(body)
        ]
    else:
        regions = _plain_regions(body) if FAST_PATH else None
    try:
        if regions is not None:
            labels: set[str] = set()
            for start, masked in regions:
                found.extend(_masked_destinations(body, start, masked, single_line=len(body) <= BLOCK_PARSE_LIMIT))
                if _find(masked, "]:") != -1:
                    found.extend(_definitions(body, start, start + len(masked), labels))
            return sorted(found)
    except _LinkAcrossLines:
        found = []
    lines = _line_starts(body)
    env: dict[str, object] = {}
    tokens = _block_parser().parse(body, env)
    for token in tokens:
        if token.type == "inline" and token.map is not None:
            found.extend(_destinations(body, _at(lines, token.map[0], body), _at(lines, token.map[1], body)))
    references = env.get("references")
    if isinstance(references, dict):
        for definition in references.values():
            where = definition.get("map") if isinstance(definition, dict) else None
            if where:
                found.extend(_definitions(body, _at(lines, where[0], body), _at(lines, where[1], body)))
    return sorted(set(found))


FAST_PATH = True  # Kept: −70 % CPU of --check at 2,000 realistic skills (benchmarks/README.md)
"""Scan plainly structured bodies without the block parse (a test compares both on every corpus case)."""


def _unescaped(inner: str) -> str:
    """A destination with its backslash escapes and character references undone (CommonMark)."""
    import html  # imported here: most bodies have no escape or entity in a link, and start-up time counts

    return html.unescape(_BACKSLASH_ESCAPE.sub(r"\1", inner))


def _resolve(written: str, directory: str) -> tuple[str, str | None]:
    """The target a destination names, decoded, and the path it points to (None: not a local file to check)."""
    inner = written[1:-1] if written.startswith("<") and written.endswith(">") else written
    target = _unescaped(inner) if "\\" in inner or "&" in inner else inner
    if not target or target.startswith(("#", "/", "\\", "//")) or _SCHEME.match(target):
        return target, None
    path = _file_part(target)
    if not path:
        return target, None
    if path.startswith(PLUGIN_ROOT_PLACEHOLDER + "/"):
        return target, plugin_root_target(path, directory)  # None outside a plugin: not checked
    placeholder = _PLACEHOLDER_SEGMENT.match(path)
    if placeholder:
        path = path[placeholder.end() :]
    if not path or _PLACEHOLDER.search(path):
        return target, None  # known only when the skill runs
    return target, os.path.normpath(os.path.join(directory, path))


def _file_part(target: str) -> str:
    """The file a decoded destination names: without its fragment and query, percent-encoding undone."""
    path = target.partition("#")[0].partition("?")[0]
    return unquote(path) if "%" in path else path


def check_links(
    document: SkillDocument,
    findings: Findings,
    lexists: Callable[[str], bool] = os.path.lexists,
    workspace: str | None = None,
) -> None:
    """Relative links and images in the body must name files inside the skill directory (``lexists``: whether a
    path exists, ``os.path.lexists`` or what a check's listings know); a root-relative one is reported with what it
    is relative to the skill directory, when the file is in the skill or in ``workspace`` (its directory)."""
    directory = os.path.dirname(str(document.path))  # a Path built and printed costs more
    exists: dict[str, bool] = {}
    if LOOKUP_FIRST_FAST_PATH and _every_destination_fine(document, directory, exists, lexists):
        return
    destinations = _body_destinations(document)
    if not destinations:
        return
    reported = 0
    lines = document.lines
    for index, (start, written, is_image) in enumerate(destinations):
        if reported == MAX_REPORTED:
            findings.add(
                BROKEN_LINK.code,
                lines.range(start, start + len(written)),
                f"{MAX_REPORTED} broken links are reported above; this link and the "
                f"{len(destinations) - index - 1:,} after it were not checked. Fix those first.",
            )
            return
        target, resolved = _resolve(written, directory)
        if resolved is None:
            if _is_root_relative(target):
                where = lines.range(start, start + len(written))
                kind = "Image" if is_image else "Link"
                said, relative = _root_relative(target, written, kind, directory, workspace, lexists)
                if said:
                    fixes = () if relative is None else (_relative_fix(document, where, relative),)
                    findings.add(ROOT_RELATIVE_LINK.code, where, said, fixes=fixes)
                    reported += 1
            continue
        message = _problem(target, "Image" if is_image else "Link", resolved, directory, exists, lexists)
        if message is not None:
            findings.add(BROKEN_LINK.code, lines.range(start, start + len(written)), message)
            reported += 1


LOOKUP_FIRST_FAST_PATH = True  # Kept: −21 % CPU of --check at 2,000 realistic skills (benchmarks/README.md)
"""Look up what every ``](`` and ``]:`` of the body may name before reading where its links are: when each is a
URL, an anchor or a file that is there, the rule has nothing to report whatever the block structure, and the body
is not scanned (a test compares the rule's findings both ways)."""


def _every_destination_fine(
    document: SkillDocument, directory: str, exists: dict[str, bool], lexists: Callable[[str], bool]
) -> bool:
    """Whether no destination of the body can be a broken link, judged from the raw text alone: True only when
    every place a link or definition destination may start holds one that ``_resolve`` and ``_problem`` pass.

    Every destination the scan yields starts right after a ``](`` (read by ``_SIMPLE_TAIL`` first, on the masked
    text) or is a ``_DEFINITION`` match from the start of its line (read on the raw text), so reading the same
    patterns at each of them in the raw text covers every link there is, and more (links in code, definitions
    nothing references). Masking (escapes, code spans, comments, HTML blocks) changes the text only between
    delimiters (a backslash, a backtick, a ``<``): a destination with none of them reads the same masked, or its
    ``](`` is masked and there is no link. One with any of them, or one ``_SIMPLE_TAIL`` does not read, answers
    False, and the scan decides."""
    text = document.text
    start = document.body_offset
    line_read_to = start  # the end of the last line whose definition was read: a line holds at most one
    close = text.find("]", start)
    while close != -1:
        after = text[close + 1 : close + 2]
        written: str | None = None
        if after == "(":
            if text[close + 2 : close + 3] != ")":  # `[a]()`: an empty destination names nothing
                tail = _SIMPLE_TAIL.match(text, close + 2)
                if tail is None:
                    return False
                written = text[close + 2 : tail.end() - 1]
                if "\\" in written or "`" in written or "<" in written:
                    return False
        elif after == ":" and close >= line_read_to:
            # Searched back only to the last line read, and forward to this line's end: linear in the body.
            line_start = max(text.rfind("\n", line_read_to, close), text.rfind("\r", line_read_to, close)) + 1
            line_start = max(line_start, line_read_to)
            if text[line_start - 1 : line_start] == "\r":
                return False  # after a lone CR, where `^` does not match: the scan reads its lines
            line_read_to = _line_end(text, close)
            definition = _DEFINITION.match(text, line_start)
            if definition is not None:
                written = definition.group(1)
        if written is not None:
            target, resolved = _resolve(written, directory)
            if resolved is None and _is_root_relative(target):
                return False
            if resolved is not None and _problem(target, "Link", resolved, directory, exists, lexists) is not None:
                return False
        close = text.find("]", close + 1)
    return True


def _is_root_relative(target: str) -> bool:
    """``/docs/a.md``: a path from the root of a site or repository (``//host/…`` is a URL, ``/`` alone a page)."""
    return target.startswith("/") and not target.startswith("//") and target.strip("/") != ""


def _root_relative(
    target: str,
    written: str,
    kind: str,
    directory: str,
    workspace: str | None,
    lexists: Callable[[str], bool],
) -> tuple[str, str | None]:
    """The message for a root-relative destination, and the destination relative to the skill directory when the
    file it names exists: first read from the skill directory (``/references/a.md`` meaning the skill's own), then
    its plugin's, then the workspace (``/docs/adr/001.md`` in the repository that holds the skill). No message for
    a path that names a file of this machine wherever it is read from (``/etc/hosts``): that is an absolute path."""
    bracketed = written.startswith("<") and written.endswith(">")
    inner = written[1:-1] if bracketed else written
    raw_path, suffix = _split_suffix(inner)
    file_part = _file_part(target)
    path = file_part.lstrip("/")
    opening = (
        f'{kind} "{target}" starts with "/", a path from the root of a site or repository, which an installed '
        "skill does not carry"
    )
    plugin = plugin_directory(directory, lexists)
    bases = [base for base in (directory, plugin, workspace) if base]
    for base in dict.fromkeys(bases):
        candidate = os.path.normpath(os.path.join(base, path))
        if not lexists(candidate):
            continue
        relative = Path(os.path.relpath(candidate, directory)).as_posix()
        if raw_path.lstrip("/") != path:  # escapes or percent-encoding: keep them as written
            prefix = Path(os.path.relpath(base, directory)).as_posix()
            relative = raw_path.lstrip("/") if prefix == "." else f"{prefix}/{raw_path.lstrip('/')}"
        destination = f"<{relative}{suffix}>" if bracketed else f"{relative}{suffix}"
        if _is_under(candidate, directory):
            return f"{opening}; the file is in the skill directory: write {destination}.", destination
        if plugin and _is_under(candidate, plugin):  # a plugin is installed whole (skill_link_scope)
            return f"{opening}; the file is in the skill's plugin: write {destination}.", destination
        return (
            f"{opening}; relative to the skill directory it is {destination}, which is outside the skill: copy "
            "the file into the skill directory and link to the copy.",
            destination,
        )
    if lexists(os.path.normpath(file_part)):
        return "", None  # a file of this machine (`/etc/hosts`): an absolute path, not checked
    where = " or ".join(
        name
        for base, name in ((directory, "the skill directory"), (plugin, "its plugin"), (workspace, "the workspace"))
        if base
    )
    return f"{opening}; no file {path} is in {where}: link to a file of the skill, relative to its directory.", None


def _split_suffix(inner: str) -> tuple[str, str]:
    """A destination as written, split before its fragment or query (``a.md#part`` → ``a.md``, ``#part``)."""
    cut = min((index for index in (inner.find("#"), inner.find("?")) if index != -1), default=len(inner))
    return inner[:cut], inner[cut:]


def _relative_fix(document: SkillDocument, where: Range, destination: str) -> Fix:
    """Unsafe: the writer may have meant another root, and a file outside the skill still has to be copied in."""
    return Fix(
        f"Write the destination relative to the skill directory: {destination}",
        (TextEdit(document.path, where, destination),),
        safe=False,
    )


def _line_end(text: str, index: int) -> int:
    """Where the line holding ``index`` ends (at its line break, CR or LF), or the end of ``text``. A CR is looked
    for only up to the next LF: searched to the end of the text, it made a body of many lines quadratic."""
    end = text.find("\n", index)
    end = len(text) if end == -1 else end
    carriage_return = text.find("\r", index, end)
    return end if carriage_return == -1 else carriage_return


def _problem(
    target: str, kind: str, resolved: str, directory: str, exists: dict[str, bool], lexists: Callable[[str], bool]
) -> str | None:
    if not _is_under(resolved, directory):
        in_plugin, message = plugin_problem(
            target, kind, resolved, directory, lambda path: _exists(path, exists, lexists), lexists
        )
        if in_plugin:
            return message  # a plugin's skill may link to any file of its plugin (skill_link_scope)
        root = os.path.dirname(directory)
        if _is_under(os.path.dirname(resolved), root) and os.path.dirname(resolved) != root:  # another skill's
            return (
                f'{kind} "{target}" points outside this skill; skills are loaded one directory at a time, so '
                "another skill's files are not there when this one runs: copy what it needs into this skill."
            )
        return (
            f'{kind} "{target}" points outside the skill directory: skills are installed as a directory, so '
            "copy the file into it and link to the copy."
        )
    if _exists(resolved, exists, lexists):
        return None
    relative = Path(os.path.relpath(resolved, directory)).as_posix()
    return f'{kind} "{target}" points to no file: create {relative} in the skill directory or correct the link.'


def _exists(path: str, exists: dict[str, bool], lexists: Callable[[str], bool]) -> bool:
    """Whether ``path`` exists, each path looked up once per check (``exists`` remembers)."""
    found = exists.get(path)
    if found is None:
        found = exists[path] = lexists(path)
    return found


def _is_under(path: str, directory: str) -> bool:
    """``path`` is ``directory`` or inside it (both normalised): a string test, no filesystem call."""
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


__all__ = [
    "BLOCK_PARSE_LIMIT",
    "BROKEN_LINK",
    "FAST_PATH",
    "LOOKUP_FIRST_FAST_PATH",
    "MAX_REPORTED",
    "ROOT_RELATIVE_LINK",
    "BodyLink",
    "body_links",
    "check_links",
]
