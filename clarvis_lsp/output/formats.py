"""The ``--check`` output formats: text for people, JSON for scripts, SARIF for code scanning, GitHub annotations.

Each formatter turns a ``CheckResult`` into one string (no trailing newline; the caller prints it). Positions
in the engine are 0-based with an exclusive end; every format here shows them 1-based, columns counted in
Unicode code points, so an end column is the 1-based column just *after* the range (as SARIF defines it). The
order is stable (path, line, column, code, message) so that two runs over the same tree diff cleanly.

No pygls/lsprotocol here: the check path must start fast.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from clarvis_lsp.findings import CheckResult, Diagnostic, Range, Severity
from clarvis_lsp.rules.catalogue import DOCS_BASE_URL, Rule

__all__ = [
    "INFORMATION_URI",
    "SARIF_SCHEMA_URI",
    "format_github",
    "format_json",
    "format_sarif",
    "format_text",
]

SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = DOCS_BASE_URL.removesuffix("rules/")
_FINGERPRINT_KEY = "clarvisLsp/v1"

_PLURALS = {
    Severity.ERROR: ("error", "errors"),
    Severity.WARNING: ("warning", "warnings"),
    Severity.INFORMATION: ("information", "information"),
    Severity.HINT: ("hint", "hints"),
}


def _sorted(result: CheckResult) -> list[tuple[str, Diagnostic]]:
    """Diagnostics with their display paths, in output order (display path, then position, code, message)."""
    shown = [(result.display_path(diagnostic.path), diagnostic) for diagnostic in result.diagnostics]
    shown.sort(
        key=lambda item: (
            item[0],
            item[1].range.start.line,
            item[1].range.start.character,
            item[1].code,
            item[1].message,
        )
    )
    return shown


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


# --- text -----------------------------------------------------------------------------------------------------


def _one_line(text: str) -> str:
    """Line-oriented consumers (problem matchers, grep) need one finding per line."""
    return " ".join(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))


def format_text(result: CheckResult) -> str:
    """``path:line:col: severity[code] message``, related places indented below, then a summary line."""
    lines: list[str] = []
    for path, diagnostic in _sorted(result):
        start = diagnostic.range.start
        lines.append(
            f"{path}:{start.line + 1}:{start.character + 1}: "
            f"{diagnostic.severity.label}[{diagnostic.code}] {_one_line(diagnostic.message)}"
        )
        for related in diagnostic.related:
            where = related.range.start
            lines.append(
                f"  {result.display_path(related.path)}:{where.line + 1}:{where.character + 1}: "
                f"note: {_one_line(related.message)}"
            )
    files = _plural(result.files_checked, "file", "files")
    if result.diagnostics:
        counts = ", ".join(_plural(result.count(severity), *_PLURALS[severity]) for severity in Severity)
        findings = _plural(len(result.diagnostics), "finding", "findings")
        lines.append(f"{findings} in {files} ({counts})")
    else:
        lines.append(f"No findings in {files}.")
    return "\n".join(lines)


# --- JSON -----------------------------------------------------------------------------------------------------


def format_json(result: CheckResult, version: str) -> str:
    """The JSON document of SPEC §6, with 1-based lines and code-point columns."""
    diagnostics = []
    for path, diagnostic in _sorted(result):
        start, end = diagnostic.range.start, diagnostic.range.end
        diagnostics.append(
            {
                "path": path,
                "line": start.line + 1,
                "column": start.character + 1,
                "end_line": end.line + 1,
                "end_column": end.character + 1,
                "severity": diagnostic.severity.label,
                "code": diagnostic.code,
                "message": diagnostic.message,
                "related": [
                    {
                        "path": result.display_path(related.path),
                        "line": related.range.start.line + 1,
                        "column": related.range.start.character + 1,
                        "message": related.message,
                    }
                    for related in diagnostic.related
                ],
            }
        )
    document = {
        "version": version,
        "files_checked": result.files_checked,
        "diagnostics": diagnostics,
        "summary": result.summary(),
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


# --- SARIF ----------------------------------------------------------------------------------------------------

_SARIF_LEVELS = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}


def _rule_name(code: str) -> str:
    """SARIF's ``name`` is an identifier-like form of the rule: ``skill/unknown-field`` → ``SkillUnknownField``."""
    return "".join(word.capitalize() for word in code.replace("/", "-").split("-") if word)


def _descriptor(declared: Rule) -> dict[str, object]:
    return {
        "id": declared.code,
        "name": _rule_name(declared.code),
        "shortDescription": {"text": declared.summary},
        "fullDescription": {"text": f"{declared.summary} {declared.why}"},
        "help": {"text": declared.explain(), "markdown": declared.markdown()},
        "helpUri": declared.url,
        "defaultConfiguration": {"level": _SARIF_LEVELS[declared.severity]},
        "properties": {"tags": list(dict.fromkeys((declared.family, declared.file_kind)))},
    }


