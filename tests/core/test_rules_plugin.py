"""Every ``plugin/*`` rule, driven through ``check_paths`` (the door ``--check`` uses).

Each rule has a failing and a passing manifest; the failing one pins the code, the severity and the exact 0-based
range. Quick fixes are applied with ``plan_fixes`` and the result must be valid JSON changed only as the fix's
title says.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.findings import Diagnostic, Range, Related, Severity
from clarvis_lsp.fixes import plan_fixes

VALID_SKILL = "---\nname: lint-fix\ndescription: Fixes lint findings.\n---\n# Lint fix\n"
SEED_EXECUTABLE = """{
  "name": "quality",
  "capabilityExecutables": {
    "memory": {
      "command": "quality-memory",
      "args": ["serve"],
      "env": {
        "DATABASE_URL": "${DATABASE_URL}"
      },
      "timeout_ms": 30000,
      "platforms": {
        "win32": {
          "command": "quality-memory.exe"
        }
      }
    }
  }
}
"""


# -- helpers ---------------------------------------------------------------------------------------------------


def write(base: Path, files: Mapping[str, str]) -> None:
    for relative, content in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))


def check(tmp_path: Path, files: Mapping[str, str]) -> list[Diagnostic]:
    """Write ``files`` under ``tmp_path`` and check the workspace ``tmp_path/ws`` (with a fake home)."""
    (tmp_path / "ws" / ".clarvis").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    write(tmp_path, files)
    ws = tmp_path / "ws"
    report = check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=tmp_path / "home"))
    return report.result.diagnostics


def manifest_path(tmp_path: Path, name: str = "quality") -> Path:
    return tmp_path / "ws" / ".clarvis" / "plugins" / name / "plugin.json"


def plugin(
    tmp_path: Path, text: str, *, name: str = "quality", extra: Mapping[str, str] = {}
) -> tuple[Path, list[Diagnostic]]:
    """Write a workspace plugin ``name`` with ``text`` as its manifest (``extra`` relative to the plugin)."""
    base = f"ws/.clarvis/plugins/{name}"
    files = {f"{base}/plugin.json": text, **{f"{base}/{relative}": content for relative, content in extra.items()}}
    diagnostics = check(tmp_path, files)
    path = manifest_path(tmp_path, name)
    return path, [d for d in diagnostics if d.path == path]


def at(text: str, needle: str, nth: int = 0) -> Range:
    """The exact range of the ``nth`` occurrence of ``needle`` in ``text`` (0-based lines and columns)."""
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    assert "\n" not in needle
    line = text.count("\n", 0, offset)
    column = offset - (text.rfind("\n", 0, offset) + 1)
    return Range.of(line, column, line, column + len(needle))


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return sorted(d.code for d in diagnostics)


def one(diagnostics: list[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, f"expected one {code}, got {codes(diagnostics)}"
    return found[0]


def fixed(diagnostic: Diagnostic, *, unsafe: bool = False) -> str:
    """The text ``--fix`` writes for ``diagnostic``'s first fix; it must still be valid JSON."""
    plans = plan_fixes([diagnostic], unsafe=unsafe)
    assert len(plans) == 1
    json.loads(plans[0].after)
    return plans[0].after


def has_hooks_rules() -> bool:
    from clarvis_lsp.rules import hooks

    return hasattr(hooks, "check_hooks_value")


def has_mcp_rules() -> bool:
    from clarvis_lsp.rules import mcp

    return hasattr(mcp, "check_mcp_servers")


# -- recognition -----------------------------------------------------------------------------------------------


def test_a_valid_plugin_has_no_findings(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "name": "quality",
            "version": "1.2.0-beta.1",
            "description": "Code quality helpers",
            "author": {"name": "Ada"},
            "bootstrapSkill": "lint-fix",
            "capabilityRunPolicies": {"release-plan": "review", "tidy": "off"},
        },
        indent=2,
    )
    _, diagnostics = plugin(tmp_path, text, extra={"skills/lint-fix/SKILL.md": VALID_SKILL})
    assert diagnostics == []


