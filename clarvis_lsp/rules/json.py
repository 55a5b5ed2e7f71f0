"""The ``json/*`` rules: well-formedness and duplicate keys, for every JSON file kind.

The tolerant parser keeps going after an error, so these findings sit beside the schema and semantic findings
of the parts that did parse instead of hiding them.
"""

from __future__ import annotations

from clarvis_lsp.documents.jsondoc import JsonDocument
from clarvis_lsp.findings import Related, Severity
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule

SYNTAX = rule(
    "json/syntax",
    Severity.ERROR,
    "The JSON is not well-formed.",
    why="Clarvis cannot read a file that does not parse, so none of its settings take effect. The rest of the "
    "file is still checked where it parsed, so other findings stay visible.",
    example='{\n  "enabledPlugins": ["a",],\n}',
    fix="Correct the JSON at the reported place (the message says what is expected there).",
    file_kind="any",
)
DUPLICATE_KEY = rule(
    "json/duplicate-key",
    Severity.WARNING,
    "An object key appears twice.",
    why="JSON parsers keep the last value silently, so the first one looks effective but is not.",
    example='{"model": "a", "model": "b"}',
    fix="Keep one of the two keys.",
    file_kind="any",
)


def check_json_syntax(document: JsonDocument, findings: Findings) -> None:
    """Report syntax errors and duplicate keys of any JSON document."""
    for error in document.errors:
        findings.add(SYNTAX.code, document.error_range(error), error.message)
    for first, duplicate in document.duplicates:
        findings.add(
            DUPLICATE_KEY.code,
            document.key_range(duplicate),
            f'"{duplicate.key}" appears twice in this object (first on line '
            f"{document.key_range(first).start.line + 1}); JSON keeps only this last value. Remove one of them.",
            related=[Related(findings.path, document.key_range(first), f'first "{first.key}"')],
        )
