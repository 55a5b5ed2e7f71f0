"""The ``marketplace/*`` rules: one ``marketplace.json`` catalogue (SPEC §3.6).

marketplace.json is tolerant: Clarvis reports unknown and defaulted fields and omits entries it cannot use
(no usable ``name`` or ``source``) instead of failing. These rules say the same things in the editor, each on
the key or value concerned, so a mistake in one entry never hides another. The fields of the catalogue and of an
entry come from ``clarvis_lsp.knowledge.marketplace`` (the schema).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.findings import Related, Severity
from clarvis_lsp.rules.base import Findings, RuleStep
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.json_values import opening
from clarvis_lsp.rules.jsonedit import json_string
from clarvis_lsp.rules.structure import check_structure

GIT_URL = re.compile(r"(?:https?|ssh|git)://[^\s/]+/\S+\Z")
SSH_ORIGIN = re.compile(r"[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:\S+\Z")
SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
HTTP_URL = re.compile(r"https?://[^\s/]+(?:/\S*)?\Z")

UNKNOWN_FIELD = rule(
    "marketplace/unknown-field",
    Severity.WARNING,
    "A field that marketplace.json does not define, at the root or in an entry.",
    why="marketplace.json is tolerant: Clarvis reports unknown fields and ignores them, so a misspelled "
    "`displayname` is never shown.",
    example='{\n  "plugins": [\n    { "name": "quality", "source": "https://github.com/acme/quality.git",\n'
    '      "homePage": "https://acme.dev" }\n  ]\n}',
    fix="Correct the spelling (the message suggests the closest known field) or remove the field.",
    file_kind="marketplace",
)
DEFAULTED = rule(
    "marketplace/defaulted",
    Severity.INFORMATION,
    "A missing optional root field that Clarvis fills in (`name`, `plugins`).",
    why="Clarvis supplies a catalogue name when `name` is missing and treats a missing `plugins` as an empty "
    "list; the catalogue works, but not as written.",
    example='{\n  "displayName": "Acme plugins"\n}',
    fix='Add the field explicitly: `"name": "acme"` for the catalogue, `"plugins": [...]` for its entries.',
    file_kind="marketplace",
)
ENTRY_OMITTED = rule(
    "marketplace/entry-omitted",
    Severity.WARNING,
    "An entry without a usable `name` or `source`: Clarvis omits it.",
    why="An entry needs a name to be listed and a source to be fetched; without either Clarvis leaves it out "
    "of `/extensions/market` silently.",
    example='{\n  "plugins": [\n    { "name": "quality" }\n  ]\n}',
    fix="Give the entry a non-empty `name` and a `source` (a Git URL, an SSH origin or a relative path).",
    file_kind="marketplace",
)
INVALID_SOURCE = rule(
    "marketplace/invalid-source",
    Severity.ERROR,
    "A `source` that is neither a Git URL, an SSH origin, nor a relative path.",
    why="Clarvis fetches a plugin from a remote Git URL (https, http, ssh, git), an SSH origin "
    "(`git@host:path`) or shows a relative source; anything else cannot be fetched or shown.",
    example='{\n  "plugins": [\n    { "name": "quality", "source": "ftp://example.com/quality" }\n  ]\n}',
    fix="Use `https://host/owner/repo.git`, `git@host:owner/repo.git`, or a path relative to the marketplace.",
    file_kind="marketplace",
)
RELATIVE_SOURCE = rule(
    "marketplace/relative-source",
    Severity.INFORMATION,
    "A relative `source`: visible in the catalogue, but not installable from the TUI.",
    why="Relative sources are display-only: `/extensions/market` lists the entry but cannot install it.",
    example='{\n  "plugins": [\n    { "name": "quality", "source": "./plugins/quality" }\n  ]\n}',
    fix="Publish the plugin in a Git repository and use its URL as `source` (with `path` for a subdirectory) "
    "if it should be installable.",
    file_kind="marketplace",
)
DUPLICATE_ENTRY = rule(
    "marketplace/duplicate-entry",
    Severity.WARNING,
    "Two entries have the same `name`.",
    why="Plugins are identified by name; with two entries of one name only one can be installed and enabled, "
    "and which one is ambiguous.",
    example='{\n  "plugins": [\n    { "name": "quality", "source": "https://a.dev/q.git" },\n'
    '    { "name": "quality", "source": "https://b.dev/q.git" }\n  ]\n}',
    fix="Rename one of the entries or remove the duplicate.",
    file_kind="marketplace",
)
INVALID_VALUE = rule(
    "marketplace/invalid-value",
    Severity.ERROR,
    "A known field has the wrong type (`plugins` not an array, `description: 3`, an absolute `path`…).",
    why="Clarvis expects each field's type; a value of the wrong type is ignored or leaves the catalogue "
    "without its entries.",
    example='{\n  "name": "acme",\n  "plugins": { "quality": "https://github.com/acme/quality.git" }\n}',
    fix="Use the documented type: strings for names, titles and descriptions, an array of entry objects for "
    "`plugins`, a relative subdirectory for `path`, an http(s) URL for `homepage`.",
    file_kind="marketplace",
)


# -- helpers ---------------------------------------------------------------------------------------------------


def _variables(node: JsonNode) -> dict[str, str]:
    """``$label`` of the entry holding ``node`` (or being it): by its name when it has a usable one."""
    entry: JsonNode | None = node
    while entry is not None:
        array = entry.parent
        if _is_entry_list(array) and entry.index is not None:
            return {"label": _entry_label(entry, entry.index)}
        entry = array
    return {}


def _is_entry_list(node: JsonNode | None) -> bool:
    """Whether ``node`` is the root's ``plugins`` array."""
    owner = node.member if node is not None else None
    return isinstance(node, JsonArray) and owner is not None and owner.key == "plugins" and owner.parent.parent is None