def test_a_plugin_json_outside_a_plugin_directory_gets_no_diagnostics(tmp_path: Path) -> None:
    diagnostics = check(tmp_path, {"ws/src/plugin.json": '{"Name": 3, "bootstrapSkill": "nope"}'})
    assert diagnostics == []


def test_a_plugin_json_at_the_checked_workspace_root_counts(tmp_path: Path) -> None:
    text = '{\n  "name": "other"\n}\n'
    diagnostics = check(tmp_path, {"ws/plugin.json": text})
    path = tmp_path / "ws" / "plugin.json"
    assert [(d.path, d.code) for d in diagnostics] == [(path, "plugin/name-directory-mismatch")]
    found = diagnostics[0]
    # Outside a plugins/ directory the directory name may be incidental: a warning, and an unsafe fix.
    assert found.severity is Severity.WARNING
    assert found.range == at(text, '"other"')
    assert fixed(found, unsafe=True) == '{\n  "name": "ws"\n}\n'
    assert plan_fixes([found]) == []


def test_a_plugin_json_at_the_workspace_root_named_after_it_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"ws/plugin.json": '{"name": "ws"}'}) == []


def test_a_manifest_that_is_not_an_object_is_an_invalid_value(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, '["quality"]')
    assert codes(diagnostics) == ["plugin/invalid-value"]
    assert diagnostics[0].severity is Severity.ERROR
    assert diagnostics[0].range == Range.of(0, 0, 0, 11)


def test_a_syntax_error_does_not_hide_the_plugin_rules(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "author": 3,\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    assert codes(diagnostics) == ["json/syntax", "plugin/invalid-value"]
    assert one(diagnostics, "plugin/invalid-value").range == at(text, "3")


# -- plugin/missing-name ---------------------------------------------------------------------------------------


def test_a_missing_name_is_reported_on_the_opening_brace(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, '{\n  "description": "Code quality helpers"\n}\n')
    found = one(diagnostics, "plugin/missing-name")
    assert codes(diagnostics) == ["plugin/missing-name"]
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(0, 0, 0, 1)
    assert '"name": "quality"' in found.message


def test_an_empty_name_is_missing_and_fixed_to_the_directory_name(tmp_path: Path) -> None:
    text = '{"name": ""}'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/missing-name")
    assert codes(diagnostics) == ["plugin/missing-name"]
    assert found.range == Range.of(0, 9, 0, 11)
    assert fixed(found) == '{"name": "quality"}'


def test_a_present_name_is_not_missing(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, '{"name": "quality"}')
    assert diagnostics == []


# -- plugin/invalid-name ---------------------------------------------------------------------------------------


def test_an_uppercase_name_is_invalid_and_also_mismatched(tmp_path: Path) -> None:
    text = '{\n  "name": "Quality Tools"\n}'
    _, diagnostics = plugin(tmp_path, text)
    # Both findings, on the same value: neither masks the other.
    assert codes(diagnostics) == ["plugin/invalid-name", "plugin/name-directory-mismatch"]
    found = one(diagnostics, "plugin/invalid-name")
    assert found.severity is Severity.ERROR
    assert found.range == at(text, '"Quality Tools"')
    assert "lowercase" in found.message


def test_a_name_that_is_not_a_string_is_invalid(tmp_path: Path) -> None:
    text = '{"name": 3}'
    _, diagnostics = plugin(tmp_path, text)
    assert codes(diagnostics) == ["plugin/invalid-name"]
    assert diagnostics[0].range == Range.of(0, 9, 0, 10)


@pytest.mark.parametrize("name", ["q", "quality", "my-plugin.v2_x", "0day"])
def test_lowercase_identifiers_are_valid_names(tmp_path: Path, name: str) -> None:
    _, diagnostics = plugin(tmp_path, json.dumps({"name": name}), name=name)
    assert diagnostics == []


# -- plugin/name-directory-mismatch ----------------------------------------------------------------------------


def test_a_name_that_differs_from_its_plugins_directory_is_an_error_with_a_fix(tmp_path: Path) -> None:
    text = '{\n  "name": "qa",\n  "description": "Code quality helpers"\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/name-directory-mismatch")
    assert codes(diagnostics) == ["plugin/name-directory-mismatch"]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, '"qa"')
    assert found.fixes[0].title == 'Set name to the directory name "quality"'
    assert fixed(found) == text.replace('"qa"', '"quality"')


