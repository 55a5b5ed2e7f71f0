"""Helix is not installable here (no Debian package, no PyPI or npm build): its ``editors/helix/languages.toml``
is checked the way Helix reads it. The glob semantics follow the Helix book (24.03+): a glob is matched against
the file's full path, ``*/`` is prepended when it is relative, and a glob match beats every extension match."""

from __future__ import annotations

import sys
from fnmatch import fnmatchcase
from typing import Any

from editor_support import EDITORS, REPO
from patterns_support import PATTERNS, SAMPLES

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

CONFIG = tomllib.loads((EDITORS / "helix/languages.toml").read_text(encoding="utf-8"))
SERVER_NAME = "clarvis-lsp"


def helix_glob_matches(glob: str, path: str) -> bool:
    pattern = glob if glob.startswith(("/", "*")) else f"*/{glob}"
    return fnmatchcase(path, pattern)  # like globset's default, `*` also matches `/`


def clarvis_languages() -> list[dict[str, Any]]:
    return [language for language in CONFIG["language"] if SERVER_NAME in language["language-servers"]]


def language_of(path: str) -> dict[str, Any] | None:
    for language in clarvis_languages():
        globs = [entry["glob"] for entry in language["file-types"] if isinstance(entry, dict)]
        if any(helix_glob_matches(glob, path) for glob in globs):
            return language
    return None


def test_the_server_is_the_projects_console_script_over_stdio() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    script = next(iter(pyproject["project"]["scripts"]))
    server = CONFIG["language-server"][SERVER_NAME]
    assert server["command"] == script == "clarvis-lsp"
    assert server["args"] == ["--stdio"]


def test_the_globs_are_the_generated_patterns() -> None:
    """Every pattern of editors/file-patterns.json, in the language of its grammar, and no other glob."""
    globs = {
        (entry["glob"], language["grammar"])
        for language in clarvis_languages()
        for entry in language["file-types"]
        if isinstance(entry, dict)
    }
    assert globs == {(str(pattern["glob"]).removeprefix("**/"), pattern["language"]) for pattern in PATTERNS}
    assert all(isinstance(entry, dict) for language in clarvis_languages() for entry in language["file-types"])


def test_exactly_the_clarvis_files_get_a_clarvis_language_with_its_grammar() -> None:
    for path, grammar in SAMPLES.items():
        language = language_of(path)
        if grammar is None:
            assert language is None, f"{path} would get clarvis-lsp"
        else:
            assert language is not None, f"{path} would not get clarvis-lsp"
            assert language["grammar"] == grammar
            assert language["language-id"] == grammar


def test_the_default_servers_stay_beside_clarvis_lsp() -> None:
    servers = {language["grammar"]: language["language-servers"] for language in clarvis_languages()}
    assert servers["markdown"] == ["clarvis-lsp", "marksman", "markdown-oxide"]
    assert servers["json"] == ["clarvis-lsp", "vscode-json-language-server"]


def test_the_languages_inherit_the_builtin_highlighting() -> None:
    for language in clarvis_languages():
        queries = EDITORS / "helix/runtime/queries" / language["name"]
        highlights = queries / "highlights.scm"
        assert highlights.read_text(encoding="utf-8").strip() == f"; inherits: {language['grammar']}"


def test_every_language_has_the_keys_helix_requires() -> None:
    for language in clarvis_languages():
        assert {"name", "scope", "file-types", "language-servers"} <= set(language)
        assert language["scope"].startswith("source.")
