"""Access to the JSON Schemas in ``clarvis_lsp.schemas``: loading, validation and key documentation.

The schemas (Draft 2020-12, one file per file kind) are the single source of key documentation for hover and
completion. This module takes them from ``clarvis_lsp.knowledge.schemas`` (which reads the package data once for
the rules too), builds a ``referencing.Registry`` so that ``$ref`` between them resolves offline, and walks them
along a JSON path to answer "what is this key?" (``describe``) and "which keys may go here?" (``property_names``).

Walking a schema follows ``$ref`` and looks into ``allOf``, ``anyOf``, ``oneOf`` and the ``then``/``else`` of
``if`` (never into ``if`` or ``not``, which are conditions, not documentation). Given the ``document`` being
edited, an ``if`` is evaluated against the value at that level so that only the branch that applies counts: an
``http`` MCP server then offers no ``command``, and a hook on ``run_end`` offers only ``on_failure: "pass"``.

The returned schema dicts are shared and cached: treat them as read-only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import regex
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from clarvis_lsp.knowledge import schemas as _schemas

if TYPE_CHECKING:  # jsonschema is imported when something is first validated: a hover or a completion walks the
    # schemas with ``referencing`` alone, and jsonschema's import (about 40 ms) would delay the first one
    from jsonschema import Draft202012Validator, ValidationError
    from referencing._core import Resolver

SCHEMA_PACKAGE = _schemas.SCHEMA_PACKAGE
SCHEMA_BASE_URI = "https://clarvis-lsp.dev/schemas/"
_SUFFIX = _schemas.SCHEMA_SUFFIX

PathKey: TypeAlias = str | int


@dataclass(frozen=True)
class EnumValue:
    """One allowed value of an enumerated field and what it means."""

    value: Any
    description: str | None = None
    markdown_description: str | None = None


@dataclass(frozen=True)
class PropertyDoc:
    """What the schemas say about the value at one JSON path.

    ``name`` is the key of the property (``None`` for an array item or a document root), ``required`` whether
    the enclosing object must have it (for ``property_names``; ``describe`` sets it too when it can tell).
    ``forbidden`` is true when the property exists in general but is not allowed here (a field the MCP
    transport forbids, ``match`` on a non-tool event), which is known only when a ``document`` was given.
    """

    name: str | None = None
    description: str | None = None
    markdown_description: str | None = None
    types: tuple[str, ...] = ()
    enum: tuple[EnumValue, ...] = ()
    default: Any = None
    has_default: bool = False
    required: bool = False
    forbidden: bool = False
    title: str | None = None
    pattern: str | None = None
    snippets: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)

    @property
    def markdown(self) -> str:
        """The best text for a hover: the Markdown description, else the plain one, else empty."""
        return self.markdown_description or self.description or ""


# ---------------------------------------------------------------------------------------------- loading


def _normalise(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    if base.endswith(_SUFFIX):
        base = base[: -len(_SUFFIX)]
    elif base.endswith(".json"):
        base = base[: -len(".json")]
    return base


def schema_names() -> list[str]:
    """The names of all shipped schemas, sorted (``"hook"``, ``"settings"``, ``"skill-frontmatter"``…)."""
    return list(_schemas.schema_names())


def schema_id(name: str) -> str:
    """The ``$id`` of a schema: ``https://clarvis-lsp.dev/schemas/<name>.schema.json``."""
    return SCHEMA_BASE_URI + _normalise(name) + _SUFFIX


def load_schema(name: str) -> dict[str, Any]:
    """The parsed schema ``name`` (``"settings"``, also ``"settings.schema.json"``); cached, do not mutate.

    Raises ``KeyError`` for a name that is not shipped.
    """
    return _schemas.load(_normalise(name))


@functools.cache
def registry() -> Registry[Any]:
    """A registry holding every schema under its ``$id``, so that ``$ref`` resolves without a network."""
    resources: list[tuple[str, Resource[Any]]] = []
    for name in schema_names():
        schema = load_schema(name)
        resources.append((schema.get("$id", schema_id(name)), DRAFT202012.create_resource(schema)))
    return Registry().with_resources(resources).crawl()


