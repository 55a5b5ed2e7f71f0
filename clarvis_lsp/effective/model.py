"""What Clarvis will actually load and run in one workspace, and why (SPEC §2.1).

The model is computed from the same discovery (plugins, agents, skill registry) and the same parsed documents
the checks use, read through the engine's ``read_text`` so that unsaved editor buffers count. It never imports
pygls or lsprotocol: ``clarvis-lsp --effective`` prints it and the language server answers
``clarvis/effectiveConfiguration`` with the JSON of the very same object (``clarvis_lsp.effective.render``).

Two states (seed ``clarvis-extensions-reference``, "Ativação e confiança"):

- **untrusted**, as Clarvis runs before ``/workspace-trust``: the workspace's ``hooks``, ``mcpServers``,
  ``enabledPlugins``, ``marketplaces``, ``memory.provider``, ``plans.provider``, ``tasks.provider`` and its agents
  are held back, and the personal configuration stays in force;
- **trusted**: they apply.

Merge rules (SPEC §2.1 decisions): ``hooks`` are concatenated personal then workspace; ``mcpServers`` are merged by
server name, a workspace entry replacing the personal one whole; every other field is replaced whole by the
workspace's (untrusted, a capability object keeps the personal ``provider``).

Every entry carries its ``state`` in words and its ``checklist``: the seed's activation steps in order (discovered,
valid, not shadowed, plugin installed, enabled, workspace trusted, hook approved, within limits, provider
selected), each that applies to the entry, ending at the first that fails. "Why is this not active?" is that
checklist (``clarvis_lsp.effective.why``).

This module computes both states from one reading of the inputs and names everything the model is made of; each
kind of entry is built in a module of its own: ``entries`` (the dataclasses and states), ``sources`` (the settings
files and plugin manifests, merged), ``plugins``, ``hooks`` (the run plan), ``servers`` (MCP), ``agents``,
``skills`` and ``providers``.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from clarvis_lsp.effective.agents import _agents
from clarvis_lsp.effective.capabilities import _capabilities
from clarvis_lsp.effective.entries import (
    ACTIVE,
    BEYOND_RUN,
    BEYOND_SOURCE,
    HELD_BACK,
    HIDDEN,
    INERT,
    NAME_MISMATCH,
    NEEDS_APPROVAL,
    NOT_ENABLED,
    NOT_INSTALLED,
    NOT_LOADED,
    OVERRIDDEN,
    PLUGIN_NOT_ENABLED,
    REPLACED,
    RUNS,
    SHADOWED,
    AgentEntry,
    CapabilityEntry,
    Contributions,
    Effective,
    HookEntry,
    Inputs,
    McpEntry,
    Origin,
    Place,
    PluginEntry,
    ProviderEntry,
    ReadText,
    RejectedField,
    SettingField,
    SkillEntry,
    Step,
    TrustPreview,
)
from clarvis_lsp.effective.hooks import _hooks
from clarvis_lsp.effective.plugins import _plugins
from clarvis_lsp.effective.providers import _providers
from clarvis_lsp.effective.servers import _mcp_servers
from clarvis_lsp.effective.skills import _skills, plugin_scans
from clarvis_lsp.effective.sources import (
    _enabled_list,
    _field,
    _known_fields,
    _Manifest,
    _manifest,
    _merge_settings,
    _read_settings,
    _rejected,
    _Settings,
)
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge import settings as settings_facts
from clarvis_lsp.rules.hook_run_limit import HookSource, plugin_hook_source

__all__ = [
    "ACTIVE",
    "BEYOND_RUN",
    "BEYOND_SOURCE",
    "HELD_BACK",
    "HIDDEN",
    "INERT",
    "NAME_MISMATCH",
    "NEEDS_APPROVAL",
    "NOT_ENABLED",
    "NOT_INSTALLED",
    "NOT_LOADED",
    "OVERRIDDEN",
    "PLUGIN_NOT_ENABLED",
    "REPLACED",
    "RUNS",
    "SHADOWED",
    "AgentEntry",
    "CapabilityEntry",
    "Contributions",
    "Effective",
    "HookEntry",
    "Inputs",
    "McpEntry",
    "Origin",
    "Place",
    "PluginEntry",
    "ProviderEntry",
    "ReadText",
    "RejectedField",
    "SettingField",
    "SkillEntry",
    "Step",
    "TrustPreview",
    "compute",
]


# -- the model --------------------------------------------------------------------------------------------------


def compute(inputs: Inputs, trusted: bool) -> Effective:
    """The effective configuration of ``inputs.workspace`` in one state; untrusted also carries the trust preview."""
    manifests = {name: _manifest(plugin, inputs.read_text) for name, plugin in inputs.plugins.items()}
    home_settings = layout.settings_file(inputs.home)
    ws_settings = layout.settings_file(inputs.workspace)
    same = os.path.normpath(home_settings) == os.path.normpath(ws_settings)
    personal = _read_settings(home_settings, inputs.read_text, inputs.include_user and not same)
    workspace = _read_settings(ws_settings, inputs.read_text)
    plugin_sources = {
        name: plugin_hook_source(name, plugin.directory, inputs.read_text)
        for name, plugin in inputs.plugins.items()
        if manifests[name].name == name
    }
    known = _known_fields(inputs.extra_settings_fields)
    shared = _Shared(manifests, personal, workspace, plugin_sources, known, _rejected(personal, workspace, known))
    model = _compute(inputs, trusted, shared)
    if trusted:
        return model
    return _with_preview(model, _compute(inputs, True, shared, with_skills=False))


@dataclass(frozen=True)
class _Shared:
    """What both states are computed from: the plugin manifests, the settings, each plugin's hooks."""

    manifests: Mapping[str, _Manifest]
    personal: _Settings
    workspace: _Settings
    plugin_sources: Mapping[str, HookSource | None]  # each loaded plugin's hooks
    known_fields: tuple[str, ...]  # the top-level settings fields Clarvis accepts (settings.extraFields included)
    rejected: tuple[RejectedField, ...]  # the others, the same in both states


