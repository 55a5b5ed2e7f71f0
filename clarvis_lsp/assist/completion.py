"""Completion candidates by position, for every file kind, in documents that are still being typed.

The JSON kinds locate the cursor with ``JsonDocument.path_at`` (it recovers from unclosed quotes and braces) and
ask the schemas (``schema_store``) what may go there: property names not yet present, enum values (narrowed by
the document, so a hook on ``run_end`` offers only ``on_failure: "pass"`` and an ``http`` MCP server no
``command``), booleans, and the schemas' ``defaultSnippets`` as LSP snippets. Facts discovery knows add values
the schemas cannot: installed plugins for ``enabledPlugins``, the plugin's skills for ``bootstrapSkill`` and
``capabilityRunPolicies``, discovered agents for a skill's ``agent``. SKILL.md frontmatter is read line by line,
so completion works while the YAML does not parse.

Ranges are engine ranges (code points); the server converts them to the client's encoding.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from clarvis_lsp.assist.common import (
    HOOK_KINDS,
    SCHEMA_FOR_KIND,
    FrontmatterLine,
    describe_at,
    display_path,
    frontmatter_keys,
    frontmatter_line,
    frontmatter_lines,
    parsed_json,
    plugin_skills,
    properties_at,
)
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonLocation, JsonObject, to_python
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.engine import Discovered
from clarvis_lsp.kinds import FileKind
from clarvis_lsp.knowledge.hooks import EVENT_CLASS
from clarvis_lsp.knowledge.plugin import RUN_POLICIES
from clarvis_lsp.knowledge.skill import NAME_PATTERN
from clarvis_lsp.model import Position, Range
from clarvis_lsp.schema_store import PathKey, PropertyDoc, describe, load_schema, property_names

# A skill's value in capabilityRunPolicies: a snippet choice between the run policies (``"${1|…|}"``).
_RUN_POLICY_CHOICE = '"${1|' + ",".join(RUN_POLICIES) + '|}"'

CandidateKind = Literal["property", "value", "enum", "snippet", "reference"]

__all__ = ["CandidateKind", "CompletionCandidate", "complete", "snippet_json"]

_WORD = re.compile(r"[A-Za-z0-9_.:$-]*")


@dataclass(frozen=True)
class CompletionCandidate:
    """One completion item, protocol-free.

    ``replace_range`` is what accepting the item replaces (on the cursor's line, containing the cursor);
    ``insert_text`` is LSP snippet syntax when ``is_snippet``. ``filter_text`` is what the client matches the
    typed text against (it includes the opening quote when the range starts at one).
    """

    label: str
    kind: CandidateKind
    detail: str | None
    documentation_markdown: str | None
    insert_text: str
    is_snippet: bool
    replace_range: Range
    sort_text: str | None = None
    filter_text: str | None = None
    preselect: bool = False


def complete(
    text: str,
    kind: FileKind | None,
    position: Position,
    discovered: Discovered | None = None,
    *,
    path: Path | None = None,
    snippets: bool = False,
    trigger: str | None = None,
    lines: LineIndex | None = None,
) -> list[CompletionCandidate]:
    """The candidates at ``position`` (code points) in ``text``, a document of ``kind`` at ``path``.

    ``snippets``: the client accepts snippet syntax (otherwise no snippet is offered and properties insert plain
    ``"key": ``). ``trigger``: the character that triggered the request, if any; ``:`` and a space answer only
    in a value position, so that typing between members does not pop a list up.
    """
    if kind is None or kind not in SCHEMA_FOR_KIND:
        return []
    lines = lines if lines is not None else LineIndex(text)
    if kind is FileKind.SKILL:
        return _complete_skill(lines, position, discovered, path, snippets, trigger)
    return _JsonCompletion(
        parsed_json(text), kind, lines.offset(position), discovered, path, snippets, trigger
    ).candidates()


# ------------------------------------------------------------------------------------------------ snippets


def snippet_json(value: Any, indent: str = "", step: str = "  ") -> str:
    """A ``defaultSnippets`` body as JSON text in LSP snippet syntax (placeholders kept inside the strings)."""
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        inner = indent + step
        members = [f"{inner}{_snippet_string(str(k))}: {snippet_json(v, inner, step)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if all(not isinstance(item, (Mapping, list)) for item in value):
            return "[" + ", ".join(snippet_json(item, indent, step) for item in value) + "]"
        inner = indent + step
        return "[\n" + ",\n".join(inner + snippet_json(item, inner, step) for item in value) + "\n" + indent + "]"
    if isinstance(value, str):
        return _snippet_string(value)
    return json.dumps(value)


def _snippet_members(body: Mapping[str, Any], step: str = "  ") -> str:
    """The members of an object snippet without its braces (for a key position inside an existing object)."""
    return ",\n".join(f"{_snippet_string(str(k))}: {snippet_json(v, '', step)}" for k, v in body.items())


def _snippet_string(value: str) -> str:
    # A JSON string whose ``$``-placeholders stay live; a backslash must be doubled for JSON and escaped for
    # the snippet grammar alike.
    escaped = value.replace("\\", "\\\\\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _plain_escape(text: str) -> str:
    """Text inserted literally through a snippet: ``$``, ``}`` and ``\\`` escaped."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _has_placeholder_key(body: Any) -> bool:
    return isinstance(body, Mapping) and any("$" in str(key) for key in body)


