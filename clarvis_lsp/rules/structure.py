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
string can be told how to quote it; the first entry that applies wins. A ``required`` error looks for its
annotation on the missing property's schema first (what its absence means belongs to it), then on the object's.
An ``additionalProperties`` error reports every unknown member through ``report_unknown_field``, with its
did-you-mean and its rename and remove fixes. A failing keyword without an annotation is checked by a
hand-written rule of the family (or not at all): the schema says what a value must be, the rule what Clarvis
makes of it.

``x-clarvis-nonblank`` is the one keyword added to JSON Schema: a string that is empty or only whitespace fails
it (``minLength`` counts whitespace as content, Clarvis does not).

jsonschema is imported on the first JSON document only, and each schema's validator is built once and reused:
checking SKILL.md files never loads it.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonMember, JsonNode, JsonObject, to_python
from clarvis_lsp.knowledge import schemas
from clarvis_lsp.model import Severity
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.jsonshape import kind_phrase, opening, report_unknown_field

if TYPE_CHECKING:
    from jsonschema import ValidationError
    from jsonschema.protocols import Validator

ERROR_ANNOTATION = "x-clarvis-errors"
NONBLANK = "x-clarvis-nonblank"

Variables = Callable[[JsonNode], Mapping[str, str]]
"""The message variables a family computes for the node an error is about (``$label`` of an entry, …)."""


def check_structure(
    document: JsonDocument, schema: str, findings: Findings, variables: Variables | None = None
) -> None:
    """Validate ``document`` against the schema ``schema`` and report each annotated error on its node."""
    root = document.root
    if root is None:
        return  # json/syntax says the file is empty
    instance = _instance(root)
    reported: set[tuple[int, str]] = set()  # (node, keyword or message): each reported once
    for error in _validator(schema).iter_errors(instance):
        _report(document, root, error, findings, variables, reported)


def _instance(root: JsonNode) -> Any:
    """The document as ``json.loads`` would give it (the last of duplicate keys wins, an invalid value is
    ``None``), except that a member written without a value is kept, as ``None``: it is no unknown or missing
    member to report, and any error about its value is dropped by ``_locate``."""
    result = to_python(root)
    pending: list[tuple[JsonNode, Any]] = [(root, result)]
    while pending:
        node, value = pending.pop()
        if isinstance(node, JsonObject) and isinstance(value, dict):
            for member in node.members:
                if node.get(member.key) is not member:
                    continue  # an earlier duplicate: JSON.parse keeps the last
                if member.value is None:
                    value[member.key] = None
                elif member.value.is_container:
                    pending.append((member.value, value[member.key]))
        elif isinstance(node, JsonArray) and isinstance(value, list):
            pending.extend((item, value[index]) for index, item in enumerate(node.items) if item.is_container)
    return result


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


def _report(
    document: JsonDocument,
    root: JsonNode,
    error: ValidationError,
    findings: Findings,
    variables: Variables | None,
    reported: set[tuple[int, str]],
) -> None:
    keyword = str(error.validator)
    node, member = _locate(root, list(error.absolute_path))
    if node is None:
        return  # a member without a value: json/syntax reports it
    if keyword in ("required", "additionalProperties"):
        if (id(node), keyword) in reported:
            return  # every missing or unknown member of this object is already reported
        reported.add((id(node), keyword))
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    if keyword == "required":
        assert isinstance(node, JsonObject)
        for key in _missing(node, error):
            property_schema = schema.get("properties", {}).get(key, {})
            annotation = _annotation(property_schema, keyword, None) or _annotation(schema, keyword, None)
            if annotation is not None:
                values = _values(document, node, key, variables)
                findings.add(
                    annotation["code"],
                    opening(document, node),
                    _message(annotation, values),
                    severity=_severity(annotation),
                )
        return
    annotation = _annotation(schema, keyword, node.kind)
    if annotation is None:
        return  # a hand-written rule of the family checks this keyword
    if keyword == "additionalProperties":
        assert isinstance(node, JsonObject)
        known = tuple(schema.get("properties", {}))
        for unknown in node.members:
            if unknown.key not in known:
                report_unknown_field(
                    document,
                    unknown,
                    known,
                    findings,
                    code=annotation["code"],
                    message=_message(annotation, _values(document, node, unknown.key, variables)),
                )
        return
    key = member.key if member is not None else ""
    message = _message(annotation, _values(document, node, key, variables))
    if (id(node), message) in reported:
        return  # two keywords, one finding (``0.5`` as a timeout is neither whole nor positive: one message)
    reported.add((id(node), message))
    findings.add(annotation["code"], document.node_range(node), message, severity=_severity(annotation))


def _locate(root: JsonNode, path: list[Any]) -> tuple[JsonNode | None, JsonMember | None]:
    """The node an instance path names and the member holding it (the last of duplicate keys, as JSON.parse)."""
    node: JsonNode | None = root
    member: JsonMember | None = None
    for part in path:
        if isinstance(node, JsonObject) and isinstance(part, str):
            member = node.get(part)
            node = member.value if member is not None else None
        elif isinstance(node, JsonArray) and isinstance(part, int) and 0 <= part < len(node.items):
            member = None
            node = node.items[part]
        else:
            return None, None
    return node, member


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


def _values(document: JsonDocument, node: JsonNode, key: str, variables: Variables | None) -> dict[str, str]:
    values = {"key": key, "kind": kind_phrase(node), "text": document.text[node.start : node.end]}
    if variables is not None:
        values.update(variables(node))
    return values


def _message(annotation: Mapping[str, str], values: Mapping[str, str]) -> str:
    return string.Template(annotation["message"]).substitute(values)


def _severity(annotation: Mapping[str, str]) -> Severity | None:
    name = annotation.get("severity")
    return Severity[name.upper()] if name else None
