"""SKILL.md: frontmatter split, YAML nodes with marks, and exact ranges for every key and value.

The frontmatter is split on ``---`` lines here rather than by a Markdown library, so that every position is
exactly the editor's. The YAML is composed (not loaded) with the C loader when PyYAML has it: nodes keep their
marks, duplicate keys stay visible (a loader would keep the last one silently), and aliases stay shared nodes,
so an alias bomb ("billion laughs") is never expanded. Values are built from nodes with a node budget for the
same reason.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import yaml

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Position, Range

try:  # the C loader is an order of magnitude faster; PyYAML without libyaml still works
    _Base: type[Any] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Base = yaml.SafeLoader


class Yaml12Loader(_Base):  # type: ignore[misc,valid-type]
    """PyYAML's safe loader with the YAML 1.2 core schema's implicit types (SPEC §3.1).

    Clarvis is a TypeScript program and reads frontmatter as YAML 1.2, where only ``true``/``false`` are booleans
    (``yes``, ``no``, ``on``, ``off``, ``y``, ``n`` are strings), octal is ``0o17`` (``017`` is decimal),
    ``1_000`` and dates are strings, and ``=`` and ``<<`` are not special. libyaml still parses; only the tags
    of plain scalars are resolved differently."""

    yaml_implicit_resolvers: ClassVar[dict[str | None, list[tuple[str, re.Pattern[str]]]]] = {}

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        """``BaseResolver.resolve`` for a loader with no path resolvers and no wildcard resolvers: the same tags,
        without the per-scalar list concatenation and checks libyaml's composer pays for every scalar."""
        if kind is yaml.ScalarNode:
            return _plain_tag(value) if implicit[0] else _STR_TAG
        return _SEQUENCE_TAG if kind is yaml.SequenceNode else _MAPPING_TAG


def _plain_tag(value: str) -> str:
    """The tag of a plain scalar under the YAML 1.2 core schema (what the loader resolves it to)."""
    for tag, pattern in Yaml12Loader.yaml_implicit_resolvers.get(value[:1], ()):
        if pattern.match(value):
            return tag
    return _STR_TAG


_STR_TAG = "tag:yaml.org,2002:str"
_SEQUENCE_TAG = "tag:yaml.org,2002:seq"
_MAPPING_TAG = "tag:yaml.org,2002:map"


_CORE_SCHEMA = (
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
)
for _tag, _pattern, _first in _CORE_SCHEMA:
    Yaml12Loader.add_implicit_resolver(_tag, re.compile(_pattern), _first)
# What Yaml12Loader.resolve leaves out must stay absent.
assert None not in Yaml12Loader.yaml_implicit_resolvers and not Yaml12Loader.yaml_path_resolvers
assert (Yaml12Loader.DEFAULT_SCALAR_TAG, Yaml12Loader.DEFAULT_SEQUENCE_TAG, Yaml12Loader.DEFAULT_MAPPING_TAG) == (
    _STR_TAG,
    _SEQUENCE_TAG,
    _MAPPING_TAG,
)
_Loader: type[Any] = Yaml12Loader

FENCE = re.compile(r"---[ \t]*\Z")
"""A frontmatter fence line, opening or closing, as it is written (trailing blanks allowed)."""
CLOSING_FENCE = re.compile(r"\n---[ \t]*(?=\n|\Z)")
"""The closing fence after a line break, found in the text after the opening one (``\n`` line breaks only)."""
# Blanks, an optional colon, blanks: written so that one run of blanks can be matched one way only (two adjacent
# ``[ \t]*`` split a long run of blanks every possible way, quadratic in a line of blanks).
_ALIAS = re.compile(r"[ \t]*(?::[ \t]*)?(\*[^\s,\[\]{}]+)")
_NODE_BUDGET = 10_000  # nodes visited when building values: far above any real frontmatter
# Nesting levels of the frontmatter, also far above any real one. libyaml's composer recurses in C: a frontmatter
# of 30,000 `[` overflows the C stack and kills the process (the server with it) instead of raising.
_MAX_DEPTH = 256
_SAFE_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_CORE_INT = re.compile(_CORE_SCHEMA[2][1])
_CORE_FLOAT = re.compile(_CORE_SCHEMA[3][1])


@dataclass(frozen=True)
class YamlProblem:
    """A YAML error with the place the parser stopped."""

    message: str
    range: Range


