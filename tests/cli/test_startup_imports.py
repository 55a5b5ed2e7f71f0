"""What ``clarvis-lsp --check`` imports, seen through the user's door: ``python -X importtime -m clarvis_lsp``.

Start-up is most of what a pre-commit run of ``--check`` costs, so the heavy libraries are imported only by the
files that need them: pydantic only to validate a project file or editor settings, jsonschema only for a JSON
document, markdown-it only for a body that needs the CommonMark block parse,
pathspec only for exclude patterns, regex only for a name outside ASCII. These tests assert which are loaded and
that the findings do not depend on it. No timing is asserted.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# Loaded by none of the runs of a plain workspace below.
HEAVY = ("pydantic", "pydantic_core", "markdown_it", "pathspec", "regex", "tomllib")
SCHEMA_VALIDATOR = ("jsonschema", "referencing")  # loaded to check a JSON document, and only then
FILES = {
    ".clarvis/skills/lint/SKILL.md": (
        "---\nname: lint\ndescription: Lints the code when asked.\n---\n# Lint\n\n"
        "Read [the guide](references/guide.md) first.\n\n```sh\nmake lint\n```\n"
    ),
    ".clarvis/skills/lint/references/guide.md": "# Guide\n",
    ".clarvis/skills/notes/SKILL.md": "---\nname: notes\ndescription: Takes notes.\nuser-invokable: true\n---\nBody.\n",
    ".agents/skills/notes/SKILL.md": "---\nname: notes\ndescription: Takes notes.\n---\nBody.\n",
    ".clarvis/settings.json": '{\n  "enabledPlugins": ["quality"]\n}\n',
    ".clarvis/plugins/quality/plugin.json": (
        '{\n  "name": "quality",\n  "version": "1.0.0",\n  "description": "Code quality helpers."\n}\n'
    ),
    ".clarvis/plugins/quality/skills/lint-fix/SKILL.md": "---\nname: lint-fix\ndescription: Fixes lint.\n---\n",
    "marketplace.json": (
        '{\n  "name": "acme",\n  "plugins": [{"name": "quality", "source": "./.clarvis/plugins/quality"}]\n}\n'
    ),
}
# A project file that restates defaults: it changes no finding, but it must be validated.
CONFIG = 'preset = "clarvis"\nstrict = false\nexclude = []\n\n[rules]\n"skill/unknown-field" = "warning"\n'


def make_workspace(root: Path, files: dict[str, str] = FILES) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def check(directory: Path, *extra: str) -> tuple[dict[str, Any], set[str]]:
    """``python -X importtime -m clarvis_lsp --check . --no-user --format json`` in ``directory``: the report and
    every module the process imported."""
    home = directory.parent / "home"
    home.mkdir(exist_ok=True)
    command = [sys.executable, "-X", "importtime", "-m", "clarvis_lsp", "--check", ".", "--no-user"]
    command += ["--home", str(home), "--format", "json", *extra]
    result = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode in (0, 1), result.stderr
    imported = {match.group(1) for match in re.finditer(r"^import time:.*\|\s*([\w.]+)\s*$", result.stderr, re.M)}
    assert "clarvis_lsp.cli" in imported, result.stderr[-2000:]  # -X importtime did report
    return json.loads(result.stdout), imported


def loaded(imported: set[str], *packages: str) -> list[str]:
    return sorted(package for package in packages if any(name.split(".")[0] == package for name in imported))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws")


def test_a_workspace_without_configuration_loads_no_heavy_library(workspace: Path) -> None:
    report, imported = check(workspace)
    codes = sorted(diagnostic["code"] for diagnostic in report["diagnostics"])
    assert "skill/unknown-field" in codes and "discovery/shadowed" in codes, codes  # the check did run
    assert report["files_checked"] == 7
    assert loaded(imported, *HEAVY) == []
    assert loaded(imported, *SCHEMA_VALIDATOR) == list(SCHEMA_VALIDATOR)  # settings, plugin and marketplace files
    assert loaded(imported, "pygls", "lsprotocol") == []


JSON_MACHINERY = (
    "clarvis_lsp.documents.jsondoc",
    "clarvis_lsp.rules.settings",
    "clarvis_lsp.rules.hooks",
    "clarvis_lsp.rules.hook_run_limit",
    "clarvis_lsp.rules.plugin",
    "clarvis_lsp.rules.marketplace",
    "clarvis_lsp.rules.mcp",
    "clarvis_lsp.rules.json",
)


def test_a_tree_of_skills_alone_loads_no_json_rule(tmp_path: Path) -> None:
    """A repository of published skills has no settings, plugin or marketplace file: its check never imports the
    JSON rule families, the JSON document model or the schema validator, and still reports what it did (the same
    findings as a check of the same skills beside a settings file, which loads them)."""
    skills = {path: text for path, text in FILES.items() if path.endswith(".md")}
    alone, imported = check(make_workspace(tmp_path / "alone", skills))
    assert sorted(name for name in imported if name in JSON_MACHINERY) == []
    assert loaded(imported, *SCHEMA_VALIDATOR) == []
    beside, imported = check(make_workspace(tmp_path / "beside", {**skills, ".clarvis/settings.json": "{}\n"}))
    assert sorted(name for name in imported if name in JSON_MACHINERY) == sorted(JSON_MACHINERY)
    assert alone["diagnostics"] == beside["diagnostics"] and alone["diagnostics"], alone


def test_the_command_line_is_read_without_shutil(tmp_path: Path) -> None:
    """argparse imports ``shutil`` (and with it ``bz2`` and ``lzma``) to learn the terminal's width for each
    formatter it builds, one per option; the command's formatter is told the width instead, so a check of skills
    never loads them (``test_cli`` holds the help text to the width; jsonschema, for JSON files, imports shutil)."""
    skills = {path: text for path, text in FILES.items() if path.endswith(".md")}
    _, imported = check(make_workspace(tmp_path / "skills", skills))
    assert loaded(imported, "shutil", "bz2", "lzma") == []


def test_the_cli_flags_need_no_validation_library(workspace: Path) -> None:
    flags = ("--strict", "--no-follow-symlinks", "--preset", "clarvis", "--select", "skill,discovery")
    _, imported = check(workspace, *flags, "--ignore", "skill/broken-link", "--root", ".clarvis/skills:workspace")
    assert loaded(imported, *HEAVY) == []


@pytest.mark.parametrize("where", [".clarvis-lsp.toml", "pyproject.toml"])
def test_a_project_file_is_validated_and_changes_nothing_it_does_not_set(workspace: Path, where: str) -> None:
    plain, _ = check(workspace)
    text = (
        CONFIG
        if where == ".clarvis-lsp.toml"
        else "[tool.clarvis-lsp]\n" + CONFIG.replace("[rules]", "[tool.clarvis-lsp.rules]")
    )
    (workspace / where).write_text(text, encoding="utf-8")
    configured, imported = check(workspace)
    assert loaded(imported, "pydantic", "tomllib") == ["pydantic", "tomllib"]
    assert configured == plain


def test_a_pyproject_of_another_tool_loads_no_validation_library(workspace: Path) -> None:
    (workspace / "pyproject.toml").write_text('[project]\nname = "demo"\n\n[tool.ruff]\nline-length = 100\n')
    _, imported = check(workspace)
    assert loaded(imported, "pydantic") == []


def test_an_invalid_project_file_is_reported_as_before(workspace: Path) -> None:
    (workspace / ".clarvis-lsp.toml").write_text('stict = true\npreset = "xcs"\n', encoding="utf-8")
    home = workspace.parent / "home"
    home.mkdir(exist_ok=True)
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--no-user", "--home", str(home)],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert '.clarvis-lsp.toml:1:1: error[config/invalid] Unknown key "stict" in .clarvis-lsp.toml: did you mean' in (
        result.stdout
    )
    assert 'Invalid preset "xcs": did you mean "xcsh"?' in result.stdout


def test_jsonschema_is_loaded_for_a_document_with_a_structural_error(workspace: Path) -> None:
    (workspace / ".clarvis/settings.json").write_text('{\n  "enabledPlugins": "quality"\n}\n', encoding="utf-8")
    report, imported = check(workspace)
    assert loaded(imported, "jsonschema") == ["jsonschema"]
    assert loaded(imported, "pydantic") == []
    found = [(d["path"], d["line"], d["code"]) for d in report["diagnostics"]]
    assert (".clarvis/settings.json", 2, "settings/invalid-value") in found


def test_the_slower_paths_are_taken_only_when_needed(workspace: Path) -> None:
    """A body with block structure other than fences (an HTML block) needs markdown-it; a non-ASCII name needs
    regex; an exclude pattern needs pathspec (here given in a project file, which loads pydantic too)."""
    commented = FILES[".clarvis/skills/lint/SKILL.md"] + "\n<div>\n[x](hidden.md)\n</div>\n\n[y](nowhere.md)\n"
    make_workspace(
        workspace,
        {
            ".clarvis/skills/lint/SKILL.md": commented,
            ".clarvis/skills/café/SKILL.md": "---\nname: café\ndescription: Brews coffee.\n---\n",
            ".clarvis-lsp.toml": 'exclude = ["vendor/**"]\n',
        },
    )
    report, imported = check(workspace)
    assert loaded(imported, "markdown_it", "regex", "pathspec", "pydantic") == [
        "markdown_it",
        "pathspec",
        "pydantic",
        "regex",
    ]
    broken = [d["message"] for d in report["diagnostics"] if d["code"] == "skill/broken-link"]
    assert len(broken) == 1 and "nowhere.md" in broken[0]  # the link in the HTML block is no link


def test_the_server_takes_plain_editor_settings_without_pydantic(workspace: Path) -> None:
    """The language server's configuration layers: none, or booleans and a preset, need no pydantic; a rule
    severity (or anything else) is validated by the models, as the project file is."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from clarvis_lsp.server import create_server\n"
        "server = create_server()\n"
        "server.session.set_editor_settings({}, layer='init')\n"
        "server.session.set_editor_settings({'strict': True, 'includeUser': False, 'preset': None})\n"
        "config = server.session.config_for(Path(sys.argv[1]))\n"
        "print(config.strict, config.include_user, 'pydantic' in sys.modules)\n"
        "server.session.set_editor_settings({'rules': {'skill/unknown-field': 'off'}})\n"
        "print(server.session.config_for(Path(sys.argv[1])).rules, 'pydantic' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(workspace)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["True False False", "{'skill/unknown-field': 'off'} True"]


