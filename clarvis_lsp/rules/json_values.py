"""Small facts about JSON values that every JSON rule family needs: what kind a value is for a message, where a
finding about it goes, and the one way an unknown field is reported (did-you-mean, rename and remove fixes)."""

from __future__ import annotations

from collections.abc import Sequence

from clarvis_lsp.documents.jsondoc import JsonDocument, JsonMember, JsonNode
from clarvis_lsp.findings import Fix, Range
from clarvis_lsp.rules.base import Findings, closest
from clarvis_lsp.rules.jsonedit import remove_member, rename_key

_KIND_PHRASES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "invalid": "an invalid value",
}


def kind_phrase(node: JsonNode) -> str:
    """A JSON value's kind for a message: "a string", "a number", "an object"…"""
    return _KIND_PHRASES.get(node.kind, node.kind)


def opening(document: JsonDocument, node: JsonNode) -> Range:
    """The opening bracket of a container: where a finding about a missing key goes."""
    return document.range_of(node.start, node.start + 1)


def value_range(document: JsonDocument, node: JsonNode) -> Range:
    """A value's range; a container is reported on its opening bracket only, not its whole body."""
    if node.is_container:
        return opening(document, node)
    return document.node_range(node)


def is_string(node: JsonNode) -> bool:
    return node.kind == "string" and isinstance(node.value, str)


def report_unknown_field(
    document: JsonDocument,
    member: JsonMember,
    known: Sequence[str],
    findings: Findings,
    *,
    code: str,
    message: str,
    no_suggestion_tail: str | None = None,
) -> None:
    """Report ``member`` as unknown: ``message`` plus "Did you mean …?" (or the known fields), with a safe rename
    fix when the near miss is not already present and an unsafe fix removing the member."""
    suggestion = closest(member.key, known)
    fixes: list[Fix] = []
    if suggestion is not None and member.parent.get(suggestion) is None:
        fixes.append(
            Fix(f'Rename "{member.key}" to "{suggestion}"', (rename_key(document, member, suggestion, findings.path),))
        )
    fixes.append(Fix(f'Remove the field "{member.key}"', (remove_member(document, member, findings.path),), safe=False))
    if suggestion is not None:
        message += f' Did you mean "{suggestion}"?'
    else:
        message += no_suggestion_tail if no_suggestion_tail is not None else f" Known fields: {', '.join(known)}."
    findings.add(code, document.key_range(member), message, fixes=fixes)
