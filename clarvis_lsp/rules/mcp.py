"""The ``mcp/*`` rules: the MCP server objects of an ``mcpServers`` map (settings.json and plugin.json).

Each server is checked field by field, so one bad field never hides another. The transport (``type``, default
``stdio``) decides which fields are required and which are forbidden; when ``type`` itself is unknown only the
transport-independent checks run, because which fields belong is then a guess. The transports, the fields
and what each transport requires or forbids come from ``clarvis_lsp.knowledge.mcp`` (the schema).

``${VAR}`` interpolation in ``env`` and ``headers`` values is checked for its syntax only: the environment is
never read and no variable's value is ever printed.
"""

from __future__ import annotations

import re

from clarvis_lsp.documents.jsondoc import JsonDocument, JsonMember, JsonNode, JsonObject
from clarvis_lsp.findings import Fix, Severity
from clarvis_lsp.knowledge import mcp
from clarvis_lsp.rules.base import Findings, closest, one_of
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.json_values import is_string, kind_phrase, report_unknown_field, value_range
from clarvis_lsp.rules.jsonedit import json_string, remove_member, rename_key, replace_value, source_offsets
from clarvis_lsp.rules.structure import check_structure

VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _forbidden_by_transport() -> str:
    """What each transport forbids, transports forbidding the same fields together: "`url`, `headers` on stdio; …"."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for transport in mcp.TRANSPORTS:
        groups.setdefault(mcp.FORBIDDEN[transport], []).append(transport)
    return "; ".join(
        f"{', '.join(f'`{field}`' for field in fields)} on {'/'.join(transports)}"
        for fields, transports in groups.items()
    )


UNKNOWN_TYPE = rule(
    "mcp/unknown-type",
    Severity.ERROR,
    f"An MCP server's `type` is not {one_of(mcp.TRANSPORTS)}.",
    why="The type selects the transport; Clarvis cannot connect to a server of an unknown type.",
    example='"mcpServers": {"docs": {"type": "websocket", "url": "wss://example.com"}}',
    fix="Use `stdio` (a local process, the default), `http` or `sse`.",
    file_kind="settings",
)
MISSING_COMMAND = rule(
    "mcp/missing-command",
    Severity.ERROR,
    "A stdio MCP server has no `command` (or it is empty).",
    why="A stdio server is a local process started with `command`; without it there is nothing to start.",
    example='"mcpServers": {"db": {"args": ["serve"]}}',
    fix='Add `"command"` with the program to start, or set `"type"` to `http`/`sse` with a `url`.',
    file_kind="settings",
)
MISSING_URL = rule(
    "mcp/missing-url",
    Severity.ERROR,
    "An http or sse MCP server has no `url`, or its `url` is not an http(s) URL.",
    why="Remote servers are reached at their URL; without a valid http:// or https:// URL Clarvis cannot connect.",
    example='"mcpServers": {"docs": {"type": "http", "url": "mcp.example.com"}}',
    fix="Write the full URL, starting with https:// (or http://).",
    file_kind="settings",
)
FIELD_NOT_ALLOWED = rule(
    "mcp/field-not-allowed",
    Severity.ERROR,
    f"A field that the server's transport forbids ({_forbidden_by_transport()}).",
    why="stdio servers are local processes and remote servers are URLs; Clarvis rejects a server that mixes them.",
    example='"mcpServers": {"docs": {"type": "http", "url": "https://x", "command": "docs-server"}}',
    fix="Remove the field, or change `type` to the transport it belongs to.",
    file_kind="settings",
)
INVALID_VALUE = rule(
    "mcp/invalid-value",
    Severity.ERROR,
    "An MCP server field has the wrong type.",
    why="Clarvis rejects a server whose fields do not have the documented types, so it never connects.",
    example='"mcpServers": {"db": {"command": "db", "args": "serve", "shared": "yes"}}',
    fix="`command` a string, `args` an array of strings, `env`/`headers` maps of strings, `shared`/`resources` "
    "booleans, `url` a string; each server is an object.",
    file_kind="settings",
)
UNKNOWN_FIELD = rule(
    "mcp/unknown-field",
    Severity.WARNING,
    "A field of an MCP server object that Clarvis does not know.",
    why="Unknown fields are not acted on, so a misspelled `environment` or `header` silently has no effect.",
    example='"mcpServers": {"db": {"command": "db", "environment": {"TOKEN": "${TOKEN}"}}}',
    fix="Correct the spelling (the message suggests the closest known field) or remove the field.",
    file_kind="settings",
)
INVALID_INTERPOLATION = rule(
    "mcp/invalid-interpolation",
    Severity.WARNING,
    "A malformed `${...}` in an `env` or `headers` value.",
    why="Clarvis replaces `${VAR}` with the environment variable VAR; a malformed reference (`${}`, `${VAR`, "
    "`${1X}`) is not replaced, so the server gets the literal text instead of the secret.",
    example='"env": {"TOKEN": "${GITHUB_TOKEN"}',
    fix="Write `${NAME}` with a name of letters, digits and `_` that does not start with a digit.",
    file_kind="settings",
)
INVALID_SERVER_NAME = rule(
    "mcp/invalid-server-name",
    Severity.WARNING,
    "An MCP server name containing `:` or `.`.",
    why="`:` and `.` separate plugin, server and tool in the names `<plugin>:<server>.<tool>`; a server name "
    "containing them makes its tool names ambiguous (and hook `match.tool` patterns with them).",
    example='"mcpServers": {"github.com": {"type": "http", "url": "https://api.example.com/mcp"}}',
    fix="Rename the server without `:` and `.` (for example `github-com`).",
    file_kind="settings",
)


def check_mcp_servers(document: JsonDocument, node: JsonNode, findings: Findings) -> None:
    """Check every server of an ``mcpServers`` map. A value that is not an object is the caller's to report."""
    if not isinstance(node, JsonObject):
        return
    for member in node.members:
        _check_server_name(document, member, findings)
        if member.value is not None:
            check_mcp_server(document, member, member.value, findings)


