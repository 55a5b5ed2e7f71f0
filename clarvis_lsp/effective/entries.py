"""The model's vocabulary: the states in words, and the frozen entries the model is made of (one dataclass per
kind of thing Clarvis loads: settings fields, plugins, hooks, MCP servers, agents, skills, capability providers),
with the activation checklist's ``Step`` and the ``Inputs`` the model is computed from.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from clarvis_lsp.discovery import AgentInfo, PluginInfo, SkillRegistry
from clarvis_lsp.knowledge import hooks as hook_facts

Origin = Literal["default", "personal", "workspace"]
ReadText = Callable[[Path], "str | None"]

# The states, as the terminal and the editor show them.
RUNS = "runs"
ACTIVE = "active"
HELD_BACK = "held back until trust"
PLUGIN_NOT_ENABLED = "plugin not enabled"
NEEDS_APPROVAL = "needs approval"
BEYOND_SOURCE = f"beyond {hook_facts.MAX_PER_SOURCE} in its source"
BEYOND_RUN = f"beyond {hook_facts.MAX_PER_RUN} in the run"
REPLACED = "replaced by the workspace's"
OVERRIDDEN = "overridden by the workspace's"
SHADOWED = "shadowed"
HIDDEN = "hidden by the workspace plugin"
NAME_MISMATCH = "not loaded: name differs from its directory"
NOT_ENABLED = "installed, not enabled"
NOT_INSTALLED = "not installed"
NOT_LOADED = "not loaded"
INERT = "inert"


@dataclass(frozen=True)
class Place:
    """Where something is declared: a file and a 0-based line and column (code points), as ``findings`` counts."""

    path: Path
    line: int = 0
    column: int = 0


@dataclass(frozen=True)
class Step:
    """One step of the activation checklist: its name, whether it passed, and what was found."""

    name: str
    ok: bool
    detail: str
    path: Path | None = None  # a place the detail refers to, printed after it (relative, or with ~/)


@dataclass(frozen=True)
class SettingField:
    """A top-level settings field: its effective value, where that value comes from, and a workspace value held
    back until trust (``held_back``), if any."""

    name: str
    value: object
    origin: Origin
    place: Place | None
    held_back: Place | None = None
    note: str = ""


@dataclass(frozen=True)
class Contributions:
    """What an installed plugin contributes (names already namespaced where Clarvis namespaces them)."""

    skills: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()
    mcp_servers: tuple[str, ...] = ()
    hooks: int = 0
    capabilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class PluginEntry:
    """An installed plugin (or an ``enabledPlugins`` entry naming none: ``scope`` ``"none"``)."""

    name: str
    scope: str  # "personal", "workspace", or "none" for an enabled name that is not installed
    directory: Path | None
    state: str
    position: int | None  # 1-based among the active plugins, ascending precedence
    contributes: Contributions
    hidden_by: Path | None
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class HookEntry:
    """One hook in run order: where it comes from, what its event may do, and whether it runs."""

    source: str  # "personal settings", "workspace settings", 'plugin "lint"'
    origin: str  # "personal", "workspace", "plugin"
    plugin: str | None
    index: int  # 1-based within its source
    event: str
    event_class: str
    can_block: bool
    can_rewrite: bool
    command: str
    state: str
    position: int | None  # 1-based place in the run's count (the one hooks/run-limit counts)
    place: Place
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class Clash:
    """Another entry this one collides with (``clarvis_lsp.rules.collisions``: ``mcp/name-collision``,
    ``agent/name-collision``)."""

    kind: str  # "same name", "spelling", "namespace", "launch"
    name: str
    origin: str  # "personal", "workspace", "plugin"
    place: Place
    once_trusted: bool = False  # only once the workspace is trusted (the untrusted view's "would collide")


@dataclass(frozen=True)
class McpEntry:
    """An MCP server by its effective name (``<server>`` or ``<plugin>:<server>``)."""

    name: str
    transport: str
    origin: str  # "personal", "workspace", "plugin"
    plugin: str | None
    state: str
    place: Place
    replaces: Place | None  # the personal server this workspace server replaces (or would, once trusted)
    replaced_by: Place | None  # the workspace server that replaces this personal one
    checklist: tuple[Step, ...]
    reaches: str | None = None  # what it starts: the command and args, or the URL (None when they cannot be read)
    collisions: tuple[Clash, ...] = ()


@dataclass(frozen=True)
class AgentEntry:
    """An agent by its effective name (``<agent>`` or ``<plugin>:<agent>``)."""

    name: str
    origin: str  # "personal", "workspace", "plugin"
    plugin: str | None
    path: Path
    state: str
    overrides: Path | None
    checklist: tuple[Step, ...]
    collisions: tuple[Clash, ...] = ()


@dataclass(frozen=True)
class SkillEntry:
    """One copy of a skill: the winner of its name (``state`` active, not loaded, or its plugin's state) or a
    shadowed copy, how many copies the name has, and whether the slash command is visible.

    ``checklist`` is built when asked (``--why``, hover): a workspace has thousands of skills and the listing
    itself does not need it."""

    name: str
    path: Path
    label: str  # scope/source of its root ("workspace/clarvis", "user/plugin:lint")
    scope: str
    source: str
    state: str
    copies: int
    shadowed: tuple[Path, ...]
    user_invocable: bool
    winner: Path | None = None  # for a shadowed copy: the copy that wins
    winner_label: str = ""
    valid: bool = True
    plugin_active: bool | None = None  # a plugin's skill: whether its plugin is active
    held_back: bool = False  # a skill of a plugin only the untrusted workspace enables: it neither wins nor shadows

    @cached_property
    def checklist(self) -> tuple[Step, ...]:
        steps = [Step("discovered", True, f"in {self.label}:", self.path)]
        plugin = self.source.removeprefix("plugin:")
        if self.held_back:
            return (
                *steps,
                Step("enabled", True, f"plugin {plugin} is listed in the workspace's enabledPlugins"),
                Step("workspace trusted", False, "the workspace's enabledPlugins is held back until /workspace-trust"),
            )
        if self.winner is not None:
            return (*steps, Step("not shadowed", False, f"shadowed by the {self.winner_label} copy", self.winner))
        if not self.valid:
            return (*steps, Step("valid", False, "Clarvis rejects the name"))
        steps.append(Step("valid", True, "name and description present"))
        others = self.copies - 1
        steps.append(Step("not shadowed", True, f"wins over {others} other copies" if others else "the only copy"))
        if self.plugin_active is not None:
            is_active = "active" if self.plugin_active else "not active"
            steps.append(Step("enabled", self.plugin_active, f"plugin {plugin} is {is_active}"))
        return tuple(steps)


@dataclass(frozen=True)
class ProviderEntry:
    """A capability (``memory``, ``plans``, ``tasks``): the provider selected, and the plugin serving it or why
    none does."""

    capability: str
    provider: str | None
    origin: Origin
    plugin: str | None  # the active plugin that serves it
    state: str
    place: Place | None
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class RejectedField:
    """A top-level settings field Clarvis rejects (settings.json is strict): never effective, listed with the
    ``settings/unknown-field`` finding that says why and what to do."""

    name: str
    origin: Origin  # the file that has it: "personal" or "workspace"
    place: Place
    finding: str


@dataclass(frozen=True)
class CapabilityEntry:
    """A plugin's capability executable (``capabilityExecutables.<capability>``): what Clarvis would start, with
    the defaults the manifest leaves out and the platform override that applies, and whether it is selected.

    A capability service stays inert until its plugin is active and the settings in force select the plugin as
    that capability's provider (``selected_by``, e.g. ``memory.provider``)."""

    plugin: str
    capability: str
    command: object  # the command in effect on ``platform`` (the override's, else the manifest's)
    args: object
    env: object
    timeout_ms: object
    defaults: tuple[str, ...]  # the fields left out and the defaults Clarvis uses: "args []", "timeout_ms 30000"
    platform: str  # the platform the override was looked up for (``sys.platform``: linux, darwin, win32)
    override: tuple[str, ...]  # the fields the platform's override replaces; empty when none applies
    other_platforms: tuple[str, ...]  # platforms with an override that does not apply here
    state: str
    selected_by: str | None  # the settings field that would select a provider of this capability
    place: Place
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class TrustPreview:
    """What approving the workspace would change: what it activates and which personal entries it replaces."""

    activates: tuple[str, ...]
    replaces: tuple[str, ...]


@dataclass(frozen=True)
class Effective:
    """The effective configuration of one workspace in one state (``trusted`` or not)."""

    workspace: Path
    home: Path
    trusted: bool
    settings: tuple[SettingField, ...]
    enabled_plugins: tuple[str, ...]
    plugins: tuple[PluginEntry, ...]
    hooks: tuple[HookEntry, ...]
    mcp_servers: tuple[McpEntry, ...]
    agents: tuple[AgentEntry, ...]
    skills: tuple[SkillEntry, ...]
    providers: tuple[ProviderEntry, ...]
    preview: TrustPreview | None  # untrusted only: what trusting would change
    rejected: tuple[RejectedField, ...] = ()
    capabilities: tuple[CapabilityEntry, ...] = ()


@dataclass(frozen=True)
class Inputs:
    """What the model is computed from: the workspace, discovery's results, and a reader that sees open buffers."""

    workspace: Path
    home: Path
    include_user: bool
    plugins: Mapping[str, PluginInfo]
    hidden_plugins: Sequence[PluginInfo]
    agents: Mapping[str, AgentInfo]
    registry: SkillRegistry
    read_text: ReadText
    overlay: Mapping[Path, str]  # the open buffers read_text sees, for what the model scans itself
    extra_settings_fields: tuple[str, ...] = ()  # settings.extraFields: top-level fields the user allows
    platform: str = sys.platform  # whose capability-executable overrides apply (Node's process.platform names)