def test_a_directory_that_is_no_valid_name_gets_no_fix(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, '{"name": "quality"}', name="Quality")
    found = one(diagnostics, "plugin/name-directory-mismatch")
    assert found.fixes == ()


# -- plugin/unknown-field --------------------------------------------------------------------------------------


def test_a_near_miss_field_suggests_and_renames(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "bootstrapskill": "lint-fix"\n}\n'
    _, diagnostics = plugin(tmp_path, text, extra={"skills/lint-fix/SKILL.md": VALID_SKILL})
    found = one(diagnostics, "plugin/unknown-field")
    assert codes(diagnostics) == ["plugin/unknown-field"]
    assert found.severity is Severity.WARNING
    assert found.range == at(text, '"bootstrapskill"')
    assert 'Did you mean "bootstrapSkill"?' in found.message
    assert [fix.title for fix in found.fixes] == [
        'Rename "bootstrapskill" to "bootstrapSkill"',
        'Remove the field "bootstrapskill"',
    ]
    assert fixed(found) == text.replace('"bootstrapskill"', '"bootstrapSkill"')


def test_an_unknown_field_can_be_removed(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "homepage": "https://acme.dev"\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/unknown-field")
    assert "Known fields: name, version" in found.message
    assert [fix.title for fix in found.fixes] == ['Remove the field "homepage"']
    assert plan_fixes([found]) == []  # removing a user's field is not a safe fix
    assert json.loads(fixed(found, unsafe=True)) == {"name": "quality"}


def test_an_unknown_field_in_an_executable_is_reported(tmp_path: Path) -> None:
    text = '{"name": "quality", "capabilityExecutables": {"memory": {"command": "m", "timeoutMs": 5}}}'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/unknown-field")
    assert found.range == at(text, '"timeoutMs"')
    assert json.loads(fixed(found))["capabilityExecutables"]["memory"] == {"command": "m", "timeout_ms": 5}


def test_known_fields_are_not_unknown(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, SEED_EXECUTABLE)
    assert diagnostics == []


# -- plugin/invalid-value --------------------------------------------------------------------------------------


def test_wrong_types_are_invalid_values(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "author": 3,\n  "description": "",\n  "version": "1.0"\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    assert codes(diagnostics) == ["plugin/invalid-value"] * 3
    by_range = {d.range: d for d in diagnostics}
    author = by_range[at(text, "3")]
    assert author.severity is Severity.ERROR
    assert '"author" must be a string or {"name": "..."}' in author.message
    description = by_range[at(text, '""')]
    assert description.severity is Severity.ERROR
    assert "empty" in description.message
    version = by_range[at(text, '"1.0"')]
    assert version.severity is Severity.WARNING  # not semver: a warning
    assert "semantic version" in version.message


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("version", "1", "1"),
        ("description", "[]", "[]"),
        ("author", '{"email": "a@b"}', "{"),  # no name; "email" is plugin/unknown-field as well
        ("author", '{"name": ""}', '""'),
        ("mcpServers", "[]", "[]"),
        ("hooks", "true", "true"),
        ("bootstrapSkill", "7", "7"),
        ("capabilityExecutables", "[]", "[]"),
        ("capabilityRunPolicies", '"on"', '"on"'),
    ],
)
def test_each_known_field_of_the_wrong_type_is_an_error(tmp_path: Path, field: str, value: str, needle: str) -> None:
    text = f'{{"name": "quality", "{field}": {value}}}'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/invalid-value")
    unknown = ["plugin/unknown-field"] if "email" in value else []  # a field of author other than name
    assert sorted(codes(diagnostics)) == ["plugin/invalid-value", *unknown]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, needle, 1 if needle == "{" else 0)


