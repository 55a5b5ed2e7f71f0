"""Which files are Clarvis's: the file kinds and the places they are recognised at (SPEC §3), as data.

Recognition is by place, not by name alone: only ``.clarvis/settings.json`` is a settings file, so a
``.vscode/settings.json`` never gets a finding, and a ``plugin.json`` counts only in a plugin directory. Every
reader of these places takes them from here: ``file_kind`` below, the workspace walk's candidate names, and,
through the generated ``editors/file-patterns.json`` (``python -m clarvis_lsp.knowledge.files --write``, which
also writes the JetBrains template ``editors/jetbrains/template.json``), the VS Code client's document selector and
language associations and every editor configuration in ``editors/``, whose tests compare their patterns with that
file. A place added here reaches them all, or fails their tests.

Three places depend on what is on disk or in the workspace, which no glob can say: a ``plugin.json`` at a checked
root or in a directory a ``marketplace.json`` entry points to, ``hooks/hooks.json`` beside a plugin's manifest, and
the hooks document a manifest names (any path: editors send the usual ``plugins/<name>/hooks.json``). Editors send
every file of the broader glob (``**/plugin.json``, ``**/hooks/hooks.json``, ``**/plugins/*/hooks.json``) and the
server answers nothing for the ones it does not recognise.
"""

from __future__ import annotations

import argparse
import enum
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath

from clarvis_lsp.knowledge.layout import (
    AGENT_SUFFIX,
    AGENTS_DIR,
    AGENTS_STANDARD_DIR,
    CLARVIS_DIR,
    HOOKS_DIR,
    HOOKS_FILE,
    MARKETPLACE_FILE,
    PLUGIN_MANIFEST,
    PLUGINS_DIR,
    SETTINGS_FILE,
    SKILL_FILE,
    SKILLS_DIR,
)


class FileKind(str, enum.Enum):
    SKILL = "skill"
    SETTINGS = "settings"
    PLUGIN = "plugin"
    HOOKS = "hooks"
    MARKETPLACE = "marketplace"
    AGENT = "agent"


LANGUAGE: dict[FileKind, str] = {
    FileKind.SKILL: "markdown",
    FileKind.SETTINGS: "json",
    FileKind.PLUGIN: "json",
    FileKind.HOOKS: "json",
    FileKind.MARKETPLACE: "json",
    FileKind.AGENT: "markdown",
}
"""The language editors give each kind (the server reads Markdown with frontmatter, or JSON)."""

ANY = "*"
"""In ``FilePattern.directories``: any one directory name."""


@dataclass(frozen=True)
class FilePattern:
    """Files of one kind: a name (``SKILL.md``, or ``*`` and a suffix such as ``*.md``) in the directories named by
    ``directories`` (outermost first, ``*`` for any one name), at any depth."""

    kind: FileKind
    name: str
    directories: tuple[str, ...] = ()

    @property
    def glob(self) -> str:
        """The pattern as a glob over a whole path, as VS Code and most editors write it."""
        return "/".join(("**", *self.directories, self.name))

    def matches(self, path: PurePath) -> bool:
        if self.name.startswith(ANY):
            if path.suffix != self.name[len(ANY) :]:
                return False
        elif path.name != self.name:
            return False
        parent = path.parent
        for expected in reversed(self.directories):
            if parent.name != expected and not (expected == ANY and parent.name):
                return False
            parent = parent.parent
        return True

    def covers(self, other: FilePattern) -> bool:
        """Whether every file ``other`` matches is matched by this pattern too."""
        if self.name != other.name or len(self.directories) > len(other.directories):
            return False
        tail = other.directories[len(other.directories) - len(self.directories) :]
        return all(mine in (ANY, theirs) for mine, theirs in zip(self.directories, tail, strict=True))


