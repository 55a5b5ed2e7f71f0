"""Structural checks driven by the schemas: type, required-field, blank-value and unknown-field errors of a JSON
document come from validating it against its schema in ``schemas/``.

Each failing keyword names its finding in the schema itself, next to the keyword, with an ``x-clarvis-errors``
annotation (an ``x-`` keyword, so VS Code and any other validator ignore it)::

    "description": {"type": "string",
                    "x-clarvis-errors": [{"keyword": "type", "code": "plugin/invalid-value",
                                          "message": "\\"$key\\" must be a string, not $kind."}]}

``code`` is the stable rule code, ``message`` a ``string.Template`` (``$key``: the property; ``$kind``: what the
value is, "a number"; ``$text``: the value as written; plus the variables the rule family computes for the
place, such as ``$label``), and an optional ``severity`` overrides the rule's. An optional ``when`` (a value
kind: ``"number"``, ``"string"``…) makes the entry apply to values of that kind only, so a number written for a
string can be told how to quote it; the first entry that applies wins. ``"at": "opening"`` reports a container
on its opening bracket instead of its whole body, ``"at": "key"`` on the key it is written under. One value gets
one finding per code: the first failing keyword in the schema's order speaks.

A ``required`` error looks for its annotation on the missing property's schema first (what its absence means
belongs to it), then on the object's. An ``additionalProperties`` error reports every unknown member through
``report_unknown_field``, with its did-you-mean and its rename and remove fixes. A value that fits none of an
annotated ``anyOf``'s alternatives is reported by the alternative that takes its type (an empty array of tool
names), else by the ``anyOf``'s own annotation. A failing keyword without an annotation is checked by a
hand-written rule of the family (or not at all): the schema says what a value must be, the rule what Clarvis
makes of it.

``x-clarvis-nonblank`` is the one keyword added to JSON Schema: a string that is empty or only whitespace fails
it (``minLength`` counts whitespace as content, Clarvis does not).

jsonschema is imported when the first JSON document is checked, and each schema's validator is built once and
reused: checking SKILL.md files alone never loads it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.findings import Range, Severity
from clarvis_lsp.knowledge import schemas
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.json_values import kind_phrase, opening, report_unknown_field

if TYPE_CHECKING:
    from jsonschema import ValidationError
    from jsonschema.protocols import Validator

ERROR_ANNOTATION = "x-clarvis-errors"
NONBLANK = "x-clarvis-nonblank"
MAX_DEPTH = 64  # nesting the validated value keeps; the schemas describe at most a handful of levels

Variables = Callable[[JsonNode], Mapping[str, str]]
"""The message variables a family computes for the node an error is about (``$label`` of an entry, …)."""


def check_structure(
    document: JsonDocument,
    schema: str,
    findings: Findings,
    variables: Variables | None = None,
    *,
    node: JsonNode | None = None,
    exempt: Callable[[JsonNode], bool] | None = None,
) -> None:
    """Validate ``document`` (or its value ``node``: one hook of a list) against the schema ``schema`` and report
    each annotated error on its node.

    Only the annotations written in ``schema``'s own file count: a value the schema takes from another file by
    ``$ref`` (the hooks of a plugin.json, its MCP servers) is checked by that family on its own. ``exempt`` names
    values whose errors a hand-written rule reports instead (a field the MCP transport forbids: its type is moot)."""
    root = document.root if node is None else node
    if root is None:
        return  # json/syntax says the file is empty
    run = _Run(document, root, schema, findings, variables, exempt)
    for error in _validator(schema).iter_errors(_instance(root)):
        run.report(error)


def _instance(root: JsonNode) -> Any:
    """The document as ``json.loads`` would give it (the last of duplicate keys wins, an invalid value is
    ``None``), except that

    - a member written without a value is kept, as ``None``: it is no unknown or missing member to report, and any
      error about its value is dropped by ``_locate``;
    - containers deeper than ``MAX_DEPTH`` are left empty: no schema describes values that deep, and jsonschema
      (which recurses, in its messages too) must never see a 100,000-deep array.

    Built without recursion."""
    result = _shallow(root)
    pending: list[tuple[JsonNode, Any, int]] = [(root, result, 1)]
    while pending:
        node, value, depth = pending.pop()
        if depth >= MAX_DEPTH:
            continue
        if isinstance(node, JsonObject):
            for member in node.members:
                if node.get(member.key) is not member:
                    continue  # an earlier duplicate: JSON.parse keeps the last
                child = member.value
                value[member.key] = None if child is None else _shallow(child)
                if child is not None and child.is_container:
                    pending.append((child, value[member.key], depth + 1))
        elif isinstance(node, JsonArray):
            for item in node.items:
                value.append(_shallow(item))
                if item.is_container:
                    pending.append((item, value[-1], depth + 1))
    return result


def _shallow(node: JsonNode) -> Any:
    """A scalar's value, or an empty container to fill."""
    if isinstance(node, JsonObject):
        return {}
    if isinstance(node, JsonArray):
        return []
    return node.value


