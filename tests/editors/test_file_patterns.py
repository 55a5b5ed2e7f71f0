"""``editors/file-patterns.json``: generated from the server's table of file kinds, and what every client reads.

The file itself must be what ``python -m clarvis_lsp.knowledge.files --write`` writes now (a place added in Python
without regenerating fails here); its patterns must send every file the server recognises by its path; and the
VS Code extension must say what it says (package.json's activation events and ``files.associations`` are written
from it by ``npm run file-patterns``; the document selector imports it). Each other editor's test compares its
configuration with it (patterns_support.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from editor_support import EDITORS, REPO
from patterns_support import DOCUMENT, PATTERNS, SAMPLES, language_of

from clarvis_lsp.discovery.presets import clarvis_skill_roots, xcsh_skill_roots
from clarvis_lsp.knowledge import files
from clarvis_lsp.knowledge.files import LANGUAGE, FileKind, file_kind

CLIENT = REPO / "vscode-client"
MANIFEST = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))


def run_generator(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp.knowledge.files", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_generated_file_is_what_the_python_table_generates_now() -> None:
    run = run_generator("--check")
    assert run.returncode == 0, run.stderr
    assert run_generator().stdout == (EDITORS / "file-patterns.json").read_text(encoding="utf-8")


def test_the_check_fails_when_the_table_has_a_place_the_file_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = files.FilePattern(FileKind.AGENT, "*.md", (".clarvis", "personas"))
    monkeypatch.setattr(files, "RECOGNISED", (*files.RECOGNISED, extra))
    assert files.main(["--check"]) == 1
    assert "**/.clarvis/personas/*.md" in files.render()


def test_editors_send_every_file_the_server_recognises_by_its_path(tmp_path: Path) -> None:
    for sample, language in SAMPLES.items():
        path = tmp_path / sample.lstrip("/")
        kind = file_kind(path)
        if kind is not None:
            assert language == LANGUAGE[kind], sample
    for pattern in PATTERNS:
        sample = "/p/ws/" + "/".join(
            ["quality" if part == "*" else part for part in pattern["directories"]]
            + [str(pattern["name"]).replace("*", "reviewer")]
        )
        kind = file_kind(tmp_path / sample.lstrip("/"))
        if pattern["exact"]:
            assert kind is FileKind(pattern["kind"]), sample
            assert "serverDecides" not in pattern
        else:
            assert kind is None, f"{sample} is recognised by its path alone: the pattern is exact"
            assert pattern["serverDecides"]


def test_a_plugin_json_a_marketplace_points_to_is_sent_and_the_server_decides(tmp_path: Path) -> None:
    manifest = tmp_path / "tools" / "lint" / "plugin.json"
    assert file_kind(manifest) is None
    assert file_kind(manifest, plugin_dirs=frozenset({manifest.parent})) is FileKind.PLUGIN
    assert language_of(manifest.as_posix()) == "json"
    plugin = next(pattern for pattern in PATTERNS if pattern["kind"] == "plugin")
    assert plugin["glob"] == "**/plugin.json"
    assert "marketplace.json" in plugin["serverDecides"]


def test_the_skill_language_directories_are_the_preset_roots() -> None:
    workspace, home = Path("/w"), Path("/h")
    roots = {
        Path(root.path).relative_to(workspace if root.scope == "workspace" else home).as_posix()
        for build in (clarvis_skill_roots, xcsh_skill_roots)
        for root in build(workspace=str(workspace), cwd=str(workspace), home=str(home))
    }
    plugin_skills = "plugins/**/skills"
    assert set(files.SKILL_LANGUAGE_DIRECTORIES) == roots | {plugin_skills}


def test_vscode_activates_for_every_pattern() -> None:
    contains = [event for event in MANIFEST["activationEvents"] if event.startswith("workspaceContains:")]
    assert contains == [f"workspaceContains:{pattern['glob']}" for pattern in PATTERNS]


def test_vscode_gives_the_clarvis_languages_where_the_generated_file_says() -> None:
    associations = MANIFEST["contributes"]["configurationDefaults"]["files.associations"]
    assert associations == DOCUMENT["vscode"]["files.associations"]
    languages = {language["id"] for language in MANIFEST["contributes"]["languages"]}
    assert set(associations.values()) == languages
    for glob, language in associations.items():
        name = glob.rsplit("/", 1)[1]
        kinds = {pattern["kind"] for pattern in PATTERNS if pattern["name"] == name}
        assert {files.VSCODE_LANGUAGES[FileKind(kind)] for kind in kinds} == {language}, glob


def test_the_vscode_document_selector_is_the_generated_file() -> None:
    source = (CLIENT / "src" / "extension.ts").read_text(encoding="utf-8")
    assert "import filePatterns from '../../editors/file-patterns.json';" in source
    assert re.search(r"FILE_PATTERNS[^=]*= filePatterns\.patterns\.map\(\(pattern\) => pattern\.glob\)", source)
    assert "documentSelector: FILE_PATTERNS.map(" in source
    assert not re.search(r"'\*\*/[^']*'", source), "no file pattern is written out in extension.ts"


def test_the_client_build_checks_package_json_before_bundling() -> None:
    scripts = MANIFEST["scripts"]
    assert scripts["file-patterns"] == "node scripts/file-patterns.mjs"
    assert "npm run file-patterns -- --check" in scripts["prebundle"]
    assert "npm run file-patterns -- --check" in (CLIENT / "scripts" / "ci.sh").read_text(encoding="utf-8")


def test_the_hooks_json_a_manifest_names_in_its_plugin_directory_is_sent_and_the_server_decides() -> None:
    """``"hooks": "./hooks.json"``: only the manifest can say the file is a hooks file, so the path alone is not
    enough (``file_kind``), but editors send it (``plugins/<name>/hooks.json``) and the server reads the manifest."""
    assert file_kind(Path("/p/ws/.clarvis/plugins/guard/hooks.json")) is None
    assert language_of("/p/ws/.clarvis/plugins/guard/hooks.json") == "json"
    assert language_of("/p/ws/src/hooks.json") is None  # not a plugin directory: another tool's file
    [pattern] = [pattern for pattern in PATTERNS if pattern["glob"] == "**/plugins/*/hooks.json"]
    assert pattern["kind"] == "hooks" and "manifest" in pattern["serverDecides"]
