"""One workspace as an editor session holds it: the one owner of its state, beside the engine and free of any
protocol.

A ``Workspace`` owns, for one workspace directory: the engine (the configuration, discovery and the cross-file
findings), the state of its first scan (the files checked on their own while it ran, whether it failed), the
findings last published for each of its files, what each pull client last received, the configuration file's
own findings, and what features computed once per engine state (the effective configuration). The language
server asks it to ``apply`` the changes an editor reports and sends out the ``Delta`` it answers: the files whose
findings changed, each with its findings and the reason, and what else the client should ask again for.

Nothing here knows LSP: positions, encodings and messages are the server's; a delta is plain data, so the same
workspace can be driven by a test without a client.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clarvis_lsp.discovery import StartupError
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.knowledge.layout import PLUGIN_MANIFEST
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.findings import file_findings

EDITED = "edited"
"""The edited (or opened, saved, closed) file itself: always in a delta, so the client learns its version was
checked."""
CROSS_FILE = "cross-file findings changed"
"""Another file's edit changed this file's cross-file findings (a shadowed copy, a collision)."""
CONTEXT = "settings, plugins or agents changed"
"""An open or published file re-checked after a change to what every file of the workspace is checked against."""
NOT_CHECKED = "no longer a file the server checks"
"""A file that was checked before and is not now (a manifest stopped naming it as a hooks document)."""
ALONE = "checked on its own while the first scan runs"
FIRST_SCAN = "the first scan ended"


@dataclass
class Delta:
    """What ``Workspace.apply`` changed, for the server to send out.

    ``findings``: each file to publish, with its findings now (an empty list clears them), in path order;
    ``reasons``: why each is there; ``others_changed``: a file other than the edited ones changed findings (a
    pull client must pull again); ``skills_changed``: which copy of a skill wins may have changed (the effective
    skills, the lenses and hints); ``editor_refresh``: lenses and hints may show something else, and
    ``tokens``: a link target may have appeared or gone away; ``errors``: messages to show (an invalid
    configuration)."""

    findings: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    reasons: dict[Path, str] = field(default_factory=dict)
    others_changed: bool = False
    skills_changed: bool = False
    editor_refresh: bool = False
    tokens: bool = False
    errors: list[str] = field(default_factory=list)

    def add(self, path: Path, findings: list[Diagnostic], reason: str) -> None:
        self.findings[path] = findings
        self.reasons.setdefault(path, reason)

    def merge(self, other: Delta) -> None:
        for path, items in other.findings.items():
            self.findings[path] = items
            self.reasons[path] = other.reasons[path]
        self.others_changed |= other.others_changed
        self.skills_changed |= other.skills_changed
        self.editor_refresh |= other.editor_refresh
        self.tokens |= other.tokens
        self.errors += other.errors


@dataclass
class PullState:
    """What a pull client last received: the ``resultId`` of each open document's report (``sent``), and the id
    of each open document's published findings (``ids``: path → (the findings list, the document version, the
    id), recomputed only when a new list is published)."""

    sent: dict[Path, str] = field(default_factory=dict)
    ids: dict[Path, tuple[object, int | None, str]] = field(default_factory=dict)

    def forget(self, path: Path) -> None:
        self.sent.pop(path, None)
        self.ids.pop(path, None)


ShowPaths = Callable[[Diagnostic], Diagnostic]
"""How a finding's message shows the paths it names (relative to the editor's folder, ``~/…``)."""


@dataclass(eq=False)
class Workspace:
    """One workspace's state, in one place (see the module docstring). Compared and hashed by identity."""

    engine: WorkspaceEngine
    open: set[Path] = field(default_factory=set)
    """The open buffers of this workspace (the session decides which workspace a buffer belongs to)."""
    published: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    """Each file's findings as last published (a file with none is not kept)."""
    config_findings: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    """The project configuration files' own ``config/invalid`` findings (an empty list once one loads again)."""
    pull: PullState = field(default_factory=PullState)
    scan_waiting: set[Path] = field(default_factory=set)
    """Files checked on their own while the first scan runs: checked in full when it ends."""
    scan_failed: bool = False
    scan_cancelled: bool = False
    """The user cancelled the first scan: files are checked on their own, and discovery waits until a file of the
    workspace is saved or changes on disk, or the configuration changes (``resume_scan``)."""
    models: dict[object, Any] = field(default_factory=dict)
    """What features compute once per engine state (the effective configuration per trust setting)."""

    @property
    def directory(self) -> Path:
        return self.engine.directory

    def replace_engine(self, engine: WorkspaceEngine) -> None:
        """A new configuration: a new engine, whose first scan starts over; what was published stays until the
        files are checked again."""
        self.engine = engine
        self.scan_waiting = set()
        self.scan_failed = False
        self.scan_cancelled = False
        self.models = {}

    # -- findings ----------------------------------------------------------------------------------------------

    def findings_for(
        self, paths: Iterable[Path], display: ShowPaths, *, alone: bool = False, errors: list[str] | None = None
    ) -> dict[Path, list[Diagnostic]]:
        """Own and cross-file findings for ``paths``, assembled as ``--check`` does (own findings only with
        ``alone``), their messages' paths shown by ``display``. An invalid configuration falls back to ``alone``
        and its message goes to ``errors``."""
        return shown_findings(self.engine, paths, display, alone=alone, errors=errors)

    def record(self, path: Path, findings: list[Diagnostic], *, force: bool = False) -> tuple[bool, bool]:
        """Remember ``findings`` as published for ``path``: (whether to send them, whether they changed). They
        are sent when they changed, or with ``force`` (the edited buffer's new version was checked); an empty list
        for a file that had none is not sent unless forced."""
        previous = self.published.get(path)
        if previous == findings and not force:
            return False, False
        changed = previous != findings and not (previous is None and not findings)
        if findings:
            self.published[path] = findings
        else:
            self.published.pop(path, None)
            if previous is None and not force:
                return False, False
        return True, changed

    def withdraw(self, path: Path) -> bool:
        """Forget ``path``'s published findings (it left the workspace); True when it had some to clear."""
        self.pull.forget(path)
        return self.published.pop(path, None) is not None

    # -- changes -----------------------------------------------------------------------------------------------

    def apply_alone(self, changed: Path, display: ShowPaths) -> Delta:
        """``changed`` changed while the first scan runs: what it shows on its own now, the rest after the scan."""
        delta = Delta()
        self.scan_waiting.add(changed)
        self._add_alone(changed, display, delta, ALONE)
        return delta

    def _add_alone(self, changed: Path, display: ShowPaths, delta: Delta, reason: str) -> None:
        """Add what ``changed`` shows on its own (no discovery) to ``delta``, forced for an open buffer."""
        if self.engine.kind_of(changed) is not None:
            alone = self.findings_for([changed], display, alone=True, errors=delta.errors)[changed]
            if self.record(changed, alone, force=changed in self.open)[0]:
                delta.add(changed, alone, reason)

    def apply(self, changed: Path, display: ShowPaths, newly_checked: Callable[[], set[Path]]) -> Delta:
        """Re-check after ``changed`` changed (on disk or in a buffer), once discovery is known: the file itself,
        and every file whose cross-file findings changed (renaming one copy of a skill changes the shadowing
        findings of the others). A change to anything but a SKILL.md (settings, plugins, agents) is checked
        against by every file, so this workspace's open and published files are re-checked too, and no other.
        ``newly_checked``: made open buffers, the open documents of this workspace that were no file the server
        checks when opened and are one now (a plugin.json may make one its hooks document)."""
        engine = self.engine
        delta = Delta()
        first_scan = not engine.is_discovered
        try:
            name_before = None if first_scan else engine.discovered.registry.declared_name(changed)
            affected = engine.update([changed])
            if first_scan:
                engine.cross_by_path()  # the workspace's cross-file findings (the caller decides the collector)
            name_after = engine.discovered.registry.declared_name(changed)
        except StartupError as error:
            # The edited buffer still gets what it shows on its own, as a pull of it does (``findings_for``).
            delta.errors.append(str(error))
            self._add_alone(changed, display, delta, EDITED)
            return delta
        # Which copy wins can change with a rename, a new or deleted skill, or settings and plugins.
        delta.skills_changed = first_scan or changed.name != "SKILL.md" or name_before != name_after
        context = changed.name != "SKILL.md"
        shown = self.open | self.published.keys()
        visible = {path for path in affected if path in shown}
        if context:
            visible |= shown - self.config_findings.keys()
        visible |= engine.cross_by_path().keys() & affected
        visible.add(changed)
        if changed.name == PLUGIN_MANIFEST:
            found = newly_checked()
            self.open |= found
            visible |= found
        checked = {path for path in visible if engine.kind_of(path) is not None}
        results = self.findings_for(checked, display, errors=delta.errors)
        # A configuration file is no file the engine checks: its findings are its loader's (``config_findings``).
        for path in sorted(visible - results.keys() - self.config_findings.keys()):
            if path in self.published and self.record(path, [])[0]:  # no longer a Clarvis file: cleared
                delta.add(path, [], NOT_CHECKED)
                delta.others_changed |= path != changed  # a pull client must ask again for it too
        for path in sorted(results):
            findings = results[path]
            send, changed_findings = self.record(path, findings, force=path == changed and path in self.open)
            if send:
                reason = EDITED if path == changed else (CROSS_FILE if path in affected else CONTEXT)
                delta.add(path, findings, reason)
            if changed_findings and path != changed:
                delta.others_changed = True  # another file's findings changed: a pull client must ask again
        if first_scan:
            delta.others_changed = True  # the cross-file findings of every file are known now
        # An open copy's "overrides"/"shadowed by" lens may have changed, and with it the hints; a file that
        # appeared or went away on disk may be a link target.
        delta.editor_refresh = delta.skills_changed or any(path != changed and path in self.open for path in affected)
        delta.tokens = changed not in self.open
        return delta

    def scan_ended(self, display: ShowPaths, newly_checked: Callable[[], set[Path]]) -> Delta:
        """The first scan ended: bring it up to the edits made while it ran, then check in full every file that
        was checked on its own meanwhile."""
        waiting, self.scan_waiting = self.scan_waiting, set()
        edited = {path for path in waiting if path in self.open or path in self.published}
        delta = Delta(others_changed=True, skills_changed=True, editor_refresh=True)
        if edited:
            self.engine.update(edited)
        for path in sorted(waiting):
            delta.merge(self.apply(path, display, newly_checked))
        for path in delta.reasons:
            delta.reasons[path] = FIRST_SCAN
        delta.tokens = False
        return delta


def shown_findings(
    engine: WorkspaceEngine,
    paths: Iterable[Path],
    display: ShowPaths,
    *,
    alone: bool = False,
    errors: list[str] | None = None,
) -> dict[Path, list[Diagnostic]]:
    """``paths``' findings as an editor shows them: assembled as ``--check`` does (``file_findings``; own findings
    only with ``alone``), their messages' paths shown by ``display``. An invalid configuration falls back to
    ``alone`` and its message goes to ``errors``."""
    try:
        found = file_findings(engine, paths, alone=alone)
    except StartupError as error:
        if errors is not None:
            errors.append(str(error))
        found = file_findings(engine, paths, alone=True)
    return {path: [display(item) for item in items] for path, items in found.items()}


def within(path: Path, folders: Iterable[Path]) -> bool:
    """Whether ``path`` is one of ``folders`` or inside one."""
    return any(path == folder or folder in path.parents for folder in folders)