def _entry_label(entry: JsonNode, index: int) -> str:
    """How messages name an entry: ``entry "quality"`` by its usable name, else ``entry 3`` by its place."""
    name = entry.value_of("name") if isinstance(entry, JsonObject) else None
    if name is not None and _usable(name):
        return f'entry "{name.value}"'
    return f"entry {index + 1}"


def _check_defaulted(document: JsonDocument, findings: Findings) -> None:
    root = document.root
    if not isinstance(root, JsonObject):
        return  # empty (json/syntax) or not an object (the schema's type error)
    if root.get("name") is None:
        findings.add(
            DEFAULTED.code,
            opening(document, root),
            'The marketplace has no "name": Clarvis supplies one. Add "name" to choose the catalogue\'s identifier.',
        )
    if root.get("plugins") is None:
        findings.add(
            DEFAULTED.code,
            opening(document, root),
            'The marketplace has no "plugins": Clarvis treats it as an empty catalogue. Add "plugins": [...] with '
            "its entries.",
        )


# -- entries ---------------------------------------------------------------------------------------------------


def _usable(node: JsonNode | None) -> bool:
    return node is not None and node.kind == "string" and isinstance(node.value, str) and bool(node.value.strip())


def _entries(document: JsonDocument) -> Iterator[tuple[JsonObject, str]]:
    """Each entry object of the root's ``plugins`` array with the label messages name it by (another value is the
    schema's type error)."""
    root = document.root
    plugins = root.value_of("plugins") if isinstance(root, JsonObject) else None
    if isinstance(plugins, JsonArray):
        for index, entry in enumerate(plugins.items):
            if isinstance(entry, JsonObject):
                yield entry, _entry_label(entry, index)


def _check_duplicates(document: JsonDocument, findings: Findings) -> None:
    first_by_name: dict[str, JsonNode] = {}
    for entry, _label in _entries(document):
        name = entry.value_of("name")
        if name is None or not _usable(name):
            continue
        assert isinstance(name.value, str)
        first = first_by_name.get(name.value)
        if first is None:
            first_by_name[name.value] = name
            continue
        findings.add(
            DUPLICATE_ENTRY.code,
            document.node_range(name),
            f"Another entry is already named {json_string(name.value)} (line "
            f"{document.node_range(first).start.line + 1}): rename this entry or remove the duplicate.",
            related=[
                Related(findings.path, document.node_range(first), f"first entry named {json_string(name.value)}")
            ],
        )


def _check_sources(document: JsonDocument, findings: Findings) -> None:
    for entry, label in _entries(document):
        source = entry.value_of("source")
        if source is not None and _usable(source):
            _check_source(document, source, label, findings)


def _check_paths(document: JsonDocument, findings: Findings) -> None:
    for entry, label in _entries(document):
        _check_path(document, entry, label, findings)


def _check_homepages(document: JsonDocument, findings: Findings) -> None:
    for entry, label in _entries(document):
        _check_homepage(document, entry, label, findings)


