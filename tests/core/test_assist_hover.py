"""Hover text of ``clarvis_lsp.editor.hover``: keys of every kind, events, skill copies, enabled plugins.

``|`` in a test document marks the cursor.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.hover import HoverInfo, event_markdown, hover
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge import hooks
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.discovered import Discovered
from clarvis_lsp.workspace.engine import WorkspaceEngine


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Discovered]:
    """Three copies of ``review`` (two roots, one within-root duplicate) and two installed plugins."""
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    home.mkdir()
    write(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Workspace copy.\n---\n")
    write(ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared copy.\n---\n")
    write(ws, ".agents/skills/review-old/SKILL.md", "---\nname: review\ndescription: Duplicate.\n---\n")
    write(ws, ".clarvis/settings.json", '{"enabledPlugins": ["lint", "quality"]}')
    write(ws, ".clarvis/plugins/lint/plugin.json", '{"name": "lint"}')
    write(ws, ".clarvis/plugins/quality/plugin.json", '{"name": "quality", "bootstrapSkill": "checklist"}')
    write(ws, ".clarvis/plugins/quality/skills/checklist/SKILL.md", "---\nname: checklist\ndescription: C.\n---\n")
    write(ws, ".clarvis/plugins/quality/agents/critic.md", "# critic\n")
    engine = WorkspaceEngine(directory=ws, config=ProjectConfig(), home=home)
    return ws, engine.discovered


def at(
    kind: FileKind, marked: str, discovered: Discovered | None = None, *, path: Path | None = None
) -> HoverInfo | None:
    offset = marked.index("|")
    text = marked.replace("|", "", 1)
    lines = LineIndex(text)
    return hover(text, kind, lines.position(offset), discovered, path=path, lines=lines)


def markdown(kind: FileKind, marked: str, discovered: Discovered | None = None, *, path: Path | None = None) -> str:
    found = at(kind, marked, discovered, path=path)
    assert found is not None
    return found.markdown


# ------------------------------------------------------------------------------------------------- keys


def test_skill_key() -> None:
    found = at(FileKind.SKILL, "---\nna|me: x\ndescription: d\n---\n")
    assert found is not None
    assert found.range == Range.of(1, 0, 1, 4)
    assert "**`name`** — string, required" in found.markdown
    assert "letters and digits of any script" in found.markdown


def test_skill_key_while_the_yaml_is_broken() -> None:
    text = markdown(FileKind.SKILL, "---\nname: [x\nuser-invo|cable: true\n---\n")
    assert "slash command" in text and "default `true`" in text


def test_settings_key() -> None:
    found = at(FileKind.SETTINGS, '{"enabled|Plugins": []}')
    assert found is not None and found.range == Range.of(0, 1, 0, 17)
    assert "ascending precedence" in found.markdown


def test_hook_key_in_every_kind_that_holds_hooks() -> None:
    assert "required" in markdown(FileKind.SETTINGS, '{"hooks": [{"comm|and": "x"}]}')
    assert "milliseconds" in markdown(FileKind.PLUGIN, '{"hooks": [{"timeout|_ms": 5}]}')
    assert "Tool events only" in markdown(FileKind.HOOKS, '[{"event": "pre_tool_use", "mat|ch": {}}]')
    assert "hooks of this document" in markdown(FileKind.HOOKS, '{"ho|oks": []}')
    for kind, marked in [
        (FileKind.HOOKS, '{"hooks": [{"comm|and": "x"}]}'),
        (FileKind.HOOKS, '[{"comm|and": "x"}]'),
        (FileKind.PLUGIN, '{"hooks": [{"comm|and": "x"}]}'),
    ]:
        assert markdown(kind, marked).startswith("**`command`** — string, required")
    assert "**Not allowed here.**" in markdown(FileKind.HOOKS, '[{"event": "run_end", "mat|ch": {}}]')


def test_mcp_key_forbidden_by_the_transport() -> None:
    text = markdown(FileKind.SETTINGS, '{"mcpServers": {"a": {"command": "x", "u|rl": "https://e"}}}')
    assert "**Not allowed here.**" in text and "http and sse only" in text
    assert "Not allowed" not in markdown(FileKind.SETTINGS, '{"mcpServers": {"a": {"type": "http", "u|rl": ""}}}')


def test_plugin_and_marketplace_keys() -> None:
    assert "injects before the answer" in markdown(FileKind.PLUGIN, '{"bootstrap|Skill": "x"}')
    assert "Plans" in markdown(FileKind.PLUGIN, '{"capabilityRunPolicies": {"x": "o|n"}}')
    assert "Clarvis supplies one" in markdown(FileKind.MARKETPLACE, '{"na|me": "m"}')
    assert "display-only" in markdown(FileKind.MARKETPLACE, '{"plugins": [{"name": "a", "sou|rce": "./a"}]}')


def test_unknown_keys_and_events_say_what_was_meant() -> None:
    settings = markdown(FileKind.SETTINGS, '{"enabledPlu|gin": []}')
    assert "not a field Clarvis knows here" in settings and "Did you mean `enabledPlugins`?" in settings
    assert "Did you mean" not in markdown(FileKind.SETTINGS, '{"unkn|own": 1}')
    skill = markdown(FileKind.SKILL, "---\nuser-invok|able: true\n---\n")
    assert "Did you mean `user-invocable`?" in skill
    hook = markdown(FileKind.SETTINGS, '{"hooks": [{"event": "PreTo|olUse", "command": "x"}]}')
    assert "not a Clarvis event" in hook and "Did you mean `pre_tool_use`?" in hook
    assert at(FileKind.SETTINGS, '{"mcpServers": {"any-na|me": {"command": "x"}}}') is None or "not a field" not in (
        markdown(FileKind.SETTINGS, '{"mcpServers": {"any-na|me": {"command": "x"}}}')
    )  # server names are free-form


def test_nothing_between_tokens_or_in_the_body() -> None:
    assert at(FileKind.SETTINGS, '{"model": "m",  |  "hooks": []}') is None
    assert at(FileKind.SKILL, "---\nname: x\n---\nna|me: body text\n") is None


# ----------------------------------------------------------------------------------------------- values


def test_event_value_shows_class_effect_and_rewrite() -> None:
    found = at(FileKind.SETTINGS, '{"hooks": [{"event": "pre_to|ol_use", "command": "x"}]}')
    assert found is not None and found.range == Range.of(0, 21, 0, 35)
    assert "control event" in found.markdown and "may allow, steer or deny" in found.markdown
    assert "Can `rewrite`" in found.markdown
    observer = markdown(FileKind.HOOKS, '[{"event": "run_e|nd"}]')
    assert "observer event" in observer and "Cannot `rewrite`" in observer
    post = markdown(FileKind.PLUGIN, '{"hooks": [{"event": "post_tool|_use"}]}')
    assert "Cannot `rewrite` (only `pre_tool_use` can)" in post


@pytest.mark.parametrize("event", hooks.EVENTS)
def test_every_event_value_shows_its_class_and_effect(event: str) -> None:
    klass = hooks.EVENT_CLASS[event]
    heading = f"**`{event}`** — {klass} event: {hooks.CLASS_EFFECT[klass]}."
    assert markdown(FileKind.HOOKS, f'[{{"event": "{event[:2]}|{event[2:]}"}}]').startswith(heading)
    generated = event_markdown(event)  # without the schema's description: the facts alone
    assert generated.startswith(heading)
    assert ("**Can `rewrite`**" in generated) == (event == hooks.REWRITE_EVENT)
    assert ("Tool event: `match` applies." in generated) == (event in hooks.TOOL_EVENTS)
    assert ("`on_failure` may be `pass` or `deny`." in generated) == (event in hooks.CONTROL_EVENTS)


def test_enum_value_shows_its_description() -> None:
    text = markdown(FileKind.SETTINGS, '{"mcpServers": {"a": {"type": "ht|tp"}}}')
    assert '**`"http"`** — `type`' in text and "Remote" in text


def test_skill_name_shows_every_copy_in_precedence_order(workspace: tuple[Path, Discovered]) -> None:
    ws, discovered = workspace
    current = ws / ".agents/skills/review/SKILL.md"
    found = at(FileKind.SKILL, "---\nname: rev|iew\ndescription: Shared copy.\n---\n", discovered, path=current)
    assert found is not None and found.range == Range.of(1, 6, 1, 12)
    rows = [line for line in found.markdown.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert len(rows) == 3
    assert rows[0].startswith("1. **wins**") and ".clarvis/skills/review/SKILL.md" in rows[0]
    assert "(workspace, clarvis" in rows[0]
    assert rows[1].startswith("2. shadowed") and ".agents/skills/review/SKILL.md" in rows[1]
    assert "(workspace, agents" in rows[1] and "this file" in rows[1]
    assert rows[2].startswith("3. skipped: within-root duplicate") and "review-old/SKILL.md" in rows[2]
    assert (ws / ".clarvis/skills/review/SKILL.md").as_uri() in rows[0]


def test_skill_name_that_nothing_loads(workspace: tuple[Path, Discovered]) -> None:
    _, discovered = workspace
    text = markdown(FileKind.SKILL, "---\nname: nowh|ere\n---\n", discovered)
    assert "No skill root holds" in text


def test_enabled_plugins_entry_shows_path_and_precedence(workspace: tuple[Path, Discovered]) -> None:
    ws, discovered = workspace
    path = ws / ".clarvis/settings.json"
    text = markdown(FileKind.SETTINGS, '{"enabledPlugins": ["li|nt", "quality"]}', discovered, path=path)
    assert ".clarvis/plugins/lint/plugin.json" in text
    assert "**1 of 2**" in text and "Overridden by `quality`" in text
    later = markdown(FileKind.SETTINGS, '{"enabledPlugins": ["lint", "qual|ity"]}', discovered, path=path)
    assert "**2 of 2**" in later and "Overrides `lint`" in later
    missing = markdown(FileKind.SETTINGS, '{"enabledPlugins": ["lint", "gh|ost"]}', discovered, path=path)
    assert "not installed" in missing and "Precedence" not in missing and "Overrides" not in missing
    # A plugin that is not installed takes no place in the order: it overrides nothing.
    before_ghost = markdown(FileKind.SETTINGS, '{"enabledPlugins": ["li|nt", "ghost"]}', discovered, path=path)
    assert "**1 of 1**" in before_ghost and "Overridden" not in before_ghost


def test_agent_and_bootstrap_skill_values(workspace: tuple[Path, Discovered]) -> None:
    ws, discovered = workspace
    agent = markdown(FileKind.SKILL, "---\nname: x\nagent: quality:cri|tic\n---\n", discovered)
    assert ".clarvis/plugins/quality/agents/critic.md" in agent
    manifest = ws / ".clarvis/plugins/quality/plugin.json"
    skill = markdown(FileKind.PLUGIN, '{"name": "quality", "bootstrapSkill": "check|list"}', discovered, path=manifest)
    assert ".clarvis/plugins/quality/skills/checklist/SKILL.md" in skill


def test_value_hover_without_a_special_meaning_documents_its_key() -> None:
    text = markdown(FileKind.SETTINGS, '{"model": "m|y-model"}')
    assert text.startswith("**`model`**")


@pytest.mark.parametrize("marked", ["|", "{|", '{"a": [|', "---\n|", "---\nname: |", "\x00|\x00"])
def test_never_raises(marked: str) -> None:
    for kind in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS, FileKind.MARKETPLACE, FileKind.SKILL):
        at(kind, marked)


# ------------------------------------------------------------------------------------- what waits for discovery


def test_a_skill_hover_that_does_not_read_discovery_is_the_same_without_it(workspace: tuple[Path, Discovered]) -> None:
    """A hover sent while the first scan runs waits for it only where ``reads_discovery`` says the answer may
    read it. At every position of a SKILL.md (keys, the values of every kind, the body, past a line's end), where
    it says no, the hover without discovery is the one with it; where it says yes, discovery does change it."""
    from clarvis_lsp.editor.hover import reads_discovery
    from clarvis_lsp.findings import Position

    ws, discovered = workspace
    path = ws / ".clarvis/skills/review/SKILL.md"
    text = (
        "---\nname: review\ndescription: Workspace copy.\nagent: critic\nallowed-tools: [Read]\n"
        "metadata:\n  author: me\nuser-invocable: false\nunknown-field: 1\n---\n# Body\nname: not a key\n"
    )
    lines = LineIndex(text)
    waited, changed = set(), set()
    for line, content in enumerate(text.split("\n")):
        for column in range(len(content) + 2):
            position = Position(line, column)
            alone = hover(text, FileKind.SKILL, position, None, path=path, lines=lines)
            known = hover(text, FileKind.SKILL, position, discovered, path=path, lines=lines)
            if reads_discovery(FileKind.SKILL, lines, position):
                waited.add(content.partition(":")[0])
            else:
                assert alone == known, (position, content)
            if alone != known:
                changed.add(content.partition(":")[0])
    assert waited == changed == {"name", "agent"}


def test_every_json_hover_may_read_discovery() -> None:
    """A JSON file's references and the effective state of a hook or server under the cursor come from discovery,
    wherever the cursor is; a file the server does not check waits for nothing."""
    from clarvis_lsp.editor.hover import reads_discovery
    from clarvis_lsp.findings import Position

    lines = LineIndex('{"enabledPlugins": ["lint"]}')
    for kind in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.MARKETPLACE):
        assert reads_discovery(kind, lines, Position(0, 3))
    assert not reads_discovery(None, lines, Position(0, 3))
