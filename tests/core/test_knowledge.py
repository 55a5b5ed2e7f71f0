"""``clarvis_lsp.knowledge`` against the schema files themselves: one test family per fact, each able to catch drift.

The layer reads the schemas with a plain ``json.load``; these tests read the files in ``schemas/`` on their own,
compare, and where the schema also says the fact another way (an ``if``/``then`` condition the validator applies,
a table in a description, a snippet's choices) check that the two say the same thing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp import schema_docs
from clarvis_lsp.knowledge import hooks, layout, marketplace, mcp, plugin, schemas, settings, skill
from clarvis_lsp.knowledge.files import FileKind, file_kind
from clarvis_lsp.schema_docs import validator

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


def raw(name: str) -> dict[str, Any]:
    """A schema as the file on disk holds it, read independently of the package."""
    data = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def valid(name: str, instance: Any) -> bool:
    return bool(validator(name).is_valid(instance))


# -- loading ------------------------------------------------------------------------------------------------------


def test_the_layer_reads_every_shipped_schema_once() -> None:
    assert schemas.schema_names() == tuple(
        sorted(p.name.removesuffix(".schema.json") for p in SCHEMA_DIR.glob("*.json"))
    )
    for name in schemas.schema_names():
        assert schemas.load(name) == raw(name)
        assert schemas.load(name) is schemas.load(name)
        assert schema_docs.load_schema(name) is schemas.load(name)  # the editor features share the same read
    with pytest.raises(KeyError, match="unknown schema"):
        schemas.load("vscode-settings")


def test_the_schemas_read_through_importlib_resources_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package data is read from the package directory; from a zip, through importlib.resources: alike."""
    from_directory = {name: schemas.load(name) for name in schemas.schema_names()}
    assert schemas._directory() is not None
    monkeypatch.setattr(schemas, "_directory", lambda: None)
    for cached in (schemas.schema_names, schemas.load):
        monkeypatch.setattr(schemas, cached.__name__, cached.__wrapped__)  # type: ignore[attr-defined]
    assert {name: schemas.load(name) for name in schemas.schema_names()} == from_directory


def test_python_patterns_match_as_the_schema_patterns_do() -> None:
    assert schemas.python_pattern("^a|b$").match("a") is not None  # the whole pattern is anchored
    assert schemas.python_pattern("^[a-z]+$").match("abc\n") is None  # ECMAScript's $ is the end, not a newline
    with pytest.raises(ValueError, match="anchored"):
        schemas.python_pattern("[a-z]+")


def _schema_patterns() -> list[str]:
    """Every ``pattern`` written in the shipped schemas."""
    found: list[str] = []
    pending: list[Any] = [raw(name) for name in schemas.schema_names()]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            if isinstance(value.get("pattern"), str):
                found.append(value["pattern"])
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return sorted(set(found))


def _ascii_texts(pattern: str) -> list[str]:
    """Every ASCII text of up to two characters, and longer ones made of what the pattern writes."""
    import random

    ascii_chars = [chr(code) for code in range(128)]
    texts = ["", *ascii_chars, *(a + b for a in ascii_chars for b in ascii_chars)]
    pieces = [*set(pattern), "a", "Z", "0", "9", ".", "-", "_", "://", "https://", "git@h:x", "1.2.3", " ", "\x1c"]
    rng = random.Random(pattern)
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 24))) for _ in range(3000)]
    return texts


@pytest.mark.parametrize("pattern", _schema_patterns())
def test_the_ascii_projection_matches_ascii_texts_as_regex_does(pattern: str) -> None:
    """An ASCII text is matched with ``re`` by the pattern's ASCII projection instead of compiling ``regex``: both
    must say the same, for every schema pattern (the ones with no safe projection always use ``regex``)."""
    import regex

    source = f"(?:{pattern[1:-1]})\\Z" if pattern.startswith("^") and pattern.endswith("$") else pattern
    projection = schemas.ascii_projection(source)
    if projection is None:
        assert not re.fullmatch(r"[^\\]*", source), source  # only an escape can stop a projection here
        return
    python = re.compile(projection)
    ecmascript = regex.compile(source, regex.VERSION0)
    for text in _ascii_texts(pattern):
        assert (python.match(text) is None) == (ecmascript.match(text) is None), (pattern, text)


def test_the_ascii_projection_is_refused_where_re_and_regex_differ() -> None:
    assert schemas.ascii_projection(r"[\p{L}\p{M}\p{Nd}._-]+\Z") == r"[A-Za-z0-9._-]+\Z"
    assert schemas.ascii_projection(r"[^\p{L}]") == "[^A-Za-z]"
    assert schemas.ascii_projection(r"[]\p{L}]") == "[]A-Za-z]"
    for pattern in (r"\S+", r"[^\s/]", r"\w", r"\p{L}", r"[\p{Sc}]", r"(?i)a", r"[\p{M}]", "a\\"):
        assert schemas.ascii_projection(pattern) is None, pattern
    name = schemas.python_pattern("^[\\p{L}\\p{M}\\p{Nd}._-]+$")
    assert name.match("déjà-vu") is not None and name.match("a b") is None and name.match("ab") is not None
    url = schemas.python_pattern("^\\S+$")
    assert url.match("a\x1cb") is not None  # ECMAScript's \s is not Python's: regex decides


