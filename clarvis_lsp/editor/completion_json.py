"""Completion in the JSON kinds (settings.json, plugin.json, hooks.json, marketplace.json): the cursor is located
with ``JsonDocument.path_at`` (it recovers from unclosed quotes and braces) and the schemas say what may go there;
discovery adds the values they cannot know (installed plugins, a plugin's skills)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonLocation, JsonObject, to_python
from clarvis_lsp.editor.common import (
    HOOK_KINDS,
    describe_at,
    display_path,
    plugin_skills,
    properties_at,
)
from clarvis_lsp.editor.completion_item import CandidateKind, CompletionCandidate
from clarvis_lsp.editor.completion_snippets import (
    has_placeholder_key,
    json_string,
    json_value,
    plain_escape,
    preview,
    snippet_json,
    snippet_members,
    type_label,
    unique_snippets,
    value_snippet,
)
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.knowledge.hooks import EVENT_CLASS
from clarvis_lsp.knowledge.plugin import RUN_POLICIES
from clarvis_lsp.schema_docs import PathKey, PropertyDoc
from clarvis_lsp.workspace.discovered import Discovered

# A skill's value in capabilityRunPolicies: a snippet choice between the run policies (``"${1|…|}"``).
_RUN_POLICY_CHOICE = '"${1|' + ",".join(RUN_POLICIES) + '|}"'

_WORD = re.compile(r"[A-Za-z0-9_.:$-]*")

__all__ = ["JsonCompletion"]


class JsonCompletion:
    """The candidates at one offset of one JSON document."""

    def __init__(
        self,
        document: JsonDocument,
        kind: FileKind,
        offset: int,
        discovered: Discovered | None,
        path: Path | None,
        snippets: bool,
        trigger: str | None,
        overlay: Mapping[Path, str] | None = None,
    ) -> None:
        self.document = document
        self.text = document.text
        self.kind = kind
        self.offset = offset
        self.discovered = discovered
        self.path = path
        self.snippets = snippets
        self.trigger = trigger
        self.overlay = overlay
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
                    detail=type_label(doc) + (" (required)" if doc.required else ""),
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
            return json_string(name), False
        if not self.snippets:
            return f"{json_string(name)}: ", False
        key = plain_escape(json_string(name))
        return f"{key}: {value_snippet(doc)}{',' if comma else ''}", True

    def reference_keys(
        self, path: Sequence[PathKey], present: set[str], replace: Range, renaming: bool, comma: bool
    ) -> list[CompletionCandidate]:
        """Keys that name things discovery knows: the plugin's skills in ``capabilityRunPolicies``."""
        if self.kind is not FileKind.PLUGIN or list(path) != ["capabilityRunPolicies"] or self.path is None:
            return []
        result = []
        skills = plugin_skills(self.discovered, self.path.parent, self.overlay)
        for index, (name, skill_path) in enumerate(skills.items()):
            if name in present:
                continue
            if renaming:
                insert, is_snippet = json_string(name), False
            elif self.snippets:
                insert = f"{plain_escape(json_string(name))}: " + _RUN_POLICY_CHOICE + ("," if comma else "")
                is_snippet = True
            else:
                insert, is_snippet = f"{json_string(name)}: ", False
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
        for index, snippet in enumerate(unique_snippets(doc)):
            body = snippet.get("body")
            if not isinstance(body, Mapping) or not body:
                continue
            if not has_placeholder_key(body) and others:
                continue
            result.append(
                self.snippet_candidate(snippet, snippet_members(body) + ("," if comma else ""), replace, index)
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
            documentation_markdown="```json\n" + preview(insert) + "\n```",
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
            skills = plugin_skills(self.discovered, self.path.parent, self.overlay)
            return [
                self.value_candidate(
                    name,
                    json_string(name),
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
                    json_string(name),
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
                label = item.value if isinstance(item.value, str) else json_value(item.value)
                detail = None
                if is_event and item.value in EVENT_CLASS:
                    detail = f"{EVENT_CLASS[str(item.value)]} event"
                elif doc.has_default and doc.default == item.value:
                    detail = "default"
                documentation = item.markdown_description or item.description
                candidate = self.value_candidate(
                    str(label),
                    json_value(item.value),
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
                        json_value(value),
                        json_value(value),
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
        for index, snippet in enumerate(unique_snippets(doc)):
            body = snippet.get("body")
            if body is None or has_placeholder_key(body):
                continue
            insert = prefix + snippet_json(body) + comma
            result.append(self.snippet_candidate(snippet, insert, replace, index))
        return result
