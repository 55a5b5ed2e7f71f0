"""The SKILL.md parser's edge cases, with exact ranges: whatever bytes a SKILL.md holds, the result is findings
at the right place, never an exception, a hang or an expanded alias bomb.

Byte-level cases go through ``check_paths`` (the file is read from disk as ``--check`` reads it); structural ones
call ``parse_skill`` directly as well, to pin the entries' ranges that every rule and fix builds on.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckReport, CheckRequest, check_paths
from clarvis_lsp.documents import skill as skill_document
from clarvis_lsp.documents.skill import SkillDocument, parse_skill
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import frontmatter_lines
from clarvis_lsp.findings import Diagnostic, Position, Range, Severity
from clarvis_lsp.fixes import plan_fixes

SKILL = Path("/work/skills/demo/SKILL.md")  # parse_skill never touches the disk


# -- helpers ---------------------------------------------------------------------------------------------------


def write(base: Path, files: Mapping[str, str | bytes]) -> None:
    for relative, content in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


def run(tmp_path: Path) -> CheckReport:
    (tmp_path / "ws").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    return check_paths(CheckRequest(paths=["."], cwd=tmp_path / "ws", home=tmp_path / "home"))


def check_bytes(tmp_path: Path, data: str | bytes, directory: str = "demo") -> tuple[Path, list[Diagnostic]]:
    relative = f"ws/.clarvis/skills/{directory}/SKILL.md"
    write(tmp_path, {relative: data})
    report = run(tmp_path)
    path = tmp_path / relative
    assert {d.path for d in report.result.diagnostics} <= {path}
    return path, report.result.diagnostics


def found(diagnostics: list[Diagnostic]) -> list[tuple[str, Range]]:
    return [(d.code, d.range) for d in diagnostics]


def ranges(document: SkillDocument) -> list[tuple[str, Range, Range]]:
    return [(entry.key, entry.key_range, entry.value_range) for entry in document.entries]


# -- BOM -------------------------------------------------------------------------------------------------------


def test_a_bom_shifts_no_position(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf---\nname: demo\ndescription: Formats SQL.\nuser-invokable: false\n---\n"
    _, diagnostics = check_bytes(tmp_path, data)
    assert found(diagnostics) == [("skill/unknown-field", Range.of(3, 0, 3, 14))]


def test_a_fix_keeps_the_bom_and_changes_only_the_key(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf---\r\nname: demo\r\ndescription: Formats SQL.\r\nuser-invokable: false\r\n---\r\n"
    path, diagnostics = check_bytes(tmp_path, data)
    (plan,) = plan_fixes(diagnostics)
    assert plan.had_bom
    plan.write()
    assert path.read_bytes() == data.replace(b"user-invokable", b"user-invocable")


def test_a_bom_only_file_is_an_empty_skill(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, b"\xef\xbb\xbf")
    assert found(diagnostics) == [("skill/no-frontmatter", Range.of(0, 0, 0, 0))]
    assert "SKILL.md is empty" in diagnostics[0].message


# -- line ends -------------------------------------------------------------------------------------------------


def test_crlf_ranges_stop_before_the_carriage_return(tmp_path: Path) -> None:
    data = "---\r\nname: demo\r\ndescription: Formats SQL.\r\nversion: 1.0\r\n---\r\n"
    document = parse_skill(SKILL, data)
    assert document.close_line == 4
    assert ranges(document) == [
        ("name", Range.of(1, 0, 1, 4), Range.of(1, 6, 1, 10)),
        ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 2, 25)),
        ("version", Range.of(3, 0, 3, 7), Range.of(3, 9, 3, 12)),
    ]
    _, diagnostics = check_bytes(tmp_path, data)
    assert found(diagnostics) == [("skill/invalid-field-type", Range.of(3, 9, 3, 12))]
    (plan,) = plan_fixes(diagnostics)
    assert plan.after == data.replace("version: 1.0", 'version: "1.0"')


def test_old_mac_line_ends_are_line_ends() -> None:
    document = parse_skill(SKILL, "---\rname: demo\rdescription: x\r---\r")
    assert document.close_line == 3
    assert ranges(document) == [
        ("name", Range.of(1, 0, 1, 4), Range.of(1, 6, 1, 10)),
        ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 2, 14)),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: demo\n---\nBody.\n",
        "---\r\nname: demo\r\n---\r\nBody.\r\n",
        "---\rname: demo\r---\r",
        "---\nname: demo\ndescription: x\n",  # never closed
        "---  \nname: demo\n---  \n",  # fences with trailing blanks
        "---\nname: demo\n----\n---\n",  # four dashes close nothing
        '---\nname: "one\x85two"\n---\n',  # U+0085 inside a value: the editor's lines, not YAML 1.1's
        "name: demo\n---\n",  # no frontmatter
        "",
    ],
)
@pytest.mark.parametrize("fast", [True, False])
def test_the_editor_and_the_parse_find_the_same_frontmatter(
    text: str, fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Completion, hover and semantic tokens read the frontmatter's lines (``frontmatter_lines``) where the parse
    found them, on either of its paths (string searches, or the line index it uses on CR line ends)."""
    monkeypatch.setattr(skill_document, "SPLIT_FAST_PATH", fast)
    document = parse_skill(SKILL, text)
    inside = frontmatter_lines(LineIndex(text))
    if not document.has_frontmatter:
        assert inside is None
    elif document.close_line is None:
        assert inside == range(1, LineIndex(text).line_count)
    else:
        assert inside == range(1, document.close_line)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_unicode_line_separators_in_a_value_do_not_shift_later_lines(tmp_path: Path, separator: str) -> None:
    # YAML 1.1 breaks lines at U+0085, U+2028 and U+2029; editors (and LSP) do not.
    text = f'---\nname: demo\ndescription: "one{separator}two"\nversion: 1.0\n---\n'
    document = parse_skill(SKILL, text)
    assert ranges(document)[1:] == [
        ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 2, 22)),
        ("version", Range.of(3, 0, 3, 7), Range.of(3, 9, 3, 12)),
    ]
    _, diagnostics = check_bytes(tmp_path, text)
    assert found(diagnostics) == [("skill/invalid-field-type", Range.of(3, 9, 3, 12))]


