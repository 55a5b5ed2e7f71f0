"""Navigation in the core (``clarvis_lsp.editor.navigation``): definitions, references, symbols and the override
lens, as code-point ranges and paths. The workspace lives in ``tmp_path/ws``, the personal configuration in
``tmp_path/home``; the real home directory is never read."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.discovery import StartupError
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor import navigation
from clarvis_lsp.editor.navigation import Location, Symbol, SymbolKind
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.view import WorkspaceView

OTHER_SKILL = """---
name: other
description: Uses agents.
agent: p:assistant
allowed-tools: [Read, Grep]
---
# Other
Intro.
## Usage
```sh
# not a heading
```
### Details
Setext title
============
## Notes
"""

SETTINGS = {
    "enabledPlugins": ["q", "p"],
    "hooks": [{"event": "pre_tool_use", "command": "npm test"}, {"event": "run_end"}],
    "mcpServers": {"github": {"command": "gh"}, "docs": {"type": "http", "url": "https://x.test"}},
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def skill_md(name: str, extra: str = "", body: str = "") -> str:
    return f"---\nname: {name}\ndescription: Does {name} things.\n{extra}---\n{body}"


class Tree:
    def __init__(self, base: Path) -> None:
        self.home = base / "home"
        self.ws = base / "ws"
        clarvis = self.ws / ".clarvis"
        self.personal = write(self.home / ".clarvis/skills/review/SKILL.md", skill_md("review"))
        self.agents_copy = write(self.ws / ".agents/skills/review/SKILL.md", skill_md("review"))
        self.winner = write(clarvis / "skills/review/SKILL.md", skill_md("review", "agent: helper\n"))
        self.duplicate = write(clarvis / "skills/zz-review/SKILL.md", skill_md("review"))
        self.other = write(clarvis / "skills/other/SKILL.md", OTHER_SKILL)
        self.helper = write(clarvis / "agents/helper.md", "# Helper\n")
        self.plugin = write(
            clarvis / "plugins/p/plugin.json",
            '{\n  "name": "p",\n  "bootstrapSkill": "boot",\n  "hooks": "hooks/extra.json"\n}\n',
        )
        self.boot = write(clarvis / "plugins/p/skills/boot/SKILL.md", skill_md("boot"))
        self.assistant = write(clarvis / "plugins/p/agents/assistant.md", "# Assistant\n")
        self.extra_hooks = write(clarvis / "plugins/p/hooks/extra.json", "[]\n")
        self.readme = write(clarvis / "plugins/q/README.md", "q\n")
        write(clarvis / "plugins/q/z/deeper.md", "deeper\n")
        self.settings = write(clarvis / "settings.json", json.dumps(SETTINGS, indent=2) + "\n")
        # Trusted: the workspace's enabledPlugins counts, so plugin p's skills are discovery's.
        self.engine = WorkspaceEngine(directory=self.ws, config=ProjectConfig(), home=self.home, trusted=True)

    def view(self) -> WorkspaceView:
        return view_of(self.engine)


def view_of(engine: WorkspaceEngine) -> WorkspaceView:
    """``engine``'s workspace after its first scan, as a request of the server reads it (no discovery when the
    configuration is invalid)."""
    if not engine.is_discovered:
        with contextlib.suppress(StartupError):
            engine.warm()
    return engine.view()


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


def at(text: str, needle: str, delta: int = 1) -> Position:
    """The position ``delta`` code points into the first ``needle`` of ``text``."""
    return LineIndex(text).position(text.index(needle) + delta)


def name_location(path: Path, name: str) -> Location:
    return Location(path, Range.of(1, 6, 1, 6 + len(name)))


def definition(tree: Tree, path: Path, needle: str, text: str | None = None) -> list[Location]:
    text = path.read_text(encoding="utf-8") if text is None else text
    return navigation.definition(tree.view(), path, text, at(text, needle))


# -- definition -----------------------------------------------------------------------------------------------


def test_agent_value_goes_to_the_agent_file(tree: Tree) -> None:
    assert definition(tree, tree.winner, "helper") == [Location(tree.helper, Range.point(0, 0))]


def test_plugin_agent_value_goes_to_the_plugins_agent_file(tree: Tree) -> None:
    assert definition(tree, tree.other, "p:assistant") == [Location(tree.assistant, Range.point(0, 0))]


def test_unknown_agent_and_other_keys_go_nowhere(tree: Tree) -> None:
    text = skill_md("review", "agent: nobody\n")
    assert definition(tree, tree.winner, "nobody", text) == []
    assert definition(tree, tree.winner, "description", text) == []


def test_bootstrap_skill_goes_to_the_skill_in_the_plugin(tree: Tree) -> None:
    assert definition(tree, tree.plugin, '"boot"') == [name_location(tree.boot, "boot")]


def test_bootstrap_skill_of_a_plugin_that_is_not_enabled(tree: Tree) -> None:
    tree.settings.write_text('{"enabledPlugins": []}', encoding="utf-8")
    assert definition(tree, tree.plugin, '"boot"') == [name_location(tree.boot, "boot")]


def test_hooks_path_goes_to_the_hooks_document(tree: Tree) -> None:
    assert definition(tree, tree.plugin, "hooks/extra") == [Location(tree.extra_hooks, Range.point(0, 0))]


def test_enabled_plugin_goes_to_its_manifests_name(tree: Tree) -> None:
    assert definition(tree, tree.settings, '"p"') == [Location(tree.plugin, Range.of(1, 10, 1, 13))]


def test_enabled_plugin_without_manifest_goes_to_its_first_file(tree: Tree) -> None:
    assert definition(tree, tree.settings, '"q"') == [Location(tree.readme, Range.point(0, 0))]


def test_unknown_enabled_plugin_goes_nowhere(tree: Tree) -> None:
    text = '{"enabledPlugins": ["nope"]}'
    assert definition(tree, tree.settings, "nope", text) == []


def test_shadowed_name_goes_to_the_winning_copy(tree: Tree) -> None:
    expected = [name_location(tree.winner, "review")]
    assert definition(tree, tree.agents_copy, "review") == expected
    assert definition(tree, tree.personal, "review") == expected
    assert definition(tree, tree.duplicate, "review") == expected
    assert definition(tree, tree.winner, "review") == expected  # the winner is its own definition
    assert definition(tree, tree.agents_copy, "name") == expected  # on the key too


def test_a_skill_outside_every_root_has_no_winner(tree: Tree) -> None:
    stray = write(tree.ws / "docs/SKILL.md", skill_md("review"))
    assert definition(tree, stray, "review") == []


def test_an_unsaved_buffer_is_what_counts(tree: Tree) -> None:
    text = "---\nname: review\ndescription: d\nagent: p:assistant\n---\n"
    assert definition(tree, tree.winner, "p:assistant", text) == [Location(tree.assistant, Range.point(0, 0))]


# -- references -----------------------------------------------------------------------------------------------


def test_references_list_every_copy_winner_first(tree: Tree) -> None:
    text = tree.agents_copy.read_text(encoding="utf-8")
    found = navigation.references(tree.view(), tree.agents_copy, text, at(text, "review"))
    assert found == [
        name_location(tree.winner, "review"),
        name_location(tree.personal, "review"),
        name_location(tree.agents_copy, "review"),
        name_location(tree.duplicate, "review"),
    ]
    without = navigation.references(tree.view(), tree.agents_copy, text, at(text, "review"), include_declaration=False)
    assert tree.agents_copy not in {location.path for location in without}
    assert len(without) == 3


def test_references_elsewhere_are_empty(tree: Tree) -> None:
    text = tree.winner.read_text(encoding="utf-8")
    assert navigation.references(tree.view(), tree.winner, text, at(text, "description")) == []
    assert navigation.references(tree.view(), tree.settings, "{}", Position(0, 0)) == []


# -- the override lens ----------------------------------------------------------------------------------------


def lenses(tree: Tree, path: Path) -> list[navigation.OverrideLens]:
    return navigation.override_lenses(tree.view(), path, path.read_text(encoding="utf-8"))


def test_the_winner_overrides_the_other_roots_copies(tree: Tree) -> None:
    (lens,) = lenses(tree, tree.winner)
    assert lens.title == "overrides 2 copies"
    assert lens.range == Range.of(1, 6, 1, 12)
    assert lens.locations == (name_location(tree.personal, "review"), name_location(tree.agents_copy, "review"))


def test_a_loser_is_shadowed_by_the_winner(tree: Tree) -> None:
    (lens,) = lenses(tree, tree.agents_copy)
    assert lens.title == "shadowed by .clarvis/skills/review/SKILL.md"
    assert lens.locations == (name_location(tree.winner, "review"),)
    (personal,) = lenses(tree, tree.personal)
    assert personal.title == "shadowed by .clarvis/skills/review/SKILL.md"


def test_a_within_root_duplicate_says_it_is_skipped(tree: Tree) -> None:
    (lens,) = lenses(tree, tree.duplicate)
    assert lens.title == "skipped: .clarvis/skills/review/SKILL.md declares this name first"
    assert lens.locations == (name_location(tree.winner, "review"),)


def test_one_copy_and_other_kinds_have_no_lens(tree: Tree) -> None:
    assert lenses(tree, tree.other) == []
    assert lenses(tree, tree.settings) == []


def test_one_overridden_copy_is_singular(tree: Tree) -> None:
    tree.personal.unlink()
    tree.duplicate.unlink()
    (lens,) = lenses(tree, tree.winner)
    assert lens.title == "overrides 1 copy"


def test_display_path_prefers_workspace_then_home(tree: Tree) -> None:
    assert navigation.display_path(tree.winner, tree.view()) == ".clarvis/skills/review/SKILL.md"
    assert navigation.display_path(tree.personal, tree.view()) == "~/.clarvis/skills/review/SKILL.md"
    assert navigation.display_path(Path("/elsewhere/x"), tree.view()) == "/elsewhere/x"


# -- document symbols -----------------------------------------------------------------------------------------


def outline(symbols: list[Symbol] | tuple[Symbol, ...]) -> list[object]:
    """Names with their children, for compact assertions."""
    return [(symbol.name, outline(symbol.children)) if symbol.children else symbol.name for symbol in symbols]


def assert_well_formed(symbols: tuple[Symbol, ...] | list[Symbol], parent: Range | None = None) -> None:
    for symbol in symbols:
        assert symbol.name.strip()
        assert symbol.range.start <= symbol.selection_range.start <= symbol.selection_range.end <= symbol.range.end
        if parent is not None:
            assert parent.start <= symbol.range.start and symbol.range.end <= parent.end
        assert_well_formed(symbol.children, symbol.range)


def test_skill_symbols_frontmatter_and_nested_headings(tree: Tree) -> None:
    symbols = navigation.document_symbols(FileKind.SKILL, tree.other, OTHER_SKILL)
    assert outline(symbols) == [
        ("frontmatter", ["name", "description", "agent", ("allowed-tools", ["Read", "Grep"])]),
        ("Other", [("Usage", ["Details"])]),
        ("Setext title", ["Notes"]),
    ]
    assert_well_formed(symbols)
    frontmatter, heading, setext = symbols
    assert frontmatter.kind is SymbolKind.NAMESPACE
    assert frontmatter.range == Range.of(0, 0, 5, 3)
    name = frontmatter.children[0]
    assert (name.kind, name.detail, name.selection_range, name.range) == (
        SymbolKind.PROPERTY,
        "other",
        Range.of(1, 0, 1, 4),
        Range.of(1, 0, 1, 11),
    )
    assert heading.range.start == Position(6, 0) and heading.selection_range == Range.of(6, 0, 6, 7)
    usage = heading.children[0]
    assert usage.range == Range.of(8, 0, 12, 11)  # up to the line before the setext heading of level 1
    assert setext.selection_range == Range.of(13, 0, 13, 12)
    assert setext.range == Range.of(13, 0, 16, 0)


def test_skill_symbols_without_frontmatter_or_broken(tree: Tree) -> None:
    assert outline(navigation.document_symbols(FileKind.SKILL, tree.other, "# Only\n##\n")) == [("Only", ["##"])]
    broken = navigation.document_symbols(FileKind.SKILL, tree.other, "---\nname: [\n---\n# Body\n")
    assert outline(broken) == ["frontmatter", "Body"]
    assert outline(navigation.document_symbols(FileKind.SKILL, tree.other, "---\nname: x\n")) == ["frontmatter"]


def test_settings_symbols(tree: Tree) -> None:
    text = tree.settings.read_text(encoding="utf-8")
    symbols = navigation.document_symbols(FileKind.SETTINGS, tree.settings, text)
    assert outline(symbols) == [
        ("enabledPlugins", ["q", "p"]),
        ("hooks", [("pre_tool_use: npm test", ["event", "command"]), ("run_end", ["event"])]),
        ("mcpServers", [("github", ["command"]), ("docs", ["type", "url"])]),
    ]
    assert_well_formed(symbols)
    hooks = symbols[1]
    assert hooks.kind is SymbolKind.ARRAY
    assert hooks.children[0].kind is SymbolKind.EVENT
    servers = symbols[2].children
    assert [server.detail for server in servers] == ["stdio server", "http server"]
    assert symbols[0].children[0].kind is SymbolKind.STRING


def test_plugin_hooks_and_marketplace_symbols(tree: Tree) -> None:
    plugin = navigation.document_symbols(FileKind.PLUGIN, tree.plugin, tree.plugin.read_text(encoding="utf-8"))
    assert outline(plugin) == ["name", "bootstrapSkill", "hooks"]
    assert plugin[1].detail == "boot"
    hooks_text = '[{"event": "session_start", "command": "echo hi"}, {"command": "x"}]'
    hooks = navigation.document_symbols(FileKind.HOOKS, tree.extra_hooks, hooks_text)
    assert outline(hooks) == [("session_start: echo hi", ["event", "command"]), ("1", ["command"])]
    wrapped = navigation.document_symbols(FileKind.HOOKS, tree.extra_hooks, '{"hooks": [{"event": "run_end"}]}')
    assert outline(wrapped) == [("hooks", [("run_end", ["event"])])]
    market = '{"name": "m", "plugins": [{"name": "lint", "source": "./lint"}], "n": 1, "b": true, "z": null, "k":}'
    symbols = navigation.document_symbols(FileKind.MARKETPLACE, Path("/x/marketplace.json"), market)
    assert outline(symbols) == ["name", ("plugins", [("lint", ["name", "source"])]), "n", "b", "z", "k"]
    assert [symbol.kind for symbol in symbols[2:]] == [
        SymbolKind.NUMBER,
        SymbolKind.BOOLEAN,
        SymbolKind.NULL,
        SymbolKind.PROPERTY,
    ]
    assert_well_formed(symbols)


def test_symbols_of_hostile_json_are_bounded() -> None:
    deep = "[" * 10_000 + "]" * 10_000
    symbols = navigation.document_symbols(FileKind.HOOKS, Path("/x/hooks/hooks.json"), deep)
    depth = 0
    while symbols:
        depth += 1
        symbols = list(symbols[0].children)
    assert depth <= navigation.MAX_SYMBOL_DEPTH + 2
    wide = json.dumps({f"k{i}": i for i in range(20_000)})
    assert len(navigation.document_symbols(FileKind.SETTINGS, Path("/x/.clarvis/settings.json"), wide)) == 5000
    assert navigation.document_symbols(FileKind.SETTINGS, Path("/x/.clarvis/settings.json"), "") == []
    assert navigation.document_symbols(None, Path("/x/readme.md"), "# x") == []


def test_empty_keys_and_long_values_get_readable_names() -> None:
    text = json.dumps({"": "a\nb", "long": "x" * 200})
    symbols = navigation.document_symbols(FileKind.SETTINGS, Path("/x/.clarvis/settings.json"), text)
    assert symbols[0].name == '""'
    assert symbols[0].detail == "a b"  # one line
    assert symbols[1].detail is not None and len(symbols[1].detail) == 80


# -- workspace symbols ----------------------------------------------------------------------------------------


def test_workspace_symbols_cover_skills_plugins_and_agents(tree: Tree) -> None:
    found = navigation.workspace_symbols([tree.view()], "")
    by_kind: dict[SymbolKind, set[str]] = {}
    for symbol in found:
        by_kind.setdefault(symbol.kind, set()).add(symbol.name)
    assert by_kind[SymbolKind.FUNCTION] == {"review", "other", "boot"}
    assert by_kind[SymbolKind.PACKAGE] == {"p", "q"}
    assert by_kind[SymbolKind.CLASS] == {"helper", "p:assistant"}
    reviews = [symbol for symbol in found if symbol.name == "review"]
    assert [symbol.container for symbol in reviews] == [
        "workspace/clarvis",
        "user/clarvis, shadowed by .clarvis/skills/review/SKILL.md",
        "workspace/agents, shadowed by .clarvis/skills/review/SKILL.md",
    ]
    boot = next(symbol for symbol in found if symbol.name == "boot")
    assert boot.container == "workspace/plugin:p"
    plugin = next(symbol for symbol in found if symbol.name == "p")
    assert plugin.container == "plugin (workspace, enabled)"
    assert plugin.location == Location(tree.plugin, Range.of(1, 10, 1, 13))


def test_workspace_symbol_query_is_case_insensitive_and_fuzzy(tree: Tree) -> None:
    names = [symbol.name for symbol in navigation.workspace_symbols([tree.view()], "REV")]
    assert set(names) == {"review"}
    fuzzy = [symbol.name for symbol in navigation.workspace_symbols([tree.view()], "pasnt")]
    assert fuzzy == ["p:assistant"]
    ranked = [symbol.name for symbol in navigation.workspace_symbols([tree.view()], "o")]
    assert ranked[0] == "other"  # a prefix match ranks before substrings
    assert navigation.workspace_symbols([tree.view()], "zzz") == []
    assert len(navigation.workspace_symbols([tree.view(), tree.view()], "", limit=2)) == 2


@pytest.mark.parametrize(
    ("query", "name", "score"),
    [("", "x", 0), ("ab", "AB", 0), ("ab", "abc", 1), ("bc", "abc", 2), ("ac", "abc", 3), ("ca", "abc", None)],
)
def test_match_score(query: str, name: str, score: int | None) -> None:
    assert navigation.match_score(query, name) == score


def test_an_invalid_configuration_gives_nothing(tree: Tree) -> None:
    engine = WorkspaceEngine(directory=tree.ws, config=ProjectConfig(preset="xcsh"), home=tree.home)
    engine.config = dataclasses.replace(engine.config, preset="nonexistent")  # type: ignore[arg-type]
    text = tree.winner.read_text(encoding="utf-8")
    view = view_of(engine)
    assert view.discovered is None
    assert navigation.definition(view, tree.winner, text, at(text, "review")) == []
    assert navigation.workspace_symbols([view], "") == []
    assert navigation.override_lenses(view, tree.winner, text) == []


def test_an_agent_outline_shows_frontmatter_keys_not_a_heading() -> None:
    text = "---\nname: reviewer\ndescription: Reviews.\n---\n# Reviewer\n\nSteps.\n"
    symbols = navigation.document_symbols(FileKind.AGENT, Path("/w/.clarvis/agents/reviewer.md"), text)
    names = [symbol.name for symbol in symbols] + [child.name for symbol in symbols for child in symbol.children]
    assert "Reviewer" in names and "description: Reviews." not in names
    assert not any(name.startswith("description") and "Reviews" in name for name in names if name != "description")


def test_references_on_an_agent_and_on_a_plugin(tmp_path: Path) -> None:
    from clarvis_lsp.config.project import ProjectConfig
    from clarvis_lsp.findings import Position
    from clarvis_lsp.workspace.engine import WorkspaceEngine

    ws, home = tmp_path / "ws", tmp_path / "home"
    files = {
        ".clarvis/agents/reviewer.md": "---\nname: reviewer\n---\nReviews.\n",
        ".clarvis/skills/a/SKILL.md": "---\nname: a\ndescription: d\nagent: reviewer\n---\n",
        ".clarvis/skills/b/SKILL.md": "---\nname: b\ndescription: d\nagent: other\n---\n",
        ".clarvis/plugins/quality/plugin.json": '{"name": "quality"}\n',
        ".clarvis/settings.json": '{"enabledPlugins": ["docs", "quality"]}\n',
        "marketplace.json": '{"plugins": [{"name": "quality", "source": "./q"}]}\n',
    }
    for relative, text in files.items():
        (ws / relative).parent.mkdir(parents=True, exist_ok=True)
        (ws / relative).write_text(text, encoding="utf-8")
    home.mkdir()
    view = view_of(WorkspaceEngine(directory=ws, config=ProjectConfig(include_user=False), home=home))
    agent = ws / ".clarvis/agents/reviewer.md"
    found = navigation.references(view, agent, agent.read_text(), Position(1, 7))
    assert [(location.path.name, location.range.start.line) for location in found] == [("SKILL.md", 3)]
    assert found[0].path.parent.name == "a"
    manifest = ws / ".clarvis/plugins/quality/plugin.json"
    found = navigation.references(view, manifest, manifest.read_text(), Position(0, 12))
    assert [(location.path.name, location.range.start.character) for location in found] == [
        ("plugin.json", 9),
        ("settings.json", 28),
        ("marketplace.json", 22),
    ]
    without = navigation.references(view, manifest, manifest.read_text(), Position(0, 12), include_declaration=False)
    assert [location.path.name for location in without] == ["settings.json", "marketplace.json"]