def test_well_typed_values_are_valid(tmp_path: Path) -> None:
    text = '{"name": "quality", "version": "0.1.0+build.5", "description": "x", "author": "Ada", "mcpServers": {}}'
    _, diagnostics = plugin(tmp_path, text)
    assert diagnostics == []


# -- plugin/missing-path ---------------------------------------------------------------------------------------


def test_a_hooks_path_that_does_not_exist_is_missing(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "hooks": "hooks/extra.json"\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/missing-path")
    assert codes(diagnostics) == ["plugin/missing-path"]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, '"hooks/extra.json"')
    assert "does not exist" in found.message


def test_a_hooks_path_to_a_directory_is_missing(tmp_path: Path) -> None:
    text = '{"name": "quality", "hooks": "hooks"}'
    _, diagnostics = plugin(tmp_path, text, extra={"hooks/readme.txt": "x"})
    found = one(diagnostics, "plugin/missing-path")
    assert "is a directory" in found.message


def test_a_hooks_path_that_exists_is_fine(tmp_path: Path) -> None:
    text = '{"name": "quality", "hooks": "./extra/hooks.json"}'
    _, diagnostics = plugin(tmp_path, text, extra={"extra/hooks.json": "[]"})
    assert diagnostics == []


# -- plugin/path-escapes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["../shared/hooks.json", "hooks/../../x.json", "/etc/hooks.json", "C:\\\\h.json"])
def test_a_path_that_leaves_the_plugin_is_reported_and_not_checked_further(tmp_path: Path, value: str) -> None:
    text = f'{{\n  "name": "quality",\n  "hooks": "{value}"\n}}\n'
    # The target exists for the relative cases: it is still reported, never treated as the plugin's file.
    write(tmp_path, {"ws/.clarvis/plugins/shared/hooks.json": "[]"})
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/path-escapes")
    assert codes(diagnostics) == ["plugin/path-escapes"]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, f'"{value}"')
    assert "It is not read" in found.message


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_path_that_leaves_through_a_symlink_escapes(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "hooks.json").write_text("[]", encoding="utf-8")
    directory = manifest_path(tmp_path).parent
    directory.mkdir(parents=True)
    (directory / "linked").symlink_to(outside)
    text = '{"name": "quality", "hooks": "linked/hooks.json"}'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/path-escapes")
    assert found.range == at(text, '"linked/hooks.json"')
    assert "symlink" in found.message


def test_a_path_inside_the_plugin_does_not_escape(tmp_path: Path) -> None:
    text = '{"name": "quality", "hooks": "hooks/../other.json"}'
    _, diagnostics = plugin(tmp_path, text, extra={"other.json": "[]"})
    assert diagnostics == []


# -- plugin/unknown-bootstrap-skill ----------------------------------------------------------------------------


def test_an_unknown_bootstrap_skill_suggests_the_plugin_skill(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "bootstrapSkill": "lint-fixx"\n}\n'
    _, diagnostics = plugin(tmp_path, text, extra={"skills/lint-fix/SKILL.md": VALID_SKILL})
    found = one(diagnostics, "plugin/unknown-bootstrap-skill")
    assert codes(diagnostics) == ["plugin/unknown-bootstrap-skill"]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, '"lint-fixx"')
    assert 'Did you mean "lint-fix"?' in found.message
    assert fixed(found) == text.replace('"lint-fixx"', '"lint-fix"')


def test_the_bootstrap_skill_is_the_frontmatter_name_not_the_directory(tmp_path: Path) -> None:
    text = '{"name": "quality", "bootstrapSkill": "lf"}'
    _, diagnostics = plugin(tmp_path, text, extra={"skills/lf/SKILL.md": VALID_SKILL})
    found = one(diagnostics, "plugin/unknown-bootstrap-skill")
    assert found.range == at(text, '"lf"')
    assert "lint-fix" in found.message


def test_a_plugin_without_skills_says_so(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, '{"name": "quality", "bootstrapSkill": "review"}')
    found = one(diagnostics, "plugin/unknown-bootstrap-skill")
    assert "this plugin has no skills" in found.message


