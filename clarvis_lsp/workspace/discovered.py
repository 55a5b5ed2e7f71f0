"""What discovery found for one workspace, and what it reads before the skill roots.

Kept apart from the engine that fills them: the editor features read a ``Discovered`` and never need the engine's
checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clarvis_lsp.discovery import AgentInfo, DiscoveryWarning, PluginInfo, SkillConfig, SkillRegistry


@dataclass(frozen=True)
class DiscoveryContext:
    """What discovery reads before the skill roots: the plugins and which are enabled (they add roots), the agents,
    and the resolved skill configuration to scan."""

    skill_config: SkillConfig
    plugins: dict[str, PluginInfo]
    hidden_plugins: tuple[PluginInfo, ...]
    enabled_plugins: list[str]
    agents: dict[str, AgentInfo]
    # What the plugin and agent scans reported (a symlinked or unreadable plugin directory or manifest, a
    # symlinked agents directory).
    context_warnings: tuple[DiscoveryWarning, ...] = ()
    plugins_in_force: list[str] | None = None  # see ``Discovered.plugins_in_force``; None: ``enabled_plugins``

    def discovered(self, registry: SkillRegistry) -> Discovered:
        """The whole of discovery, once the skill roots of ``skill_config`` are scanned into ``registry``."""
        return Discovered(
            self.skill_config,
            registry,
            self.plugins,
            self.hidden_plugins,
            self.enabled_plugins,
            self.agents,
            self.context_warnings,
            self.enabled_plugins if self.plugins_in_force is None else self.plugins_in_force,
        )


@dataclass(frozen=True)
class Discovered:
    """What discovery found for one workspace. Frozen: an edit makes a new one (``dataclasses.replace``), so whoever
    holds this one (a ``WorkspaceView``) keeps reading the same state."""

    skill_config: SkillConfig
    registry: SkillRegistry
    plugins: dict[str, PluginInfo]
    hidden_plugins: tuple[PluginInfo, ...]
    enabled_plugins: list[str]
    """The ``enabledPlugins`` once the workspace is trusted: what the rules check (what will run once approved)."""
    agents: dict[str, AgentInfo]
    context_warnings: tuple[DiscoveryWarning, ...] = ()  # see ``DiscoveryContext``
    plugins_in_force: list[str] = field(default_factory=list)
    """The ``enabledPlugins`` in force in the engine's trust state: the plugins whose skills are discovery's plugin
    roots, so every view of which copy wins (``--list``, the shadowing findings, lenses, the Effective skills view)
    answers from one state. Untrusted, a plugin enabled only by the workspace is not among them."""

    @property
    def held_back_plugins(self) -> list[str]:
        """The plugins only the workspace enables, which contribute nothing until it is trusted (a plugin Clarvis
        does not load at all is not among them: that is the stronger reason)."""
        in_force = set(self.plugins_in_force)
        return [
            name
            for name in self.enabled_plugins
            if name not in in_force and name in self.plugins and self.plugins[name].not_loaded is None
        ]
