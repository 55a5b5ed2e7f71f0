"""The two settings files and the plugin manifests as the model reads them: parsed once, with the place of each
member, and the settings merged field by field (SPEC §2.1: ``hooks`` concatenated, ``mcpServers`` merged by name,
every other field replaced whole; trust-gated fields held back until trust).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from clarvis_lsp.discovery import PluginInfo
from clarvis_lsp.documents.jsondoc import JsonDocument, JsonNode, JsonObject, parse_json, to_python
from clarvis_lsp.effective.entries import (
    Origin,
    Place,
    ReadText,
    RejectedField,
    SettingField,
)
from clarvis_lsp.knowledge import settings as settings_facts
from clarvis_lsp.rules.settings import unknown_field_message

# -- settings ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Settings:
    """One settings file parsed: its document (for positions) and its top-level members."""

    path: Path
    document: JsonDocument | None
    root: JsonObject | None

    def member_place(self, key: str) -> Place | None:
        if self.root is None or self.document is None:
            return None
        member = self.root.get(key)
        if member is None:
            return None
        start = self.document.key_range(member).start
        return Place(self.path, start.line, start.character)

    def node_place(self, node: JsonNode) -> Place:
        assert self.document is not None
        start = self.document.node_range(node).start
        return Place(self.path, start.line, start.character)

    def value(self, key: str) -> JsonNode | None:
        return self.root.value_of(key) if self.root is not None else None

    def has(self, key: str) -> bool:
        return self.root is not None and self.root.get(key) is not None


def _read_settings(path: Path, read_text: ReadText, wanted: bool = True) -> _Settings:
    text = read_text(path) if wanted else None
    if text is None:
        return _Settings(path, None, None)
    document = parse_json(text)
    root = document.root if isinstance(document.root, JsonObject) else None
    return _Settings(path, document, root)


_DEFAULTS: Mapping[str, object] = {
    "hooks": [],
    "mcpServers": {},
    "marketplaces": [],
    "enabledPlugins": [],
}


def _known_fields(extra: Sequence[str]) -> tuple[str, ...]:
    """The top-level settings fields Clarvis accepts: the schema's, and those ``settings.extraFields`` allows."""
    return (*settings_facts.FIELDS, *(name for name in extra if name not in settings_facts.FIELD))


def _merge_settings(
    personal: _Settings, workspace: _Settings, trusted: bool, known: Sequence[str]
) -> tuple[SettingField, ...]:
    """Each known top-level field (``known``: a field either file sets beyond them is rejected, never effective)
    with its effective value and its origin."""
    names = list(known)
    fields: list[SettingField] = []
    for name in names:
        if name == "$schema":
            continue
        p_node, w_node = personal.value(name), workspace.value(name)
        p_val, w_val = to_python(p_node) if p_node else None, to_python(w_node) if w_node else None
        gated = name in settings_facts.TRUST_GATED
        w_in_force = w_node is not None and (trusted or not gated)
        held = workspace.member_place(name) if w_node is not None and gated and not trusted else None
        if name == "hooks" and w_in_force and p_node is not None:
            merged = [*(p_val if isinstance(p_val, list) else []), *(w_val if isinstance(w_val, list) else [])]
            fields.append(
                SettingField(name, merged, "workspace", workspace.member_place(name), note="personal, then workspace")
            )
        elif name == "mcpServers" and w_in_force and p_node is not None:
            servers = dict(p_val) if isinstance(p_val, dict) else {}
            servers.update(w_val if isinstance(w_val, dict) else {})
            fields.append(
                SettingField(name, servers, "workspace", workspace.member_place(name), note="merged by server name")
            )
        elif name in settings_facts.TRUST_GATED_MEMBERS and w_node is not None:
            value = dict(w_val) if isinstance(w_val, dict) else w_val
            note = ""
            held_member = None
            if not trusted and isinstance(value, dict):
                for member in settings_facts.TRUST_GATED_MEMBERS[name]:
                    if member in value:
                        held_member = workspace.member_place(name)
                        value.pop(member)
                        if isinstance(p_val, dict) and member in p_val:
                            value[member] = p_val[member]
                            note = f"{name}.{member} held back until trust; the personal one stays in force"
                        else:
                            note = f"{name}.{member} held back until trust; none until then"
            fields.append(SettingField(name, value, "workspace", workspace.member_place(name), held_member, note))
        elif w_in_force:
            fields.append(SettingField(name, w_val, "workspace", workspace.member_place(name)))
        elif p_node is not None:
            fields.append(SettingField(name, p_val, "personal", personal.member_place(name), held))
        else:
            fields.append(SettingField(name, _DEFAULTS.get(name), "default", None, held))
    return tuple(fields)


def _rejected(personal: _Settings, workspace: _Settings, known: tuple[str, ...]) -> tuple[RejectedField, ...]:
    """Every top-level field of either file outside ``known``, with its ``settings/unknown-field`` finding: Clarvis
    rejects them (settings.json is strict), trusted or not, so the model lists them apart from the settings."""
    rejected: list[RejectedField] = []
    for origin, source in (("personal", personal), ("workspace", workspace)):
        if source.root is None:
            continue
        for member in source.root.members:
            if member.key in known:
                continue
            place = source.member_place(member.key)
            assert place is not None
            scope: Literal["personal", "workspace"] = "personal" if origin == "personal" else "workspace"
            rejected.append(RejectedField(member.key, scope, place, unknown_field_message(member.key, known, scope)))
    return tuple(rejected)


def _field(settings: Sequence[SettingField], name: str) -> SettingField | None:
    return next((item for item in settings if item.name == name), None)


def _enabled_list(personal: _Settings, workspace: _Settings, trusted: bool) -> tuple[list[str], Origin]:
    """The ``enabledPlugins`` in force (first occurrence of each name kept) and where it comes from."""
    node = workspace.value("enabledPlugins") if trusted else None
    origin: Origin = "workspace"
    if node is None:
        node, origin = personal.value("enabledPlugins"), "personal"
    names: list[str] = []
    value = to_python(node) if node is not None else None
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str) and item and item not in names:
            names.append(item)
    return names, origin if node is not None else "default"


# -- plugin manifests ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Manifest:
    name: object
    document: JsonDocument | None
    root: JsonObject | None


def _manifest(plugin: PluginInfo, read_text: ReadText) -> _Manifest:
    if plugin.manifest is None:
        return _Manifest(plugin.name, None, None)
    text = read_text(plugin.manifest)
    if text is None:
        return _Manifest(plugin.name, None, None)
    document = parse_json(text)
    root = document.root if isinstance(document.root, JsonObject) else None
    name = to_python(root.value_of("name")) if root is not None and root.value_of("name") is not None else None
    return _Manifest(name, document, root)


def _manifest_map(manifest: _Manifest, key: str) -> JsonObject | None:
    value = manifest.root.value_of(key) if manifest.root is not None else None
    return value if isinstance(value, JsonObject) else None


def _keys(node: JsonObject | None) -> tuple[str, ...]:
    """An object's distinct keys in order of first appearance (none for a missing object)."""
    return tuple(dict.fromkeys(member.key for member in node.members)) if node is not None else ()


def _scope_word(scope: str) -> str:
    return "personal" if scope == "user" else scope