def _check_server_name(document: JsonDocument, member: JsonMember, findings: Findings) -> None:
    bad = sorted({char for char in member.key if char in ":."})
    if not bad:
        return
    fixes: list[Fix] = []
    renamed = re.sub(r"[:.]+", "-", member.key).strip("-")
    if renamed and member.parent.get(renamed) is None:
        fixes.append(
            Fix(
                f'Rename the server to "{renamed}"',
                (rename_key(document, member, renamed, findings.path),),
                safe=False,  # tool names and hook match patterns that use the old name change too
            )
        )
    shown = " and ".join(f"`{char}`" for char in bad)
    findings.add(
        INVALID_SERVER_NAME.code,
        document.key_range(member),
        f'The server name "{member.key}" contains {shown}; `:` and `.` separate plugin, server and tool in '
        f"`<plugin>:<server>.<tool>`, so its tool names become ambiguous: rename it without them.",
        fixes=fixes,
    )


def check_mcp_server(document: JsonDocument, owner: JsonMember, server: JsonNode, findings: Findings) -> None:
    """Check one server object, the value of the ``mcpServers`` member ``owner``: the types and unknown fields from
    ``mcp-server.schema.json``'s annotations (except in the fields its transport forbids, reported as such), then
    the transport's required and forbidden fields and the ``${VAR}`` references."""
    if not isinstance(server, JsonObject):
        check_structure(document, "mcp-server", findings, node=server)
        return
    transport = _check_type(document, server, findings)
    forbidden = mcp.FORBIDDEN[transport] if transport is not None else ()

    def variables(node: JsonNode) -> dict[str, str]:
        field = _field_of(server, node)
        return {"field": field} if field is not None else {}

    check_structure(
        document,
        "mcp-server",
        findings,
        variables,
        node=server,
        exempt=lambda node: _field_of(server, node) in forbidden,
    )
    if transport is not None:
        if "command" in mcp.REQUIRED[transport]:
            _check_command(document, owner, server, findings)
        if "url" in mcp.REQUIRED[transport]:
            _check_url(document, owner, server, transport, findings)
    for member in server.members:
        if member.key in forbidden:
            _report_forbidden(document, member, transport or "", findings)
        elif (
            isinstance(member.value, JsonObject)
            and server.get(member.key) is member
            and member.key in mcp.FIELD
            and mcp.FIELD[member.key].types == ("object",)
        ):
            _check_string_map(document, member.key, member.value, findings)


def _field_of(server: JsonObject, node: JsonNode) -> str | None:
    """The field of ``server`` holding ``node`` (``args`` for an item of ``args``); None for the server itself."""
    current: JsonNode | None = node
    while current is not None and current.parent is not server:
        current = current.parent
    return current.member.key if current is not None and current.member is not None else None


def _check_type(document: JsonDocument, server: JsonObject, findings: Findings) -> str | None:
    """The server's transport, or None when ``type`` is not a known one (reported)."""
    member = server.get("type")
    if member is None:
        return mcp.DEFAULT_TRANSPORT
    value = member.value
    if value is None:
        return None
    if is_string(value) and value.value in mcp.TRANSPORTS:
        return str(value.value)
    written = value.value if is_string(value) else None
    suggestion = closest(str(written), mcp.TRANSPORTS, cutoff=0.6) if written else None
    fixes: list[Fix] = []
    if suggestion is not None:
        fixes.append(
            Fix(
                f'Change the type to "{suggestion}"',
                (replace_value(document, value, json_string(suggestion), findings.path),),
            )
        )
    shown = f'"{written}"' if written is not None else kind_phrase(value)
    message = f'Unknown MCP server type {shown}: use "stdio" (a local process, the default), "http" or "sse".'
    if suggestion is not None:
        message += f' Did you mean "{suggestion}"?'
    findings.add(UNKNOWN_TYPE.code, value_range(document, value), message, fixes=fixes)
    return None


