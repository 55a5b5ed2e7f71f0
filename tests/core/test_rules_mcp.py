"""Every ``mcp/*`` rule, driven through ``check_paths`` on the ``mcpServers`` of a workspace settings.json.

Ranges are pinned with ``at(text, needle)``, the exact span of a piece of the document.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Diagnostic, Range, Severity
from clarvis_lsp.fixes import plan_fixes
from clarvis_lsp.knowledge import mcp
from clarvis_lsp.rules.mcp import interpolation_errors

# A value of each JSON type the schema gives a server field, for tests that only need the field present.
SAMPLE = {"string": '"x"', "array": "[]", "object": "{}", "boolean": "true"}

SETTINGS = ".clarvis/settings.json"


def servers(tmp_path: Path, servers_text: str) -> tuple[str, list[Diagnostic]]:
    """Check a settings file whose ``mcpServers`` is ``servers_text``; return the text and the mcp/* findings."""
    text = '{"mcpServers": ' + servers_text + "}"
    ws = tmp_path / "ws"
    (ws / ".clarvis").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    (ws / SETTINGS).write_text(text, encoding="utf-8")
    found = check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=tmp_path / "home")).result.diagnostics
    return text, [d for d in found if d.code.startswith("mcp/")]


def at(text: str, needle: str, occurrence: int = 1) -> Range:
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return LineIndex(text).range(index, index + len(needle))


def codes(found: list[Diagnostic]) -> list[str]:
    return [d.code for d in found]


def one(found: list[Diagnostic], code: str) -> Diagnostic:
    matching = [d for d in found if d.code == code]
    assert len(matching) == 1, f"expected one {code}, got {codes(found)}"
    return matching[0]


def fixed(found: list[Diagnostic], *, unsafe: bool = False) -> str:
    plans = plan_fixes(found, unsafe=unsafe)
    assert len(plans) == 1
    json.loads(plans[0].after)
    return plans[0].after


def test_valid_servers_have_no_findings(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "db": {
                "command": "db-server",
                "args": ["serve", "--port", "1"],
                "env": {"TOKEN": "${DB_TOKEN}", "MIXED": "a-${A_1}-${_B}-$plain"},
                "shared": True,
                "resources": False,
            },
            "local": {"type": "stdio", "command": "x"},
            "github": {
                "type": "http",
                "url": "https://mcp.example.com/gh",
                "headers": {"Authorization": "Bearer ${GH}"},
            },
            "events": {"type": "sse", "url": "http://localhost:8080/sse", "resources": True},
        }
    )
    assert servers(tmp_path, text)[1] == []


# -- mcp/unknown-type -------------------------------------------------------------------------------------------


def test_an_unknown_type_is_reported_on_the_value(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"a": {"type": "websocket", "url": "wss://x"}}')
    d = one(found, "mcp/unknown-type")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, '"websocket"')
    assert codes(found) == ["mcp/unknown-type"]  # which fields belong is a guess: no transport findings


def test_a_type_in_the_wrong_case_is_fixed(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"a": {"type": "HTTP", "url": "https://x"}}')
    d = one(found, "mcp/unknown-type")
    assert 'Did you mean "http"?' in d.message
    assert fixed([d]) == text.replace('"HTTP"', '"http"')


def test_a_type_that_is_not_a_string_is_unknown(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"a": {"type": 1, "command": "x"}}')
    assert one(found, "mcp/unknown-type").range == at(text, "1")


# -- mcp/missing-command ----------------------------------------------------------------------------------------


def test_a_stdio_server_without_command_is_reported_on_its_name(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"db": {"args": ["serve"]}}')
    d = one(found, "mcp/missing-command")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, '"db"')


def test_an_empty_command_is_reported_on_the_value(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"db": {"type": "stdio", "command": ""}}')
    assert one(found, "mcp/missing-command").range == at(text, '""')


def test_a_stdio_server_with_a_command_passes(tmp_path: Path) -> None:
    assert servers(tmp_path, '{"db": {"command": "db"}}')[1] == []


# -- mcp/missing-url --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", [transport for transport in mcp.TRANSPORTS if "url" in mcp.REQUIRED[transport]])
def test_a_remote_server_without_url_is_reported_on_its_name(tmp_path: Path, transport: str) -> None:
    text, found = servers(tmp_path, '{"docs": {"type": "' + transport + '"}}')
    d = one(found, "mcp/missing-url")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, '"docs"')


@pytest.mark.parametrize("url", ["mcp.example.com", "ftp://x/y", "https://", "${MCP_URL}", "https://a b"])
def test_a_url_that_is_not_http_is_reported_on_the_value(tmp_path: Path, url: str) -> None:
    text, found = servers(tmp_path, '{"docs": {"type": "http", "url": "' + url + '"}}')
    assert one(found, "mcp/missing-url").range == at(text, '"' + url + '"')


# -- mcp/field-not-allowed --------------------------------------------------------------------------------------


@pytest.mark.parametrize("field", mcp.FORBIDDEN["sse"])
def test_stdio_fields_on_a_remote_server_are_removed(tmp_path: Path, field: str) -> None:
    value = SAMPLE[mcp.FIELD[field].types[0]]
    text, found = servers(tmp_path, '{"docs": {"type": "sse", "url": "https://x", "' + field + '": ' + value + "}}")
    d = one(found, "mcp/field-not-allowed")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, f'"{field}"')
    assert d.fixes[0].title == f'Remove the field "{field}"'
    assert fixed([d], unsafe=True) == '{"mcpServers": {"docs": {"type": "sse", "url": "https://x"}}}'


@pytest.mark.parametrize("field", mcp.FORBIDDEN["stdio"])
def test_remote_fields_on_a_stdio_server_are_removed(tmp_path: Path, field: str) -> None:
    value = SAMPLE[mcp.FIELD[field].types[0]]
    text = '{\n  "db": {\n    "' + field + '": ' + value + ',\n    "command": "db"\n  }\n}'
    full, found = servers(tmp_path, text)
    d = one(found, "mcp/field-not-allowed")
    assert d.range == at(full, f'"{field}"')
    assert 'without "type" is stdio' in d.message
    assert fixed([d], unsafe=True) == '{"mcpServers": {\n  "db": {\n    "command": "db"\n  }\n}}'


# -- mcp/invalid-value ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "needle"),
    [
        ('"db"', '"db"'),
        ('{"command": 3}', "3"),
        ('{"command": "x", "args": "serve"}', '"serve"'),
        ('{"command": "x", "args": ["a", 1]}', "1"),
        ('{"command": "x", "env": []}', "[]"),
        ('{"command": "x", "env": {"A": 1}}', "1"),
        ('{"command": "x", "shared": "yes"}', '"yes"'),
        ('{"command": "x", "resources": 0}', "0"),
        ('{"type": "http", "url": 5}', "5"),
        ('{"type": "http", "url": "https://x", "headers": {"A": null}}', "null"),
    ],
)
def test_a_field_of_the_wrong_type_is_invalid(tmp_path: Path, server: str, needle: str) -> None:
    text, found = servers(tmp_path, '{"s": ' + server + "}")
    d = one(found, "mcp/invalid-value")
    assert d.severity is Severity.ERROR
    expected = at(text, needle)
    if needle.startswith("["):
        expected = Range.of(expected.start.line, expected.start.character, 0, expected.start.character + 1)
    assert d.range == expected


def test_a_non_object_mcp_servers_is_left_to_the_settings_rule(tmp_path: Path) -> None:
    assert servers(tmp_path, "[]")[1] == []


# -- mcp/unknown-field ------------------------------------------------------------------------------------------


def test_an_unknown_server_field_is_a_warning_on_its_key(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"db": {"command": "x", "environment": {}}}')
    d = one(found, "mcp/unknown-field")
    assert d.severity is Severity.WARNING
    assert d.range == at(text, '"environment"')


def test_a_misspelled_field_suggests_and_renames(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"db": {"command": "x", "resurces": false}}')
    d = one(found, "mcp/unknown-field")
    assert 'Did you mean "resources"?' in d.message
    assert fixed([d]) == text.replace('"resurces"', '"resources"')


def test_an_unrelated_server_field_is_removed(tmp_path: Path) -> None:
    _text, found = servers(tmp_path, '{"db": {"command": "x", "colour": "red"}}')
    d = one(found, "mcp/unknown-field")
    assert "Known fields:" in d.message
    assert fixed([d], unsafe=True) == '{"mcpServers": {"db": {"command": "x"}}}'


# -- mcp/invalid-interpolation ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["${}", "${VAR", "${1X}", "${A-B}"])
def test_a_malformed_reference_in_env_is_reported_on_itself(tmp_path: Path, bad: str) -> None:
    text, found = servers(tmp_path, '{"db": {"command": "x", "env": {"TOKEN": "pre ' + bad + ' post"}}}')
    d = one(found, "mcp/invalid-interpolation")
    assert d.severity is Severity.WARNING
    assert d.range == at(text, bad)
    assert "TOKEN" in d.message


def test_a_malformed_reference_in_headers_is_found_behind_escapes(tmp_path: Path) -> None:
    text, found = servers(tmp_path, '{"gh": {"type": "http", "url": "https://x", "headers": {"A": "\\"q\\" ${1X}"}}}')
    assert one(found, "mcp/invalid-interpolation").range == at(text, "${1X}")


def test_the_message_never_holds_more_than_the_reference(tmp_path: Path) -> None:
    _text, found = servers(tmp_path, '{"db": {"command": "x", "env": {"K": "s3cr3t-literal ${}"}}}')
    assert "s3cr3t" not in one(found, "mcp/invalid-interpolation").message


def test_interpolation_syntax() -> None:
    assert interpolation_errors("${A} ${_b1} $B plain") == []
    assert [problem[:2] for problem in interpolation_errors("x${}y${A")] == [(1, 4), (5, 8)]


# -- mcp/invalid-server-name ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["github.com", "a:b"])
def test_a_server_name_with_separators_is_a_warning(tmp_path: Path, name: str) -> None:
    text, found = servers(tmp_path, '{"' + name + '": {"command": "x"}}')
    d = one(found, "mcp/invalid-server-name")
    assert d.severity is Severity.WARNING
    assert d.range == at(text, f'"{name}"')
    assert not d.fixes[0].safe
    renamed = name.replace(".", "-").replace(":", "-")
    assert fixed([d], unsafe=True) == text.replace(f'"{name}"', f'"{renamed}"')


def test_a_plain_server_name_passes(tmp_path: Path) -> None:
    assert servers(tmp_path, '{"github-com_2": {"command": "x"}}')[1] == []