class FrontmatterEntry:
    """One top-level ``key: value`` of the frontmatter.

    Ranges are worked out on first use: discovery reads thousands of SKILL.md files for their name and
    description alone, and most entries of a clean file are never reported on.
    """

    __slots__ = ("__dict__", "_first_line", "_key_node", "_lines", "key", "node")

    def __init__(self, key: str, key_node: yaml.Node, node: yaml.Node, lines: LineIndex, first_line: int) -> None:
        self.key = key
        self._key_node = key_node
        # yaml.Node's repr expands shared (aliased) nodes, so an alias bomb would print forever: no repr of it.
        self.node = node
        self._lines = lines
        self._first_line = first_line

    def __repr__(self) -> str:
        return f"FrontmatterEntry(key={self.key!r}, key_range={self.key_range!r}, value_range={self.value_range!r})"

    @functools.cached_property
    def key_range(self) -> Range:
        return _node_range(self._key_node, self._first_line, self._lines)

    @functools.cached_property
    def value_range(self) -> Range:
        value_range = _node_range(self.node, self._first_line, self._lines)
        if value_range.start < self.key_range.end:
            # An alias (`key: *anchor`): its node is the anchored one, written earlier, so the range is found
            # again in the text; an empty value gets the point just after the key.
            value_range = _alias_range(self._lines, self.key_range.end)
        return value_range

    def range_of(self, node: yaml.Node) -> Range:
        """The range of a node inside this entry's value (a list item, a nested key)."""
        return _node_range(node, self._first_line, self._lines)

    @functools.cached_property
    def line_span(self) -> tuple[int, int]:
        """The whole entry's lines, for fixes that remove it: from the start of the key's line to the start of
        the line after the value."""
        return (self.key_range.start.line, max(self.key_range.end.line, self.value_range.end.line) + 1)

    @property
    def value(self) -> Any:
        return node_value(self.node)

    @property
    def is_scalar(self) -> bool:
        return isinstance(self.node, yaml.ScalarNode)

    @property
    def yaml_type(self) -> str:
        """The YAML type of the value as a person would say it: string, integer, float, boolean, null, ..."""
        return yaml_type_name(self.node)


@dataclass
class SkillDocument:
    """A parsed SKILL.md. Every attribute is usable even when the file is broken."""

    path: Path
    text: str
    lines: LineIndex
    has_frontmatter: bool = False  # the first line is ``---``
    frontmatter_closed: bool = False  # a closing ``---`` line was found
    open_line: int = 0  # line of the opening fence
    close_line: int | None = None  # line of the closing fence
    yaml_problem: YamlProblem | None = None
    not_a_mapping: Range | None = None  # the frontmatter parsed, but is a list or scalar
    flow_mapping: bool = False  # the frontmatter is one flow mapping (``{name: x, description: y}``), not lines
    entries: list[FrontmatterEntry] = field(default_factory=list)  # all, duplicates included, in order
    _body_offset: int | None = field(default=None, repr=False, compare=False)  # see body_offset

    @property
    def body_start_line(self) -> int:
        if self.close_line is not None:
            return self.close_line + 1
        return 0 if not self.has_frontmatter else self.lines.line_count

    @property
    def body_offset(self) -> int:
        """Where the body starts in ``text`` (its length when the file ends before a body). Known from the parse
        for most files, so that a clean file's check never builds the line index."""
        if self._body_offset is None:
            line = self.body_start_line
            self._body_offset = len(self.text) if line >= self.lines.line_count else self.lines.line_start(line)
        return self._body_offset

    @property
    def frontmatter_ok(self) -> bool:
        """True when the frontmatter is a well-formed YAML mapping."""
        return (
            self.has_frontmatter
            and self.frontmatter_closed
            and self.yaml_problem is None
            and self.not_a_mapping is None
        )

    def entry(self, key: str) -> FrontmatterEntry | None:
        """The entry a YAML loader would keep for ``key``: the last one."""
        found = None
        for candidate in self.entries:
            if candidate.key == key:
                found = candidate
        return found

    def fields(self) -> dict[str, Any]:
        """The frontmatter as plain values (last duplicate wins), for discovery and the registry."""
        return {entry.key: entry.value for entry in self.entries}

    def string_field(self, key: str) -> str | None:
        """A field's value when it is a non-empty scalar string (after stripping), else None."""
        found = self.entry(key)
        if found is None or not isinstance(found.node, yaml.ScalarNode):
            return None
        value = found.value
        if isinstance(value, str) and value.strip():
            return value
        return None

    @property
    def name(self) -> str | None:
        return self.string_field("name")

    @property
    def description(self) -> str | None:
        return self.string_field("description")

    @property
    def frontmatter_range(self) -> Range:
        """The frontmatter block from the opening fence to the closing one (or the first line)."""
        end_line = self.close_line if self.close_line is not None else self.open_line
        return Range(Position(self.open_line, 0), Position(end_line, 3))

    def first_line_range(self) -> Range:
        return self.lines.line_range(0)