RECOGNISED: tuple[FilePattern, ...] = (
    FilePattern(FileKind.SKILL, SKILL_FILE),
    FilePattern(FileKind.SETTINGS, SETTINGS_FILE, (CLARVIS_DIR,)),
    FilePattern(FileKind.PLUGIN, PLUGIN_MANIFEST, (PLUGINS_DIR, ANY)),
    FilePattern(FileKind.HOOKS, HOOKS_FILE, (PLUGINS_DIR, ANY, HOOKS_DIR)),
    FilePattern(FileKind.MARKETPLACE, MARKETPLACE_FILE),
    FilePattern(FileKind.AGENT, ANY + AGENT_SUFFIX, (CLARVIS_DIR, AGENTS_DIR)),
    FilePattern(FileKind.AGENT, ANY + AGENT_SUFFIX, (PLUGINS_DIR, ANY, AGENTS_DIR)),
)
"""The places a file is recognised at by its path alone, in the order editors list them."""

Dirs = frozenset[Path]


@dataclass(frozen=True)
class FoundPlace:
    """A place only the server can recognise: ``pattern`` says which files may be there (editors send them all),
    ``holds`` which of them are (given the checked roots and the plugin directories known from marketplaces)."""

    pattern: FilePattern
    holds: Callable[[Path, Dirs, Dirs], bool]
    why: str


def _plugin_directory(path: Path, workspace_dirs: Dirs, plugin_dirs: Dirs) -> bool:
    return path.parent in plugin_dirs or path.parent in workspace_dirs


def _beside_a_manifest(path: Path, workspace_dirs: Dirs, plugin_dirs: Dirs) -> bool:
    return os.path.lexists(path.parent.parent / PLUGIN_MANIFEST)


FOUND_BY_THE_SERVER: tuple[FoundPlace, ...] = (
    FoundPlace(
        FilePattern(FileKind.PLUGIN, PLUGIN_MANIFEST),
        _plugin_directory,
        "A plugin.json is also a plugin's at the root of a checked workspace (a plugin being developed) and in a "
        "directory that a marketplace.json entry's relative source points to: the server reads the workspace's "
        "marketplaces to know those, so editors send every plugin.json and the server answers nothing for the "
        "others.",
    ),
    FoundPlace(
        FilePattern(FileKind.HOOKS, HOOKS_FILE, (HOOKS_DIR,)),
        _beside_a_manifest,
        "A hooks/hooks.json is a plugin's hooks file wherever a plugin.json sits beside its hooks directory: "
        "editors send every hooks/hooks.json and the server answers nothing for the others.",
    ),
    FoundPlace(
        FilePattern(FileKind.HOOKS, HOOKS_FILE, (PLUGINS_DIR, ANY)),
        lambda _path, _workspace_dirs, _plugin_dirs: False,  # only the manifest can say: the engine asks it
        'A plugin.json may name any file as its hooks document ("hooks": "./hooks.json"); the server reads the '
        "manifest to know. Editors send the usual one, a hooks.json directly in a plugin directory; a file of "
        "another name is checked by --check, and in the editor once the editor sends it to the server.",
    ),
)


def _by_name(patterns: Sequence[FilePattern], *, suffixes: bool) -> dict[str, tuple[FilePattern, ...]]:
    """The patterns by exact name (or, with ``suffixes``, the ``*``-patterns by suffix), in their order."""
    table: dict[str, tuple[FilePattern, ...]] = {}
    for pattern in patterns:
        if pattern.name.startswith(ANY) == suffixes:
            key = pattern.name[len(ANY) :] if suffixes else pattern.name
            table[key] = (*table.get(key, ()), pattern)
    return table


_ANYWHERE = {
    pattern.name: pattern.kind for pattern in RECOGNISED if not pattern.directories and ANY not in pattern.name
}
_BY_NAME = _by_name(RECOGNISED, suffixes=False)
_BY_SUFFIX = _by_name(RECOGNISED, suffixes=True)
_FOUND_BY_NAME = {
    name: tuple(place for place in FOUND_BY_THE_SERVER if place.pattern.name == name)
    for name in dict.fromkeys(place.pattern.name for place in FOUND_BY_THE_SERVER)
}