def _check_command(document: JsonDocument, owner: JsonMember, server: JsonObject, findings: Findings) -> None:
    member = server.get("command")
    if member is None:
        findings.add(
            MISSING_COMMAND.code,
            document.key_range(owner),
            f'The stdio MCP server "{owner.key}" has no "command": add the program to start, or set "type" to '
            '"http" or "sse" with a "url" for a remote server.',
        )
        return
    value = member.value
    if value is not None and is_string(value) and not str(value.value).strip():
        findings.add(
            MISSING_COMMAND.code,
            document.node_range(value),
            f'The "command" of the MCP server "{owner.key}" is empty: write the program to start.',
        )


def _check_url(
    document: JsonDocument, owner: JsonMember, server: JsonObject, transport: str, findings: Findings
) -> None:
    member = server.get("url")
    if member is None:
        findings.add(
            MISSING_URL.code,
            document.key_range(owner),
            f'The {transport} MCP server "{owner.key}" has no "url": add its http:// or https:// address.',
        )
        return
    value = member.value
    if value is None or not is_string(value):
        return  # a non-string url is mcp/invalid-value
    if mcp.URL_PATTERN.match(str(value.value)) is None:
        findings.add(
            MISSING_URL.code,
            document.node_range(value),
            f'"{value.value}" is not an http(s) URL: write the full address of the {transport} server, starting '
            "with https:// (or http://).",
        )


def _report_forbidden(document: JsonDocument, member: JsonMember, transport: str, findings: Findings) -> None:
    """``member`` is a field ``transport`` forbids: a remote field on a stdio server, or a stdio one on a remote."""
    allowed = mcp.transports_allowing(member.key)
    if transport == "stdio":
        reason = f'"{member.key}" is only for the {" and ".join(allowed)} transports; a stdio server uses "command"'
        if member.parent.get("type") is None:
            reason += f' (a server without "type" is {mcp.DEFAULT_TRANSPORT})'
    else:
        reason = (
            f'"{member.key}" is only for {"/".join(allowed)} servers; an {transport} server is reached at its "url"'
        )
    findings.add(
        FIELD_NOT_ALLOWED.code,
        document.key_range(member),
        f"{reason}: remove it, or change the server's type.",
        fixes=[Fix(f'Remove the field "{member.key}"', (remove_member(document, member, findings.path),), safe=False)],
    )


def _unknown_field(document: JsonDocument, member: JsonMember, findings: Findings) -> None:
    report_unknown_field(
        document,
        member,
        mcp.FIELDS,
        findings,
        code=UNKNOWN_FIELD.code,
        message=f'Unknown MCP server field "{member.key}": Clarvis does not act on it.',
    )


def _invalid(document: JsonDocument, node: JsonNode, findings: Findings, message: str) -> None:
    findings.add(INVALID_VALUE.code, value_range(document, node), message)


def _check_string_map(document: JsonDocument, key: str, value: JsonObject, findings: Findings) -> None:
    """Each value of ``env`` or ``headers`` as written, duplicates included: a string, with well-formed ``${VAR}``."""
    for entry in value.members:
        if entry.value is None:
            continue
        if not is_string(entry.value):
            _invalid(
                document,
                entry.value,
                findings,
                f'The {key} value "{entry.key}" must be a string, not {kind_phrase(entry.value)}: quote it.',
            )
            continue
        _check_interpolation(document, key, entry, entry.value, findings)


_REFERENCE = re.compile(r"\$\{([^}\s\"]*)(\})?")


def interpolation_errors(text: str) -> list[tuple[int, int, str]]:
    """Malformed ``${...}`` references in ``text``: (start, end, reason), indexes into ``text``."""
    problems: list[tuple[int, int, str]] = []
    for match in _REFERENCE.finditer(text):
        name, closed = match.group(1), match.group(2)
        if closed is None:
            problems.append((match.start(), match.end(), "is never closed with '}'"))
        elif not name:
            problems.append((match.start(), match.end(), "names no variable"))
        elif VARIABLE_NAME.match(name) is None:
            problems.append(
                (
                    match.start(),
                    match.end(),
                    "is not a variable name (letters, digits and _, not starting with a digit)",
                )
            )
    return problems


def _check_interpolation(
    document: JsonDocument, field: str, entry: JsonMember, value: JsonNode, findings: Findings
) -> None:
    text = str(value.value)
    offsets = source_offsets(document, value)
    for start, end, reason in interpolation_errors(text):
        where = document.range_of(offsets[start], offsets[end]) if offsets is not None else document.node_range(value)
        findings.add(
            INVALID_INTERPOLATION.code,
            where,
            f'"{text[start:end]}" in the {field} value "{entry.key}" {reason}, so Clarvis passes it on literally: '
            "write ${NAME} with a name of letters, digits and _.",
        )