class UnparsedSkill:
    """A SKILL.md read but not parsed yet: its document is parsed on first use.

    Most of the copies discovery loads are never looked at again (a plainly simple frontmatter gives the name and
    description without a parse; a skill read in a worker process brought its own findings back), so the text is
    kept as the UTF-8 bytes it was read as whenever they decode cleanly: CPython stores a string at the width of its
    widest character (one emoji makes every character four bytes), and the language server keeps every skill of a
    workspace for the session. ``content`` is those bytes, or the text itself (an editor buffer, a file whose bytes
    needed repairing), or how to read the text again when it is asked for (a SKILL.md a headless check has
    checked already and let go of: ``batch.ahead``)."""

    __slots__ = ("content", "path")

    def __init__(self, path: Path, content: str | bytes | Callable[[], str]) -> None:
        self.path = path
        self.content = content

    @property
    def text(self) -> str:
        content = self.content
        if callable(content):
            content = self.content = content()
        return content if isinstance(content, str) else content.decode("utf-8")

    def parse(self) -> SkillDocument:
        return parse_skill(self.path, self.text)


SPLIT_FAST_PATH = True  # Kept: −8 % CPU of --check at 2,000 realistic skills (benchmarks/README.md)
"""Split a SKILL.md with only ``\n`` line breaks by string searches (a test compares it with the line index)."""


def parse_skill(path: Path, text: str) -> SkillDocument:
    """Parse the text of a SKILL.md (BOM already stripped). Never raises."""
    lines = LineIndex(text)
    document = SkillDocument(path=path, text=text, lines=lines)
    if SPLIT_FAST_PATH and "\r" not in text and "\x85" not in text:  # "\n" line ends: no line index needed
        first_end = text.find("\n")
        if not FENCE.match(text if first_end == -1 else text[:first_end]):
            document._body_offset = 0
            return document
        document.has_frontmatter = True
        closing = CLOSING_FENCE.search(text, first_end) if first_end != -1 else None
        if closing is None:
            return document
        fence_start = closing.start() + 1
        document.close_line = text.count("\n", 0, fence_start)
        document.frontmatter_closed = True
        body_break = text.find("\n", fence_start)
        document._body_offset = len(text) if body_break == -1 else body_break + 1
        # The entries' ranges come from a line index of the frontmatter alone: the same lines, without splitting a
        # body of hundreds of lines for the position of a key the rules report (an unknown field's, say).
        _compose_frontmatter(
            document, text[first_end + 1 : fence_start], first_line=1, lines=LineIndex(text[:fence_start])
        )
        return document
    if not FENCE.match(lines.line_text(0)):
        return document
    document.has_frontmatter = True
    document.close_line = closing_fence_line(lines)  # CR or U+0085 line ends: lines split as the editor splits them
    if document.close_line is None:
        return document
    document.frontmatter_closed = True
    start = lines.line_start(1)
    end = lines.line_start(document.close_line)
    _compose_frontmatter(document, text[start:end], first_line=1)
    return document


def closing_fence_line(lines: LineIndex) -> int | None:
    """The line of the ``---`` that closes a frontmatter opened on line 0, or None when none closes it: the parse's
    search on text with CR line ends, and the editor's (completion, hover) on every text."""
    return next((line for line in range(1, lines.line_count) if FENCE.match(lines.line_text(line))), None)