# -- hook events and their classes ---------------------------------------------------------------------------------


def test_every_event_of_the_enum_has_a_known_class() -> None:
    event = raw("hook")["properties"]["event"]
    assert tuple(event["enum"]) == hooks.EVENTS
    assert len(event["x-clarvis-event-class"]) == len(event["enum"])
    assert set(hooks.EVENT_CLASS) == set(hooks.EVENTS)
    assert set(hooks.EVENT_CLASS.values()) == set(hooks.CLASS_EFFECT) == set(event["x-clarvis-event-classes"])
    assert hooks.CONTROL_CLASS in hooks.CLASS_EFFECT
    # The enum lists events class by class, in the order of the class table.
    order = list(dict.fromkeys(hooks.EVENT_CLASS[name] for name in hooks.EVENTS))
    assert order == list(hooks.CLASS_EFFECT)
    assert hooks.events_of(hooks.CONTROL_CLASS) == hooks.CONTROL_EVENTS


def test_tool_and_control_events_are_what_the_schema_conditions_enforce() -> None:
    assert set(hooks.TOOL_EVENTS) <= set(hooks.EVENTS) and hooks.REWRITE_EVENT in hooks.TOOL_EVENTS
    for event in hooks.EVENTS:
        with_match = {"event": event, "command": "x", "match": {"tool": "shell"}}
        assert valid("hook", with_match) == (event in hooks.TOOL_EVENTS), event
        deny = {"event": event, "command": "x", "on_failure": "deny"}
        assert valid("hook", deny) == (event in hooks.CONTROL_EVENTS), event


def test_the_class_tables_in_the_descriptions_list_the_events_of_each_class() -> None:
    hook = raw("hook")
    for text in (hook["markdownDescription"], hook["properties"]["event"]["markdownDescription"]):
        rows = re.findall(r"^\| ([a-z ]+) \| (`.+`) \| (.+) \|$", text, re.M)
        assert {klass: re.findall(r"`([a-z_]+)`", events) for klass, events, _ in rows} == {
            klass: list(hooks.events_of(klass)) for klass in hooks.CLASS_EFFECT
        }
        for klass, _, effect in rows:  # hover words the effect as a clause ("its output cannot block the run")
            assert effect in hooks.CLASS_EFFECT[klass], klass


def test_the_event_descriptions_name_each_events_class() -> None:
    event = raw("hook")["properties"]["event"]
    for name, plain in zip(event["enum"], event["enumDescriptions"], strict=True):
        assert plain.startswith(f"[{hooks.EVENT_CLASS[name]}]"), name


def test_the_new_hook_snippet_offers_every_event() -> None:
    snippet = raw("hook")["defaultSnippets"][0]["body"]["event"]
    choices = re.fullmatch(r"\$\{1\|(.*)\|\}", snippet)
    assert choices is not None and tuple(choices.group(1).split(",")) == hooks.EVENTS


# -- hook fields and limits ----------------------------------------------------------------------------------------


def test_hook_fields_and_values_are_the_schema_properties() -> None:
    properties = raw("hook")["properties"]
    assert tuple(properties) == hooks.HOOK_FIELDS
    assert tuple(properties["match"]["properties"]) == hooks.MATCH_FIELDS
    assert tuple(properties["on_failure"]["enum"]) == hooks.ON_FAILURE_VALUES
    assert (
        properties["timeout_ms"]["minimum"],
        properties["timeout_ms"]["maximum"],
    ) == (hooks.TIMEOUT_MIN, hooks.TIMEOUT_MAX)
    document = next(form for form in raw("hooks")["anyOf"] if form["type"] == "object")
    assert tuple(document["properties"]) == hooks.DOCUMENT_FIELDS


def test_every_hooks_array_of_every_schema_has_the_per_source_limit() -> None:
    limits: list[int] = []

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "array" and "hook.schema.json" in json.dumps(node.get("items", {})):
                limits.append(int(node["maxItems"]))
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    for name in ("settings", "plugin", "hooks"):
        collect(raw(name))
    assert len(limits) == 4 and set(limits) == {hooks.MAX_PER_SOURCE}
    assert raw("hooks")["x-clarvis-run-limit"] == hooks.MAX_PER_RUN
    for text in (raw("hook")["markdownDescription"], raw("hooks")["markdownDescription"]):
        assert f"at most **{hooks.MAX_PER_SOURCE}** hooks" in text and f"at most **{hooks.MAX_PER_RUN}**" in text