# -- invalid UTF-8, NUL bytes, control characters -----------------------------------------------------------------


def test_invalid_utf8_becomes_one_replacement_character_per_bad_byte(tmp_path: Path) -> None:
    data = b"---\nname: demo\ndescription: x\nk\xff\xfe: 1\nversion: 1.0\n---\n"
    _, diagnostics = check_bytes(tmp_path, data)
    assert found(diagnostics) == [
        ("skill/unknown-field", Range.of(3, 0, 3, 3)),
        ("file/encoding", Range.of(3, 1, 3, 2)),
        ("skill/invalid-field-type", Range.of(4, 9, 4, 12)),
    ]
    assert 'field "k\ufffd\ufffd"' in diagnostics[0].message


def test_a_truncated_multi_byte_sequence_at_the_end_of_the_file(tmp_path: Path) -> None:
    data = "---\nname: demo\ndescription: x\n---\nCafé".encode()[:-1]
    _, diagnostics = check_bytes(tmp_path, data)
    assert found(diagnostics) == [("file/encoding", Range.of(4, 3, 4, 4))]
    assert diagnostics[0].severity is Severity.ERROR


@pytest.mark.parametrize(
    ("value", "column"),
    [("a\x00b", 14), ("é\x00", 14), ("😀 日本\x00", 17), ("a\x07b", 14)],
)
def test_a_control_character_in_the_frontmatter_is_invalid_yaml_at_that_character(
    tmp_path: Path, value: str, column: int
) -> None:
    text = f"---\nname: demo\ndescription: {value}\n---\n"
    _, diagnostics = check_bytes(tmp_path, text)
    assert found(diagnostics) == [("skill/invalid-yaml", Range.of(2, column, 2, column + 1))]
    control = next(char for char in value if ord(char) < 0x20)
    assert f"U+{ord(control):04X} is not allowed in YAML" in diagnostics[0].message