def test_a_check_never_imports_the_effective_configuration(workspace: Path) -> None:
    """The model of ``--effective`` is computed only when asked: a check (trusted or not) pays nothing for it."""
    _, imported = check(workspace)
    _, trusted = check(workspace, "--trusted")
    assert sorted(name for name in imported | trusted if name.startswith("clarvis_lsp.effective")) == []


def test_comments_details_and_definition_blocks_need_no_markdown_parser(workspace: Path) -> None:
    """A comment and a ``<details>`` block after a blank line, and a block of definitions at the end, as public
    skills write them, are read by the fast link scan: no markdown-it, and the links inside the blocks are none."""
    body = (
        "\n<!-- [a](gone.md) -->\n\n<details>\n<summary>More</summary>\n[x](hidden.md)\n\n</details>\n\n"
        "[y](nowhere.md) and [the guide][r].\n\n[r]: one.md\n[s]: two.md\n"
    )
    make_workspace(workspace, {".clarvis/skills/lint/SKILL.md": FILES[".clarvis/skills/lint/SKILL.md"] + body})
    report, imported = check(workspace)
    assert loaded(imported, "markdown_it") == []
    broken = [d["message"] for d in report["diagnostics"] if d["code"] == "skill/broken-link"]
    named = {target for target in ("gone", "hidden", "nowhere", "one", "two") for m in broken if f'"{target}.md"' in m}
    assert named == {"nowhere", "one"}  # an unused definition is not checked


def test_the_hover_and_completion_handlers_load_no_schema_validator() -> None:
    """A hover or a completion sent right after ``didOpen`` waits for its handler's module: the schemas are walked
    with ``referencing`` alone, and jsonschema is imported only when a document is first validated."""
    code = (
        "import sys\n"
        "import clarvis_lsp.server.features.hover, clarvis_lsp.server.features.completion\n"
        "print('jsonschema' in sys.modules)\n"
        "from clarvis_lsp import schema_docs\n"
        "print(schema_docs.validator('settings').is_valid({'enabledPlugins': 3}), 'jsonschema' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.split("\n")[:2] == ["False", "False True"]
