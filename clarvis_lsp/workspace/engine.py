"""One workspace's state and the checks over it: the engine both ``--check`` and the language server drive.

A ``WorkspaceEngine`` resolves the workspace's roots (plugin skills below the preset's or the configured
roots), discovers skills, plugins and agents once, and then checks files: the file's own rules plus the
cross-file findings that concern it. Open editor buffers are an ``overlay`` that replaces disk content for
discovery and checking alike.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.discovery import (
    AgentInfo,
    AgentSkillsOptions,
    DiscoveryWarning,
    PluginInfo,
    SkillRegistry,
    SkillRootInput,
    discover_agents,
    discover_skills,
    effective_enabled_plugins,
    plugin_skill_roots,
    resolve_config,
    scan_plugins,
    workspace_roots,
)
from clarvis_lsp.discovery.fs import (
    OVER_THE_LIMIT,
    SYMLINK_REFUSED,
)
from clarvis_lsp.discovery.io import OS_READER, SEQUENTIAL, DirectoryReader, ScanStrategy
from clarvis_lsp.discovery.scan import ScanProgress
from clarvis_lsp.discovery.skills import SkillInfo
from clarvis_lsp.discovery.walk import Excludes
from clarvis_lsp.documents.skill import SkillDocument, parse_skill
from clarvis_lsp.findings import Diagnostic, Position, Range
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.knowledge.layout import MARKETPLACE_FILE, PLUGIN_MANIFEST, SKILLS_DIR, settings_file
from clarvis_lsp.rules import runner
from clarvis_lsp.rules.base import Findings, RuleStep, run_isolated
from clarvis_lsp.rules.discovery import (
    SYMLINK_IGNORED,
    UNREADABLE,
    check_discovery,
    manifest_findings,
    names_at,
    paths_of_name,
)
from clarvis_lsp.rules.runner import collect_isolated, enabled_steps, run_rules
from clarvis_lsp.rules.selection import RuleSelection
from clarvis_lsp.rules.skill import SkillContext
from clarvis_lsp.workspace.cross import CrossFindings
from clarvis_lsp.workspace.discovered import Discovered, DiscoveryContext
from clarvis_lsp.workspace.files import WorkspaceFiles
from clarvis_lsp.workspace.view import FileAnswers, WorkspaceView

if TYPE_CHECKING:
    from clarvis_lsp.rules.context import JsonFileContext

MAX_FILE_BYTES = 10 * 1024 * 1024 + 1024  # the default limit (maxFileSizeMB = 10); a 10 MB file is still checked


@dataclass(eq=False)
class WorkspaceEngine(WorkspaceFiles):
    """Discovery and checks for one workspace directory. Compared and hashed by identity: an engine is one live
    workspace, and the server keys per-engine state (its first scan) by the engine itself."""

    directory: Path
    config: ProjectConfig
    home: Path
    overlay: Mapping[Path, str] = field(default_factory=dict)
    """Open editor buffers by path, read-only here: the server owns them and hands in a live read-only view."""
    explicit_roots: tuple[SkillRootInput, ...] | None = None  # --root: replaces the preset and the config
    ceiling: Path | None = None  # how far up xcsh looks for each source's project root (the folder, the --check path)
    outer_excludes: Excludes | None = None  # the checked tree's exclude patterns, for a nested workspace
    trusted: bool = False
    """Whether the workspace is approved with ``/workspace-trust`` (``--trusted``, ``clarvis.trustWorkspace``):
    untrusted, the plugins the workspace alone enables contribute no skills, so they neither win nor shadow."""
    rules: RuleSelection = field(default_factory=RuleSelection)
    """Which codes run and at what severity: ``--select``/``--ignore`` as given, under ``config``'s ``[rules]``
    (joined in on construction, so an engine built with another configuration brings its own)."""
    unreadable: dict[Path, str] = field(default_factory=dict)  # files that could not be read, and why
    reader: DirectoryReader = field(default=OS_READER, repr=False)
    """How directories are listed and files found (``discovery.io``): the operating system, or a headless run's
    shared listings."""
    _discovered: Discovered | None = None
    _cross: CrossFindings | None = None
    _marketplace_plugins: frozenset[Path] | None = field(default=None, repr=False)
    _manifest_hooks: dict[Path, Path | None] = field(default_factory=dict, repr=False)
    _plugins_read: list[PluginInfo] | None = field(default=None, repr=False)  # see ``_installed_plugins``
    """The hooks document each manifest read so far names (``manifest_hooks``), until a plugin.json changes."""
    _skill_steps: tuple[RuleStep[SkillDocument, SkillContext], ...] | None = field(
        default=None, repr=False, compare=False
    )  # the SKILL.md rule steps with an enabled code (asked once)

    def __post_init__(self) -> None:
        self.rules = self.rules.configured(self.config)

    # -- discovery ---------------------------------------------------------------------------------------------

    @property
    def is_discovered(self) -> bool:
        """Whether discovery has run (and not been invalidated since)."""
        return self._discovered is not None

    @property
    def discovered(self) -> Discovered:
        if self._discovered is None:
            self._discovered = self.discover()
        return self._discovered

    def standalone_roots(self) -> list[SkillRootInput]:
        if self.explicit_roots is not None:
            return list(self.explicit_roots)
        if self.config.roots is not None:
            return [SkillRootInput(spec.path, spec.scope, spec.source) for spec in self.config.roots]
        return workspace_roots(
            self.directory,
            self.home,
            preset=self.config.preset,
            include_user=self.config.include_user,
            ceiling=self.ceiling,
        )

    def discovery_context(self) -> DiscoveryContext:
        """Read what discovery needs before the skill roots: the plugins, which are enabled, the agents, and the
        roots (plugin skills below the standalone ones). Raises ``StartupError`` for an invalid configuration."""
        follow = self.config.follow_symlinks
        include_user = self.config.include_user
        plugin_scan = scan_plugins(
            self.directory, self.home, include_user=include_user, follow_symlinks=follow, overlay=self.overlay
        )
        enabled = effective_enabled_plugins(
            self.directory, self.home, include_user, self.overlay, follow_symlinks=follow
        )
        in_force = (
            enabled
            if self.trusted
            else effective_enabled_plugins(
                self.directory, self.home, include_user, self.overlay, follow_symlinks=follow, trusted=False
            )
        )
        roots = [*plugin_skill_roots(plugin_scan.plugins, in_force), *self.standalone_roots()]
        skill_config = resolve_config(
            AgentSkillsOptions(
                roots=roots,
                cwd=str(self.directory),
                home=str(self.home),
                # Discovery never raises here: strict mode turns the findings into errors instead, so a CI run
                # reports every problem rather than stopping at the first.
                strict=False,
                follow_symlinks=follow,
            )
        )
        context_warnings = list(plugin_scan.warnings)
        agents = discover_agents(
            self.directory,
            self.home,
            plugin_scan.plugins,
            enabled,
            include_user=include_user,
            follow_symlinks=follow,
            overlay=self.overlay,
            warnings=context_warnings,
        )
        return DiscoveryContext(
            skill_config, plugin_scan.plugins, plugin_scan.hidden, enabled, agents, tuple(context_warnings), in_force
        )

    def discover(
        self,
        progress: ScanProgress | None = None,
        *,
        reuse: SkillRegistry | None = None,
        strategy: ScanStrategy = SEQUENTIAL,
    ) -> Discovered:
        """Resolve roots and scan them, each root's directories mapped by ``strategy``. Raises ``StartupError`` for
        an invalid configuration.

        ``reuse``: a registry from before a settings, plugin or agent edit. Its root scans are kept for every root
        that is still configured, so such an edit reads the plugins, settings and agents again (a handful of
        small files) but no skill root that did not change."""
        context = self.discovery_context()
        if reuse is not None:
            return context.discovered(reuse.with_roots(context.skill_config, self.overlay))
        registry = discover_skills(
            context.skill_config, overlay=self.overlay, progress=progress, reader=self.reader, strategy=strategy
        )
        return context.discovered(registry)

    def set_discovered(self, discovered: Discovered) -> None:
        """Take a discovery a caller made from ``discovery_context`` with its own way of scanning the skill roots
        (a headless run spreads a large root over processes)."""
        self._discovered = discovered
        self._cross = None

    def detached(self) -> WorkspaceEngine:
        """A copy with its own snapshot of the open buffers and no discovery yet. A worker thread may ``warm`` it
        while this engine keeps serving; ``adopt`` then takes the result (both on the engine's own thread)."""
        return replace(
            self,
            overlay=dict(self.overlay),
            unreadable={},
            _discovered=None,
            _cross=None,
            _manifest_hooks={},
            _plugins_read=None,
        )

    def warm(self, progress: ScanProgress | None = None, *, strategy: ScanStrategy = SEQUENTIAL) -> None:
        """Discover and compute the cross-file findings now (the first scan, run off the editor's event loop; the
        server shares a large root with a helper process through ``strategy``)."""
        self._discovered = self.discover(progress, strategy=strategy)
        self.cross_by_path()

    def adopt(self, other: WorkspaceEngine) -> None:
        """Take the discovery and cross-file findings a ``detached`` copy computed."""
        self._discovered, self._cross = other._discovered, other._cross

    def invalidate(self) -> None:
        self._discovered = None
        self._cross = None
        self._marketplace_plugins = None
        self._manifest_hooks.clear()
        self._plugins_read = None

    # -- files (``WorkspaceFiles``: how they are found, recognised and read) -------------------------------------

    def view(self) -> WorkspaceView:
        """This workspace as it is now, read-only (``workspace.view``): this moment's discovery (None before the
        first scan: a view never starts one), a copy of the open buffers and what the engine knows of its files
        so far. The view holds no reference to the engine, and nothing the engine does later changes it: ``update``
        builds a new ``Discovered`` rather than change the one a view holds."""
        overlay = {path: text for path in self.overlay if (text := self.overlay.get(path)) is not None}
        return WorkspaceView(
            directory=self.directory,
            home=self.home,
            config=self.config,
            rules=self.rules,
            trusted=self.trusted,
            discovered=self._discovered,
            overlay=MappingProxyType(overlay),
            reader=self.reader,
            outer_excludes=self.outer_excludes,
            answers=FileAnswers(
                dict(self._manifest_hooks),
                self._marketplace_plugins,
                None if self._plugins_read is None else list(self._plugins_read),
            ),
        )

    def _installed_plugins(self) -> list[PluginInfo]:
        """The installed plugins, hidden ones included: discovery's, or, while discovery runs (a SKILL.md checked
        where it is read, ``batch.ahead``), a scan of the plugin directories made once for that purpose."""
        if self._discovered is not None:
            return [*self._discovered.plugins.values(), *self._discovered.hidden_plugins]
        if self._plugins_read is None:
            self._plugins_read = self._scan_installed_plugins()
        return self._plugins_read

    def manifest_hooks(self, manifest: Path) -> Path | None:
        """The hooks document a ``plugin.json`` names (``_read_manifest_hooks``): read once per manifest, again
        after a plugin.json changes (open buffers count)."""
        if manifest not in self._manifest_hooks:
            self._manifest_hooks[manifest] = self._read_manifest_hooks(manifest)
        return self._manifest_hooks[manifest]

    def marketplace_plugin_dirs(self) -> frozenset[Path]:
        """The workspace's directories a marketplace entry makes plugins (``_find_marketplace_plugin_dirs``): read
        once per engine and again after a marketplace changes."""
        if self._marketplace_plugins is None:
            self._marketplace_plugins = frozenset()  # while the walk below asks kind_of about its plugin.json files
            self._marketplace_plugins = self._find_marketplace_plugin_dirs()
        return self._marketplace_plugins

    def _record_read(self, path: Path, why: str | None) -> None:
        if why is None:
            self.unreadable.pop(path, None)
        else:
            self.unreadable[path] = why

    # -- checks ------------------------------------------------------------------------------------------------

    def skill_document(self, path: Path) -> tuple[SkillDocument, Findings] | None:
        """The parsed SKILL.md: from discovery when it read the file already, else parsed now."""
        info = self.discovered.registry.by_path(path)
        if info is not None and path not in self.overlay:
            findings = Findings(path)
            if "\ufffd" in info.document.text:  # re-read the bytes only when decoding replaced something
                read = self.read(path)
                if read is not None:
                    findings = read[1]
            return info.document, findings
        read = self.read(path)
        if read is None:
            return None
        text, findings = read
        if info is not None and _holds_text(info, text):  # the buffer discovery just read: one parse for both
            return info.document, findings
        return parse_skill(path, text), findings

    def check_file(self, path: Path) -> list[Diagnostic]:
        """The file's own findings (not the cross-file ones: see ``cross_file``), or ``discovery/unreadable``
        when the file cannot be read."""
        found = self._check_file(path)
        why = self.unreadable.get(path)
        if not found and why is not None and SYMLINK_REFUSED in why:
            # Discovery may have reported this link already (a SKILL.md in a root, a plugin's manifest).
            if not any(item.code == SYMLINK_IGNORED.code for item in self.cross_by_path().get(path, [])):
                link = why.removesuffix(f" {SYMLINK_REFUSED}")
                found = manifest_findings([DiscoveryWarning("symlink-ignored", path, f"{link} is a symlink")])
        elif (
            not found
            and why is not None
            and not any(item.code == UNREADABLE.code for item in self.cross_by_path().get(path, []))
        ):  # discovery reports an unreadable SKILL.md of a root itself
            start = Position(0, 0)
            found = [
                Diagnostic(
                    path,
                    Range(start, start),
                    UNREADABLE.severity,
                    UNREADABLE.code,
                    f"{why}." if why.endswith(OVER_THE_LIMIT) else f"{why}: fix it so Clarvis can read it.",
                )
            ]
        return found

    def _check_file(self, path: Path) -> list[Diagnostic]:
        kind = self.kind_of(path)
        if kind is FileKind.SKILL:
            parsed = self.skill_document(path)
            if parsed is None:
                return []
            document, findings = parsed
            self._skill_rules(document, findings, self.discovered.agents)
            return findings.items
        if kind is FileKind.AGENT:
            read = self.read(path)
            if read is None:
                return []
            text, findings = read
            from clarvis_lsp.rules.agent import AgentContext, AgentFile

            agent_file, where = AgentFile(path, text), AgentContext(self.directory, self.discovered.agents)
            run_rules(runner.agent_rules(), agent_file, where, findings, self.rules.enabled)
            return findings.items
        steps = runner.json_rules().get(kind) if kind in runner.JSON_KINDS else None
        if steps:
            from clarvis_lsp.documents.jsondoc import parse_json

            read = self.read(path)
            if read is None:
                return []
            text, findings = read
            run_rules(steps, parse_json(text), self.json_context(path), findings, self.rules.enabled)
            return findings.items
        return []

    def _skill_rules(self, document: SkillDocument, findings: Findings, agents: Mapping[str, AgentInfo]) -> None:
        context = SkillContext(agents, self.reader.lexists, self.plugin_owner, str(self.directory))
        steps = self._enabled_skill_steps()
        run_rules(steps, document, context, findings, None, frontmatter_ok=document.frontmatter_ok)

    def _enabled_skill_steps(self) -> tuple[RuleStep[SkillDocument, SkillContext], ...]:
        """The SKILL.md rule steps with an enabled code, chosen on first use (the options never change)."""
        if self._skill_steps is None:
            self._skill_steps = enabled_steps(runner.SKILL_RULES, self.rules.enabled)
        return self._skill_steps

    def skill_findings(self, skill: SkillInfo, agents: Mapping[str, AgentInfo]) -> list[Diagnostic]:
        """A loaded SKILL.md's own findings (``check_file``'s) from the copy discovery read, with ``agents`` the
        discovered ones: a headless run computes them where discovery parsed the file (``batch.ahead``)."""
        document = skill.document
        findings = Findings(skill.path)
        if "\ufffd" in document.text:  # decoding replaced something: the bytes give the encoding findings
            read = self.read(skill.path)
            if read is not None:
                findings = read[1]
        self._skill_rules(document, findings, agents)
        return findings.items

    def check_file_alone(self, path: Path) -> list[Diagnostic]:
        """The findings a file shows without discovery: a SKILL.md's rules (but the agent it names, which needs
        the discovered agents) and any JSON file's syntax. Never starts discovery."""
        kind = self.kind_of(path)
        if kind is None:
            return []
        read = self.read(path)
        if read is None:
            return []
        text, findings = read
        if kind is FileKind.SKILL:
            document = parse_skill(path, text)
            steps, context = self._enabled_skill_steps(), SkillContext(agents=None, workspace=str(self.directory))
            run_rules(steps, document, context, findings, None, frontmatter_ok=document.frontmatter_ok)
        elif kind in runner.JSON_KINDS and any(self.rules.enabled(code) for code in runner.json_syntax().codes):
            from clarvis_lsp.documents.jsondoc import parse_json
            from clarvis_lsp.rules.json import check_json_syntax

            json_document = parse_json(text)
            run_isolated("json", lambda own: check_json_syntax(json_document, own), findings)
        return findings.items

    def json_context(self, path: Path) -> JsonFileContext:
        from clarvis_lsp.rules.context import JsonFileContext

        found = self.discovered
        return JsonFileContext(
            path=path,
            workspace_dir=self.directory,
            home=self.home,
            plugins=found.plugins,
            hidden_plugins=found.hidden_plugins,
            enabled_plugins=found.enabled_plugins,
            registry=found.registry,
            agents=found.agents,
            extra_settings_fields=tuple(self.config.settings.extra_fields),
            read_text=self.read_text,
            overlay=self.overlay,
            plugin_owner=self.plugin_owner(path),
        )

    def cross_file(self) -> list[Diagnostic]:
        """Findings that depend on more than one file, on whichever file they concern."""
        return [diagnostic for items in self.cross_by_path().values() for diagnostic in items]

    def cross_by_path(self) -> dict[Path, list[Diagnostic]]:
        """The cross-file findings by file, computed once and then kept up to date by ``update``."""
        if self._cross is None:
            registry = self.discovered.registry
            found = collect_isolated(
                "discovery", self.directory, lambda: check_discovery(registry, strict=self.config.strict)
            )
            self._cross = CrossFindings.of(found, self._context_findings())
        return self._cross.files

    def _context_findings(self) -> list[Diagnostic]:
        """The cross-file findings the settings, plugins and agents decide (``CrossFindings.context``)."""
        return [
            *manifest_findings(self.discovered.context_warnings),
            *self._run_limit_findings(),
            *self._collision_findings(),
        ]

    def update(self, changed: Iterable[Path]) -> set[Path]:
        """Bring discovery up to date after ``changed`` changed (on disk or in the overlay).

        Returns the files whose cross-file findings may have changed, and the ``plugin.json`` of a plugin whose
        skill changed (its ``bootstrapSkill`` must name one of them). A SKILL.md edit re-reads only that skill
        directory and recomputes the discovery findings of the names it declared before and after, so a
        keystroke costs what the edited file costs. Anything else discovery depends on (settings, plugins,
        agents, configuration) starts discovery over.
        """
        paths = set(changed)
        return self._update(paths) | _plugin_manifests_of(paths)

    def _update(self, paths: set[Path]) -> set[Path]:
        if any(path.name == MARKETPLACE_FILE for path in paths):
            self._marketplace_plugins = None  # its entries may point to other plugin directories now
        if any(path.name == PLUGIN_MANIFEST for path in paths):
            self._manifest_hooks.clear()  # its "hooks" may name another file now
        if self._discovered is None:
            return paths
        roots = [root.path for root in self._discovered.registry.config.roots]
        if any(not _inside_a_root(path, roots) or path.suffix == ".json" for path in paths):
            return self._update_context(paths)
        registry = self._discovered.registry
        # A skill directory's event (created, deleted) concerns the SKILL.md inside it.
        manifests = paths | {path / "SKILL.md" for path in paths if path.name != "SKILL.md"}
        names = {name for path in manifests for name in names_at(registry, path)}
        refreshed = registry.refresh(paths, self.overlay)
        if refreshed is registry:
            return paths
        names |= {name for path in manifests for name in names_at(refreshed, path)}
        affected = {path for name in names for path in paths_of_name(registry, name)}
        affected |= {path for name in names for path in paths_of_name(refreshed, name)}
        # A new ``Discovered``, not this one changed: a view taken before the edit keeps answering from its own.
        self._discovered = replace(self._discovered, registry=refreshed)
        self.cross_by_path()
        assert self._cross is not None
        rechecked = collect_isolated(
            "discovery", self.directory, lambda: check_discovery(refreshed, strict=self.config.strict, names=names)
        )
        self._cross.replace_discovery(affected | paths, rechecked)
        return affected | paths

    def _update_context(self, paths: set[Path]) -> set[Path]:
        """After an edit to settings, a plugin manifest, a hooks document, a marketplace or an agent: read the
        plugins, the enabled plugins and the agents again, keep every skill root's scan that is still configured,
        and recompute the cross-file findings (the discovery findings only when the roots changed). Returns the
        edited files and those whose cross-file findings changed."""
        before = self._discovered
        assert before is not None
        old_cross = self.cross_by_path()  # computed now, over the discovery before the edit
        skill_dirs = {path for path in paths if path.suffix != ".json" and path.name != "plugin.json"}
        registry = before.registry.refresh(skill_dirs, self.overlay) if skill_dirs else before.registry
        self._discovered = self.discover(reuse=registry)
        assert self._cross is not None
        if self._discovered.registry is before.registry:
            # The same skills: only the context's findings can change, on the few files they were or are on.
            return paths | self._cross.replace_context(self._context_findings())
        self._cross = None  # the roots changed: every file's discovery findings may have (``old_cross`` stays)
        new_cross = self.cross_by_path()
        changed = {path for path in old_cross.keys() | new_cross.keys() if old_cross.get(path) != new_cross.get(path)}
        return paths | changed

    def _run_limit_findings(self) -> list[Diagnostic]:
        """``hooks/run-limit`` over the hooks of every source a run takes them from (``hook_sources``): the
        settings files and the enabled plugins. With neither, there is nothing to count, and its module (with the
        JSON document model it reads them with) is not imported: a tree of SKILL.md files alone never needs it."""
        settings = settings_file(self.directory)
        candidates = [settings, settings_file(self.home)] if self.config.include_user else [settings]
        if not self.discovered.enabled_plugins and not any(
            path in self.overlay or os.path.lexists(path) for path in candidates
        ):
            return []
        from clarvis_lsp.rules.hook_run_limit import check_run_limit

        return collect_isolated(
            "hooks/run-limit",
            settings,
            lambda: check_run_limit(
                self.json_context(settings), include_user=self.config.include_user, read_text=self.read_text
            ),
        )

    def _collision_findings(self) -> list[Diagnostic]:
        """``mcp/name-collision`` and ``agent/name-collision`` over the servers and agents in effect once the
        workspace is trusted. With no settings file, no enabled plugin and at most one agent nothing can collide,
        and the module is not imported: a tree of SKILL.md files alone never needs it."""
        codes = ("mcp/name-collision", "agent/name-collision")
        if not any(self.rules.enabled(code) for code in codes):
            return []
        settings = settings_file(self.directory)
        candidates = [settings, settings_file(self.home)] if self.config.include_user else [settings]
        found = self.discovered
        if (
            len(found.agents) < 2
            and not found.enabled_plugins
            and not any(path in self.overlay or os.path.lexists(path) for path in candidates)
        ):
            return []
        from clarvis_lsp.rules.name_collision import check_name_collisions

        return collect_isolated(
            "name-collision",
            settings,
            lambda: check_name_collisions(
                self.json_context(settings),
                include_user=self.config.include_user,
                read_text=self.read_text,
                trusted=self.trusted,
            ),
        )


def _holds_text(info: SkillInfo, text: str) -> bool:
    """Whether discovery's copy was read from this very text object (the open buffer, read once)."""
    parsed = info.parsed
    held = parsed.text if isinstance(parsed, SkillDocument) else parsed.content
    return held is text


def _plugin_manifests_of(paths: set[Path]) -> set[Path]:
    """The ``plugin.json`` beside the ``skills/`` directory of each changed ``SKILL.md`` that may be a plugin's
    (``<plugin>/skills/<dir>/SKILL.md``): whether it exists is the caller's to see."""
    return {
        path.parents[2] / PLUGIN_MANIFEST
        for path in paths
        if path.name == "SKILL.md" and len(path.parents) > 2 and path.parents[1].name == SKILLS_DIR
    }


def _inside_a_root(path: Path, roots: list[str]) -> bool:
    """A path strictly inside a skill root: a skill directory, its SKILL.md or a resource."""
    text = str(path)
    return any(text.startswith(root.rstrip(os.sep) + os.sep) for root in roots)