def test_nul_bytes_in_the_body_are_harmless(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, b"---\nname: demo\ndescription: x\n---\nbody\x00text\x00\n[x](missing.md)\n")
    assert found(diagnostics) == [("skill/broken-link", Range.of(5, 4, 5, 14))]


def test_a_lone_surrogate_from_an_editor_buffer_is_invalid_yaml() -> None:
    # Disk bytes never decode to a surrogate, but an editor buffer (JSON "\ud800") can hold one.
    document = parse_skill(SKILL, "---\nname: demo\ndescription: a\ud800b\n---\n")
    assert document.yaml_problem is not None
    assert document.yaml_problem.range == Range.of(2, 14, 2, 15)
    assert "U+D800" in document.yaml_problem.message


# -- tabs ------------------------------------------------------------------------------------------------------


def test_a_tab_as_indentation_is_invalid_yaml_from_the_tab(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, "---\n\tname: demo\ndescription: x\n---\n")
    assert found(diagnostics) == [("skill/invalid-yaml", Range.of(1, 0, 1, 11))]
    assert "cannot start any token" in diagnostics[0].message


def test_tabs_after_the_colon_and_inside_values_are_fine(tmp_path: Path) -> None:
    text = "---\nname:\tdemo\ndescription: Formats\tSQL.\n---\n"
    document = parse_skill(SKILL, text)
    assert ranges(document) == [
        ("name", Range.of(1, 0, 1, 4), Range.of(1, 6, 1, 10)),
        ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 2, 25)),
    ]
    assert check_bytes(tmp_path, text)[1] == []


# -- size ------------------------------------------------------------------------------------------------------


def test_a_10_mb_body_is_checked_to_its_last_line(tmp_path: Path) -> None:
    line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.\n"
    count = 10 * 1024 * 1024 // len(line)
    data = "---\nname: demo\ndescription: x\n---\n" + line * count + "[last](missing.md)\n"
    assert len(data) > 10 * 1024 * 1024
    _, diagnostics = check_bytes(tmp_path, data)
    assert found(diagnostics) == [("skill/broken-link", Range.of(4 + count, 7, 4 + count, 17))]


def test_a_10_mb_frontmatter_value_keeps_exact_ranges(tmp_path: Path) -> None:
    size = 10 * 1024 * 1024
    data = "---\nname: demo\ndescription: " + "x" * size + "\nversion: 1.0\n---\n"
    _, diagnostics = check_bytes(tmp_path, data)
    assert found(diagnostics) == [("skill/invalid-field-type", Range.of(3, 9, 3, 12))]


# -- YAML anchors and aliases ----------------------------------------------------------------------------------

BILLION_LAUGHS = (
    "---\nname: demo\ndescription: x\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
    "---\n"
)


def test_billion_laughs_is_never_expanded() -> None:
    document = parse_skill(SKILL, BILLION_LAUGHS)
    assert document.yaml_problem is None
    top = document.entry("i").value  # type: ignore[union-attr]
    # Nine references to one shared list, all the way down: 9**9 strings are never built.
    assert len(top) == 9
    assert all(item is top[0] for item in top)
    assert all(item is top[0][0] for item in top[0])
    assert document.fields()["i"][0][0][0][0][0][0][0][0] == ["lol"] * 9
    entry = document.entry("i")
    assert entry is not None
    assert entry.value_range == Range.of(11, 3, 11, 34)  # found again in the text, not the anchor's range
    # A repr (a failing assert, a log line) must not expand it either.
    assert len(repr(document)) < 10 * len(BILLION_LAUGHS)


def test_billion_laughs_through_the_check_reports_the_unknown_fields(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, BILLION_LAUGHS)
    assert found(diagnostics) == [("skill/unknown-field", Range.of(line, 0, line, 1)) for line in range(3, 12)]


def test_a_self_referencing_alias_does_not_hang() -> None:
    document = parse_skill(SKILL, "---\nname: demo\ndescription: x\nloop: &a [*a]\n---\n")
    assert document.yaml_problem is None
    assert [entry.key for entry in document.entries] == ["name", "description", "loop"]
    assert document.name == "demo"
    _ = document.entry("loop").value  # type: ignore[union-attr]  # terminates: that is the test


