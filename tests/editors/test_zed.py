"""Zed is not installable here and its extensions are Rust compiled to WebAssembly (crates.io is out of reach):
``editors/zed/`` is checked for what Zed reads from the manifest, and for naming the server users install."""

from __future__ import annotations

import json
import re
import sys

from editor_support import EDITORS
from patterns_support import LANGUAGES

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ZED = EDITORS / "zed"


def test_the_manifest_declares_clarvis_lsp_for_markdown_and_json() -> None:
    manifest = tomllib.loads((ZED / "extension.toml").read_text(encoding="utf-8"))
    assert {"id", "name", "version", "schema_version", "authors", "description", "repository"} <= set(manifest)
    server = manifest["language_servers"]["clarvis-lsp"]
    assert server["languages"] == ["Markdown", "JSON"]
    assert server["language_ids"] == {"Markdown": "markdown", "JSON": "json"}


def test_the_server_gets_the_languages_of_every_generated_pattern_and_no_other() -> None:
    """Zed starts an extension's server for every file of its languages (the server answers nothing for a file it
    does not check), so the languages of editors/file-patterns.json are what the manifest must name."""
    manifest = tomllib.loads((ZED / "extension.toml").read_text(encoding="utf-8"))
    server = manifest["language_servers"]["clarvis-lsp"]
    assert set(server["language_ids"].values()) == LANGUAGES
    assert set(server["languages"]) == set(server["language_ids"])


def test_the_extension_starts_clarvis_lsp_from_path_over_stdio() -> None:
    source = (ZED / "src/lib.rs").read_text(encoding="utf-8")
    assert 'worktree.which("clarvis-lsp")' in source
    assert '"--stdio"' in source
    cargo = tomllib.loads((ZED / "Cargo.toml").read_text(encoding="utf-8"))
    assert cargo["lib"]["crate-type"] == ["cdylib"]
    assert "zed_extension_api" in cargo["dependencies"]


def test_the_settings_example_is_json_with_comments_for_the_same_server() -> None:
    text = (ZED / "settings.json").read_text(encoding="utf-8")
    settings = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE))  # Zed's settings allow // comments
    assert "clarvis" in settings["lsp"]["clarvis-lsp"]["initialization_options"]
    assert settings["languages"]["Markdown"]["language_servers"][0] == "clarvis-lsp"