def file_kind(path: Path, *, workspace_dirs: Dirs = frozenset(), plugin_dirs: Dirs = frozenset()) -> FileKind | None:
    """The kind of ``path`` (absolute), or None when it is no Clarvis file.

    ``workspace_dirs`` are the checked roots (the editor's workspace folders, the paths given to ``--check``):
    a ``plugin.json`` directly in one is a plugin being developed. ``plugin_dirs`` holds extra directories
    known to be plugins (pointed to by a marketplace entry). A file's exact name is tried before its suffix, so a
    ``SKILL.md`` in an ``agents`` directory is a skill.
    """
    name = path.name
    kind = _ANYWHERE.get(name)  # a check asks this of every SKILL.md in the tree: no parent is looked at
    if kind is not None:
        return kind
    for pattern in _BY_NAME.get(name, ()):
        if pattern.matches(path):
            return pattern.kind
    for place in _FOUND_BY_NAME.get(name, ()):
        if place.pattern.matches(path) and place.holds(path, workspace_dirs, plugin_dirs):
            return place.pattern.kind
    for pattern in _BY_SUFFIX.get(path.suffix, ()):
        if pattern.matches(path):
            return pattern.kind
    return None


CANDIDATE_NAMES: frozenset[str] = frozenset(
    pattern.name
    for pattern in (*RECOGNISED, *(place.pattern for place in FOUND_BY_THE_SERVER))
    if ANY not in pattern.name
)
"""File names that can be a recognised kind; any other file is one only by its suffix (an agent's ``*.md``)."""


def editor_patterns() -> tuple[FilePattern, ...]:
    """What an editor sends to the server: every recognised place, each found-by-the-server place's broader pattern
    instead of the narrower ones it covers, in ``RECOGNISED`` order."""
    broad = [place.pattern for place in FOUND_BY_THE_SERVER]
    chosen: list[FilePattern] = []
    for pattern in RECOGNISED:
        wider = next((candidate for candidate in broad if candidate.covers(pattern)), pattern)
        if not any(existing.covers(wider) for existing in chosen):
            chosen.append(wider)
    for place in broad:  # a place that widens no recognised one (a hooks file a manifest names) comes after its kind
        if not any(existing.covers(place) for existing in chosen):
            last = max(index for index, existing in enumerate(chosen) if existing.kind is place.kind)
            chosen.insert(last + 1, place)
    return tuple(chosen)


SKILL_LANGUAGE_DIRECTORIES: tuple[str, ...] = (
    f"{CLARVIS_DIR}/{SKILLS_DIR}",
    f"{AGENTS_STANDARD_DIR}/{SKILLS_DIR}",
    ".xcsh/skills",
    ".xcsh/agent/skills",
    ".claude/skills",
    ".codex/skills",
    ".gemini/skills",
    f"{PLUGINS_DIR}/**/{SKILLS_DIR}",
)
"""The skill roots of both presets and of plugins: where VS Code gives a SKILL.md the extension's language. A
SKILL.md elsewhere keeps VS Code's own ``skill`` language (and its checks) and is still sent to the server."""

VSCODE_LANGUAGES: dict[FileKind, str] = {
    FileKind.SKILL: "clarvis-skill",
    FileKind.AGENT: "clarvis-agent",
    FileKind.SETTINGS: "clarvis-json",
    FileKind.PLUGIN: "clarvis-json",
    FileKind.HOOKS: "clarvis-json",
    FileKind.MARKETPLACE: "clarvis-json",
}
"""The VS Code extension's language for each kind (package.json ``contributes.languages``)."""


def vscode_associations() -> dict[str, str]:
    """VS Code's ``files.associations`` default: glob to language, grouped by language as package.json lists them."""
    associations: dict[str, str] = {}
    for language in dict.fromkeys(VSCODE_LANGUAGES.values()):
        for pattern in editor_patterns():
            if VSCODE_LANGUAGES[pattern.kind] != language:
                continue
            if pattern.kind is FileKind.SKILL:
                associations.update((f"**/{root}/**/{pattern.name}", language) for root in SKILL_LANGUAGE_DIRECTORIES)
            else:
                associations[pattern.glob] = language
    return associations


GENERATED = Path(__file__).resolve().parents[2] / "editors" / "file-patterns.json"
"""Where the generated file lives in a checkout: beside the editor configurations that read it."""