# -- MCP servers ---------------------------------------------------------------------------------------------------

SAMPLE = {"string": "x", "array": [], "object": {}, "boolean": True}


def test_mcp_transports_and_fields_are_the_schema_ones() -> None:
    server = raw("mcp-server")
    assert tuple(server["properties"]["type"]["enum"]) == mcp.TRANSPORTS
    assert server["properties"]["type"]["default"] == mcp.DEFAULT_TRANSPORT
    assert tuple(server["properties"]) == mcp.FIELDS
    assert {name: field.types for name, field in mcp.FIELD.items()} == {
        name: (member["type"],) for name, member in server["properties"].items()
    }
    assert mcp.URL_PATTERN.match("https://mcp.example.com/x") and not mcp.URL_PATTERN.match("ftp://x")


@pytest.mark.parametrize("transport", mcp.TRANSPORTS)
def test_mcp_fields_per_transport_are_what_the_schema_enforces(transport: str) -> None:
    base: dict[str, Any] = {"type": transport}
    base.update({field: "https://x/y" if field == "url" else "x" for field in mcp.REQUIRED[transport]})
    assert mcp.REQUIRED[transport] and valid("mcp-server", base)
    for field in mcp.REQUIRED[transport]:
        assert not valid("mcp-server", {key: value for key, value in base.items() if key != field}), field
    for field in mcp.FIELDS:
        if field in base:
            continue
        with_field = {**base, field: SAMPLE[mcp.FIELD[field].types[0]]}
        assert valid("mcp-server", with_field) == (field not in mcp.FORBIDDEN[transport]), (transport, field)
        assert (transport in mcp.transports_allowing(field)) == (field not in mcp.FORBIDDEN[transport])


def test_a_server_without_type_is_the_default_transport() -> None:
    required = dict.fromkeys(mcp.REQUIRED[mcp.DEFAULT_TRANSPORT], "x")
    assert valid("mcp-server", required)
    for field in mcp.FORBIDDEN[mcp.DEFAULT_TRANSPORT]:
        assert not valid("mcp-server", {**required, field: SAMPLE[mcp.FIELD[field].types[0]]}), field


def test_the_server_snippets_respect_their_transport() -> None:
    for snippet in raw("mcp-server")["defaultSnippets"]:
        body = snippet["body"]
        assert set(mcp.REQUIRED[body["type"]]) <= set(body)
        assert not set(mcp.FORBIDDEN[body["type"]]) & set(body)


# -- SKILL.md frontmatter ------------------------------------------------------------------------------------------


def test_skill_keys_alias_and_name_are_the_schema_ones() -> None:
    schema = raw("skill-frontmatter")
    properties = schema["properties"]
    assert tuple(properties) == skill.FIELDS
    assert tuple(schema["required"]) == skill.REQUIRED
    assert dict(skill.ALIASES) == {
        key: member["x-clarvis-alias-of"] for key, member in properties.items() if "x-clarvis-alias-of" in member
    }
    assert all(alias in skill.FIELDS and target in skill.FIELDS for alias, target in skill.ALIASES.items())
    for alias, target in skill.ALIASES.items():
        assert skill.FIELD[alias].types == skill.FIELD[target].types  # an alias takes the same values
    assert skill.NAME_PATTERN.pattern == f"(?:{properties['name']['pattern'][1:-1]})\\Z"
    assert properties["name"]["maxLength"] == skill.NAME_MAX_LENGTH
    longest = "a" * skill.NAME_MAX_LENGTH
    assert valid("skill-frontmatter", {"name": longest, "description": "d"})
    assert not valid("skill-frontmatter", {"name": longest + "a", "description": "d"})


def test_skill_field_types_are_the_schema_types() -> None:
    for name, field in skill.FIELD.items():
        value: Any = {"string": "x", "boolean": True, "array": ["x"]}
        for kind in field.types:
            assert valid("skill-frontmatter", {"name": "s", "description": "d", name: value[kind]}), (name, kind)
        if "boolean" not in field.types:
            assert not valid("skill-frontmatter", {"name": "s", "description": "d", name: True}), name


# -- settings.json -------------------------------------------------------------------------------------------------


def test_settings_fields_and_trust_are_the_schema_ones() -> None:
    properties = raw("settings")["properties"]
    assert tuple(properties) == settings.FIELDS
    assert (
        tuple(key for key, member in properties.items() if member.get("x-clarvis-trust-gated")) == settings.TRUST_GATED
    )
    assert tuple(settings.TRUST_GATED_MEMBERS) == settings.CAPABILITY_FIELDS
    for key, member in properties.items():
        # The descriptions say "this field is held back" exactly where the annotation is.
        assert ("held back" in member["description"]) == (key in settings.TRUST_GATED), key
        for inner, sub in member.get("properties", {}).items():
            gated = inner in settings.TRUST_GATED_MEMBERS.get(key, ())
            assert ("held back" in sub["description"]) == gated == bool(sub.get("x-clarvis-trust-gated")), inner