# ---------------------------------------------------------------------------------------------------- JSON


def _json_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _json_value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _type_label(doc: PropertyDoc) -> str:
    if doc.enum:
        return " | ".join(_json_value(item.value) for item in doc.enum)
    return " | ".join(doc.types) if doc.types else "any"


class _JsonCompletion:
    def __init__(
        self,
        document: JsonDocument,
        kind: FileKind,
        offset: int,
        discovered: Discovered | None,
        path: Path | None,
        snippets: bool,
        trigger: str | None,
    ) -> None:
        self.document = document
        self.text = document.text
        self.kind = kind
        self.offset = offset
        self.discovered = discovered
        self.path = path
        self.snippets = snippets
        self.trigger = trigger
        self.location: JsonLocation = document.path_at(offset)
        self._data: object = None
        self._data_built = False

    @property
    def data(self) -> object:
        if not self._data_built:
            self._data = to_python(self.document.root)
            self._data_built = True
        return self._data

    def range(self, start: int, end: int) -> Range:
        return self.document.lines.range(start, end)

    def candidates(self) -> list[CompletionCandidate]:
        location = self.location
        if location.in_key:
            if self.trigger in (":", " "):
                return []
            if not isinstance(location.container, JsonObject):
                return []
            return self.key_candidates()
        if self.trigger == " " and (location.start != location.end or not self._after_separator()):
            return []
        if location.container is None and location.node is None:
            return []
        return self.value_candidates()

    def _after_separator(self) -> bool:
        index = self.location.start - 1
        while index >= 0 and self.text[index] in " \t":
            index -= 1
        return index >= 0 and self.text[index] in ":[,"

    # ---- spans

    def token_span(self) -> tuple[int, int]:
        """What an accepted item replaces: the token under the cursor, or nothing at the cursor."""
        location = self.location
        start, end = location.start, location.end
        if start == end:
            return self.offset, self.offset
        if location.quoted and not self._token_closed():
            # An unclosed string runs to the end of its line: replace only the word being typed.
            word = _WORD.match(self.text, self.offset)
            return start, word.end() if word else self.offset
        return start, end

    def _token_closed(self) -> bool:
        location = self.location
        if location.node is not None and not location.in_key:
            return location.node.closed
        start, end = location.start, location.end
        return end - start >= 2 and self.text[end - 1] == self.text[start] and self.text[end - 2] != "\\"

    def filter_text(self, label: str) -> str | None:
        return f'"{label}"' if self.location.quoted else None

    def needs_comma(self, end: int) -> bool:
        """Whether something follows ``end`` in the same container without a separating comma."""
        text = self.text
        index = end
        while index < len(text) and text[index] in " \t\r\n":
            index += 1
        return index < len(text) and (text[index] in "\"{['" or text[index].isalnum())

    def space_before(self, start: int) -> str:
        return " " if start > 0 and self.text[start - 1] == ":" else ""

    # ---- keys

    def key_candidates(self) -> list[CompletionCandidate]:
        location = self.location
        container = location.container
        assert isinstance(container, JsonObject)
        start, end = self.token_span()
        replace = self.range(start, end)
        present = {member.key for member in container.members if member is not location.member}
        renaming = location.member is not None and (location.member.colon is not None)
        comma = not renaming and self.needs_comma(end)
        result: list[CompletionCandidate] = []
        path = list(location.path)
        for index, doc in enumerate(properties_at(self.kind, path, self.data)):
            name = doc.name
            if name is None or name in present:
                continue
            insert, is_snippet = self.property_insert(doc, renaming, comma)
            result.append(
                CompletionCandidate(
                    label=name,
                    kind="property",
                    detail=_type_label(doc) + (" (required)" if doc.required else ""),
                    documentation_markdown=doc.markdown or None,
                    insert_text=insert,
                    is_snippet=is_snippet,
                    replace_range=replace,
                    sort_text=f"{0 if doc.required else 1}{index:04d}",
                    filter_text=self.filter_text(name),
                )
            )
        result.extend(self.reference_keys(path, present, replace, renaming, comma))
        if self.snippets and not renaming:
            result.extend(self.member_snippets(path, container, replace, comma))
        return result

    def property_insert(self, doc: PropertyDoc, renaming: bool, comma: bool) -> tuple[str, bool]:
        name = doc.name or ""
        if renaming:
            return _json_string(name), False
        if not self.snippets:
            return f"{_json_string(name)}: ", False
        key = _plain_escape(_json_string(name))
        return f"{key}: {_value_snippet(doc)}{',' if comma else ''}", True

    def reference_keys(
        self, path: Sequence[PathKey], present: set[str], replace: Range, renaming: bool, comma: bool
    ) -> list[CompletionCandidate]:
        """Keys that name things discovery knows: the plugin's skills in ``capabilityRunPolicies``."""
        if self.kind is not FileKind.PLUGIN or list(path) != ["capabilityRunPolicies"] or self.path is None:
            return []
        result = []
        for index, (name, skill_path) in enumerate(plugin_skills(self.discovered, self.path.parent).items()):
            if name in present:
                continue
            if renaming:
                insert, is_snippet = _json_string(name), False
            elif self.snippets:
                insert = f"{_plain_escape(_json_string(name))}: " + _RUN_POLICY_CHOICE + ("," if comma else "")
                is_snippet = True
            else:
                insert, is_snippet = f"{_json_string(name)}: ", False
            result.append(
                CompletionCandidate(
                    label=name,
                    kind="reference",
                    detail="skill of this plugin",
                    documentation_markdown=f"Run policy of the skill `{name}` "
                    f"(`{display_path(skill_path, self.discovered)}`): `off`, `on` or `review`.",
                    insert_text=insert,
                    is_snippet=is_snippet,
                    replace_range=replace,
                    sort_text=f"0{index:04d}",
                    filter_text=self.filter_text(name),
                )
            )
        return result

    def member_snippets(
        self, path: Sequence[PathKey], container: JsonObject, replace: Range, comma: bool
    ) -> list[CompletionCandidate]:
        """The object's own ``defaultSnippets`` as members: always for a map of named entries (a new MCP server
        in ``mcpServers``), and for a fixed-shape object only while it is empty (a new hook in ``{}``)."""
        doc = describe_at(self.kind, path, self.data)
        if doc is None:
            return []
        others = [member for member in container.members if member is not self.location.member]
        result = []
        for index, snippet in enumerate(_unique_snippets(doc)):
            body = snippet.get("body")
            if not isinstance(body, Mapping) or not body:
                continue
            if not _has_placeholder_key(body) and others:
                continue
            result.append(
                self.snippet_candidate(snippet, _snippet_members(body) + ("," if comma else ""), replace, index)
            )
        return result

    def snippet_candidate(
        self, snippet: Mapping[str, Any], insert: str, replace: Range, index: int
    ) -> CompletionCandidate:
        label = str(snippet.get("label", "snippet"))
        description = snippet.get("markdownDescription") or snippet.get("description")
        return CompletionCandidate(
            label=label,
            kind="snippet",
            detail=str(description) if description else None,
            documentation_markdown="```json\n" + _preview(insert) + "\n```",
            insert_text=insert,
            is_snippet=True,
            replace_range=replace,
            sort_text=f"2{index:04d}",
            filter_text=self.filter_text(label),
        )

    # ---- values

    def value_candidates(self) -> list[CompletionCandidate]:
        location = self.location
        target = location.target_path
        start, end = self.token_span()
        node = location.node
        if node is not None and node.is_container:
            return []  # on a bracket: the value is there already
        replace = self.range(start, end)
        prefix = self.space_before(start)
        comma = "," if self.needs_comma(end) else ""
        result = self.reference_values(target, replace, prefix, comma)
        if not result:
            result = self.schema_values(target, replace, prefix, comma)
        if self.snippets and node is None:
            result.extend(self.value_snippets(target, replace, prefix, comma))
        return result

    def reference_values(
        self, target: Sequence[PathKey], replace: Range, prefix: str, comma: str
    ) -> list[CompletionCandidate]:
        if (
            self.kind is FileKind.SETTINGS
            and len(target) == 2
            and target[0] == "enabledPlugins"
            and isinstance(target[1], int)
        ):
            return self.plugin_values(replace, prefix, comma)
        if self.kind is FileKind.PLUGIN and list(target) == ["bootstrapSkill"] and self.path is not None:
            skills = plugin_skills(self.discovered, self.path.parent)
            return [
                self.value_candidate(
                    name,
                    _json_string(name),
                    "reference",
                    "skill of this plugin",
                    f"Inject the skill `{name}` (`{display_path(skill, self.discovered)}`) before the answer.",
                    replace,
                    prefix,
                    comma,
                    index,
                )
                for index, (name, skill) in enumerate(skills.items())
            ]
        return []

    def plugin_values(self, replace: Range, prefix: str, comma: str) -> list[CompletionCandidate]:
        if self.discovered is None:
            return []
        container = self.location.container
        listed: set[str] = set()
        if isinstance(container, JsonArray):
            listed = {
                str(item.value)
                for item in container.items
                if item.kind == "string" and item is not self.location.node and isinstance(item.value, str)
            }
        result = []
        for index, (name, plugin) in enumerate(sorted(self.discovered.plugins.items())):
            if name in listed:
                continue
            where = plugin.manifest or plugin.directory
            documentation = f"Installed plugin `{name}` ({plugin.scope}): `{display_path(where, self.discovered)}`."
            if plugin.hides is not None:
                documentation += (
                    f"\n\nHides the personal plugin `{display_path(plugin.hides.directory, self.discovered)}`."
                )
            result.append(
                self.value_candidate(
                    name,
                    _json_string(name),
                    "reference",
                    f"{plugin.scope} plugin",
                    documentation,
                    replace,
                    prefix,
                    comma,
                    index,
                )
            )
        return result

    def schema_values(
        self, target: Sequence[PathKey], replace: Range, prefix: str, comma: str
    ) -> list[CompletionCandidate]:
        doc = describe_at(self.kind, target, self.data)
        if doc is None:
            return []
        is_event = self.kind in HOOK_KINDS and bool(target) and target[-1] == "event"
        result = []
        if doc.enum:
            for index, item in enumerate(doc.enum):
                label = item.value if isinstance(item.value, str) else _json_value(item.value)
                detail = None
                if is_event and item.value in EVENT_CLASS:
                    detail = f"{EVENT_CLASS[str(item.value)]} event"
                elif doc.has_default and doc.default == item.value:
                    detail = "default"
                documentation = item.markdown_description or item.description
                candidate = self.value_candidate(
                    str(label),
                    _json_value(item.value),
                    "enum",
                    detail,
                    documentation,
                    replace,
                    prefix,
                    comma,
                    index,
                    preselect=doc.has_default and doc.default == item.value,
                )
                result.append(candidate)
        elif "boolean" in doc.types:
            for index, value in enumerate((True, False)):
                is_default = doc.has_default and doc.default is value
                result.append(
                    self.value_candidate(
                        _json_value(value),
                        _json_value(value),
                        "value",
                        "default" if is_default else "boolean",
                        doc.markdown or None,
                        replace,
                        prefix,
                        comma,
                        index,
                        preselect=is_default,
                    )
                )
        return result

    def value_candidate(
        self,
        label: str,
        literal: str,
        kind: CandidateKind,
        detail: str | None,
        documentation: str | None,
        replace: Range,
        prefix: str,
        comma: str,
        index: int,
        *,
        preselect: bool = False,
    ) -> CompletionCandidate:
        return CompletionCandidate(
            label=label,
            kind=kind,
            detail=detail,
            documentation_markdown=documentation,
            insert_text=prefix + literal + comma,
            is_snippet=False,
            replace_range=replace,
            sort_text=f"0{index:04d}",
            filter_text=literal if self.location.quoted else None,
            preselect=preselect,
        )

    def value_snippets(
        self, target: Sequence[PathKey], replace: Range, prefix: str, comma: str
    ) -> list[CompletionCandidate]:
        """Whole-object snippets where a value goes: a new hook in a ``hooks`` array, a server's object."""
        doc = describe_at(self.kind, target, self.data)
        if doc is None:
            return []
        result = []
        for index, snippet in enumerate(_unique_snippets(doc)):
            body = snippet.get("body")
            if body is None or _has_placeholder_key(body):
                continue
            insert = prefix + snippet_json(body) + comma
            result.append(self.snippet_candidate(snippet, insert, replace, index))
        return result