def _regex_search(pattern: str, text: str) -> regex.Match[str] | None:
    return regex.search(pattern, text, regex.VERSION0)


def _ecmascript_pattern(
    validator: Draft202012Validator, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """``pattern`` as ECMAScript with the ``u`` flag reads it (what VS Code and Clarvis do): ``\\p{L}`` is a letter
    of any script. jsonschema's own ``pattern`` uses Python's ``re``, which has no Unicode property classes."""
    from jsonschema import ValidationError

    if validator.is_type(instance, "string") and not _schemas.ecmascript_search(pattern, instance, _regex_search):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def _clarvis_validator() -> Any:
    """Draft 2020-12 with ``pattern`` read as ECMAScript (``_ecmascript_pattern``)."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(  # type: ignore[no-untyped-call]  # jsonschema leaves extend untyped
        Draft202012Validator, validators={"pattern": _ecmascript_pattern}
    )


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    validator: Draft202012Validator = _clarvis_validator()(load_schema(name), registry=registry())
    return validator


def validator(name: str) -> Draft202012Validator:
    """A cached Draft 2020-12 validator for schema ``name`` that resolves ``$ref`` through ``registry()``."""
    return _validator(_normalise(name))


# ---------------------------------------------------------------------------------------------- walking


class _Missing:
    """The value at a path when no document was given or the document has nothing there."""

    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()

# How a candidate schema applies to the value: always (``base``), as one of several alternatives (``anyOf``,
# ``oneOf``), or only under a condition that could not be decided (``then``/``else`` without a document).
_BASE, _ALTERNATIVE, _CONDITIONAL = 0, 1, 2


@dataclass(frozen=True)
class _Node:
    schema: Mapping[str, Any] | bool
    resolver: Resolver[Any]
    kind: int


# Validators for the ``if`` conditions, keyed by the id of the (cached, never freed) condition schema.
_CONDITION_VALIDATORS: dict[int, Draft202012Validator] = {}


def _holds(condition: Any, instance: Any) -> bool | None:
    """Whether an ``if`` condition holds for ``instance``; ``None`` when it cannot be decided."""
    if isinstance(instance, _Missing):
        return None
    if isinstance(condition, bool):
        return condition
    try:
        checker = _CONDITION_VALIDATORS.get(id(condition))
        if checker is None:
            from jsonschema import Draft202012Validator

            checker = _CONDITION_VALIDATORS[id(condition)] = Draft202012Validator(condition, registry=registry())
        return bool(checker.is_valid(instance))
    except Exception:  # an unresolvable $ref or a bad pattern: treat as undecidable, never raise
        return None


def _expand(schema: Any, resolver: Resolver[Any], kind: int, instance: Any, out: list[_Node], seen: set[int]) -> None:
    """Collect ``schema`` and every subschema that applies to the same value."""
    if isinstance(schema, bool):
        out.append(_Node(schema, resolver, kind))
        return
    if not isinstance(schema, Mapping) or id(schema) in seen:
        return
    seen.add(id(schema))
    out.append(_Node(schema, resolver, kind))
    ref = schema.get("$ref")
    if isinstance(ref, str):
        try:
            resolved = resolver.lookup(ref)
        except Exception:  # an unresolvable reference documents nothing
            resolved = None
        if resolved is not None:
            _expand(resolved.contents, resolved.resolver, kind, instance, out, seen)
    for sub in schema.get("allOf", ()):
        _expand(sub, resolver, kind, instance, out, seen)
    for keyword in ("anyOf", "oneOf"):
        for sub in schema.get(keyword, ()):
            _expand(sub, resolver, max(kind, _ALTERNATIVE), instance, out, seen)
    if "if" in schema:
        verdict = _holds(schema["if"], instance)
        if verdict is None:
            for keyword in ("then", "else"):
                if keyword in schema:
                    _expand(schema[keyword], resolver, _CONDITIONAL, instance, out, seen)
        else:
            branch = schema.get("then" if verdict else "else")
            if branch is not None:
                _expand(branch, resolver, kind, instance, out, seen)


def _nodes_for(schema: Any, resolver: Resolver[Any], kind: int, instance: Any) -> list[_Node]:
    out: list[_Node] = []
    _expand(schema, resolver, kind, instance, out, set())
    return out


def _children(node: _Node, key: PathKey) -> Iterator[Any]:
    """The subschemas of ``node`` that apply to the member ``key`` of its value."""
    schema = node.schema
    if isinstance(schema, bool):
        return
    if isinstance(key, str):
        properties = schema.get("properties", {})
        matched = False
        if key in properties:
            matched = True
            yield properties[key]
        for pattern, sub in schema.get("patternProperties", {}).items():
            try:
                hit = re.search(pattern, key) is not None
            except re.error:
                hit = False
            if hit:
                matched = True
                yield sub
        additional = schema.get("additionalProperties")
        if not matched and isinstance(additional, Mapping):
            yield additional
    else:
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list) and 0 <= key < len(prefix):
            yield prefix[key]
        elif isinstance(schema.get("items"), Mapping):
            yield schema["items"]


def _member(instance: Any, key: PathKey) -> Any:
    if isinstance(key, str) and isinstance(instance, Mapping):
        return instance.get(key, _MISSING)
    if isinstance(key, int) and isinstance(instance, list) and 0 <= key < len(instance):
        return instance[key]
    return _MISSING


def _step(nodes: list[_Node], key: PathKey, child_instance: Any) -> list[_Node]:
    out: list[_Node] = []
    seen: set[int] = set()
    for node in sorted(nodes, key=lambda n: n.kind):
        for sub in _children(node, key):
            _expand(sub, node.resolver, node.kind, child_instance, out, seen)
    return out


def _walk(name: str, path: Sequence[PathKey], document: Any) -> tuple[list[_Node], list[_Node], Any]:
    """The candidate schemas at ``path`` and at its parent, and the document's value at ``path``."""
    schema = load_schema(name)
    resolver = registry().resolver(base_uri=schema.get("$id", schema_id(name)))
    instance = document
    nodes = _nodes_for(schema, resolver, _BASE, instance)
    parent: list[_Node] = []
    for key in path:
        parent = nodes
        instance = _member(instance, key)
        nodes = _step(nodes, key, instance)
        if not nodes:
            break
    return nodes, parent, instance


def _is_forbidden(schema: Any) -> bool:
    if schema is False:
        return True
    return isinstance(schema, Mapping) and schema.get("not") in ({}, True)


def _types(nodes: list[_Node]) -> tuple[str, ...]:
    found: list[str] = []
    for node in nodes:
        if isinstance(node.schema, bool):
            continue
        declared = node.schema.get("type")
        for item in [declared] if isinstance(declared, str) else declared or ():
            if isinstance(item, str) and item not in found:
                found.append(item)
    return tuple(found)


def _enum(nodes: list[_Node]) -> tuple[EnumValue, ...]:
    values: list[EnumValue] = []
    for node in nodes:
        schema = node.schema
        if isinstance(schema, bool) or not isinstance(schema.get("enum"), list):
            continue
        plain = schema.get("enumDescriptions") or []
        markdown = schema.get("markdownEnumDescriptions") or []
        for index, value in enumerate(schema["enum"]):
            values.append(
                EnumValue(
                    value,
                    plain[index] if index < len(plain) else None,
                    markdown[index] if index < len(markdown) else None,
                )
            )
        break
    # Constraints that apply for sure narrow the list (``on_failure`` on an observer event is only "pass").
    for node in nodes:
        schema = node.schema
        if node.kind != _BASE or isinstance(schema, bool):
            continue
        if "const" in schema:
            values = [v for v in values if v.value == schema["const"]]
        elif isinstance(schema.get("enum"), list):
            values = [v for v in values if v.value in schema["enum"]]
    return tuple(values)


def _first(nodes: list[_Node], keyword: str) -> Any:
    for node in nodes:
        if isinstance(node.schema, Mapping) and keyword in node.schema:
            return node.schema[keyword]
    return None


def _doc(nodes: list[_Node], name: str | None, required: bool) -> PropertyDoc:
    ordered = sorted(nodes, key=lambda n: n.kind)  # stable: base schemas document first
    defaults = [n.schema["default"] for n in ordered if isinstance(n.schema, Mapping) and "default" in n.schema]
    snippets: list[Mapping[str, Any]] = []
    for node in ordered:
        if isinstance(node.schema, Mapping):
            snippets.extend(s for s in node.schema.get("defaultSnippets", ()) if isinstance(s, Mapping))
    return PropertyDoc(
        name=name,
        description=_first(ordered, "description"),
        markdown_description=_first(ordered, "markdownDescription"),
        types=_types(ordered),
        enum=_enum(ordered),
        default=defaults[0] if defaults else None,
        has_default=bool(defaults),
        required=required,
        forbidden=any(n.kind == _BASE and _is_forbidden(n.schema) for n in ordered),
        title=_first(ordered, "title"),
        pattern=_first(ordered, "pattern"),
        snippets=tuple(snippets),
    )


def _required_in(nodes: list[_Node], key: str) -> bool:
    return any(n.kind == _BASE and isinstance(n.schema, Mapping) and key in n.schema.get("required", ()) for n in nodes)


# ---------------------------------------------------------------------------------------------- public


def describe(name: str, path: Sequence[PathKey], document: Any = _MISSING) -> PropertyDoc | None:
    """Document the value at ``path`` in a file of kind ``name``; ``None`` when the schema has nothing there.

    ``path`` is a JSON path: object keys as ``str``, array indexes as ``int``; ``[]`` is the document root.
    ``describe("settings", ["hooks", 0, "event"])`` documents a hook's ``event`` with its 12 values. Pass the
    parsed ``document`` to let ``if``/``then`` conditions decide (the enum of ``on_failure`` for the event in
    that hook, the forbidden fields of an MCP transport).
    """
    if isinstance(document, _Missing):
        return _describe_cached(_normalise(name), tuple(path))
    return _describe(_normalise(name), path, document)


@functools.lru_cache(maxsize=1024)
def _describe_cached(name: str, path: tuple[PathKey, ...]) -> PropertyDoc | None:
    return _describe(name, path, _MISSING)


def _describe(name: str, path: Sequence[PathKey], document: Any) -> PropertyDoc | None:
    nodes, parent, _ = _walk(name, path, document)
    if not nodes:
        return None
    key = path[-1] if path else None
    label = key if isinstance(key, str) else None
    required = label is not None and _required_in(parent, label)
    return _doc(nodes, label, required)


def property_names(name: str, path: Sequence[PathKey], document: Any = _MISSING) -> list[PropertyDoc]:
    """The documented properties an object at ``path`` may have, in schema order (for completion).

    Each entry carries its ``name`` and whether it is ``required``. With ``document``, conditions are decided
    and properties forbidden for that value (``url`` on a stdio server, ``match`` on ``run_end``) are left out.
    Free-form keys (maps such as ``mcpServers`` or ``env``) have no names to offer and give ``[]``.
    """
    normalised = _normalise(name)
    nodes, _, instance = _walk(normalised, path, document)
    names: list[str] = []
    for node in sorted(nodes, key=lambda n: n.kind):
        if isinstance(node.schema, Mapping):
            for key in node.schema.get("properties", {}):
                if key not in names:
                    names.append(key)
    result: list[PropertyDoc] = []
    for key in names:
        child_nodes = _step(nodes, key, _member(instance, key))
        doc = _doc(child_nodes, key, _required_in(nodes, key))
        if not doc.forbidden:
            result.append(doc)
    return result


__all__ = [
    "SCHEMA_BASE_URI",
    "SCHEMA_PACKAGE",
    "EnumValue",
    "PathKey",
    "PropertyDoc",
    "describe",
    "load_schema",
    "property_names",
    "registry",
    "schema_id",
    "schema_names",
    "validator",
]