def document() -> dict[str, object]:
    """The contents of ``editors/file-patterns.json``."""
    exact = set(RECOGNISED)
    found = {place.pattern: place.why for place in FOUND_BY_THE_SERVER}
    patterns: list[dict[str, object]] = []
    for pattern in editor_patterns():
        entry: dict[str, object] = {
            "kind": pattern.kind.value,
            "language": LANGUAGE[pattern.kind],
            "glob": pattern.glob,
            "name": pattern.name,
            "directories": list(pattern.directories),
            "exact": pattern in exact,
        }
        if pattern in found:
            entry["serverDecides"] = found[pattern]
        patterns.append(entry)
    return {
        "$comment": (
            "Generated from clarvis_lsp/knowledge/files.py by `python -m clarvis_lsp.knowledge.files --write`; do "
            "not edit. `patterns`: the files an editor sends to clarvis-lsp, each a name (`*.md`: any name with "
            "that suffix) in the `directories` given (outermost first, `*`: any one name) at any depth, as a "
            "`glob` too. `exact`: every such file is of that kind; otherwise `serverDecides` says which are. "
            "`vscode`: the VS Code extension's language for each glob (its files.associations default)."
        ),
        "patterns": patterns,
        "vscode": {"files.associations": vscode_associations()},
    }


def render() -> str:
    return json.dumps(document(), indent=2, ensure_ascii=False) + "\n"


JETBRAINS_TEMPLATE = GENERATED.parent / "jetbrains" / "template.json"
"""The LSP4IJ template's descriptor, generated beside the template's hand-written settings files."""

JETBRAINS_SERVER_URL = "https://github.com/clarvis-lsp/clarvis-lsp/tree/main/editors/jetbrains"


def jetbrains_file_name_patterns() -> dict[str, list[str]]:
    """The editor patterns' file names by language, in ``editor_patterns`` order: LSP4IJ matches a file name
    pattern against the file's name alone, never its directories, so a JetBrains IDE sends every file of those
    names (every ``settings.json``, every ``*.md``) and the server answers nothing for the ones it does not
    check."""
    names: dict[str, list[str]] = {}
    for pattern in editor_patterns():
        language = names.setdefault(LANGUAGE[pattern.kind], [])
        if pattern.name not in language:
            language.append(pattern.name)
    return names


def jetbrains_template() -> dict[str, object]:
    """The contents of ``editors/jetbrains/template.json``: a user-defined language server template of the LSP4IJ
    plugin (``id``, ``name``, ``url``, ``programArgs`` by OS, ``fileTypeMappings``). Its mappings give patterns
    and a ``languageId`` only: a ``fileType`` ``name`` would start the server for every file of that type."""
    return {
        "$comment": (
            "Generated from clarvis_lsp/knowledge/files.py by `python -m clarvis_lsp.knowledge.files --write`; do "
            "not edit. An LSP4IJ user-defined language server template: import this folder in the New Language "
            "Server dialog (README.md)."
        ),
        "id": "clarvis-lsp",
        "name": "clarvis-lsp",
        "url": JETBRAINS_SERVER_URL,
        "programArgs": {"default": "clarvis-lsp --stdio"},
        "fileTypeMappings": [
            {"fileType": {"patterns": patterns}, "languageId": language}
            for language, patterns in jetbrains_file_name_patterns().items()
        ],
    }


def render_jetbrains_template() -> str:
    return json.dumps(jetbrains_template(), indent=2, ensure_ascii=False) + "\n"


def generated_files() -> dict[Path, str]:
    """Every file generated from this table, with its contents now."""
    return {GENERATED: render(), JETBRAINS_TEMPLATE: render_jetbrains_template()}


def _current(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m clarvis_lsp.knowledge.files",
        description=(
            "Print the file patterns editors read, or write them to editors/file-patterns.json and the JetBrains "
            "template (editors/jetbrains/template.json)."
        ),
    )
    parser.add_argument("--write", action="store_true", help="write the generated files in the checkout")
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file is out of date")
    args = parser.parse_args(argv)
    files = generated_files()
    if args.write:
        for path, text in files.items():
            path.write_text(text, encoding="utf-8")
    elif args.check:
        stale = [path for path, text in files.items() if _current(path) != text]
        for path in stale:
            print(f"{path} is out of date: run python -m clarvis_lsp.knowledge.files --write", file=sys.stderr)
        if stale:
            return 1
    else:
        sys.stdout.write(files[GENERATED])
    return 0


if __name__ == "__main__":
    sys.exit(main())