def test_an_undefined_alias_is_invalid_yaml_at_the_alias(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, "---\nname: demo\ndescription: *nope\n---\n")
    assert found(diagnostics) == [("skill/invalid-yaml", Range.of(2, 13, 2, 18))]
    assert "found undefined alias" in diagnostics[0].message


def test_an_alias_used_as_a_field_value_is_that_value(tmp_path: Path) -> None:
    text = "---\nname: &n demo\ndescription: *n\n---\n"
    document = parse_skill(SKILL, text)
    assert document.description == "demo"
    # The alias's range is where the alias is written, not where the anchor is.
    assert ranges(document)[1] == ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 2, 15))
    assert check_bytes(tmp_path, text)[1] == []


def test_a_finding_on_an_alias_points_at_the_alias_and_fixes_nothing_else(tmp_path: Path) -> None:
    text = (
        "---\nname: demo\ndescription: x\n"
        "license: &v 1.0\n"  # 3
        "version:  *v\n"  # 4
        'tools: &yes "yes"\n'  # 5
        "user-invocable: *yes\n"  # 6
        "---\n"
    )
    _, diagnostics = check_bytes(tmp_path, text)
    assert found(diagnostics) == [
        ("skill/invalid-field-type", Range.of(3, 9, 3, 15)),  # license: a float (the range starts at the anchor)
        ("skill/invalid-field-type", Range.of(4, 10, 4, 12)),  # version: *v
        ("skill/invalid-field-type", Range.of(6, 16, 6, 20)),  # user-invocable: *yes
    ]
    version = diagnostics[1]
    assert "quote the value where its anchor is defined" in version.message
    assert version.fixes == ()  # quoting the alias would make the string "*v"
    (plan,) = plan_fixes(diagnostics)
    assert plan.after == text.replace("user-invocable: *yes", "user-invocable: true")


@pytest.mark.parametrize(
    "nesting",
    ["[" * 100_000, "[" * 100_000 + "]" * 100_000, "\n" + "- " * 100_000 + "x"],
    ids=["unclosed-flow", "closed-flow", "block-sequence"],
)
def test_deep_nesting_is_invalid_yaml_not_a_crash(tmp_path: Path, nesting: str) -> None:
    # libyaml's composer recurses in C: without a depth limit this kills the process with a segfault.
    _, diagnostics = check_bytes(tmp_path, f"---\nname: demo\ndescription: x\ndeep: {nesting}\n---\n")
    assert [d.code for d in diagnostics] == ["skill/invalid-yaml"]
    # Our own limit (256 levels), or PyYAML's from 6.0.4 on ("exceeded maximum nesting depth"), whichever trips
    # first: either way a finding on the deep line, never a crash.
    assert "nests more than 256 levels" in diagnostics[0].message or "nesting depth" in diagnostics[0].message


def test_moderate_nesting_is_fine() -> None:
    document = parse_skill(SKILL, "---\nname: demo\ndescription: x\ndeep: " + "[" * 200 + "]" * 200 + "\n---\n")
    assert document.yaml_problem is None
    assert document.entry("deep").value_range == Range.of(3, 6, 3, 406)  # type: ignore[union-attr]


# -- empty, unclosed, not a mapping ----------------------------------------------------------------------------


def test_an_empty_file() -> None:
    document = parse_skill(SKILL, "")
    assert (document.has_frontmatter, document.frontmatter_closed, document.entries) == (False, False, [])
    assert document.first_line_range() == Range.of(0, 0, 0, 0)


@pytest.mark.parametrize("text", ["---", "---\n", "---\nname: demo\ndescription: x\n", "---\nname: demo\n\n# Title\n"])
def test_a_frontmatter_never_closed(tmp_path: Path, text: str) -> None:
    document = parse_skill(SKILL, text)
    assert (document.has_frontmatter, document.frontmatter_closed, document.close_line) == (True, False, None)
    assert document.entries == []
    _, diagnostics = check_bytes(tmp_path, text)
    assert found(diagnostics) == [("skill/no-frontmatter", Range.of(0, 0, 0, 3))]


