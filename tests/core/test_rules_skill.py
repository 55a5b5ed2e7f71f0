"""Every ``skill/*`` rule and ``file/encoding``, driven through ``check_paths`` (the door ``--check`` uses).

Each rule has a failing and a passing case; the failing one pins the code, the severity, the exact 0-based range
and the parts of the message a person acts on. Quick fixes are applied with ``plan_fixes`` and the whole
resulting text is compared, so a fix that changes more than its title says fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckReport, CheckRequest, check_paths
from clarvis_lsp.findings import Diagnostic, Fix, Range, Related, Severity, TextEdit
from clarvis_lsp.fixes import plan_fixes
from clarvis_lsp.knowledge import skill as facts

STUB = '"TODO: say what this skill does and when to use it"'
VALID = "---\nname: demo\ndescription: Formats SQL files.\n---\n# Demo\n"


# -- helpers ---------------------------------------------------------------------------------------------------


def write(base: Path, files: Mapping[str, str | bytes]) -> None:
    """Write ``files`` (paths relative to ``base``) byte for byte: no newline translation."""
    for relative, content in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


def run(tmp_path: Path, files: Mapping[str, str | bytes] = {}, **request: object) -> CheckReport:
    """Check the workspace ``tmp_path/ws`` as ``clarvis-lsp --check`` run inside it would (home is a fake)."""
    write(tmp_path, files)
    (tmp_path / "ws").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    return check_paths(
        CheckRequest(paths=["."], cwd=tmp_path / "ws", home=tmp_path / "home", **request)  # type: ignore[arg-type]
    )


def skill(tmp_path: Path, text: str | bytes, directory: str = "demo") -> tuple[Path, list[Diagnostic]]:
    """Write one workspace skill, check the workspace, and return its path and its diagnostics."""
    relative = f"ws/.clarvis/skills/{directory}/SKILL.md"
    report = run(tmp_path, {relative: text})
    path = tmp_path / relative
    # A workspace agent the test wrote carries its own trust notice (agent/requires-trust); nothing else may.
    assert {d.path for d in report.result.diagnostics if d.code != "agent/requires-trust"} <= {path}
    return path, [d for d in report.result.diagnostics if d.path == path]


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def one(diagnostics: list[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, f"expected one {code}, got {codes(diagnostics)}"
    return found[0]


def fixed(diagnostics: list[Diagnostic], *, unsafe: bool = False) -> str | None:
    """The text ``--fix`` would write for the one file of ``diagnostics``, or None when nothing applies."""
    plans = plan_fixes(diagnostics, unsafe=unsafe)
    assert len(plans) <= 1
    return plans[0].after if plans else None


def splice(text: str, edits: tuple[TextEdit, ...]) -> str:
    """Apply edits by hand (for fixes ``plan_fixes`` refuses on an unparsed file)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = offsets[edit.range.start.line] + edit.range.start.character
        end = offsets[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


def test_a_valid_skill_has_no_findings(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, VALID)
    assert diagnostics == []


# -- skill/no-frontmatter ----------------------------------------------------------------------------------------


def test_no_frontmatter_is_reported_on_the_first_line_with_a_stub_fix(tmp_path: Path) -> None:
    text = "# Demo\nFormats SQL.\n"
    path, diagnostics = skill(tmp_path, text)
    assert codes(diagnostics) == ["skill/no-frontmatter"]
    found = diagnostics[0]
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(0, 0, 0, 6)
    assert "must start with a `---` frontmatter block" in found.message
    assert found.fixes == (
        Fix(
            "Add a frontmatter block with name and description",
            (TextEdit(path, Range.point(0, 0), f"---\nname: demo\ndescription: {STUB}\n---\n"),),
            safe=False,
        ),
    )
    # --fix never touches a file that did not parse, even with --unsafe-fixes ...
    assert plan_fixes(diagnostics, unsafe=True) == []
    # ... but the editor's code action gives a skill that checks clean.
    path.write_text(splice(text, found.fixes[0].edits), encoding="utf-8")
    assert run(tmp_path).result.diagnostics == []


def test_an_empty_skill_file_says_it_is_empty(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "")
    found = one(diagnostics, "skill/no-frontmatter")
    assert found.range == Range.of(0, 0, 0, 0)
    assert "SKILL.md is empty" in found.message
    assert codes(diagnostics) == ["skill/no-frontmatter"]


def test_a_frontmatter_after_a_blank_line_is_no_frontmatter(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "\n" + VALID)
    found = one(diagnostics, "skill/no-frontmatter")
    assert found.range == Range.of(0, 0, 0, 0)
    assert "must start with" in found.message


def test_a_frontmatter_never_closed_is_reported_on_the_opening_fence(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: Formats SQL files.\n# Demo\n")
    assert codes(diagnostics) == ["skill/no-frontmatter"]
    assert diagnostics[0].severity is Severity.ERROR
    assert diagnostics[0].range == Range.of(0, 0, 0, 3)
    assert "never closed" in diagnostics[0].message
    assert diagnostics[0].fixes == ()


def test_fences_with_trailing_blanks_are_fences(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "--- \nname: demo\ndescription: Formats SQL files.\n---\t\n")
    assert diagnostics == []


# -- skill/invalid-yaml ------------------------------------------------------------------------------------------


def test_invalid_yaml_is_reported_where_the_parser_stopped(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: [demo\ndescription: Formats SQL.\n---\n")
    # Only the parse error: the name and description rules stay quiet on a frontmatter that did not parse.
    assert codes(diagnostics) == ["skill/invalid-yaml"]
    found = diagnostics[0]
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(2, 11, 2, 25)
    assert "did not find expected ',' or ']'" in found.message


def test_an_unclosed_quote_points_at_where_the_quote_opened(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, '---\nname: demo\ndescription: "Formats SQL\n---\n')
    found = one(diagnostics, "skill/invalid-yaml")
    assert found.range == Range.of(2, 13, 2, 25)


@pytest.mark.parametrize(
    ("frontmatter", "expected"),
    [
        ("- name\n- description\n", Range.of(1, 0, 2, 13)),
        ("just some words\n", Range.of(1, 0, 1, 15)),
    ],
)
def test_a_frontmatter_that_is_not_a_mapping_is_invalid_yaml(tmp_path: Path, frontmatter: str, expected: Range) -> None:
    _, diagnostics = skill(tmp_path, f"---\n{frontmatter}---\n")
    assert codes(diagnostics) == ["skill/invalid-yaml"]
    assert diagnostics[0].range == expected
    assert "must be a mapping" in diagnostics[0].message


# -- skill/duplicate-key -----------------------------------------------------------------------------------------


def test_a_duplicate_key_is_reported_on_the_second_with_the_first_related(tmp_path: Path) -> None:
    path, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: Formats SQL.\nname: demo\n---\n")
    assert codes(diagnostics) == ["skill/duplicate-key"]
    found = diagnostics[0]
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(3, 0, 3, 4)
    assert "first on line 2" in found.message
    assert found.related == (Related(path, Range.of(1, 0, 1, 4), 'first "name"'),)


def test_a_duplicate_key_loses_to_the_last_value_for_the_other_rules(tmp_path: Path) -> None:
    # YAML keeps the last value, so the *last* name is the one compared with the directory.
    _, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: Formats SQL.\nname: other\n---\n")
    assert sorted(codes(diagnostics)) == ["skill/duplicate-key", "skill/name-directory-mismatch"]
    assert one(diagnostics, "skill/name-directory-mismatch").range == Range.of(3, 6, 3, 11)


# -- skill/missing-name ------------------------------------------------------------------------------------------


def test_a_missing_name_is_reported_on_the_fence_with_a_safe_fix(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\ndescription: Formats SQL.\n---\n# Demo\n")
    assert codes(diagnostics) == ["skill/missing-name"]
    found = diagnostics[0]
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(0, 0, 0, 3)
    assert "has no name" in found.message
    assert [(fix.title, fix.safe) for fix in found.fixes] == [('Set name to the directory name "demo"', True)]
    assert fixed(diagnostics) == "---\nname: demo\ndescription: Formats SQL.\n---\n# Demo\n"


def test_the_missing_name_fix_keeps_crlf_line_ends(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\r\ndescription: Formats SQL.\r\n---\r\n")
    assert one(diagnostics, "skill/missing-name").range == Range.of(0, 0, 0, 3)
    assert fixed(diagnostics) == "---\r\nname: demo\r\ndescription: Formats SQL.\r\n---\r\n"


@pytest.mark.parametrize(
    ("line", "after"),
    [
        ("name:", "name: demo"),
        ("name: ", "name: demo"),
        ("name:   ", "name: demo"),
        ("name:\t", "name: demo"),
        ('name: ""', "name: demo"),
        ("name: ~", "name: demo"),
        ("name: # fill in", "name: demo # fill in"),
    ],
)
def test_an_empty_name_is_reported_on_the_key_and_filled_in(tmp_path: Path, line: str, after: str) -> None:
    path, diagnostics = skill(tmp_path, f"---\n{line}\ndescription: Formats SQL.\n---\n")
    assert codes(diagnostics) == ["skill/missing-name"]
    assert diagnostics[0].range == Range.of(1, 0, 1, 4)
    result = fixed(diagnostics)
    assert result == f"---\n{after}\ndescription: Formats SQL.\n---\n"
    path.write_text(result, encoding="utf-8")
    assert run(tmp_path).result.diagnostics == []


def test_no_name_fix_when_the_directory_is_no_valid_name(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\ndescription: Formats SQL.\n---\n", directory="my skill")
    assert one(diagnostics, "skill/missing-name").fixes == ()


def test_a_present_name_is_not_missing(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, VALID)
    assert "skill/missing-name" not in codes(diagnostics)


# -- skill/invalid-name ------------------------------------------------------------------------------------------


def test_an_invalid_name_names_the_characters_that_are_not_allowed(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: my skill!\ndescription: Formats SQL.\n---\n")
    found = one(diagnostics, "skill/invalid-name")
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(1, 6, 1, 15)
    assert "' ', '!' not allowed" in found.message
    # The directory comparison is its own finding (no masking).
    assert one(diagnostics, "skill/name-directory-mismatch").range == Range.of(1, 6, 1, 15)


def test_a_name_longer_than_the_limit_is_invalid(tmp_path: Path) -> None:
    long_name = "a" * (facts.NAME_MAX_LENGTH + 1)
    _, diagnostics = skill(tmp_path, f"---\nname: {long_name}\ndescription: x\n---\n", directory=long_name)
    assert codes(diagnostics) == ["skill/invalid-name"]
    assert diagnostics[0].range == Range.of(1, 6, 1, 6 + len(long_name))
    assert f"{len(long_name)} characters long; the limit is {facts.NAME_MAX_LENGTH}" in diagnostics[0].message


def test_a_name_as_long_as_the_limit_is_valid(tmp_path: Path) -> None:
    name = "a" * facts.NAME_MAX_LENGTH
    _, diagnostics = skill(tmp_path, f"---\nname: {name}\ndescription: x\n---\n", directory=name)
    assert diagnostics == []


@pytest.mark.parametrize(
    ("value", "expected", "kind"),
    [("123", Range.of(1, 6, 1, 9), "an integer"), ("[a, b]", Range.of(1, 6, 1, 12), "a list")],
)
def test_a_name_that_is_not_a_string_is_invalid(tmp_path: Path, value: str, expected: Range, kind: str) -> None:
    _, diagnostics = skill(tmp_path, f"---\nname: {value}\ndescription: x\n---\n")
    assert codes(diagnostics) == ["skill/invalid-name"]
    assert diagnostics[0].range == expected
    assert f"`name` must be a string, not {kind}" in diagnostics[0].message


def test_letters_digits_dots_underscores_and_dashes_are_a_valid_name(tmp_path: Path) -> None:
    name = "My.skill_v2-x"
    _, diagnostics = skill(tmp_path, f"---\nname: {name}\ndescription: x\n---\n", directory=name)
    assert diagnostics == []


# -- skill/name-directory-mismatch -------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "end"), [("other", 11), ('"other"', 13), ("'other'", 13)])
def test_a_name_that_differs_from_the_directory_offers_an_unsafe_rename(tmp_path: Path, value: str, end: int) -> None:
    _, diagnostics = skill(tmp_path, f"---\nname: {value}\ndescription: Formats SQL.\n---\n")
    assert codes(diagnostics) == ["skill/name-directory-mismatch"]
    found = diagnostics[0]
    assert found.severity is Severity.WARNING
    assert found.range == Range.of(1, 6, 1, end)
    assert 'The name "other" differs from its directory "demo"' in found.message
    assert [(fix.title, fix.safe) for fix in found.fixes] == [('Set name to the directory name "demo"', False)]
    assert fixed(diagnostics) is None  # a rename changes the skill's identity: never applied by plain --fix
    assert fixed(diagnostics, unsafe=True) == "---\nname: demo\ndescription: Formats SQL.\n---\n"


def test_the_rename_fix_quotes_a_directory_name_yaml_would_read_otherwise(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: other\ndescription: Formats SQL.\n---\n", directory="true")
    assert fixed(diagnostics, unsafe=True) == '---\nname: "true"\ndescription: Formats SQL.\n---\n'


def test_a_name_equal_to_its_directory_is_no_mismatch(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, VALID)
    assert "skill/name-directory-mismatch" not in codes(diagnostics)


# -- skill/missing-description -----------------------------------------------------------------------------------


def test_a_missing_description_is_reported_on_the_name_with_a_stub_that_parses(tmp_path: Path) -> None:
    path, diagnostics = skill(tmp_path, "---\nname: demo\n---\n# Demo\n")
    assert codes(diagnostics) == ["skill/missing-description"]
    found = diagnostics[0]
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(1, 0, 1, 4)
    assert "has no description" in found.message
    assert [(fix.title, fix.safe) for fix in found.fixes] == [("Add a description stub", False)]
    assert fixed(diagnostics) is None
    result = fixed(diagnostics, unsafe=True)
    assert result == f"---\nname: demo\ndescription: {STUB}\n---\n# Demo\n"
    path.write_text(result, encoding="utf-8")
    assert run(tmp_path).result.diagnostics == []


def test_without_name_and_description_both_are_reported(tmp_path: Path) -> None:
    path, diagnostics = skill(tmp_path, "---\n---\n")
    assert sorted(codes(diagnostics)) == ["skill/missing-description", "skill/missing-name"]
    assert {d.range for d in diagnostics} == {Range.of(0, 0, 0, 3)}
    # Both fixes insert at the same place, so one run applies one of them and the next run the other.
    first = fixed(diagnostics, unsafe=True)
    assert first == f"---\ndescription: {STUB}\n---\n"
    path.write_text(first, encoding="utf-8")
    second = fixed(run(tmp_path).result.diagnostics, unsafe=True)
    assert second == f"---\nname: demo\ndescription: {STUB}\n---\n"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("description:", Range.of(2, 0, 2, 12)),
        ('description: ""', Range.of(2, 0, 2, 15)),
        ('description: "   "', Range.of(2, 0, 2, 18)),
    ],
)
def test_an_empty_or_blank_description_is_reported_from_key_to_value(
    tmp_path: Path, line: str, expected: Range
) -> None:
    path, diagnostics = skill(tmp_path, f"---\nname: demo\n{line}\n---\n")
    assert codes(diagnostics) == ["skill/missing-description"]
    assert diagnostics[0].range == expected
    assert "description is empty" in diagnostics[0].message
    result = fixed(diagnostics, unsafe=True)
    assert result == f"---\nname: demo\ndescription: {STUB}\n---\n"
    path.write_text(result, encoding="utf-8")
    assert run(tmp_path).result.diagnostics == []


# -- skill/unknown-field -----------------------------------------------------------------------------------------


def test_a_near_miss_field_suggests_the_known_one_and_renames_it(tmp_path: Path) -> None:
    path, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: Formats SQL.\nuser-invokable: false\n---\n")
    assert codes(diagnostics) == ["skill/unknown-field"]
    found = diagnostics[0]
    assert found.severity is Severity.WARNING
    assert found.range == Range.of(3, 0, 3, 14)
    assert 'Unknown frontmatter field "user-invokable"' in found.message
    assert 'Did you mean "user-invocable"?' in found.message
    assert found.fixes == (
        Fix('Rename "user-invokable" to "user-invocable"', (TextEdit(path, Range.of(3, 0, 3, 14), "user-invocable"),)),
        Fix('Remove the field "user-invokable"', (TextEdit(path, Range.of(3, 0, 4, 0), ""),), safe=False),
    )
    assert fixed(diagnostics) == "---\nname: demo\ndescription: Formats SQL.\nuser-invocable: false\n---\n"


@pytest.mark.parametrize(
    ("key", "value", "meant"), [("userInvocable", "true", "user-invocable"), ("allowed_tools", "Read", "allowed-tools")]
)
def test_case_and_separator_variants_are_near_misses(tmp_path: Path, key: str, value: str, meant: str) -> None:
    _, diagnostics = skill(tmp_path, f"---\nname: demo\ndescription: x\n{key}: {value}\n---\n")
    found = one(diagnostics, "skill/unknown-field")
    assert found.range == Range.of(3, 0, 3, len(key))
    assert f'Did you mean "{meant}"?' in found.message
    assert found.fixes[0].title == f'Rename "{key}" to "{meant}"'


def test_an_unrelated_field_lists_the_known_ones_and_can_only_be_removed(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: demo\nfoo: bar\ndescription: x\n---\n")
    found = one(diagnostics, "skill/unknown-field")
    assert found.range == Range.of(2, 0, 2, 3)
    assert "Did you mean" not in found.message
    assert f"Known fields: {', '.join(facts.FIELDS)}." in found.message
    assert [(fix.title, fix.safe) for fix in found.fixes] == [('Remove the field "foo"', False)]
    assert fixed(diagnostics) is None
    assert fixed(diagnostics, unsafe=True) == "---\nname: demo\ndescription: x\n---\n"


def test_removing_a_multi_line_field_removes_all_its_lines(tmp_path: Path) -> None:
    text = "---\nname: demo\ndescription: x\nmetadata:\n  owner: me\n  team: sql\nlicense: MIT\n---\n"
    _, diagnostics = skill(tmp_path, text)
    found = one(diagnostics, "skill/unknown-field")
    assert found.range == Range.of(3, 0, 3, 8)
    assert fixed(diagnostics, unsafe=True) == "---\nname: demo\ndescription: x\nlicense: MIT\n---\n"


def test_no_rename_into_a_field_that_is_already_there(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: x\ntools: [Read]\ntool: [Write]\n---\n")
    found = one(diagnostics, "skill/unknown-field")
    assert found.range == Range.of(4, 0, 4, 4)
    assert 'Did you mean "tools"?' in found.message
    assert [fix.title for fix in found.fixes] == ['Remove the field "tool"']


def test_every_known_field_is_accepted(tmp_path: Path) -> None:
    text = (
        "---\nname: demo\ndescription: Formats SQL.\nversion: '1.0'\nlicense: MIT\nargument-hint: <file>\n"
        "user-invocable: false\nallowed-tools: [Read, Bash]\n---\n"
    )
    _, diagnostics = skill(tmp_path, text)
    assert diagnostics == []


# -- skill/invalid-field-type ------------------------------------------------------------------------------------


def test_a_quoted_yes_for_user_invocable_is_a_string_and_becomes_true(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, '---\nname: demo\ndescription: x\nuser-invocable: "yes"\n---\n')
    found = one(diagnostics, "skill/invalid-field-type")
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(3, 16, 3, 21)
    assert "`user-invocable` must be a boolean (true or false), not a string" in found.message
    assert [(fix.title, fix.safe) for fix in found.fixes] == [("Write the boolean true", True)]
    assert fixed(diagnostics) == "---\nname: demo\ndescription: x\nuser-invocable: true\n---\n"


def test_a_word_that_is_no_boolean_gets_no_fix(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: x\nuser-invocable: maybe\n---\n")
    found = one(diagnostics, "skill/invalid-field-type")
    assert found.range == Range.of(3, 16, 3, 21)
    assert found.fixes == ()


@pytest.mark.parametrize(("written", "value"), [("1.0", "1.0"), ("1.10", "1.1"), ("2", "2")])
def test_an_unquoted_version_is_a_warning_with_a_quoting_fix(tmp_path: Path, written: str, value: str) -> None:
    _, diagnostics = skill(tmp_path, f"---\nname: demo\ndescription: x\nversion: {written}\n---\n")
    found = one(diagnostics, "skill/invalid-field-type")
    assert found.severity is Severity.WARNING
    assert found.range == Range.of(3, 9, 3, 9 + len(written))
    kind = "integer" if written == "2" else "float"
    assert f"`version: {written}` is a YAML {kind} ({value})" in found.message
    assert f'quote it as "{written}"' in found.message
    assert [(fix.title, fix.safe) for fix in found.fixes] == [(f'Quote the version as "{written}"', True)]
    assert fixed(diagnostics) == f'---\nname: demo\ndescription: x\nversion: "{written}"\n---\n'


STRINGS = "must be a string or a list of strings"


@pytest.mark.parametrize(
    ("line", "expected", "message"),
    [
        ("version: [1]", Range.of(3, 9, 3, 12), "`version` must be a string, not a list"),
        ("argument-hint: {}", Range.of(3, 15, 3, 17), f"`argument-hint` {STRINGS}, not a mapping"),
        ("argument-hint: [a, 1]", Range.of(3, 15, 3, 21), f"`argument-hint` {STRINGS}"),
        ("allowed-tools: 3", Range.of(3, 15, 3, 16), f"`allowed-tools` {STRINGS}, not an integer"),
        ("tools: {Read: 1}", Range.of(3, 7, 3, 16), f"`tools` {STRINGS}, not a mapping"),
        ("license: true", Range.of(3, 9, 3, 13), "`license` must be a string, not a boolean"),
        ("agent: [reviewer]", Range.of(3, 7, 3, 17), "`agent` must be a string, not a list"),
    ],
)
def test_a_known_field_of_the_wrong_type_is_an_error(tmp_path: Path, line: str, expected: Range, message: str) -> None:
    _, diagnostics = skill(tmp_path, f"---\nname: demo\ndescription: x\n{line}\n---\n")
    found = one(diagnostics, "skill/invalid-field-type")
    assert found.severity is Severity.ERROR
    assert found.range == expected
    assert message in found.message


def test_a_description_that_is_not_a_string_is_a_type_error_not_a_missing_one(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: 42\n---\n")
    assert codes(diagnostics) == ["skill/invalid-field-type"]
    assert diagnostics[0].range == Range.of(2, 13, 2, 15)
    assert "`description` must be a string, not an integer" in diagnostics[0].message


def test_fields_of_the_right_type_pass(tmp_path: Path) -> None:
    text = (
        '---\nname: demo\ndescription: x\nversion: "1.0"\nlicense: MIT\nagent: reviewer\n'
        "argument-hint: [file, mode]\nuser-invocable: true\nallowed-tools: Read\n---\n"
    )
    write(tmp_path, {"ws/.clarvis/agents/reviewer.md": "# Reviewer\n"})
    _, diagnostics = skill(tmp_path, text)
    assert diagnostics == []


# -- skill/tools-alias-conflict ----------------------------------------------------------------------------------


def test_tools_and_allowed_tools_together_conflict(tmp_path: Path) -> None:
    path, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: x\nallowed-tools: [Read]\ntools: [Write]\n---\n")
    assert codes(diagnostics) == ["skill/tools-alias-conflict"]
    found = diagnostics[0]
    assert found.severity is Severity.WARNING
    assert found.range == Range.of(4, 0, 4, 5)
    assert "keep one of them" in found.message
    assert found.related == (Related(path, Range.of(3, 0, 3, 13), "`allowed-tools` is set here"),)


@pytest.mark.parametrize("line", ["allowed-tools: [Read]", "tools: [Read]"])
def test_either_tools_field_alone_is_fine(tmp_path: Path, line: str) -> None:
    _, diagnostics = skill(tmp_path, f"---\nname: demo\ndescription: x\n{line}\n---\n")
    assert diagnostics == []


# -- skill/broken-link -------------------------------------------------------------------------------------------


def body_skill(tmp_path: Path, body: str, files: Mapping[str, str] = {}) -> list[Diagnostic]:
    write(tmp_path, {f"ws/.clarvis/skills/demo/{name}": text for name, text in files.items()})
    return skill(tmp_path, f"---\nname: demo\ndescription: x\n---\n{body}")[1]


def test_a_link_to_a_missing_file_is_reported_on_its_target(tmp_path: Path) -> None:
    diagnostics = body_skill(tmp_path, "# Demo\nSee [the API](references/api.md) first.\n")
    assert codes(diagnostics) == ["skill/broken-link"]
    found = diagnostics[0]
    assert found.severity is Severity.WARNING
    assert found.range == Range.of(5, 14, 5, 31)
    assert 'Link "references/api.md" points to no file: create references/api.md' in found.message


def test_a_missing_image_and_a_reference_definition_are_reported(tmp_path: Path) -> None:
    diagnostics = body_skill(tmp_path, "![logo](assets/logo.png) [api]\n\n[api]: references/missing.md\n")
    assert [(d.code, d.range) for d in diagnostics] == [
        ("skill/broken-link", Range.of(4, 8, 4, 23)),
        ("skill/broken-link", Range.of(6, 7, 6, 28)),
    ]
    assert diagnostics[0].message.startswith('Image "assets/logo.png" points to no file')
    assert diagnostics[1].message.startswith('Link "references/missing.md" points to no file')


def test_a_link_leaving_the_skill_directory_is_broken_even_if_the_file_exists(tmp_path: Path) -> None:
    write(tmp_path, {"ws/.clarvis/skills/shared.md": "# Shared\n"})
    diagnostics = body_skill(tmp_path, "[shared](../shared.md)\n")
    found = one(diagnostics, "skill/broken-link")
    assert found.range == Range.of(4, 9, 4, 21)
    assert "points outside the skill directory" in found.message


def test_an_angle_bracket_target_is_reported_with_its_brackets(tmp_path: Path) -> None:
    diagnostics = body_skill(tmp_path, "[notes](<references/my notes.md>)\n")
    found = one(diagnostics, "skill/broken-link")
    assert found.range == Range.of(4, 8, 4, 32)
    assert "create references/my notes.md" in found.message


def test_link_columns_count_code_points_after_multi_byte_characters(tmp_path: Path) -> None:
    diagnostics = body_skill(tmp_path, "Voilà 😀 — [x](missing.md)\n")
    assert one(diagnostics, "skill/broken-link").range == Range.of(4, 14, 4, 24)


def test_links_that_resolve_or_are_not_files_pass(tmp_path: Path) -> None:
    body = (
        "[api](references/api.md) [usage](references/api.md#usage) [q](references/api.md?plain=1)\n"
        "![logo](assets/logo.png) [spaced](references/my%20notes.md) [angle](<references/my notes.md>)\n"
        "[web](https://example.com/x.md) [mail](mailto:a@b.c) [top](#demo) [abs](/etc/hosts)\n"
        "[arg]($ARGUMENTS/out.md) [tpl]({{file}}.md)\n"
        "`[code](missing-in-inline-code.md)`\n"
        "```markdown\n[fenced](missing-in-a-fence.md)\n```\n"
        "[api]: references/api.md\n"
    )
    files = {"references/api.md": "# API\n", "assets/logo.png": "png", "references/my notes.md": "notes\n"}
    assert body_skill(tmp_path, body, files) == []


def test_links_in_the_frontmatter_are_not_checked(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: See [x](missing.md)\n---\n")
    assert diagnostics == []


# -- no masking ------------------------------------------------------------------------------------------------


def test_one_rule_failing_never_hides_another(tmp_path: Path) -> None:
    text = (
        "---\nname: other\ndescription: x\nuser-invokable: yes\nversion: 1.0\nallowed-tools: [Read]\n"
        "tools: [Read]\nname: other\n---\nSee [x](references/x.md).\n"
    )
    _, diagnostics = skill(tmp_path, text)
    assert sorted(codes(diagnostics)) == [
        "skill/broken-link",
        "skill/duplicate-key",
        "skill/invalid-field-type",
        "skill/name-directory-mismatch",
        "skill/tools-alias-conflict",
        "skill/unknown-field",
    ]


def test_safe_fixes_of_one_file_are_applied_together(tmp_path: Path) -> None:
    text = '---\nname: demo\ndescription: x\nuser-invokable: false\nversion: 1.0\nuser-invocable: "no"\n---\n'
    _, diagnostics = skill(tmp_path, text)
    # user-invokable gets no rename (user-invocable is already there), so only the other two fixes are safe.
    assert fixed(diagnostics) == (
        '---\nname: demo\ndescription: x\nuser-invokable: false\nversion: "1.0"\nuser-invocable: false\n---\n'
    )


# -- file/encoding -----------------------------------------------------------------------------------------------


def test_invalid_utf8_is_reported_at_the_replacement_character(tmp_path: Path) -> None:
    data = b"---\nname: demo\ndescription: caf\xe9 au lait\nuser-invokable: false\n---\n"
    path, diagnostics = skill(tmp_path, data)
    found = one(diagnostics, "file/encoding")
    assert found.severity is Severity.ERROR
    assert found.range == Range.of(2, 16, 2, 17)
    offset = data.index(b"\xe9")
    assert f"first bad byte at byte offset {offset}" in found.message
    assert "re-save it as UTF-8" in found.message
    # The rest of the file is still checked ...
    assert one(diagnostics, "skill/unknown-field").range == Range.of(3, 0, 3, 14)
    # ... but --fix never rewrites a file whose bytes it could not decode.
    assert plan_fixes(diagnostics, unsafe=True) == []
    assert path.read_bytes() == data


def test_invalid_utf8_in_a_skill_discovery_skipped_is_reported_too(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, b"# Caf\xe9\n")
    assert sorted(codes(diagnostics)) == ["file/encoding", "skill/no-frontmatter"]
    assert one(diagnostics, "file/encoding").range == Range.of(0, 5, 0, 6)


def test_valid_utf8_with_multi_byte_characters_passes(tmp_path: Path) -> None:
    _, diagnostics = skill(tmp_path, "---\nname: demo\ndescription: Café, 日本語 and 😀.\n---\n".encode())
    assert diagnostics == []