def _undeclared_descriptor(code: str) -> dict[str, object]:
    """A minimal descriptor for a code missing from ``rules``, so every ``ruleIndex`` points somewhere."""
    return {"id": code, "name": _rule_name(code), "shortDescription": {"text": code}}


def _artifact_location(path: str) -> dict[str, object]:
    """A relative path as a percent-encoded URI against ``%SRCROOT%``; an absolute one as a ``file:`` URI."""
    native = Path(path)
    if native.is_absolute():
        return {"uri": native.as_uri()}
    posix = PurePosixPath(path.replace("\\", "/")).as_posix()
    return {"uri": quote(posix, safe="/"), "uriBaseId": "%SRCROOT%"}


def _region(range_: Range) -> dict[str, int]:
    return {
        "startLine": range_.start.line + 1,
        "startColumn": range_.start.character + 1,
        "endLine": range_.end.line + 1,
        "endColumn": range_.end.character + 1,
    }


def _fingerprint(code: str, path: str, message: str, ordinal: int) -> str:
    """Stable across edits that move the finding (no line numbers); ``ordinal`` tells identical findings apart."""
    import hashlib  # imported here: only SARIF has fingerprints

    digest = hashlib.sha256("\0".join((code, path, message, str(ordinal))).encode("utf-8"))
    return digest.hexdigest()[:32]


def format_sarif(
    result: CheckResult,
    version: str,
    rules: Sequence[Rule],
    *,
    source_root: Path | None = None,
) -> str:
    """SARIF 2.1.0 as GitHub code scanning accepts it, with the whole catalogue in ``tool.driver.rules``.

    Relative paths are URIs against ``%SRCROOT%``, which ``originalUriBaseIds`` resolves to ``source_root``
    (default: the current directory, which is what relative display paths are relative to).
    """
    descriptors = [_descriptor(declared) for declared in rules]
    index = {declared.code: number for number, declared in enumerate(rules)}
    seen: Counter[tuple[str, str, str]] = Counter()
    results: list[dict[str, object]] = []
    for path, diagnostic in _sorted(result):
        if diagnostic.code not in index:
            index[diagnostic.code] = len(descriptors)
            descriptors.append(_undeclared_descriptor(diagnostic.code))
        identity = (diagnostic.code, path, diagnostic.message)
        ordinal = seen[identity]
        seen[identity] += 1
        entry: dict[str, object] = {
            "ruleId": diagnostic.code,
            "ruleIndex": index[diagnostic.code],
            "level": _SARIF_LEVELS[diagnostic.severity],
            "message": {"text": diagnostic.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact_location(path),
                        "region": _region(diagnostic.range),
                    }
                }
            ],
            "partialFingerprints": {_FINGERPRINT_KEY: _fingerprint(*identity, ordinal)},
        }
        if diagnostic.related:
            entry["relatedLocations"] = [
                {
                    "id": number,
                    "physicalLocation": {
                        "artifactLocation": _artifact_location(result.display_path(related.path)),
                        "region": _region(related.range),
                    },
                    "message": {"text": related.message},
                }
                for number, related in enumerate(diagnostic.related, start=1)
            ]
        results.append(entry)
    root = (source_root or Path.cwd()).resolve().as_uri().rstrip("/") + "/"
    log = {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "clarvis-lsp",
                        "version": version,
                        "semanticVersion": version,
                        "informationUri": INFORMATION_URI,
                        "rules": descriptors,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


# --- GitHub workflow commands ---------------------------------------------------------------------------------

_GITHUB_COMMANDS = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "notice",
    Severity.HINT: "notice",
}


def _escape_data(text: str) -> str:
    """As ``@actions/core`` escapes a command's message (``escapeData``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """As ``@actions/core`` escapes a property value (``escapeProperty``): also ``:`` and ``,``."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(result: CheckResult) -> str:
    """One ``::error``/``::warning``/``::notice`` workflow command per finding.

    Columns are sent only for single-line ranges (the runner rejects them otherwise); related places, which
    annotations cannot carry, are appended to the message as extra lines.
    """
    commands: list[str] = []
    for path, diagnostic in _sorted(result):
        start, end = diagnostic.range.start, diagnostic.range.end
        properties: list[tuple[str, str]] = [("file", path), ("line", str(start.line + 1))]
        if start.line == end.line:
            properties.append(("col", str(start.character + 1)))
            properties += [("endLine", str(end.line + 1)), ("endColumn", str(end.character + 1))]
        else:
            properties.append(("endLine", str(end.line + 1)))
        properties.append(("title", diagnostic.code))
        message = diagnostic.message
        for related in diagnostic.related:
            where = related.range.start
            message += (
                f"\n{result.display_path(related.path)}:{where.line + 1}:{where.character + 1}: {related.message}"
            )
        rendered = ",".join(f"{key}={_escape_property(value)}" for key, value in properties)
        commands.append(f"::{_GITHUB_COMMANDS[diagnostic.severity]} {rendered}::{_escape_data(message)}")
    return "\n".join(commands)