def _too_deep(source: str) -> int | None:
    """The character index where the YAML nests deeper than ``_MAX_DEPTH``, or None. Events are parsed
    iteratively, never recursively.

    Every collection needs at least one indicator character of its own (``[``, ``{``, ``-``, ``:``, ``?``), so a
    source with fewer of them cannot be too deep and is not parsed twice.
    """
    if sum(source.count(indicator) for indicator in "[{-:?") <= _MAX_DEPTH:
        return None
    depth = 0
    for event in yaml.parse(source, Loader=_Loader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > _MAX_DEPTH:
                return int(event.start_mark.index) if event.start_mark is not None else 0
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return None


# YAML 1.2, Clarvis's reading, breaks lines at CR and LF only; libyaml, a YAML 1.1 reader, also at U+0085, U+2028
# and U+2029: a value changes (a break inside a quoted scalar folds to a space) and errors land a line off. Stand-ins
# of one code point each (private use, printable to libyaml) keep every offset; values get the real characters back.
_YAML11_BREAKS = {"\u0085": "\ue085", "\u2028": "\ue028", "\u2029": "\ue029"}
_TO_STANDINS = str.maketrans(_YAML11_BREAKS)
_FROM_STANDINS = str.maketrans({standin: real for real, standin in _YAML11_BREAKS.items()})
_STANDINS = tuple(_YAML11_BREAKS.values())


def _without_yaml11_breaks(source: str) -> tuple[str, bool]:
    """``source`` with the YAML 1.1-only line breaks replaced by stand-ins, and whether any was (never when the
    text already holds a stand-in: then the file is read as it is)."""
    if not any(char in source for char in _YAML11_BREAKS) or any(char in source for char in _STANDINS):
        return source, False
    return source.translate(_TO_STANDINS), True


def _restore_yaml11_breaks(root: yaml.Node | None) -> None:
    """Put the real characters back into every scalar of the composed tree (each node once: aliases share)."""
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            node.value = node.value.translate(_FROM_STANDINS)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))


def _compose_frontmatter(document: SkillDocument, source: str, first_line: int, lines: LineIndex | None = None) -> None:
    """Compose ``source``, the frontmatter from ``first_line`` on, into ``document``'s entries (or its YAML
    problem). ``lines``: a line index that holds the frontmatter's lines as the document's does, for the entries'
    ranges (the document's own by default)."""
    source, translated = _without_yaml11_breaks(source)
    try:
        too_deep = _too_deep(source)
        root = yaml.compose(source, Loader=_Loader) if too_deep is None else None
        if translated:
            _restore_yaml11_breaks(root)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        if (
            mark is not None
            and error.context_mark is not None
            and document.close_line is not None
            and first_line + mark.line >= document.close_line
        ):
            # The parser ran off the end of the frontmatter (an unclosed `[` or quote): the place where the
            # unfinished construct started is what the person has to fix.
            mark = error.context_mark
        line = first_line + (mark.line if mark else 0)
        column = mark.column if mark else 0
        if document.close_line is not None and line >= document.close_line:
            line, column = document.close_line, 0
        width = max(1, document.lines.line_end(line) - document.lines.line_start(line) - column)
        message = " ".join(part for part in (error.context, error.problem) if part)
        document.yaml_problem = YamlProblem(
            message or "invalid YAML", Range(Position(line, column), Position(line, column + width))
        )
        return
    except yaml.reader.ReaderError as error:  # a control character: no mark, but a position in the stream
        char = error.character
        code_point = char if isinstance(char, int) else ord(str(char)[:1] or "\0")
        offset = error.position
        if _Loader is not yaml.SafeLoader:  # libyaml reports a byte offset into the UTF-8 encoded source
            offset = len(source.encode("utf-8")[:offset].decode("utf-8", errors="ignore"))
        at = document.lines.position(document.lines.line_start(first_line) + offset)
        document.yaml_problem = YamlProblem(
            f"{error.reason}: U+{code_point:04X} is not allowed in YAML; remove it",
            Range(at, Position(at.line, at.character + 1)),
        )
        return
    except yaml.YAMLError as error:
        document.yaml_problem = YamlProblem(str(error).splitlines()[0], document.frontmatter_range)
        return
    except UnicodeEncodeError as error:  # a lone surrogate (an editor buffer can hold one): libyaml cannot read it
        at = document.lines.position(document.lines.line_start(first_line) + error.start)
        document.yaml_problem = YamlProblem(
            f"U+{ord(source[error.start]):04X} is a lone surrogate, not a character; remove it",
            Range(at, Position(at.line, at.character + 1)),
        )
        return
    if too_deep is not None:
        at = document.lines.position(document.lines.line_start(first_line) + too_deep)
        document.yaml_problem = YamlProblem(
            f"the frontmatter nests more than {_MAX_DEPTH} levels deep here; flatten it",
            Range(at, Position(at.line, at.character + 1)),
        )
        return
    _take_root(document, root, first_line, document.lines if lines is None else lines)