def _compute(inputs: Inputs, trusted: bool, shared: _Shared, *, with_skills: bool = True) -> Effective:
    """One state's model; ``with_skills=False`` leaves the skills out (the trust preview names no skill)."""
    personal, workspace = shared.personal, shared.workspace
    settings = _merge_settings(personal, workspace, trusted, shared.known_fields)
    enabled, enabled_origin = _enabled_list(personal, workspace, trusted)
    enabled_trusted, _ = _enabled_list(personal, workspace, True)

    manifests = shared.manifests
    loaded = {name for name, manifest in manifests.items() if manifest.name == name}
    active = [name for name in enabled if name in inputs.plugins and name in loaded]

    plugins = _plugins(inputs, manifests, loaded, enabled, enabled_trusted, enabled_origin, active, trusted)
    hooks = _hooks(inputs, personal, workspace, shared.plugin_sources, active, loaded, trusted)
    counts = Counter(hook.plugin for hook in hooks if hook.plugin is not None)
    plugins = tuple(
        replace(entry, contributes=replace(entry.contributes, hooks=counts[entry.name]))
        if entry.state != HIDDEN and counts[entry.name]
        else entry
        for entry in plugins
    )
    servers = _mcp_servers(personal, workspace, inputs, manifests, active, trusted)
    agents = _agents(inputs, active, trusted)
    skills: tuple[SkillEntry, ...] = ()
    if with_skills:
        held_back = [name for name in enabled_trusted if name in loaded and name not in active and not trusted]
        skills = _skills(
            inputs.registry,
            plugin_scans(inputs.registry, [inputs.plugins[name] for name in active], inputs.overlay),
            plugin_scans(inputs.registry, [inputs.plugins[name] for name in held_back], inputs.overlay),
        )
    providers = _providers(settings, personal, workspace, inputs, manifests, active, trusted)
    capabilities = _capabilities(inputs, manifests, loaded, active, providers)
    return Effective(
        workspace=inputs.workspace,
        home=inputs.home,
        trusted=trusted,
        settings=settings,
        enabled_plugins=tuple(enabled),
        plugins=plugins,
        hooks=hooks,
        mcp_servers=servers,
        agents=agents,
        skills=skills,
        providers=providers,
        preview=None,
        rejected=shared.rejected,
        capabilities=capabilities,
    )


# -- the trust preview ------------------------------------------------------------------------------------------


def _with_preview(untrusted: Effective, trusted: Effective) -> Effective:
    """What trusting the workspace would activate, and which personal entries it would replace."""
    activates: list[str] = []
    replaces: list[str] = []
    held_hooks = [hook for hook in untrusted.hooks if hook.origin == "workspace"]
    if held_hooks:
        activates.append(f"{len(held_hooks)} workspace hook{'s' if len(held_hooks) != 1 else ''}")
    for server in untrusted.mcp_servers:
        if server.origin == "workspace":
            activates.append(f"MCP server {server.name}")
            if server.replaces is not None:
                replaces.append(f"your MCP server {server.name}")
    before = {plugin.name for plugin in untrusted.plugins if plugin.state == ACTIVE}
    after = {plugin.name for plugin in trusted.plugins if plugin.state == ACTIVE}
    activates.extend(f"plugin {name}" for name in sorted(after - before))
    if untrusted.enabled_plugins != trusted.enabled_plugins and any(
        item.name == "enabledPlugins" and item.held_back is not None for item in untrusted.settings
    ):
        replaces.append(f"your enabledPlugins [{', '.join(untrusted.enabled_plugins)}]")
    for agent in untrusted.agents:
        if agent.origin == "workspace":
            activates.append(f"agent {agent.name}")
            if agent.overrides is not None:
                replaces.append(f"your agent {agent.name}")
    for item in untrusted.settings:
        if item.held_back is None or item.name in ("hooks", "mcpServers", "enabledPlugins"):
            continue
        after_item = _field(trusted.settings, item.name)
        if item.name in settings_facts.TRUST_GATED_MEMBERS:
            for member in settings_facts.TRUST_GATED_MEMBERS[item.name]:
                new = after_item.value.get(member) if after_item and isinstance(after_item.value, dict) else None
                old = item.value.get(member) if isinstance(item.value, dict) else None
                if new is not None and new != old:
                    activates.append(f"{item.name}.{member} {new}")
                    if old is not None:
                        replaces.append(f"your {item.name}.{member} {old}")
        else:
            activates.append(f"{item.name} from the workspace")
            if item.origin == "personal":
                replaces.append(f"your {item.name}")
    return replace(untrusted, preview=TrustPreview(tuple(activates), tuple(replaces)))
