"""``Workspace.apply`` answers the files whose findings changed, and re-checks only the files a change concerns.

Each test drives a ``Workspace`` over a real ``WorkspaceEngine`` and real files, with a dict as the editor's open
buffers (the overlay), as the language server drives it; ``check_file`` is recorded to see which files an edit
re-checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.findings import Diagnostic, Range, Severity
from clarvis_lsp.workspace.cross import CrossFindings
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.live import (
    ALONE,
    CONTEXT,
    CROSS_FILE,
    EDITED,
    FIRST_SCAN,
    NOT_CHECKED,
    Delta,
    Workspace,
)

SKILL = "---\nname: {name}\ndescription: Does {name} things.\n---\nBody.\n"


def show(diagnostic: Diagnostic) -> Diagnostic:
    return diagnostic


def nothing_opened() -> set[Path]:
    return set()


def codes(delta: Delta, path: Path) -> list[str]:
    return [item.code for item in delta.findings[path]]


class Live:
    """A workspace as an editor session holds it: ``buffers`` are the open buffers (typing mutates them),
    ``checked`` every file ``engine.check_file`` was asked for, in order."""

    def __init__(self, tmp_path: Path, config: ProjectConfig | None = None) -> None:
        self.ws, self.home = tmp_path / "ws", tmp_path / "home"
        self.ws.mkdir()
        self.home.mkdir()
        self.alpha = self.write(".clarvis/skills/alpha/SKILL.md", SKILL.format(name="alpha"))
        self.beta = self.write(".agents/skills/beta/SKILL.md", SKILL.format(name="beta"))  # another root
        self.other = self.write(".clarvis/skills/other/SKILL.md", SKILL.format(name="other"))  # never concerned
        self.settings = self.write(".clarvis/settings.json", "{}")
        self.buffers: dict[Path, str] = {}
        self.engine = WorkspaceEngine(
            directory=self.ws, config=config or ProjectConfig(), home=self.home, overlay=MappingProxyType(self.buffers)
        )
        self.checked: list[Path] = []
        check_file = self.engine.check_file

        def recorded(path: Path) -> list[Diagnostic]:
            self.checked.append(path)
            return check_file(path)

        self.engine.check_file = recorded  # type: ignore[method-assign]
        self.workspace = Workspace(self.engine)

    def write(self, relative: str, text: str, *, base: Path | None = None) -> Path:
        path = (base or self.ws) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def scanned(self) -> Live:
        """The first scan is done: discovery and the cross-file findings are known."""
        self.engine.cross_by_path()
        return self

    def type(self, path: Path, text: str, newly_checked: Callable[[], set[Path]] = nothing_opened) -> Delta:
        """``path`` is an open buffer holding ``text`` now, checked as the server checks a change."""
        self.workspace.open.add(path)
        self.buffers[path] = text
        self.checked.clear()
        return self.workspace.apply(path, show, newly_checked)

    def saved(self, path: Path, text: str) -> Delta:
        """A closed file changed on disk."""
        path.write_text(text)
        self.checked.clear()
        return self.workspace.apply(path, show, nothing_opened)


@pytest.fixture
def live(tmp_path: Path) -> Live:
    return Live(tmp_path).scanned()


# -- SKILL.md edits ------------------------------------------------------------------------------------------------


def test_an_edited_buffer_is_answered_even_when_its_findings_stay(live: Live) -> None:
    first = live.type(live.alpha, SKILL.format(name="alpha"))
    assert first.findings == {live.alpha: []}
    assert first.reasons == {live.alpha: EDITED}
    again = live.type(live.alpha, SKILL.format(name="alpha") + "More body.\n")  # the same (no) findings
    assert again.findings == {live.alpha: []}, "the new version was checked: the client must learn so"
    assert again.reasons[live.alpha] == EDITED
    assert not again.others_changed and not again.skills_changed
    assert live.checked == [live.alpha]


def test_a_rename_onto_another_roots_skill_answers_the_other_copy(live: Live) -> None:
    renamed = live.type(live.alpha, SKILL.format(name="beta"))
    assert renamed.reasons == {live.alpha: EDITED, live.beta: CROSS_FILE}
    assert codes(renamed, live.beta) == ["discovery/shadowed"]
    assert "discovery/overrides" in codes(renamed, live.alpha)
    assert renamed.others_changed and renamed.skills_changed
    assert live.workspace.published[live.beta] == renamed.findings[live.beta]

    back = live.type(live.alpha, SKILL.format(name="alpha"))
    assert back.findings[live.beta] == [] and back.reasons[live.beta] == CROSS_FILE
    assert back.findings[live.alpha] == [] and back.reasons[live.alpha] == EDITED
    assert back.others_changed and back.skills_changed
    assert live.beta not in live.workspace.published
    assert live.other not in renamed.findings and live.other not in back.findings


def test_an_unchanged_recheck_of_a_closed_file_is_not_answered(live: Live) -> None:
    live.type(live.alpha, SKILL.format(name="beta"))  # beta's copy is shadowed now, and published
    shadowed = live.workspace.published[live.beta]
    body_edit = live.type(live.alpha, SKILL.format(name="beta") + "More body.\n")
    assert live.beta in live.checked, "the other copy of the name is re-checked"
    assert live.beta not in body_edit.findings, "with the same findings it is not sent again"
    assert not body_edit.others_changed and not body_edit.skills_changed
    on_disk = live.saved(live.beta, SKILL.format(name="beta"))  # the same text, saved: a closed file
    assert set(live.checked) == {live.beta, live.alpha}  # the copies of its name
    assert on_disk.findings == {}, "neither the closed file nor the open one, not edited, is sent again"
    assert live.workspace.published[live.beta] == shadowed and not on_disk.others_changed


# -- context edits -------------------------------------------------------------------------------------------------


def test_a_settings_edit_rechecks_only_the_files_it_concerns(live: Live) -> None:
    live.type(live.alpha, SKILL.format(name="beta"))  # alpha open, beta published
    personal = live.write(
        ".clarvis/settings.json", json.dumps({"mcpServers": {"github": {"command": "gh-mcp"}}}), base=live.home
    )
    edit = {"mcpServers": {"GitHub": {"command": "gh-mcp"}}, "notAField": 1}
    delta = live.type(live.settings, json.dumps(edit))
    assert set(live.checked) == {live.settings, live.alpha, live.beta, personal}
    assert live.other not in live.checked, "a skill the context edit does not concern is not checked again"
    assert delta.reasons == {live.settings: EDITED, personal: CROSS_FILE}
    assert {"settings/unknown-field", "mcp/name-collision"} <= set(codes(delta, live.settings))
    assert codes(delta, personal) == ["mcp/name-collision"] * len(delta.findings[personal])
    assert delta.others_changed and delta.skills_changed

    unchanged = live.type(live.settings, json.dumps(edit) + "\n")
    assert live.other not in live.checked
    assert unchanged.findings.keys() == {live.settings}, "the published files did not change"


def test_a_context_edit_answers_an_open_file_whose_own_findings_change(tmp_path: Path) -> None:
    live = Live(tmp_path)
    agent = live.write(".clarvis/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\n")
    live.scanned()
    delta = live.type(live.alpha, SKILL.format(name="alpha").replace("---\nBody", "agent: reviewer\n---\nBody"))
    assert delta.findings == {live.alpha: []}
    agent.unlink()  # a closed agent file deleted on disk
    live.checked.clear()
    gone = live.workspace.apply(agent, show, nothing_opened)
    assert live.alpha in live.checked and live.other not in live.checked
    assert gone.reasons.get(live.alpha) == CONTEXT, gone
    assert gone.findings[live.alpha] and gone.others_changed


def test_a_manifest_naming_an_open_document_makes_it_a_checked_hooks_file(live: Live) -> None:
    manifest = live.write(".clarvis/plugins/quality/plugin.json", json.dumps({"name": "quality"}))
    hooks = live.write(".clarvis/plugins/quality/config/my-hooks.json", "[]")
    editor_documents = {hooks: json.dumps([{"event": "no_such_event", "command": "./x.sh"}])}

    def newly_checked() -> set[Path]:  # as the session finds them: open in the editor, a checked kind now
        found = {path for path in editor_documents if path not in live.buffers and live.engine.kind_of(path)}
        live.buffers.update({path: editor_documents[path] for path in found})
        return found

    assert live.engine.kind_of(hooks) is None
    delta = live.type(manifest, json.dumps({"name": "quality", "hooks": "./config/my-hooks.json"}), newly_checked)
    assert hooks in live.workspace.open and hooks in live.checked
    assert codes(delta, hooks) == ["hooks/unknown-event"]
    assert delta.reasons[manifest] == EDITED and delta.reasons[hooks] == CONTEXT

    dropped = live.type(manifest, json.dumps({"name": "quality"}), newly_checked)
    assert dropped.findings[hooks] == [] and dropped.reasons[hooks] == NOT_CHECKED
    assert hooks not in live.workspace.published and hooks not in live.checked
    assert dropped.others_changed, "a pull client holds the hooks findings: it must ask again"


def test_a_configuration_files_findings_survive_a_recheck(live: Live) -> None:
    project = live.write(".clarvis-lsp.toml", "preset = 3\n")
    invalid = [Diagnostic(project, Range.point(0, 0), Severity.ERROR, "config/invalid", "preset: not a string")]
    live.workspace.config_findings[project] = invalid  # as the server records a project file's findings
    live.workspace.record(project, invalid)
    for changed in (project, live.settings):  # every published file is re-checked after the settings change
        delta = live.workspace.apply(changed, show, nothing_opened)
        assert project not in delta.findings
    assert live.workspace.published[project] == invalid


# -- the first scan ----------------------------------------------------------------------------------------------


def test_files_checked_alone_during_the_first_scan_are_checked_in_full_after_it(tmp_path: Path) -> None:
    live = Live(tmp_path)
    scan = live.engine.detached()  # the first scan reads the buffers as they were when it started
    live.workspace.open.add(live.alpha)
    live.buffers[live.alpha] = SKILL.format(name="beta")
    alone = live.workspace.apply_alone(live.alpha, show)
    assert live.workspace.scan_waiting == {live.alpha}
    assert alone.reasons == {live.alpha: ALONE}
    assert codes(alone, live.alpha) == ["skill/name-directory-mismatch"]
    assert not live.engine.is_discovered, "checking alone never starts discovery"

    scan.warm()
    live.engine.adopt(scan)
    ended = live.workspace.scan_ended(show, nothing_opened)
    assert live.workspace.scan_waiting == set()
    assert set(ended.reasons.values()) == {FIRST_SCAN}
    assert "discovery/overrides" in codes(ended, live.alpha), "the edit made during the scan counts"
    assert codes(ended, live.beta) == ["discovery/shadowed"]
    assert ended.others_changed and ended.skills_changed and ended.editor_refresh


def test_an_invalid_configuration_is_reported_not_raised(tmp_path: Path) -> None:
    live = Live(tmp_path, ProjectConfig(roots=[]))
    delta = live.type(live.alpha, SKILL.format(name="Alpha"))
    assert delta.errors and "root" in delta.errors[0]
    assert codes(delta, live.alpha) == ["skill/name-directory-mismatch"], "the buffer's own findings still show"
    assert delta.reasons[live.alpha] == EDITED
    errors: list[str] = []
    found = live.workspace.findings_for([live.alpha], show, errors=errors)
    assert errors == delta.errors and found[live.alpha] == delta.findings[live.alpha]


# -- CrossFindings -------------------------------------------------------------------------------------------------


def finding(path: Path, code: str, message: str = "m") -> Diagnostic:
    return Diagnostic(path, Range.point(0, 0), Severity.WARNING, code, message)


def test_replace_context_answers_the_changed_paths_and_keeps_discoverys() -> None:
    a, b, c, d = (Path(f"/ws/{name}") for name in "abcd")
    shadowed = finding(a, "discovery/shadowed")
    run_limit, collision = finding(a, "hooks/run-limit"), finding(b, "mcp/name-collision", "github")
    cross = CrossFindings.of([shadowed, finding(d, "discovery/overrides")], [run_limit, collision])
    assert cross.files[a] == [shadowed, run_limit]

    renamed, unreadable = finding(b, "mcp/name-collision", "GitHub"), finding(c, "discovery/unreadable")
    assert cross.replace_context([run_limit, renamed, unreadable]) == {b, c}
    assert cross.files[a] == [shadowed, run_limit] and cross.files[b] == [renamed] and cross.files[c] == [unreadable]

    assert cross.replace_context([]) == {a, b, c}
    assert cross.files == {a: [shadowed], d: [finding(d, "discovery/overrides")]}
    assert cross.replace_context([]) == set()


def test_replace_discovery_keeps_the_contexts_findings() -> None:
    a = Path("/ws/a")
    run_limit = finding(a, "hooks/run-limit")
    cross = CrossFindings.of([finding(a, "discovery/shadowed")], [run_limit])
    cross.replace_discovery([a], [])
    assert cross.files[a] == [run_limit]
    cross.replace_discovery([a], [finding(a, "discovery/overrides")])
    assert cross.files[a] == [run_limit, finding(a, "discovery/overrides")]