# (jsonschema applies patterns with Python's ``re``, whose ``$`` also matches before a final newline, so a URL with
# one is compared in ``test_python_patterns_match_as_the_schema_patterns_do``, not here.)
@pytest.mark.parametrize("url", ["https://github.com/a/b.git", "git@github.com:a/b.git", "acme/plugins", "https://x"])
def test_the_git_url_pattern_accepts_what_the_schema_accepts(url: str) -> None:
    assert (settings.GIT_URL.match(url) is not None) == valid("settings", {"marketplaces": [url]})


# -- plugin.json ---------------------------------------------------------------------------------------------------


def test_plugin_fields_policies_and_platforms_are_the_schema_ones() -> None:
    schema = raw("plugin")
    properties = schema["properties"]
    executable = schema["$defs"]["executable"]["properties"]
    assert tuple(properties) == plugin.FIELDS
    assert tuple(executable) == plugin.EXECUTABLE_FIELDS
    assert tuple(schema["$defs"]["executableOverride"]["properties"]) == plugin.OVERRIDE_FIELDS
    assert set(plugin.OVERRIDE_FIELDS) < set(plugin.EXECUTABLE_FIELDS)
    assert executable["timeout_ms"]["default"] == plugin.EXECUTABLE_TIMEOUT_DEFAULT
    assert tuple(properties["capabilityRunPolicies"]["additionalProperties"]["enum"]) == plugin.RUN_POLICIES
    assert tuple(executable["platforms"]["x-clarvis-platforms"]) == plugin.PLATFORMS
    assert set(executable["platforms"]["propertyNames"]["examples"]) <= set(plugin.PLATFORMS)
    for policy in plugin.RUN_POLICIES:
        assert valid("plugin", {"name": "p", "capabilityRunPolicies": {"s": policy}})
    for name, ok in (("my-plugin", True), ("MyPlugin", False)):
        assert (plugin.NAME_PATTERN.match(name) is not None) == ok == valid("plugin", {"name": name})
    for version, ok in (("1.2.0-beta.1", True), ("1.0", False)):
        assert (
            (plugin.VERSION_PATTERN.match(version) is not None)
            == ok
            == valid("plugin", {"name": "p", "version": version})
        )


# -- marketplace.json ----------------------------------------------------------------------------------------------


def test_marketplace_fields_are_the_schema_ones() -> None:
    schema = raw("marketplace")
    entry = schema["$defs"]["entry"]
    assert tuple(schema["properties"]) == marketplace.ROOT_FIELDS
    assert tuple(entry["properties"]) == marketplace.ENTRY_FIELDS
    assert tuple(name for name, field in marketplace.ENTRY_FIELD.items() if field.required) == tuple(entry["required"])
    for name, field in marketplace.ENTRY_FIELD.items():
        if field.plain:  # a plain string: the schema accepts any string and rejects anything else
            assert valid("marketplace", {"plugins": [{"name": "a", "source": "./a", name: ""}]}), name
            assert not valid("marketplace", {"plugins": [{"name": "a", "source": "./a", name: 1}]}), name


# -- the on-disk layout --------------------------------------------------------------------------------------------


def test_the_layout_is_what_file_kinds_recognise(tmp_path: Path) -> None:
    plugin_dir = layout.plugins_dir(tmp_path) / "lint"
    assert file_kind(layout.settings_file(tmp_path)) is FileKind.SETTINGS
    assert file_kind(tmp_path / ".vscode" / layout.SETTINGS_FILE) is None
    assert file_kind(plugin_dir / layout.PLUGIN_MANIFEST) is FileKind.PLUGIN
    assert file_kind(plugin_dir / layout.PLUGIN_HOOKS_FILE) is FileKind.HOOKS
    assert file_kind(layout.agents_dir(tmp_path) / f"reviewer{layout.AGENT_SUFFIX}") is FileKind.AGENT
    assert file_kind(plugin_dir / layout.SKILLS_DIR / "x" / layout.SKILL_FILE) is FileKind.SKILL
    assert file_kind(tmp_path / layout.MARKETPLACE_FILE) is FileKind.MARKETPLACE
    assert layout.CLARVIS_DIR in layout.WORKSPACE_MARKERS
    # The schemas' own texts describe the same places.
    assert f"`{layout.CLARVIS_DIR}/{layout.SETTINGS_FILE}`" in raw("settings")["markdownDescription"]
    assert f"`{layout.HOOKS_DIR}/{layout.HOOKS_FILE}`" in raw("plugin")["properties"]["hooks"]["markdownDescription"]