@functools.cache
def _own_subschemas(schema: str) -> frozenset[int]:
    """The identities of the subschemas written in ``schema``'s own file (the validator shares these dicts)."""
    found: set[int] = set()
    pending: list[Any] = [schemas.load(schema)]
    while pending:
        value = pending.pop()
        if isinstance(value, Mapping):
            found.add(id(value))
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return frozenset(found)


@functools.cache
def _validator(schema: str) -> Validator:
    """The schema's Draft 2020-12 validator, built once, with ``$ref`` resolved among the shipped schemas.

    ``pattern`` is not evaluated: the patterns of the JSON kinds (sources, names, versions, paths) are checked by
    hand-written rules that say which part is wrong, and skipping them spares compiling ECMAScript patterns."""
    from jsonschema import Draft202012Validator, validators
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    registry: Registry[Any] = Registry().with_resources(
        (schemas.load(name)["$id"], DRAFT202012.create_resource(schemas.load(name))) for name in schemas.schema_names()
    )
    extended = validators.extend(  # type: ignore[no-untyped-call]  # jsonschema leaves extend untyped
        Draft202012Validator, validators={NONBLANK: _nonblank, "pattern": _unchecked}
    )
    validator: Validator = extended(schemas.load(schema), registry=registry)
    return validator


def _unchecked(
    validator: Validator, pattern: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    return iter(())


def _nonblank(validator: Validator, wanted: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    from jsonschema import ValidationError

    if wanted and isinstance(instance, str) and not instance.strip():
        yield ValidationError(f"{instance!r} is blank")


class _Run:
    """One validation of one value: where its errors go, and which are already reported."""

    def __init__(
        self,
        document: JsonDocument,
        root: JsonNode,
        schema: str,
        findings: Findings,
        variables: Variables | None,
        exempt: Callable[[JsonNode], bool] | None,
    ) -> None:
        self.document = document
        self.root = root
        self.own = _own_subschemas(schema)
        self.validator = _validator(schema)
        self.findings = findings
        self.variables = variables
        self.exempt = exempt
        # (node, keyword) for the errors jsonschema repeats per member, (node, code) for one finding per value:
        # the first failing keyword in the schema's order speaks (``0.5`` as a timeout is not whole, first).
        self.reported: set[tuple[int, str]] = set()

    def report(self, error: ValidationError) -> None:
        keyword = str(error.validator)
        node = _locate(self.root, list(error.relative_path))
        schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
        if node is None or id(schema) not in self.own or (self.exempt is not None and self.exempt(node)):
            return  # a member without a value (json/syntax), another family's schema, or a hand-written rule's
        if keyword == "anyOf":
            self._report_alternatives(error, node, schema)
        elif keyword in ("required", "additionalProperties"):
            if (id(node), keyword) not in self.reported:  # every missing or unknown member is reported at once
                self.reported.add((id(node), keyword))
                assert isinstance(node, JsonObject)
                self._report_members(error, keyword, node, schema)
        else:
            annotation = _annotation(schema, keyword, node.kind)
            if annotation is not None:
                self._report_value(annotation, node, node.member.key if node.member is not None else "")

    def _report_alternatives(self, error: ValidationError, node: JsonNode, schema: Mapping[str, Any]) -> None:
        """A value that fits none of ``anyOf``'s alternatives: when one alternative takes its type, that one's
        errors (an empty array of tool names); otherwise the annotation of ``anyOf`` itself. An ``anyOf`` without an
        annotation is left to a hand-written rule."""
        annotation = _annotation(schema, "anyOf", node.kind)
        if annotation is None:
            return
        instance: Any = error.instance
        for index, alternative in enumerate(schema["anyOf"]):
            declared = alternative.get("type") if isinstance(alternative, Mapping) else None
            if isinstance(declared, str) and self.validator.is_type(instance, declared):
                for inner in error.context or ():
                    if inner.relative_schema_path and inner.relative_schema_path[0] == index:
                        self.report(_rooted(inner, error))
                return
        self._report_value(annotation, node, node.member.key if node.member is not None else "")

    def _report_members(
        self, error: ValidationError, keyword: str, node: JsonObject, schema: Mapping[str, Any]
    ) -> None:
        document = self.document
        if keyword == "required":
            for key in _missing(node, error):
                property_schema = schema.get("properties", {}).get(key, {})
                annotation = _annotation(property_schema, keyword, None) or _annotation(schema, keyword, None)
                if annotation is not None:
                    self.findings.add(
                        annotation["code"],
                        self._range(annotation, node, default=opening(document, node)),
                        _message(annotation, self._values(node, key)),
                        severity=_severity(annotation),
                    )
            return
        annotation = _annotation(schema, keyword, None)
        if annotation is None:
            return
        known = tuple(schema.get("properties", {}))
        for unknown in node.members:
            if unknown.key not in known:
                report_unknown_field(
                    document,
                    unknown,
                    known,
                    self.findings,
                    code=annotation["code"],
                    message=_message(annotation, self._values(node, unknown.key)),
                )

    def _report_value(self, annotation: Mapping[str, str], node: JsonNode, key: str) -> None:
        if (id(node), annotation["code"]) in self.reported:
            return
        self.reported.add((id(node), annotation["code"]))
        self.findings.add(
            annotation["code"],
            self._range(annotation, node, default=self.document.node_range(node)),
            _message(annotation, self._values(node, key)),
            severity=_severity(annotation),
        )

    def _range(self, annotation: Mapping[str, str], node: JsonNode, *, default: Range) -> Range:
        """Where the finding goes: by default the value (a missing member: the object's opening bracket);
        ``"at": "opening"`` a container's opening bracket; ``"at": "key"`` the key the value is written under."""
        at = annotation.get("at")
        if at == "opening" and node.is_container:
            return opening(self.document, node)
        if at == "key" and node.member is not None:
            return self.document.key_range(node.member)
        return default

    def _values(self, node: JsonNode, key: str) -> dict[str, str]:
        values = {"key": key, "kind": kind_phrase(node), "text": self.document.text[node.start : node.end]}
        if self.variables is not None:
            values.update(self.variables(node))
        return values


def _rooted(inner: ValidationError, outer: ValidationError) -> ValidationError:
    """An error inside ``anyOf`` with the path of the value it is about from the validated value's root."""
    inner.relative_path.extendleft(reversed(outer.relative_path))
    return inner


def _locate(root: JsonNode, path: list[Any]) -> JsonNode | None:
    """The node an instance path names (under the last of duplicate keys, as JSON.parse keeps); None for a member
    written without a value."""
    node: JsonNode | None = root
    for part in path:
        if isinstance(node, JsonObject) and isinstance(part, str):
            node = node.value_of(part)
        elif isinstance(node, JsonArray) and isinstance(part, int) and 0 <= part < len(node.items):
            node = node.items[part]
        else:
            return None
    return node


def _missing(node: JsonObject, error: ValidationError) -> list[str]:
    """The required keys the object lacks; a key written without a value is not missing (json/syntax)."""
    wanted = error.validator_value if isinstance(error.validator_value, list) else []
    return [key for key in wanted if isinstance(key, str) and node.get(key) is None]


def _annotation(schema: Any, keyword: str, kind: str | None) -> Mapping[str, str] | None:
    """The first ``x-clarvis-errors`` entry of ``schema`` for ``keyword`` that applies to a value of ``kind``."""
    if not isinstance(schema, Mapping):
        return None
    for annotation in schema.get(ERROR_ANNOTATION, ()):
        if annotation.get("keyword") == keyword and annotation.get("when", kind) == kind:
            return annotation  # type: ignore[no-any-return]  # the schemas' annotations are checked by the tests
    return None


def _message(annotation: Mapping[str, str], values: Mapping[str, str]) -> str:
    import string  # imported here: only a document with an error has a message to write

    return string.Template(annotation["message"]).substitute(values)


def _severity(annotation: Mapping[str, str]) -> Severity | None:
    name = annotation.get("severity")
    return Severity[name.upper()] if name else None