def test_an_empty_frontmatter_is_an_empty_mapping(tmp_path: Path) -> None:
    document = parse_skill(SKILL, "---\n---\n")
    assert document.frontmatter_ok
    assert document.entries == []
    assert sorted(d.code for d in check_bytes(tmp_path, "---\n---\n")[1]) == [
        "skill/missing-description",
        "skill/missing-name",
    ]


def test_the_first_closing_fence_closes_and_a_final_newline_is_optional() -> None:
    document = parse_skill(SKILL, "---\nname: demo\ndescription: x\n---\nbody\n---\nmore\n")
    assert document.close_line == 3
    assert document.body_start_line == 4
    document = parse_skill(SKILL, "---\nname: demo\ndescription: x\n---")
    assert (document.close_line, document.frontmatter_ok) == (3, True)


def test_a_document_marker_with_a_comment_is_no_fence_and_makes_two_documents(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, "---\nname: demo\n--- # more\ndescription: x\n---\n")
    assert found(diagnostics) == [("skill/invalid-yaml", Range.of(2, 0, 2, 10))]
    assert "expected a single document" in diagnostics[0].message


@pytest.mark.parametrize(
    ("frontmatter", "expected"),
    [
        ("- name: demo\n- description: x\n", Range.of(1, 0, 2, 16)),
        ("[name, description]\n", Range.of(1, 0, 1, 19)),
        ("just a sentence\n", Range.of(1, 0, 1, 15)),
        ("42\n", Range.of(1, 0, 1, 2)),
    ],
)
def test_a_frontmatter_that_is_not_a_mapping(tmp_path: Path, frontmatter: str, expected: Range) -> None:
    document = parse_skill(SKILL, f"---\n{frontmatter}---\n")
    assert document.not_a_mapping == expected
    assert document.entries == []
    assert not document.frontmatter_ok
    _, diagnostics = check_bytes(tmp_path, f"---\n{frontmatter}---\n")
    assert found(diagnostics) == [("skill/invalid-yaml", expected)]


# -- block scalars ---------------------------------------------------------------------------------------------

BLOCKS = (
    "---\n"  # 0
    "name: demo\n"  # 1
    "description: |\n"  # 2
    "  Formats SQL.\n"  # 3
    "  Twice.\n"  # 4
    "notes: >-\n"  # 5
    "  folded\n"  # 6
    "  text\n"  # 7
    "license: MIT\n"  # 8
    "---\n"  # 9
)


def test_block_scalars_span_their_lines() -> None:
    document = parse_skill(SKILL, BLOCKS)
    assert ranges(document) == [
        ("name", Range.of(1, 0, 1, 4), Range.of(1, 6, 1, 10)),
        ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 4, 8)),
        ("notes", Range.of(5, 0, 5, 5), Range.of(5, 7, 7, 6)),
        ("license", Range.of(8, 0, 8, 7), Range.of(8, 9, 8, 12)),
    ]
    assert [entry.line_span for entry in document.entries] == [(1, 2), (2, 5), (5, 8), (8, 9)]
    assert document.description == "Formats SQL.\nTwice.\n"
    assert document.entry("notes").value == "folded text"  # type: ignore[union-attr]


def test_removing_a_block_scalar_field_removes_its_lines(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, BLOCKS)
    assert found(diagnostics) == [("skill/unknown-field", Range.of(5, 0, 5, 5))]
    (plan,) = plan_fixes(diagnostics, unsafe=True)
    assert plan.after == BLOCKS.replace("notes: >-\n  folded\n  text\n", "")


def test_a_kept_block_scalar_ends_on_its_last_blank_line() -> None:
    document = parse_skill(SKILL, "---\nname: demo\ndescription: |+\n  text\n\nversion: '1'\n---\n")
    assert ranges(document)[1] == ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 4, 0))
    assert document.entry("version").key_range == Range.of(5, 0, 5, 7)  # type: ignore[union-attr]


def test_a_block_scalar_description_of_blank_lines_is_missing(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, "---\nname: demo\ndescription: |\n\n\n---\n")
    assert [d.code for d in diagnostics] == ["skill/missing-description"]