def _value_snippet(doc: PropertyDoc) -> str:
    """The value part of a property snippet, shaped by the property's type."""
    if doc.enum:
        values = [item.value for item in doc.enum]
        if len(values) > 1 and all(isinstance(value, str) and not re.search(r"[,|$}\\]", value) for value in values):
            return '"${1|' + ",".join(str(value) for value in values) + '|}"'
        if len(values) == 1:
            return _plain_escape(_json_value(values[0]))
    types = doc.types
    if types == ("string",):
        return '"$1"'
    if types == ("object",):
        return "{$1}"
    if types == ("array",):
        return "[$1]"
    if types == ("boolean",):
        return "${1|false,true|}" if doc.has_default and doc.default is False else "${1|true,false|}"
    if types in (("integer",), ("number",)):
        number = doc.default if doc.has_default else 0
        return "${1:" + _plain_escape(_json_value(number)) + "}"
    return "$1"


def _unique_snippets(doc: PropertyDoc) -> list[Mapping[str, Any]]:
    seen: set[str] = set()
    result = []
    for snippet in doc.snippets:
        key = json.dumps(snippet, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            result.append(snippet)
    return result


def _preview(snippet: str) -> str:
    """A snippet as the text it inserts with its defaults (for the item's documentation)."""
    previous = None
    text = snippet
    while previous != text:
        previous = text
        text = re.sub(r"\$\{\d+:([^${}]*)\}", r"\1", text)
        text = re.sub(r"\$\{\d+\|([^,|]*)[^|]*\|\}", r"\1", text)
    text = re.sub(r"\$\{?\d+\}?", "", text)
    return text.replace("\\$", "$").replace("\\}", "}")


# ------------------------------------------------------------------------------------------------ SKILL.md


def _complete_skill(
    lines: LineIndex,
    position: Position,
    discovered: Discovered | None,
    path: Path | None,
    snippets: bool,
    trigger: str | None,
) -> list[CompletionCandidate]:
    if frontmatter_lines(lines) is None:
        if snippets and position.line == 0 and trigger is None:
            return _frontmatter_snippet(lines, position, path)
        return []
    current = frontmatter_line(lines, position.line)
    if current is None:
        return []
    column = position.character
    if current.colon is None or column <= current.key_end:
        if trigger in (":", " ", '"'):
            return []
        if column < current.key_start:
            return []
        return _skill_keys(lines, current.line, current.key, current.key_end, current.colon is not None)
    if column <= current.colon:
        return []
    return _skill_values(current.key, current, column, discovered)


def _skill_keys(lines: LineIndex, line: int, typed: str, key_end: int, has_colon: bool) -> list[CompletionCandidate]:
    present = frontmatter_keys(lines, skip_line=line)
    replace = Range(Position(line, 0), Position(line, key_end))
    result = []
    for index, doc in enumerate(property_names("skill-frontmatter", [])):
        name = doc.name
        if name is None or name in present:
            continue
        result.append(
            CompletionCandidate(
                label=name,
                kind="property",
                detail=_type_label(doc) + (" (required)" if doc.required else ""),
                documentation_markdown=doc.markdown or None,
                insert_text=name if has_colon else f"{name}: ",
                is_snippet=False,
                replace_range=replace,
                sort_text=f"{0 if doc.required else 1}{index:04d}",
            )
        )
    return result


def _skill_values(
    key: str, current: FrontmatterLine, column: int, discovered: Discovered | None
) -> list[CompletionCandidate]:
    line = current.line
    text = current.text
    if current.value_start < current.value_end:
        start, end = current.value_start, current.value_end
    else:
        start = end = column
    if not start <= column <= end:
        return []
    quote = text[start] if start < end and text[start] in "\"'" else ""
    prefix = " " if start > 0 and text[start - 1] == ":" else ""
    replace = Range(Position(line, start), Position(line, end))

    def candidate(
        label: str, kind: CandidateKind, detail: str | None, doc: str | None, index: int
    ) -> CompletionCandidate:
        literal = f"{quote}{label}{quote}" if quote else label
        return CompletionCandidate(
            label=label,
            kind=kind,
            detail=detail,
            documentation_markdown=doc,
            insert_text=prefix + literal,
            is_snippet=False,
            replace_range=replace,
            sort_text=f"0{index:04d}",
            filter_text=literal if quote else None,
        )

    if key == "agent":
        if discovered is None:
            return []
        ordered = sorted(discovered.agents.values(), key=lambda agent: (not agent.enabled, agent.name))
        result = []
        for index, agent in enumerate(ordered):
            where = display_path(agent.path, discovered)
            if agent.plugin is not None:
                detail = f"agent of plugin {agent.plugin}" + ("" if agent.enabled else " (not enabled)")
            else:
                detail = f"{agent.scope} agent"
            note = "" if agent.enabled else f"\n\nThe plugin `{agent.plugin}` is not in `enabledPlugins`."
            result.append(candidate(agent.name, "reference", detail, f"Agent `{agent.name}`: `{where}`.{note}", index))
        return result
    doc = describe("skill-frontmatter", [key])
    if doc is None:
        return []
    if doc.enum:
        return [
            candidate(str(item.value), "enum", None, item.markdown_description or item.description, index)
            for index, item in enumerate(doc.enum)
        ]
    if "boolean" in doc.types:
        return [
            candidate(
                label,
                "value",
                "default" if doc.has_default and doc.default is value else "boolean",
                doc.markdown or None,
                index,
            )
            for index, (label, value) in enumerate((("true", True), ("false", False)))
        ]
    return []


def _frontmatter_snippet(lines: LineIndex, position: Position, path: Path | None) -> list[CompletionCandidate]:
    """A new frontmatter block for a SKILL.md that has none, with the directory's name as the default name."""
    text = lines.line_text(0)
    if text.strip() and not "---".startswith(text.strip()):
        return []
    schema = load_schema("skill-frontmatter")
    result = []
    for index, snippet in enumerate(schema.get("defaultSnippets", ())):
        body = snippet.get("body")
        if not isinstance(body, Mapping):
            continue
        entries = []
        for key, value in body.items():
            rendered = str(value)
            if key == "name" and path is not None and NAME_PATTERN.match(path.parent.name):
                rendered = re.sub(
                    r"\$\{(\d+):[^}]*\}", lambda m: "${" + m.group(1) + ":" + path.parent.name + "}", rendered
                )
            entries.append(f"{key}: {rendered}")
        insert = "---\n" + "\n".join(entries) + "\n---\n$0"
        result.append(
            CompletionCandidate(
                label=str(snippet.get("label", "New skill frontmatter")),
                kind="snippet",
                detail="SKILL.md frontmatter",
                documentation_markdown="```yaml\n" + _preview(insert) + "\n```",
                insert_text=insert,
                is_snippet=True,
                replace_range=Range(Position(0, 0), Position(0, len(text))),
                sort_text=f"2{index:04d}",
                filter_text=None,
            )
        )
    return result