def test_a_skill_of_another_plugin_or_root_is_not_a_bootstrap_skill(tmp_path: Path) -> None:
    files = {
        "ws/.clarvis/skills/review/SKILL.md": VALID_SKILL.replace("lint-fix", "review"),
        "ws/.clarvis/plugins/other/skills/review/SKILL.md": VALID_SKILL.replace("lint-fix", "review"),
        "ws/.clarvis/plugins/other/plugin.json": '{"name": "other"}',
        "ws/.clarvis/settings.json": '{"enabledPlugins": ["other", "quality"]}',
    }
    text = '{"name": "quality", "bootstrapSkill": "review"}'
    write(tmp_path, files)
    _, diagnostics = plugin(tmp_path, text, extra={"skills/lint-fix/SKILL.md": VALID_SKILL})
    assert codes(diagnostics) == ["plugin/unknown-bootstrap-skill"]


@pytest.mark.parametrize("enabled", [False, True])
def test_a_bootstrap_skill_of_the_plugin_is_found_enabled_or_not(tmp_path: Path, enabled: bool) -> None:
    if enabled:
        write(tmp_path, {"ws/.clarvis/settings.json": '{"enabledPlugins": ["quality"]}'})
    text = '{"name": "quality", "bootstrapSkill": "lint-fix"}'
    _, diagnostics = plugin(tmp_path, text, extra={"skills/lf/SKILL.md": VALID_SKILL})
    assert diagnostics == []


# -- plugin/invalid-executable ---------------------------------------------------------------------------------


def test_an_executable_without_command_is_reported_on_its_brace(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "capabilityExecutables": {\n    "memory": { "args": ["serve"] }\n  }\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/invalid-executable")
    assert codes(diagnostics) == ["plugin/invalid-executable"]
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(3, 14, 3, 15)
    assert 'no "command"' in found.message


@pytest.mark.parametrize(
    ("executable", "needle"),
    [
        ('"quality-memory"', '"quality-memory"'),
        ('{"command": ""}', '""'),
        ('{"command": "m", "args": "serve"}', '"serve"'),
        ('{"command": "m", "args": ["serve", 2]}', "2"),
        ('{"command": "m", "env": ["A=1"]}', '["A=1"]'),
        ('{"command": "m", "env": {"A": 1}}', "1"),
        ('{"command": "m", "timeout_ms": "30000"}', '"30000"'),
        ('{"command": "m", "timeout_ms": 0}', "0"),
        ('{"command": "m", "timeout_ms": 1.5}', "1.5"),
        ('{"command": "m", "platforms": "win32"}', '"win32"'),
        ('{"command": "m", "platforms": {"win32": "m.exe"}}', '"m.exe"'),
        ('{"command": "m", "platforms": {"linux": {"args": [1]}}}', "1"),
    ],
)
def test_malformed_executables_are_reported_on_the_value(tmp_path: Path, executable: str, needle: str) -> None:
    text = f'{{"name": "quality", "capabilityExecutables": {{"memory": {executable}}}}}'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/invalid-executable")
    assert codes(diagnostics) == ["plugin/invalid-executable"]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, needle, text.count(needle) - 1)


def test_an_unknown_platform_is_a_warning_with_a_rename(tmp_path: Path) -> None:
    text = '{"name": "quality", "capabilityExecutables": {"memory": {"command": "m", "platforms": {"windows": {}}}}}'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/invalid-executable")
    assert found.severity is Severity.WARNING
    assert found.range == at(text, '"windows"')
    assert 'Did you mean "win32"?' in found.message
    assert fixed(found) == text.replace('"windows"', '"win32"')


def test_the_seed_executable_is_valid(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, SEED_EXECUTABLE)
    assert diagnostics == []


# -- plugin/invalid-run-policy ---------------------------------------------------------------------------------


def test_a_misspelled_run_policy_is_fixed(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "capabilityRunPolicies": { "release-plan": "reveiw" }\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/invalid-run-policy")
    assert codes(diagnostics) == ["plugin/invalid-run-policy"]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, '"reveiw"')
    assert 'Did you mean "review"?' in found.message
    assert fixed(found) == text.replace('"reveiw"', '"review"')