# -- duplicate keys --------------------------------------------------------------------------------------------


def test_duplicate_keys_are_all_kept_and_the_last_wins() -> None:
    document = parse_skill(SKILL, "---\nname: first\ndescription: x\nname: second\n---\n")
    assert [entry.key for entry in document.entries] == ["name", "description", "name"]
    assert document.name == "second"
    assert document.fields() == {"name": "second", "description": "x"}
    assert document.entry("name").key_range == Range.of(3, 0, 3, 4)  # type: ignore[union-attr]


def test_a_duplicated_unknown_key_is_reported_by_both_rules(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, "---\nname: demo\nfoo: 1\ndescription: x\nfoo: 2\n---\n")
    assert found(diagnostics) == [
        ("skill/unknown-field", Range.of(2, 0, 2, 3)),
        ("skill/duplicate-key", Range.of(4, 0, 4, 3)),
        ("skill/unknown-field", Range.of(4, 0, 4, 3)),
    ]


def test_keys_that_are_not_strings() -> None:
    document = parse_skill(SKILL, "---\n? [a, b]\n: c\n1: x\nname: demo\n---\n")
    assert [(entry.key, entry.key_range) for entry in document.entries] == [
        ("list", Range.of(1, 2, 1, 8)),
        ("1", Range.of(3, 0, 3, 1)),
        ("name", Range.of(4, 0, 4, 4)),
    ]


# -- multi-byte characters -------------------------------------------------------------------------------------


def test_columns_count_code_points_after_multi_byte_characters(tmp_path: Path) -> None:
    text = "---\nname: demo\ndescription: Café 日本語 😀\nописание: x\n«ключ»: 😀 version\nversion: 1.0\n---\n"
    document = parse_skill(SKILL, text)
    assert ranges(document) == [
        ("name", Range.of(1, 0, 1, 4), Range.of(1, 6, 1, 10)),
        ("description", Range.of(2, 0, 2, 11), Range.of(2, 13, 2, 23)),
        ("описание", Range.of(3, 0, 3, 8), Range.of(3, 10, 3, 11)),
        ("«ключ»", Range.of(4, 0, 4, 6), Range.of(4, 8, 4, 17)),
        ("version", Range.of(5, 0, 5, 7), Range.of(5, 9, 5, 12)),
    ]
    _, diagnostics = check_bytes(tmp_path, text)
    assert found(diagnostics) == [
        ("skill/unknown-field", Range.of(3, 0, 3, 8)),
        ("skill/unknown-field", Range.of(4, 0, 4, 6)),
        ("skill/invalid-field-type", Range.of(5, 9, 5, 12)),
    ]


def test_a_yaml_error_after_an_emoji_is_at_the_right_column(tmp_path: Path) -> None:
    _, diagnostics = check_bytes(tmp_path, "---\nname: demo\ndescription: 😀 x: y\n---\n")
    assert found(diagnostics) == [("skill/invalid-yaml", Range.of(2, 16, 2, 19))]
    assert "mapping values are not allowed" in diagnostics[0].message


def test_the_quick_fix_lands_after_a_multi_byte_value(tmp_path: Path) -> None:
    text = "---\nname: demo\ndescription: Été 😀\nuser-invokable: false\n---\n"
    _, diagnostics = check_bytes(tmp_path, text)
    assert found(diagnostics) == [("skill/unknown-field", Range.of(3, 0, 3, 14))]
    (plan,) = plan_fixes(diagnostics)
    assert plan.after == text.replace("user-invokable", "user-invocable")


def test_yaml_marks_agree_with_the_line_index_on_every_node() -> None:
    # Every node's range, read back from the text, is exactly what YAML composed (keys) or wrote (values).
    document = parse_skill(SKILL, BLOCKS.replace("Formats", "Formàts 😀"))
    lines = document.lines
    for entry in document.entries:
        start, end = lines.offset(entry.key_range.start), lines.offset(entry.key_range.end)
        assert document.text[start:end] == entry.key
    start = lines.offset(Position(1, 6))
    assert document.text[start : lines.offset(document.entry("name").value_range.end)] == "demo"  # type: ignore[union-attr]
