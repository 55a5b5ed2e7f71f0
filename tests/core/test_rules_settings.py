"""Every ``settings/*`` rule, driven through ``check_paths`` (the door ``--check`` uses).

Each rule has a failing and a passing case pinning the code, the severity and the exact 0-based range. Quick
fixes are applied with ``plan_fixes``; the result must be valid JSON that changed only what the title says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.findings import Diagnostic, Range, Severity
from clarvis_lsp.fixes import plan_fixes

SETTINGS = ".clarvis/settings.json"


def write(base: Path, files: Mapping[str, str]) -> None:
    for relative, content in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))


def check(tmp_path: Path, files: Mapping[str, str], *, home_files: Mapping[str, str] = {}) -> list[Diagnostic]:
    """Write ``files`` into the workspace ``tmp_path/ws`` and check it with a fake home."""
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    ws.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    write(ws, files)
    write(home, home_files)
    report = check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=home))
    return report.result.diagnostics


def settings(tmp_path: Path, text: str, files: Mapping[str, str] = {}) -> list[Diagnostic]:
    """The diagnostics of a workspace settings.json with ``text``, trust notices left out."""
    found = check(tmp_path, {SETTINGS: text, **files})
    path = tmp_path / "ws" / SETTINGS
    assert all(d.path == path for d in found), [(d.path, d.code) for d in found]
    return [d for d in found if d.code != "settings/requires-trust"]


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


def r(line: int, start: int, end: int) -> Range:
    return Range.of(line, start, line, end)


# -- recognition ------------------------------------------------------------------------------------------------


def test_only_clarvis_settings_are_checked(tmp_path: Path) -> None:
    bad = '{"enabledPlugin": [], "hooks": {}}'
    found = check(
        tmp_path,
        {".clarvis/keep": "", ".vscode/settings.json": bad, "config/settings.json": bad, "settings.json": bad},
    )
    assert found == []


def test_a_valid_settings_file_has_only_trust_notices(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "$schema": "https://clarvis-lsp.dev/schemas/settings.schema.json",
            "hooks": [{"event": "pre_tool_use", "command": "./guard.sh", "match": {"tool": "shell"}}],
            "mcpServers": {"github": {"type": "http", "url": "https://mcp.example.com/github"}},
            "marketplaces": ["https://github.com/acme/plugins.git", "git@github.com:acme/internal.git"],
            "enabledPlugins": ["lint"],
            "memory": {"provider": "lint"},
            "plans": {"provider": "lint"},
            "tasks": {"provider": "lint"},
            "model": "large",
        },
        indent=2,
    )
    services = {capability: {"command": f"lint-{capability}"} for capability in ("memory", "plans", "tasks")}
    manifest = json.dumps({"name": "lint", "capabilityExecutables": services})
    found = check(tmp_path, {SETTINGS: text, ".clarvis/plugins/lint/plugin.json": manifest})
    assert {d.code for d in found} == {"settings/requires-trust"}


# -- settings/unknown-field -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "meant"), [("enabledPlugin", "enabledPlugins"), ("mcp_servers", "mcpServers"), ("Hooks", "hooks")]
)
def test_a_near_miss_field_is_renamed(tmp_path: Path, key: str, meant: str) -> None:
    text = '{\n  "model": "large",\n  "' + key + '": {}\n}\n'
    found = settings(tmp_path, text)
    d = one(found, "settings/unknown-field")
    assert d.severity is Severity.ERROR
    assert d.range == r(2, 2, 4 + len(key))
    assert f'Did you mean "{meant}"?' in d.message
    assert d.fixes[0].title == f'Rename "{key}" to "{meant}"'
    assert fixed([d]) == text.replace(f'"{key}"', f'"{meant}"')


def test_an_unrelated_field_can_only_be_removed_and_the_json_stays_valid(tmp_path: Path) -> None:
    text = '{\n  "theme": "dark",\n  "model": "large"\n}\n'
    found = settings(tmp_path, text)
    d = one(found, "settings/unknown-field")
    assert d.range == r(1, 2, 9)
    assert "Known fields:" in d.message and "extraFields" in d.message
    assert [f.title for f in d.fixes] == ['Remove the field "theme"']
    assert plan_fixes([d]) == []  # removal is unsafe
    assert fixed([d], unsafe=True) == '{\n  "model": "large"\n}\n'


@pytest.mark.parametrize(
    ("text", "after"),
    [
        ('{"model": "m", "theme": 1}', '{"model": "m"}'),
        ('{"theme": 1, "model": "m"}', '{"model": "m"}'),
        ('{"theme": {"a": [1, 2]}}', "{}"),
        ('{\n  "a": 1,\n  "theme": 2,\n  "model": "m"\n}', '{\n  "a": 1,\n  "model": "m"\n}'),
    ],
)
def test_removing_a_member_takes_exactly_one_comma(tmp_path: Path, text: str, after: str) -> None:
    found = [d for d in settings(tmp_path, text) if '"theme"' in d.message]
    assert fixed(found, unsafe=True) == after


def test_no_rename_into_a_field_that_is_already_there(tmp_path: Path) -> None:
    d = one(settings(tmp_path, '{"enabledPlugins": [], "enabledPlugin": []}'), "settings/unknown-field")
    assert [f.title for f in d.fixes] == ['Remove the field "enabledPlugin"']


def test_only_top_level_fields_are_strict(tmp_path: Path) -> None:
    found = settings(tmp_path, '{"memory": {"provider": "x", "extra": 1}}')
    assert "settings/unknown-field" not in codes(found)


def test_extra_fields_from_configuration_are_accepted(tmp_path: Path) -> None:
    files = {".clarvis-lsp.toml": '[settings]\nextraFields = ["theme"]\n'}
    assert settings(tmp_path, '{"theme": "dark", "colour": 1}', files)[0].range == r(0, 18, 26)
    assert codes(settings(tmp_path, '{"theme": "dark", "colour": 1}', files)) == ["settings/unknown-field"]


def test_a_syntax_error_near_the_top_does_not_hide_an_unknown_field_below(tmp_path: Path) -> None:
    text = '{\n  "model": "large",,\n  "hooks": [],\n  "enabledPlugin": []\n}\n'
    found = settings(tmp_path, text)
    assert "json/syntax" in codes(found)
    assert one(found, "settings/unknown-field").range == r(3, 2, 17)


# -- settings/invalid-value -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"hooks": {}}', r(0, 10, 11)),
        ('{"hooks": "x"}', r(0, 10, 13)),
        ('{"mcpServers": []}', r(0, 15, 16)),
        ('{"enabledPlugins": "lint"}', r(0, 19, 25)),
        ('{"enabledPlugins": [3]}', r(0, 20, 21)),
        ('{"enabledPlugins": [""]}', r(0, 20, 22)),
        ('{"marketplaces": {}}', r(0, 17, 18)),
        ('{"marketplaces": [true]}', r(0, 18, 22)),
        ('{"memory": "local"}', r(0, 11, 18)),
        ('{"plans": {}}', r(0, 1, 8)),
        ('{"tasks": {"provider": 3}}', r(0, 23, 24)),
        ('{"tasks": {"provider": " "}}', r(0, 23, 26)),
        ('{"model": 3}', r(0, 10, 11)),
        ('{"model": ""}', r(0, 10, 12)),
        ('{"$schema": null}', r(0, 12, 16)),
        ("[]", r(0, 0, 1)),
    ],
)
def test_a_known_field_of_the_wrong_shape_is_invalid(tmp_path: Path, text: str, expected: Range) -> None:
    d = one(settings(tmp_path, text), "settings/invalid-value")
    assert d.severity is Severity.ERROR
    assert d.range == expected


def test_every_wrong_field_is_reported_not_only_the_first(tmp_path: Path) -> None:
    found = settings(tmp_path, '{"hooks": {}, "mcpServers": [], "model": 1, "plans": 2}')
    assert codes(found).count("settings/invalid-value") == 4


# -- settings/invalid-marketplace -------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["github.com/acme/plugins", "ftp://host/x", "https://", "file:///tmp/x", "acme/x"])
def test_a_marketplace_that_is_no_git_url_is_reported(tmp_path: Path, url: str) -> None:
    d = one(settings(tmp_path, '{"marketplaces": ["' + url + '"]}'), "settings/invalid-marketplace")
    assert d.severity is Severity.ERROR
    assert d.range == r(0, 18, 20 + len(url))
    assert "git@host:path" in d.message


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/acme/plugins.git",
        "http://git.local/acme/plugins",
        "ssh://git@host/acme/x.git",
        "git://host/acme/x",
        "git@github.com:acme/x.git",
    ],
)
def test_git_urls_are_valid_marketplaces(tmp_path: Path, url: str) -> None:
    assert settings(tmp_path, '{"marketplaces": ["' + url + '"]}') == []


# -- settings/unknown-plugin, settings/duplicate-plugin ---------------------------------------------------------

LINT = {".clarvis/plugins/lint/plugin.json": '{"name": "lint"}'}


def test_an_enabled_plugin_that_is_not_installed_is_a_warning_with_a_suggestion(tmp_path: Path) -> None:
    text = '{"enabledPlugins": ["lnt"]}'
    d = one(settings(tmp_path, text, LINT), "settings/unknown-plugin")
    assert d.severity is Severity.WARNING
    assert d.range == r(0, 20, 25)
    assert 'Did you mean "lint"?' in d.message
    assert d.fixes[0].safe is False
    assert fixed([d], unsafe=True) == '{"enabledPlugins": ["lint"]}'


def test_an_unknown_plugin_without_a_near_miss_lists_the_installed_ones(tmp_path: Path) -> None:
    d = one(settings(tmp_path, '{"enabledPlugins": ["zzz"]}', LINT), "settings/unknown-plugin")
    assert "Installed plugins: lint." in d.message
    assert d.fixes == ()


def test_an_installed_plugin_may_be_enabled(tmp_path: Path) -> None:
    assert settings(tmp_path, '{"enabledPlugins": ["lint"]}', LINT) == []


def test_a_personal_plugin_may_be_enabled_by_the_workspace(tmp_path: Path) -> None:
    found = check(
        tmp_path,
        {SETTINGS: '{"enabledPlugins": ["mine"]}'},
        home_files=LINT | {".clarvis/plugins/mine/plugin.json": '{"name": "mine"}'},
    )
    assert "settings/unknown-plugin" not in codes(found)


def test_a_plugin_enabled_twice_is_reported_on_the_second_with_the_first_related(tmp_path: Path) -> None:
    text = '{\n  "enabledPlugins": [\n    "lint",\n    "lint"\n  ]\n}\n'
    d = one(settings(tmp_path, text, LINT), "settings/duplicate-plugin")
    assert d.severity is Severity.WARNING
    assert d.range == r(3, 4, 10)
    assert [(x.range, x.message) for x in d.related] == [(r(2, 4, 10), 'first "lint"')]
    assert "line 3" in d.message
    assert fixed([d]) == '{\n  "enabledPlugins": [\n    "lint"\n  ]\n}\n'


def test_distinct_plugins_are_no_duplicates(tmp_path: Path) -> None:
    files = LINT | {".clarvis/plugins/docs/plugin.json": '{"name": "docs"}'}
    assert settings(tmp_path, '{"enabledPlugins": ["lint", "docs"]}', files) == []


# -- settings/requires-trust ------------------------------------------------------------------------------------


def test_trust_fields_of_workspace_settings_are_noted_on_their_keys(tmp_path: Path) -> None:
    text = (
        '{\n  "hooks": [],\n  "mcpServers": {},\n  "enabledPlugins": [],\n  "marketplaces": [],\n'
        '  "memory": {"provider": "a"},\n  "plans": {"provider": "b"},\n  "tasks": {"provider": "c"},\n'
        '  "model": "m"\n}\n'
    )
    found = [d for d in check(tmp_path, {SETTINGS: text}) if d.code == "settings/requires-trust"]
    assert all(d.severity is Severity.INFORMATION for d in found)
    assert [d.range for d in found] == [
        r(1, 2, 9),
        r(2, 2, 14),
        r(3, 2, 18),
        r(4, 2, 16),
        r(5, 13, 23),
        r(6, 12, 22),
        r(7, 12, 22),
    ]
    assert "/workspace-trust" in found[0].message and "personal configuration" in found[0].message


def test_fields_without_trust_get_no_notice(tmp_path: Path) -> None:
    found = check(tmp_path, {SETTINGS: '{"model": "m", "memory": {}}'})
    assert "settings/requires-trust" not in codes(found)


def test_personal_settings_need_no_trust(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home, {SETTINGS: '{"hooks": [], "enabledPlugins": [], "memory": {"provider": "a"}, "themes": 1}'})
    report = check_paths(CheckRequest(paths=[str(home)], cwd=home, home=home))
    # No trust notice; provider "a" names no installed plugin (settings/unknown-provider), personal or not.
    assert sorted(codes(report.result.diagnostics)) == ["settings/unknown-field", "settings/unknown-provider"]


# -- hooks and MCP servers inside settings ----------------------------------------------------------------------


def test_hooks_and_servers_of_settings_are_checked(tmp_path: Path) -> None:
    text = '{"hooks": [{"event": "PreToolUse", "command": "x"}], "mcpServers": {"a": {"type": "tcp"}}}'
    found = settings(tmp_path, text)
    assert sorted(codes(found)) == ["hooks/unknown-event", "mcp/unknown-type"]
