"""The JSON Schemas in ``schemas/`` and their loader ``clarvis_lsp.schema_docs``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import regex
from jsonschema import Draft202012Validator, FormatChecker

from clarvis_lsp import schema_docs
from clarvis_lsp.knowledge import hooks, marketplace, mcp, plugin, schemas, settings, skill
from clarvis_lsp.schema_docs import (
    SCHEMA_BASE_URI,
    describe,
    load_schema,
    property_names,
    registry,
    schema_id,
    schema_names,
    validator,
)

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"
NAMES = [
    "hook",
    "hooks",
    "marketplace",
    "mcp-server",
    "plugin",
    "settings",
    "skill-frontmatter",
]

# Keywords whose subschemas are conditions or constraints, not documentation of a property.
CONSTRAINT_KEYWORDS = {"if", "then", "else", "not", "propertyNames", "contains", "dependentSchemas"}


def errors(name: str, instance: Any) -> list[str]:
    return [e.message for e in validator(name).iter_errors(instance)]


def is_valid(name: str, instance: Any) -> bool:
    return bool(validator(name).is_valid(instance))


# ------------------------------------------------------------------------------------------ walking helpers


def all_subschemas(schema: Any, where: str = "#", skip_constraints: bool = True) -> Iterator[tuple[str, Any]]:
    """Every dict in a schema, with its JSON pointer (skipping condition branches when asked)."""
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            if key in ("enum", "const", "default", "examples", "defaultSnippets", "required"):
                continue
            if skip_constraints and key in CONSTRAINT_KEYWORDS:
                continue
            yield from all_subschemas(value, f"{where}/{key}", skip_constraints)
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from all_subschemas(value, f"{where}/{index}", skip_constraints)


# ------------------------------------------------------------------------------------------ the files


def test_schema_names_are_the_shipped_files() -> None:
    assert schema_names() == NAMES
    on_disk = sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json"))
    assert on_disk == sorted(f"{n}.schema.json" for n in NAMES)


# A schema pattern is an ECMAScript regex (``\\p{L}`` is valid there, not in Python's ``re``, which the default
# format checker compiles "regex" values with).
ECMASCRIPT_FORMATS = FormatChecker()


@ECMASCRIPT_FORMATS.checks("regex", raises=regex.error)
def _is_ecmascript_regex(instance: object) -> bool:
    return not isinstance(instance, str) or bool(regex.compile(instance, regex.VERSION0))


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema, format_checker=ECMASCRIPT_FORMATS)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://clarvis-lsp.dev/schemas/{name}.schema.json" == schema_id(name)
    assert schema["$id"].startswith(SCHEMA_BASE_URI)
    assert isinstance(schema.get("title"), str) and schema["title"]
    assert schema.get("description") and schema.get("markdownDescription")


@pytest.mark.parametrize("name", NAMES)
def test_loader_reads_the_package_data_of_schemas_dir(name: str) -> None:
    on_disk = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert load_schema(name) == on_disk
    assert load_schema(f"{name}.schema.json") is load_schema(name)


def test_unknown_schema_name() -> None:
    with pytest.raises(KeyError, match="unknown schema"):
        load_schema("vscode-settings")


def documented_members(schema: Any) -> Iterator[tuple[str, Any]]:
    """Every schema that documents a key or a value: the values of ``properties``, ``patternProperties`` and
    ``$defs``, and an ``additionalProperties`` schema (a map's values), anywhere outside conditions. A bare
    ``{"$ref": ...}`` is documented where it points."""
    for where, sub in all_subschemas(schema):
        for keyword in ("properties", "patternProperties", "$defs"):
            for key, member in sub.get(keyword, {}).items():
                yield f"{where}/{keyword}/{key}", member
        additional = sub.get("additionalProperties")
        if isinstance(additional, dict) and set(additional) != {"$ref"}:
            yield f"{where}/additionalProperties", additional


@pytest.mark.parametrize("name", NAMES)
def test_every_property_has_description_and_markdown_description(name: str) -> None:
    members = list(documented_members(load_schema(name)))
    assert members
    for where, member in members:
        assert isinstance(member, dict), where
        for keyword in ("description", "markdownDescription"):
            text = member.get(keyword)
            assert isinstance(text, str) and text.strip(), f"{name}{where[1:]} has no {keyword}"


@pytest.mark.parametrize("name", NAMES)
def test_every_enum_value_has_descriptions(name: str) -> None:
    found = 0
    for where, sub in all_subschemas(load_schema(name)):
        if "enum" not in sub:
            continue
        found += 1
        values = sub["enum"]
        for keyword in ("enumDescriptions", "markdownEnumDescriptions"):
            texts = sub.get(keyword)
            assert isinstance(texts, list), f"{where}: no {keyword}"
            assert len(texts) == len(values), f"{where}: {keyword} not parallel to enum"
            assert all(isinstance(t, str) and t.strip() for t in texts), f"{where}: empty {keyword}"
    if name in ("hook", "mcp-server", "plugin"):
        assert found > 0


@pytest.mark.parametrize("name", NAMES)
def test_every_ref_resolves_offline(name: str) -> None:
    schema = load_schema(name)
    resolver = registry().resolver(base_uri=schema["$id"])
    for where, sub in all_subschemas(schema, skip_constraints=False):
        if "$ref" in sub:
            resolved = resolver.lookup(sub["$ref"])
            assert isinstance(resolved.contents, dict), where


def test_cross_schema_refs_point_at_the_ids() -> None:
    hooks_items = load_schema("settings")["properties"]["hooks"]["items"]
    resolved = registry().resolver(base_uri=schema_id("settings")).lookup(hooks_items["$ref"])
    assert resolved.contents["$id"] == schema_id("hook")
    servers = load_schema("plugin")["properties"]["mcpServers"]["additionalProperties"]
    resolved = registry().resolver(base_uri=schema_id("plugin")).lookup(servers["$ref"])
    assert resolved.contents["$id"] == schema_id("mcp-server")
    plugin_hook_refs = {
        registry().resolver(base_uri=schema_id("plugin")).lookup(ref).contents["$id"]
        for ref in _refs(load_schema("plugin")["properties"]["hooks"])
    }
    assert plugin_hook_refs == {schema_id("hook"), schema_id("hooks")}


def _refs(schema: Any) -> list[str]:
    return [sub["$ref"] for _, sub in all_subschemas(schema) if "$ref" in sub]


def test_validator_is_cached_and_uses_the_registry() -> None:
    assert validator("settings") is validator("settings")
    assert validator("settings.schema.json") is validator("settings")
    assert type(validator("hook")).META_SCHEMA == Draft202012Validator.META_SCHEMA


# ------------------------------------------------------------------------------------------ known fields (§3)

KNOWN_FIELDS: dict[str, tuple[str, list[str | int], set[str]]] = {
    # §3.1
    "skill": ("skill-frontmatter", [], set(skill.FIELDS)),
    # §3.2
    "settings": ("settings", [], set(settings.FIELDS)),
    **{
        f"settings.{capability}": ("settings", [capability], set(settings.TRUST_GATED_MEMBERS[capability]))
        for capability in settings.CAPABILITY_FIELDS
    },
    # §3.3
    "hook": ("hook", [], set(hooks.HOOK_FIELDS)),
    "hook.match": ("hook", ["match"], set(hooks.MATCH_FIELDS)),
    "settings.hooks[]": ("settings", ["hooks", 0], set(hooks.HOOK_FIELDS)),
    "hooks.json array": ("hooks", [0], set(hooks.HOOK_FIELDS)),
    "hooks.json object": ("hooks", [], set(hooks.DOCUMENT_FIELDS)),
    # §3.4
    "mcp": ("mcp-server", [], set(mcp.FIELDS)),
    "settings.mcpServers.*": ("settings", ["mcpServers", "any"], set(mcp.FIELDS)),
    # §3.5
    "plugin": ("plugin", [], set(plugin.FIELDS)),
    "plugin.author": ("plugin", ["author"], {"name"}),
    "plugin.executable": ("plugin", ["capabilityExecutables", "memory"], set(plugin.EXECUTABLE_FIELDS)),
    "plugin.executable.platforms.*": (
        "plugin",
        ["capabilityExecutables", "memory", "platforms", "win32"],
        set(plugin.OVERRIDE_FIELDS),
    ),
    "plugin.hooks[]": ("plugin", ["hooks", 0], set(hooks.HOOK_FIELDS)),
    # §3.6
    "marketplace": ("marketplace", [], set(marketplace.ROOT_FIELDS)),
    "marketplace.plugins[]": ("marketplace", ["plugins", 0], set(marketplace.ENTRY_FIELDS)),
}


@pytest.mark.parametrize("label", sorted(KNOWN_FIELDS))
def test_known_fields_are_present(label: str) -> None:
    name, path, expected = KNOWN_FIELDS[label]
    offered = {doc.name for doc in property_names(name, path)}
    assert offered == expected
    for field in expected:
        doc = describe(name, [*path, field])
        assert doc is not None and doc.description and doc.markdown_description, f"{label}.{field}"


def test_required_fields() -> None:
    def required(name: str, path: list[str | int]) -> set[str]:
        return {d.name for d in property_names(name, path) if d.required and d.name}

    def layer(name: str, *pointer: str) -> set[str]:  # the knowledge layer's reading of the same object
        schema = schemas.load(name)
        for key in pointer:
            schema = schema[key]
        return {field.name for field in schemas.fields(schema).values() if field.required}

    assert required("skill-frontmatter", []) == set(skill.REQUIRED) == layer("skill-frontmatter")
    assert required("hook", []) == layer("hook")
    assert required("plugin", []) == layer("plugin")
    assert required("plugin", ["capabilityExecutables", "x"]) == layer("plugin", "$defs", "executable")
    assert required("marketplace", []) == layer("marketplace") == set()
    assert required("marketplace", ["plugins", 0]) == layer("marketplace", "$defs", "entry")
    assert required("settings", []) == layer("settings") == set()


def test_defaults() -> None:
    expected: list[tuple[str, list[str | int], Any]] = [
        ("skill-frontmatter", ["user-invocable"], True),
        ("mcp-server", ["type"], "stdio"),
        ("mcp-server", ["resources"], True),
        ("plugin", ["capabilityExecutables", "memory", "timeout_ms"], 30000),
        ("plugin", ["capabilityExecutables", "memory", "args"], []),
        ("plugin", ["capabilityExecutables", "memory", "env"], {}),
        ("marketplace", ["plugins"], []),
    ]
    for name, path, value in expected:
        doc = describe(name, path)
        assert doc is not None and doc.has_default and doc.default == value, (name, path)
    doc = describe("hook", ["timeout_ms"])
    assert doc is not None and not doc.has_default


# ------------------------------------------------------------------------------------------ events


def test_events_document_class_effect_rewrite_and_tool() -> None:
    doc = describe("settings", ["hooks", 0, "event"])
    assert doc is not None
    assert [e.value for e in doc.enum] == list(hooks.EVENTS)
    for entry in doc.enum:
        assert entry.description and entry.markdown_description
        assert entry.description.startswith(f"[{hooks.EVENT_CLASS[entry.value]}]"), entry.value
        assert f"**{hooks.EVENT_CLASS[entry.value]}**" in entry.markdown_description, entry.value
        can_rewrite = "may return a rewrite verdict" in entry.description
        assert can_rewrite == (entry.value == hooks.REWRITE_EVENT), entry.value
        assert ("Tool event" in entry.description) == (entry.value in hooks.TOOL_EVENTS), entry.value
        assert ("**Can `rewrite`**" in entry.markdown_description) == (entry.value == hooks.REWRITE_EVENT)


def test_hook_snippets_and_mcp_snippets_per_transport() -> None:
    hook_snippets = load_schema("hook")["defaultSnippets"]
    assert hook_snippets and all({"event", "command"} <= set(s["body"]) for s in hook_snippets)
    transports = {s["body"]["type"] for s in load_schema("mcp-server")["defaultSnippets"]}
    assert transports == set(mcp.TRANSPORTS)
    doc = describe("settings", ["mcpServers"])
    assert doc is not None and len(doc.snippets) == 3


# ------------------------------------------------------------------------------------------ validation

VALID: list[tuple[str, Any]] = [
    ("hook", {"event": "pre_tool_use", "command": "./guard.sh", "match": {"tool": "shell"}, "on_failure": "deny"}),
    ("hook", {"event": "post_tool_use", "command": "x", "match": {"tool": ["a", "b.*"], "args": {"p": "^src/"}}}),
    ("hook", {"event": "pre_finalize", "command": "x", "on_failure": "deny", "timeout_ms": 60000}),
    ("hook", {"event": "run_start", "command": "x", "on_failure": "pass", "timeout_ms": 1}),
    ("hooks", []),
    ("hooks", [{"event": "session_start", "command": "cat context.md"}]),
    ("hooks", {"hooks": [{"event": "pre_compact", "command": "x"}]}),
    ("mcp-server", {"command": "npx", "args": ["-y", "srv"], "env": {"T": "${T}"}, "shared": True}),
    ("mcp-server", {"type": "stdio", "command": "srv", "resources": False}),
    ("mcp-server", {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"A": "Bearer ${T}"}}),
    ("mcp-server", {"type": "sse", "url": "http://localhost:8080/sse"}),
    ("settings", {}),
    (
        "settings",
        {
            "$schema": "https://clarvis-lsp.dev/schemas/settings.schema.json",
            "hooks": [{"event": "run_end", "command": "notify"}],
            "mcpServers": {"github": {"type": "http", "url": "https://mcp.example.com/gh"}, "db": {"command": "d"}},
            "marketplaces": [
                "https://github.com/acme/plugins.git",
                "http://git.local/acme/plugins",
                "ssh://git@github.com/acme/plugins.git",
                "git://example.org/plugins.git",
                "git@github.com:acme/plugins.git",
            ],
            "enabledPlugins": ["review", "quality"],
            "memory": {"provider": "quality"},
            "plans": {"provider": "quality"},
            "tasks": {"provider": "quality"},
            "model": "some-model",
        },
    ),
    ("plugin", {"name": "my-plugin"}),
    (
        "plugin",
        {
            "name": "quality",
            "version": "1.2.0-beta.1",
            "description": "Quality tools",
            "author": {"name": "Ada"},
            "mcpServers": {"db": {"command": "db-mcp"}},
            "hooks": "./hooks/extra.json",
            "bootstrapSkill": "review-checklist",
            "capabilityExecutables": {
                "memory": {
                    "command": "quality-memory",
                    "args": ["serve"],
                    "env": {"DATABASE_URL": "${DATABASE_URL}"},
                    "timeout_ms": 30000,
                    "platforms": {"win32": {"command": "quality-memory.exe"}},
                }
            },
            "capabilityRunPolicies": {"release": "review", "a": "on", "b": "off"},
        },
    ),
    ("plugin", {"name": "p", "author": "Ada", "hooks": [{"event": "pre_tool_use", "command": "x"}]}),
    ("plugin", {"name": "p", "hooks": {"hooks": [{"event": "run_end", "command": "x"}]}}),
    ("marketplace", {}),
    (
        "marketplace",
        {
            "name": "acme",
            "displayName": "ACME",
            "description": "Plugins",
            "plugins": [
                {"name": "a", "source": "https://github.com/acme/a.git", "path": "plugins/a", "homepage": "https://a"},
                {"name": "b", "source": "git@github.com:acme/b.git", "category": "review", "displayName": "B"},
                {"name": "c", "source": "./plugins/c", "description": "local"},
            ],
        },
    ),
    ("skill-frontmatter", {"name": "review.v2_x-y", "description": "Reviews"}),
    (
        "skill-frontmatter",
        {
            "name": "s",
            "description": "d",
            "agent": "my-plugin:reviewer",
            "version": "1.0",
            "license": "MIT",
            "argument-hint": ["<url>", "[--fast]"],
            "user-invocable": False,
            "allowed-tools": ["shell"],
        },
    ),
    ("skill-frontmatter", {"name": "s", "description": "d", "tools": "shell", "argument-hint": "<x>"}),
]


@pytest.mark.parametrize(("name", "instance"), VALID, ids=lambda v: v if isinstance(v, str) else "")
def test_valid_documents(name: str, instance: Any) -> None:
    assert errors(name, instance) == []


INVALID: list[tuple[str, str, Any]] = [
    ("hook event PreToolUse", "hook", {"event": "PreToolUse", "command": "x"}),
    ("hook without event", "hook", {"command": "x"}),
    ("hook without command", "hook", {"event": "run_end"}),
    ("hook with empty command", "hook", {"event": "run_end", "command": ""}),
    ("deny on run_start", "hook", {"event": "run_start", "command": "x", "on_failure": "deny"}),
    ("deny on session_start", "hook", {"event": "session_start", "command": "x", "on_failure": "deny"}),
    ("deny on pre_compact", "hook", {"event": "pre_compact", "command": "x", "on_failure": "deny"}),
    ("match on run_end", "hook", {"event": "run_end", "command": "x", "match": {"tool": "shell"}}),
    ("match on pre_finalize", "hook", {"event": "pre_finalize", "command": "x", "match": {}}),
    ("on_failure block", "hook", {"event": "pre_tool_use", "command": "x", "on_failure": "block"}),
    ("timeout 0", "hook", {"event": "run_end", "command": "x", "timeout_ms": 0}),
    ("timeout 60001", "hook", {"event": "run_end", "command": "x", "timeout_ms": 60001}),
    ("timeout float", "hook", {"event": "run_end", "command": "x", "timeout_ms": 1.5}),
    ("match.tool number", "hook", {"event": "pre_tool_use", "command": "x", "match": {"tool": 3}}),
    ("match.args non-string", "hook", {"event": "pre_tool_use", "command": "x", "match": {"args": {"a": 1}}}),
    ("hook unknown field", "hook", {"event": "run_end", "command": "x", "when": "always"}),
    ("hooks doc not a list", "hooks", {"hooks": {}}),
    ("hooks doc bad hook", "hooks", [{"event": "PostToolUse", "command": "x"}]),
    ("hooks doc 65 hooks", "hooks", [{"event": "run_end", "command": "x"}] * 65),
    ("stdio with url", "mcp-server", {"command": "x", "url": "https://x/y"}),
    ("stdio with headers", "mcp-server", {"type": "stdio", "command": "x", "headers": {}}),
    ("stdio without command", "mcp-server", {"type": "stdio"}),
    ("default type without command", "mcp-server", {"args": []}),
    ("http without url", "mcp-server", {"type": "http"}),
    ("sse with command", "mcp-server", {"type": "sse", "url": "https://x/y", "command": "x"}),
    ("http with env", "mcp-server", {"type": "http", "url": "https://x/y", "env": {}}),
    ("http url not http", "mcp-server", {"type": "http", "url": "ftp://x/y"}),
    ("unknown transport", "mcp-server", {"type": "websocket", "url": "https://x/y"}),
    ("mcp unknown field", "mcp-server", {"command": "x", "cwd": "/tmp"}),
    ("settings unknown key", "settings", {"hooks": [], "theme": "dark"}),
    ("settings hooks object", "settings", {"hooks": {"hooks": []}}),
    ("settings bad hook", "settings", {"hooks": [{"event": "PreToolUse", "command": "x"}]}),
    ("settings bad server", "settings", {"mcpServers": {"a": {"type": "http"}}}),
    ("settings server name with colon", "settings", {"mcpServers": {"a:b": {"command": "x"}}}),
    ("settings marketplace not a url", "settings", {"marketplaces": ["acme/plugins"]}),
    ("settings marketplace ftp", "settings", {"marketplaces": ["ftp://example.org/x.git"]}),
    ("settings duplicate plugin", "settings", {"enabledPlugins": ["a", "a"]}),
    ("settings memory without provider", "settings", {"memory": {}}),
    ("settings model number", "settings", {"model": 4}),
    ("plugin name with space", "plugin", {"name": "My Plugin"}),
    ("plugin name uppercase", "plugin", {"name": "MyPlugin"}),
    ("plugin without name", "plugin", {"description": "x"}),
    ("plugin run policy maybe", "plugin", {"name": "p", "capabilityRunPolicies": {"s": "maybe"}}),
    ("plugin executable without command", "plugin", {"name": "p", "capabilityExecutables": {"m": {"args": []}}}),
    ("plugin author number", "plugin", {"name": "p", "author": 3}),
    ("plugin empty description", "plugin", {"name": "p", "description": ""}),
    ("plugin version not semver", "plugin", {"name": "p", "version": "1.0"}),
    ("plugin hooks path escapes", "plugin", {"name": "p", "hooks": "../other/hooks.json"}),
    ("plugin hooks absolute path", "plugin", {"name": "p", "hooks": "/etc/hooks.json"}),
    ("plugin unknown field", "plugin", {"name": "p", "homepage": "https://x"}),
    ("marketplace entry without source", "marketplace", {"plugins": [{"name": "a"}]}),
    ("marketplace entry without name", "marketplace", {"plugins": [{"source": "./a"}]}),
    ("marketplace entry ftp source", "marketplace", {"plugins": [{"name": "a", "source": "ftp://x/a.git"}]}),
    ("marketplace entry absolute source", "marketplace", {"plugins": [{"name": "a", "source": "/srv/a"}]}),
    ("marketplace unknown root field", "marketplace", {"owner": "acme"}),
    ("skill without name", "skill-frontmatter", {"description": "d"}),
    ("skill blank description", "skill-frontmatter", {"name": "s", "description": "   "}),
    ("skill name with space", "skill-frontmatter", {"name": "my skill", "description": "d"}),
    ("skill name too long", "skill-frontmatter", {"name": "a" * 129, "description": "d"}),
    ("skill user-invocable string", "skill-frontmatter", {"name": "s", "description": "d", "user-invocable": "yes"}),
    ("skill argument-hint object", "skill-frontmatter", {"name": "s", "description": "d", "argument-hint": {}}),
    ("skill version float", "skill-frontmatter", {"name": "s", "description": "d", "version": 1.0}),
    ("skill unknown key", "skill-frontmatter", {"name": "s", "description": "d", "user-invokable": True}),
]


@pytest.mark.parametrize(("label", "name", "instance"), INVALID, ids=[i[0] for i in INVALID])
def test_invalid_documents(label: str, name: str, instance: Any) -> None:
    assert errors(name, instance), label


def test_conditional_errors_carry_an_editor_message() -> None:
    # VS Code shows ``errorMessage`` for a failing ``not``/``const``; the rules can reuse it too.
    found = list(validator("hook").iter_errors({"event": "run_end", "command": "x", "on_failure": "deny"}))
    assert any("control events" in str(e.schema.get("errorMessage", "")) for e in found)
    found = list(validator("mcp-server").iter_errors({"command": "x", "url": "https://x/y"}))
    assert [list(e.absolute_path) for e in found] == [["url"]]


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://github.com/acme/plugins.git", True),
        ("http://git.local/plugins", True),
        ("ssh://git@github.com:22/acme/plugins.git", True),
        ("git://example.org/plugins.git", True),
        ("git@github.com:acme/plugins.git", True),
        ("deploy@git.example.org:team/plugins", True),
        ("https://github.com", False),
        ("github.com/acme/plugins", False),
        ("file:///srv/plugins.git", False),
        ("", False),
        ("https://github.com/acme/plugins .git", False),
    ],
)
def test_marketplace_url_pattern(url: str, ok: bool) -> None:
    assert is_valid("settings", {"marketplaces": [url]}) is ok


# ------------------------------------------------------------------------------------------ describe


def test_describe_settings_hook_event() -> None:
    doc = describe("settings", ["hooks", 0, "event"])
    assert doc is not None
    assert doc.name == "event"
    assert doc.types == ("string",)
    assert len(doc.enum) == len(hooks.EVENTS)
    assert doc.required is True
    assert "control" in (doc.description or "") and "observer" in doc.markdown


def test_describe_follows_refs_and_branches() -> None:
    doc = describe("plugin", ["hooks", 0, "on_failure"])
    assert doc is not None and [e.value for e in doc.enum] == list(hooks.ON_FAILURE_VALUES)
    doc = describe("plugin", ["hooks"])
    assert doc is not None and set(doc.types) == {"array", "object", "string"}
    doc = describe("hooks", ["hooks", 3, "match", "args", "path"])
    assert doc is not None and doc.types == ("string",) and "JavaScript" in (doc.description or "")
    doc = describe("plugin", ["capabilityExecutables", "memory", "platforms", "darwin", "command"])
    assert doc is not None and doc.description and "platform" in doc.description
    doc = describe("plugin", ["capabilityRunPolicies", "release"])
    assert doc is not None and [e.value for e in doc.enum] == list(plugin.RUN_POLICIES)
    assert all(e.description for e in doc.enum)
    doc = describe("settings", ["mcpServers", "github", "type"])
    assert doc is not None and [e.value for e in doc.enum] == list(mcp.TRANSPORTS)
    assert doc.default == mcp.DEFAULT_TRANSPORT
    doc = describe("plugin", ["author", "name"])
    assert doc is not None and doc.description == "The author's name."


def test_describe_root_and_unknown_paths() -> None:
    doc = describe("settings", [])
    assert doc is not None and doc.name is None and doc.title == "Clarvis settings.json"
    assert describe("settings", ["theme"]) is None
    assert describe("settings", ["hooks", "event"]) is None
    assert describe("hook", ["event", "nested"]) is None


def test_describe_mentions_trust_and_activation() -> None:
    for field in settings.TRUST_GATED:
        doc = describe("settings", [field])
        assert doc is not None and "/workspace-trust" in doc.markdown, field
    for field, members in settings.TRUST_GATED_MEMBERS.items():
        for member in members:
            doc = describe("settings", [field, member])
            assert doc is not None and "/workspace-trust" in doc.markdown, (field, member)
    doc = describe("plugin", ["hooks"])
    assert doc is not None and "/extensions/hooks" in doc.markdown
    doc = describe("plugin", ["capabilityExecutables", "memory"])
    assert doc is not None and "inert" in doc.markdown


def test_describe_with_document_decides_conditions() -> None:
    document = {"hooks": [{"event": "run_end", "command": "x", "on_failure": "deny"}]}
    doc = describe("settings", ["hooks", 0, "on_failure"], document)
    assert doc is not None and [e.value for e in doc.enum] == ["pass"]
    document["hooks"][0]["event"] = "pre_tool_use"
    doc = describe("settings", ["hooks", 0, "on_failure"], document)
    assert doc is not None and [e.value for e in doc.enum] == list(hooks.ON_FAILURE_VALUES)
    doc = describe("settings", ["mcpServers", "a", "url"], {"mcpServers": {"a": {"command": "x"}}})
    assert doc is not None and doc.forbidden and doc.description
    doc = describe("settings", ["mcpServers", "a", "url"])
    assert doc is not None and not doc.forbidden


# ------------------------------------------------------------------------------------------ property_names


def test_property_names_in_schema_order_with_docs() -> None:
    docs = property_names("hook", [])
    assert [d.name for d in docs] == list(hooks.HOOK_FIELDS)
    assert all(d.description and d.markdown_description for d in docs)
    assert [d.name for d in property_names("settings", ["hooks", 0, "match"])] == list(hooks.MATCH_FIELDS)


def test_property_names_filtered_by_document() -> None:
    http = {"mcpServers": {"gh": {"type": "http"}}}
    allowed_on = {t: [field for field in mcp.FIELDS if field not in mcp.FORBIDDEN[t]] for t in mcp.TRANSPORTS}
    assert [d.name for d in property_names("settings", ["mcpServers", "gh"], http)] == allowed_on["http"]
    stdio: dict[str, Any] = {"mcpServers": {"gh": {}}}
    docs = property_names("settings", ["mcpServers", "gh"], stdio)
    assert [d.name for d in docs] == allowed_on[mcp.DEFAULT_TRANSPORT]
    assert [d.name for d in docs if d.required] == list(mcp.REQUIRED[mcp.DEFAULT_TRANSPORT])
    url = next(d for d in property_names("settings", ["mcpServers", "gh"], http) if d.name == "url")
    assert url.required
    hook = {"hooks": [{"event": "run_end"}]}
    assert "match" not in {d.name for d in property_names("settings", ["hooks", 0], hook)}
    hook = {"hooks": [{"event": "pre_tool_use"}]}
    assert "match" in {d.name for d in property_names("settings", ["hooks", 0], hook)}
    # An event being typed (not yet valid) leaves every field on offer.
    hook = {"hooks": [{"event": "pre_"}]}
    assert "match" in {d.name for d in property_names("settings", ["hooks", 0], hook)}


def test_property_names_for_maps_and_scalars_are_empty() -> None:
    assert property_names("settings", ["mcpServers"]) == []
    assert property_names("settings", ["model"]) == []
    assert property_names("settings", ["nope"]) == []


def test_describe_is_cached_without_document() -> None:
    assert describe("settings", ["hooks", 0, "event"]) is describe("settings", ("hooks", 0, "event"))
    assert schema_docs.describe("settings.schema.json", ["model"]) == describe("settings", ["model"])