def _source_problem(source: str) -> str | None:
    """Why ``source`` is not a Git URL, an SSH origin or a relative path; None when it is one of them."""
    if GIT_URL.match(source) or SSH_ORIGIN.match(source):
        return None
    scheme = SCHEME.match(source)
    if scheme is not None:
        name = scheme.group(1).lower()
        if len(name) == 1:
            return "is an absolute Windows path"
        if name in ("https", "http", "ssh", "git"):
            return "is not a complete Git URL (it needs a host and a repository path, without spaces)"
        return f'uses the unsupported scheme "{scheme.group(1)}:"'
    if source.startswith(("/", "\\")):
        return "is an absolute path"
    if source.startswith("~"):
        return "points into a home directory"
    if source != source.strip():
        return "has leading or trailing whitespace"
    return None


def is_relative_source(source: str) -> bool:
    """Neither a Git URL nor an SSH origin: a path, shown but not installable (``marketplace/relative-source``)."""
    return not GIT_URL.match(source) and not SSH_ORIGIN.match(source)


def _check_source(document: JsonDocument, node: JsonNode, label: str, findings: Findings) -> None:
    source = node.value
    assert isinstance(source, str)
    problem = _source_problem(source)
    if problem is not None:
        findings.add(
            INVALID_SOURCE.code,
            document.node_range(node),
            f"The source {json_string(source)} of plugin {label} {problem}: use a Git URL (https://, http://, ssh://, "
            "git://), an SSH origin (git@host:owner/repo.git) or a path relative to the marketplace.",
        )
        return
    if is_relative_source(source):
        findings.add(
            RELATIVE_SOURCE.code,
            document.node_range(node),
            f"The relative source {json_string(source)} of plugin {label} is shown in /extensions/market but cannot be "
            "installed from the TUI: publish the plugin in a Git repository and use its URL to make it installable.",
        )


def _check_path(document: JsonDocument, entry: JsonObject, label: str, findings: Findings) -> None:
    node = entry.value_of("path")
    if node is None or node.kind != "string" or not isinstance(node.value, str):
        return  # absent, or the schema's type error
    value = node.value
    parts = re.split(r"[/\\]+", value)
    if not value.strip():
        problem = "is empty"
    elif value.startswith(("/", "\\", "~")) or SCHEME.match(value):
        problem = "is not a relative path"
    elif ".." in parts:
        problem = 'leaves the source with ".."'
    else:
        return
    findings.add(
        INVALID_VALUE.code,
        document.node_range(node),
        f'"path" of plugin {label} {problem}: write the plugin\'s subdirectory inside the source, such as '
        '"plugins/quality", or remove the field.',
    )


def _check_homepage(document: JsonDocument, entry: JsonObject, label: str, findings: Findings) -> None:
    node = entry.value_of("homepage")
    if node is None or node.kind != "string" or not isinstance(node.value, str):
        return  # absent, or the schema's type error
    if not HTTP_URL.match(node.value):
        findings.add(
            INVALID_VALUE.code,
            document.node_range(node),
            f'"homepage" {json_string(node.value)} of plugin {label} is not an http(s) URL: write the full address, '
            'such as "https://example.com/quality".',
            severity=Severity.WARNING,
        )


def _check_structure(document: JsonDocument, findings: Findings) -> None:
    """The structural errors from ``marketplace.schema.json``'s annotations."""
    check_structure(document, "marketplace", findings, _variables)


def _step(check: Callable[[JsonDocument, Findings], None]) -> Callable[[JsonDocument, JsonFileContext, Findings], None]:
    """A rule of the file alone as a step of the runner's table (these rules need no context)."""
    return lambda document, _context, findings: check(document, findings)


RULE_STEPS: tuple[RuleStep[JsonDocument, JsonFileContext], ...] = (
    RuleStep(
        "marketplace/structure", (ENTRY_OMITTED.code, INVALID_VALUE.code, UNKNOWN_FIELD.code), _step(_check_structure)
    ),
    RuleStep("marketplace/defaulted", (DEFAULTED.code,), _step(_check_defaulted)),
    RuleStep("marketplace/sources", (INVALID_SOURCE.code, RELATIVE_SOURCE.code), _step(_check_sources)),
    RuleStep("marketplace/paths", (INVALID_VALUE.code,), _step(_check_paths)),
    RuleStep("marketplace/homepages", (INVALID_VALUE.code,), _step(_check_homepages)),
    RuleStep("marketplace/duplicate-entry", (DUPLICATE_ENTRY.code,), _step(_check_duplicates)),
)
"""The rules of a marketplace.json, each run on its own by the rule runner: the structural errors from the schema's
annotations, then what the schema cannot say (defaulted fields, sources, paths, home pages, duplicates)."""
