"""JetBrains IDEs cannot run here: ``editors/jetbrains/`` (an LSP4IJ user-defined language server template) is
checked the way LSP4IJ reads it. The template reader takes ``template.json`` (required: ``programArgs`` by OS key,
``default`` the fallback; ``fileTypeMappings``, each a ``fileType`` with ``patterns`` and/or a ``name``, and a
``languageId``), ``settings.json``, ``initializationOptions.json`` and ``README.md`` from the folder the user picks.
A file name pattern is an IntelliJ ``FileNameMatcher``, matched against the file's name alone: an exact name, or a
wildcard such as ``*.md``."""

from __future__ import annotations

import json
import sys
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import pytest
from editor_support import EDITORS, REPO
from patterns_support import LANGUAGES, PATTERNS, SAMPLES

from clarvis_lsp.config.project import config_from_mapping
from clarvis_lsp.knowledge import files
from clarvis_lsp.knowledge.files import FileKind, file_kind

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

JETBRAINS = EDITORS / "jetbrains"
TEMPLATE: dict[str, Any] = json.loads((JETBRAINS / "template.json").read_text(encoding="utf-8"))
READ_BY_LSP4IJ = {"template.json", "settings.json", "initializationOptions.json", "README.md"}


def mappings() -> list[dict[str, Any]]:
    return list(TEMPLATE["fileTypeMappings"])


def language_id_of(path: str) -> str | None:
    """The ``languageId`` LSP4IJ sends ``path`` with, None when it does not send it to clarvis-lsp."""
    name = Path(path).name
    for mapping in mappings():
        if any(fnmatchcase(name, pattern) for pattern in mapping["fileType"]["patterns"]):
            return str(mapping["languageId"])
    return None


def test_the_command_is_the_projects_console_script_over_stdio() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    script = next(iter(pyproject["project"]["scripts"]))
    assert script == "clarvis-lsp"
    assert TEMPLATE["programArgs"] == {"default": f"{script} --stdio"}  # every OS falls back to `default`
    assert TEMPLATE["id"] and TEMPLATE["name"] == "clarvis-lsp"
    assert TEMPLATE["url"].endswith("/editors/jetbrains")  # without a url, LSP4IJ links a page of its own docs


def test_the_patterns_are_the_file_names_of_every_generated_pattern() -> None:
    """Each language's patterns are exactly the names of that language's patterns in editors/file-patterns.json:
    a pattern missing from the template, or one the table does not have, fails."""
    expected: dict[str, set[str]] = {}
    for pattern in PATTERNS:
        expected.setdefault(str(pattern["language"]), set()).add(str(pattern["name"]))
    actual = {str(mapping["languageId"]): set(mapping["fileType"]["patterns"]) for mapping in mappings()}
    assert actual == expected
    assert set(actual) == LANGUAGES
    assert len(mappings()) == len(LANGUAGES), "one mapping per language"
    for mapping in mappings():
        assert all("/" not in pattern for pattern in mapping["fileType"]["patterns"]), "LSP4IJ matches names only"


def test_no_mapping_names_a_file_type_or_a_language() -> None:
    """A file type ``name`` (``Markdown``, ``JSON``) or a ``languageMappings`` entry would start the server for
    every file of that type, beside the patterns."""
    assert "languageMappings" not in TEMPLATE
    for mapping in mappings():
        assert set(mapping) == {"fileType", "languageId"}
        assert set(mapping["fileType"]) == {"patterns"}


def test_every_clarvis_file_is_sent_with_its_language_and_the_server_decides_the_rest(tmp_path: Path) -> None:
    for path, language in SAMPLES.items():
        sent = language_id_of(path)
        if language is not None:
            assert sent == language, f"{path} would not reach clarvis-lsp as {language}"
        elif sent is not None:
            assert file_kind(tmp_path / path.lstrip("/")) is None, f"{path} is sent and recognised by its path"
    assert language_id_of("/p/ws/.vscode/settings.json") == "json"  # sent; the server answers nothing for it
    assert file_kind(tmp_path / "p/ws/.vscode/settings.json") is None
    assert language_id_of("/p/ws/package.json") is None


def test_the_template_is_what_the_generator_writes_now() -> None:
    assert (JETBRAINS / "template.json").read_text(encoding="utf-8") == files.render_jetbrains_template()
    assert files.JETBRAINS_TEMPLATE == JETBRAINS / "template.json"


def test_a_place_added_to_the_table_reaches_the_template(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = files.FilePattern(FileKind.SETTINGS, "settings.local.json", (".clarvis",))
    monkeypatch.setattr(files, "RECOGNISED", (*files.RECOGNISED, extra))
    assert "settings.local.json" in files.jetbrains_file_name_patterns()["json"]
    assert files.main(["--check"]) == 1
    assert f"{files.JETBRAINS_TEMPLATE} is out of date" in capsys.readouterr().err


def test_the_settings_are_the_clarvis_section_the_server_accepts() -> None:
    for name in ("settings.json", "initializationOptions.json"):
        document = json.loads((JETBRAINS / name).read_text(encoding="utf-8"))
        assert set(document) == {"clarvis"}, name
        section = {key: value for key, value in document["clarvis"].items() if key != "trustWorkspace"}
        config_from_mapping(section)  # raises on an unknown key or a wrong value


def test_the_folder_holds_only_what_lsp4ij_reads() -> None:
    """LSP4IJ ignores other files of the folder; a stray one would mislead a user editing the template."""
    assert {path.name for path in JETBRAINS.iterdir()} == READ_BY_LSP4IJ