@pytest.mark.parametrize(("value", "fix"), [('"always"', None), ("true", '"on"'), ("3", None), ('"OFF"', '"off"')])
def test_other_run_policies_are_invalid(tmp_path: Path, value: str, fix: str | None) -> None:
    text = f'{{"name": "quality", "capabilityRunPolicies": {{"tidy": {value}}}}}'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "plugin/invalid-run-policy")
    assert found.range == at(text, value)
    if fix is None:
        assert found.fixes == ()
    else:
        assert fixed(found) == text.replace(value, fix)


def test_the_three_run_policies_are_valid(tmp_path: Path) -> None:
    text = '{"name": "quality", "capabilityRunPolicies": {"a": "off", "b": "on", "c": "review"}}'
    _, diagnostics = plugin(tmp_path, text)
    assert diagnostics == []


# -- plugin/hooks-json-ignored ---------------------------------------------------------------------------------


def test_hooks_json_is_ignored_when_the_manifest_declares_hooks(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "hooks": [{ "event": "run_end", "command": "./report.sh" }]\n}\n'
    path, diagnostics = plugin(tmp_path, text, extra={"hooks/hooks.json": "[]"})
    found = one(diagnostics, "plugin/hooks-json-ignored")
    assert codes(diagnostics) == ["plugin/hooks-json-ignored"]
    assert found.severity is Severity.INFORMATION
    assert found.range == at(text, '"hooks"')
    assert found.related == (
        Related(
            path.parent / "hooks" / "hooks.json", Range.of(0, 0, 0, 0), "not read while plugin.json declares hooks"
        ),
    )


def test_a_manifest_pointing_at_hooks_json_reads_it(tmp_path: Path) -> None:
    text = '{"name": "quality", "hooks": "./hooks/hooks.json"}'
    _, diagnostics = plugin(tmp_path, text, extra={"hooks/hooks.json": "[]"})
    assert diagnostics == []


@pytest.mark.parametrize("hooks", ["[]", '{"hooks": []}', '"extra.json"'])
def test_any_hooks_declaration_means_hooks_json_is_not_read(tmp_path: Path, hooks: str) -> None:
    text = f'{{"name": "quality", "hooks": {hooks}}}'
    _, diagnostics = plugin(tmp_path, text, extra={"hooks/hooks.json": "[]", "extra.json": "[]"})
    assert codes(diagnostics) == ["plugin/hooks-json-ignored"]
    assert diagnostics[0].range == at(text, '"hooks"')


def test_hooks_json_alone_is_read(tmp_path: Path) -> None:
    _, diagnostics = plugin(tmp_path, '{"name": "quality"}', extra={"hooks/hooks.json": "[]"})
    assert diagnostics == []


# -- inline hooks and MCP servers are checked by their own families --------------------------------------------


@pytest.mark.skipif(not has_hooks_rules(), reason="hooks rules not available yet")
def test_inline_hooks_are_checked_with_the_hooks_rules(tmp_path: Path) -> None:
    text = '{\n  "name": "quality",\n  "hooks": [{ "event": "PreToolUse", "command": "lint" }]\n}\n'
    _, diagnostics = plugin(tmp_path, text)
    found = one(diagnostics, "hooks/unknown-event")
    assert found.range == at(text, '"PreToolUse"')


@pytest.mark.skipif(not has_hooks_rules(), reason="hooks rules not available yet")
def test_an_inline_hooks_document_is_checked_with_the_hooks_rules(tmp_path: Path) -> None:
    text = '{"name": "quality", "hooks": {"hooks": [{"event": "run_end"}]}}'
    _, diagnostics = plugin(tmp_path, text)
    assert "hooks/missing-command" in codes(diagnostics)


@pytest.mark.skipif(not has_mcp_rules(), reason="mcp rules not available yet")
def test_inline_mcp_servers_are_checked_with_the_mcp_rules(tmp_path: Path) -> None:
    text = '{"name": "quality", "mcpServers": {"db": {"type": "stdio"}}}'
    _, diagnostics = plugin(tmp_path, text)
    assert "mcp/missing-command" in codes(diagnostics)
