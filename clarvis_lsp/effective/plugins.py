"""The installed plugins: what each contributes, and its activation checklist (valid name, enabled, trusted)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clarvis_lsp.discovery import PluginInfo
from clarvis_lsp.effective.entries import (
    ACTIVE,
    HELD_BACK,
    HIDDEN,
    NAME_MISMATCH,
    NOT_ENABLED,
    NOT_INSTALLED,
    Contributions,
    Inputs,
    Origin,
    PluginEntry,
    Step,
)
from clarvis_lsp.effective.sources import (
    _keys,
    _Manifest,
    _manifest_map,
    _scope_word,
)
from clarvis_lsp.workspace.plugin_skills import plugin_skills


def _plugin_skills(plugin: PluginInfo, inputs: Inputs) -> tuple[str, ...]:
    """The skills a plugin contributes (``workspace.plugin_skills``: discovery's, open buffers first)."""
    return plugin_skills(inputs.registry, plugin.directory, inputs.overlay, scope=plugin.scope).names


def _plugins(
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    loaded: set[str],
    enabled: Sequence[str],
    enabled_trusted: Sequence[str],
    enabled_origin: Origin,
    active: Sequence[str],
    trusted: bool,
) -> tuple[PluginEntry, ...]:
    entries: list[PluginEntry] = []
    for name in [*active, *sorted(set(inputs.plugins) - set(active))]:
        plugin = inputs.plugins[name]
        manifest = manifests[name]
        steps = [Step("discovered", True, f"installed in {_scope_word(plugin.scope)} plugins:", plugin.directory)]
        servers = _manifest_map(manifest, "mcpServers")
        capabilities = _manifest_map(manifest, "capabilityExecutables")
        contributes = Contributions(
            skills=_plugin_skills(plugin, inputs),
            agents=tuple(sorted(agent for agent in inputs.agents if agent.startswith(f"{name}:"))),
            mcp_servers=tuple(f"{name}:{key}" for key in _keys(servers)),
            capabilities=_keys(capabilities),
        )
        position = None
        if name not in loaded:
            found = manifest.name
            detail = (
                f'plugin.json names it "{found}", not "{name}": Clarvis does not load it'
                if isinstance(found, str)
                else "plugin.json has no usable name: Clarvis does not load it"
            )
            steps.append(Step("valid", False, detail))
            state = NAME_MISMATCH
        else:
            steps.append(Step("valid", True, "plugin.json names it after its directory"))
            steps.append(Step("not shadowed", True, "no other installed plugin has this name"))
            if name in active:
                position = active.index(name) + 1
                steps.append(Step("enabled", True, f"#{position} of {len(active)} in {enabled_origin} enabledPlugins"))
                state = ACTIVE
            elif not trusted and name in enabled_trusted:
                steps.append(Step("enabled", True, "listed in workspace enabledPlugins"))
                steps.append(Step("workspace trusted", False, "workspace enabledPlugins is held back until trust"))
                state = HELD_BACK
            else:
                steps.append(Step("enabled", False, "not listed in the enabledPlugins in force"))
                state = NOT_ENABLED
        entries.append(
            PluginEntry(
                name, _scope_word(plugin.scope), plugin.directory, state, position, contributes, None, tuple(steps)
            )
        )
    for hidden in inputs.hidden_plugins:
        winner = inputs.plugins.get(hidden.name)
        steps = [
            Step("discovered", True, "installed in personal plugins:", hidden.directory),
            Step("not shadowed", False, "hidden by the workspace plugin", winner.directory if winner else None),
        ]
        entries.append(
            PluginEntry(
                hidden.name,
                "personal",
                hidden.directory,
                HIDDEN,
                None,
                Contributions(),
                winner.directory if winner else None,
                tuple(steps),
            )
        )
    for name in enabled:
        if name not in inputs.plugins:
            steps = [
                Step("plugin installed", False, f"no plugin named {name} in ~/.clarvis/plugins or .clarvis/plugins")
            ]
            entries.append(PluginEntry(name, "none", None, NOT_INSTALLED, None, Contributions(), None, tuple(steps)))
    return tuple(entries)