def _take_root(document: SkillDocument, root: yaml.Node | None, first_line: int, lines: LineIndex) -> None:
    """Record the composed frontmatter: its entries, or that it is not a mapping."""
    if root is None:  # an empty frontmatter is an empty mapping
        return
    if not isinstance(root, yaml.MappingNode):
        document.not_a_mapping = _node_range(root, first_line, lines)
        return
    document.flow_mapping = bool(root.flow_style)
    for key_node, value_node in root.value:
        document.entries.append(FrontmatterEntry(_key_text(key_node), key_node, value_node, lines, first_line))


def _alias_range(lines: LineIndex, after_key: Position) -> Range:
    match = _ALIAS.match(lines.line_text(after_key.line), after_key.character)
    if match is None:
        return Range(after_key, after_key)
    return Range(Position(after_key.line, match.start(1)), Position(after_key.line, match.end(1)))


def _key_text(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    return yaml_type_name(node)


def _node_range(node: yaml.Node, first_line: int, lines: LineIndex) -> Range:
    # From the marks' character indexes, not their line/column: YAML also breaks lines at U+0085, U+2028 and
    # U+2029, which are no line breaks for an editor, so YAML's line numbers drift after one of them.
    base = lines.line_start(first_line)
    start = lines.position(base + node.start_mark.index)
    end = lines.position(base + node.end_mark.index)
    if end.character == 0 and end.line > start.line:
        # Block collections and block scalars end at column 0 of the line after their last content.
        end_line = end.line - 1
        end = Position(end_line, lines.line_end(end_line) - lines.line_start(end_line))
    return Range(start, end)


def yaml_type_name(node: yaml.Node) -> str:
    """A person's name for a node's type."""
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    if isinstance(node, yaml.SequenceNode):
        return "list"
    tag = node.tag.rsplit(":", 1)[-1]
    return {
        "str": "string",
        "int": "integer",
        "float": "float",
        "bool": "boolean",
        "null": "null",
        "timestamp": "date",
        "binary": "binary",
    }.get(tag, tag)


def node_value(node: yaml.Node) -> Any:
    """Build the plain value of a node, iteratively, sharing aliased nodes and stopping at a node budget."""
    if isinstance(node, yaml.ScalarNode):  # most values: nothing to share or to count
        return _scalar(node)
    memo: dict[int, Any] = {}
    budget = [_NODE_BUDGET]
    return _build(node, memo, budget)


def _build(node: yaml.Node, memo: dict[int, Any], budget: list[int]) -> Any:
    # Iterative post-order construction: an explicit stack, so nesting depth never hits the recursion limit.
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, expanded = stack.pop()
        key = id(current)
        if key in memo:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            memo[key] = None
            continue
        if isinstance(current, yaml.ScalarNode):
            memo[key] = _scalar(current)
        elif not expanded:
            stack.append((current, True))
            children: list[yaml.Node] = []
            if isinstance(current, yaml.SequenceNode):
                children = list(current.value)
            elif isinstance(current, yaml.MappingNode):
                for k, v in current.value:
                    children.extend((k, v))
            stack.extend((child, False) for child in children if id(child) not in memo)
        elif isinstance(current, yaml.SequenceNode):
            memo[key] = [memo.get(id(child)) for child in current.value]
        elif isinstance(current, yaml.MappingNode):
            built: dict[Any, Any] = {}
            for k, v in current.value:
                k_value = memo.get(id(k))
                try:
                    built[k_value] = memo.get(id(v))
                except TypeError:  # an unhashable key (a list as a key): keep its text
                    built[repr(k_value)] = memo.get(id(v))
            memo[key] = built
    return memo.get(id(node))


def _scalar(node: yaml.ScalarNode) -> Any:
    """A scalar's value under the YAML 1.2 core schema (explicit tags such as ``!!binary`` through PyYAML's safe
    constructor; ``!!python/…`` and other unknown tags are never constructed: their text is kept)."""
    tag, value = node.tag, node.value
    if tag == "tag:yaml.org,2002:str":
        return value
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool" and value in ("true", "True", "TRUE", "false", "False", "FALSE"):
        return value.lower() == "true"
    if tag == "tag:yaml.org,2002:int" and _CORE_INT.match(value):
        if value.startswith(("0o", "0x")):
            return int(value[2:], 8 if value[1] == "o" else 16)
        return int(value, 10)
    if tag == "tag:yaml.org,2002:float" and _CORE_FLOAT.match(value):
        return _core_float(value)
    try:
        return _SAFE_CONSTRUCTOR.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError):
        return value


def _core_float(text: str) -> float:
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    return float(text)
