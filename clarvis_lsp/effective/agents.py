"""The agents by effective name: a plugin's agents follow their plugin, a workspace agent is held back until trust
and then overrides the personal agent of the same name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from clarvis_lsp.effective.entries import (
    ACTIVE,
    HELD_BACK,
    OVERRIDDEN,
    PLUGIN_NOT_ENABLED,
    AgentEntry,
    Inputs,
    Place,
    Step,
)
from clarvis_lsp.effective.servers import clashes
from clarvis_lsp.rules.collisions import effective_agents, meetings


def _agents(inputs: Inputs, active: Sequence[str], trusted: bool) -> tuple[AgentEntry, ...]:
    entries: list[AgentEntry] = []
    for name in sorted(inputs.agents):
        agent = inputs.agents[name]
        if agent.plugin is not None:
            is_active = agent.plugin in active
            steps = (
                Step("discovered", True, f"in plugin {agent.plugin}"),
                Step("enabled", is_active, f"plugin {agent.plugin} is {'active' if is_active else 'not active'}"),
            )
            entries.append(
                AgentEntry(
                    name, "plugin", agent.plugin, agent.path, ACTIVE if is_active else PLUGIN_NOT_ENABLED, None, steps
                )
            )
            continue
        personal = agent if agent.scope == "user" else agent.overrides
        if agent.scope != "user":
            steps_w = [Step("discovered", True, "in workspace agents")]
            steps_w.append(
                Step(
                    "workspace trusted",
                    trusted,
                    "the workspace is trusted" if trusted else "workspace agents are held back until /workspace-trust",
                )
            )
            entries.append(
                AgentEntry(
                    name,
                    "workspace",
                    None,
                    agent.path,
                    ACTIVE if trusted else HELD_BACK,
                    personal.path if personal is not None else None,
                    tuple(steps_w),
                )
            )
        if personal is not None:
            overridden = trusted and agent.scope != "user"
            steps_p = [Step("discovered", True, "in personal agents")]
            if overridden:
                steps_p.append(Step("not shadowed", False, "overridden by the workspace agent", agent.path))
            entries.append(
                AgentEntry(
                    name, "personal", None, personal.path, OVERRIDDEN if overridden else ACTIVE, None, tuple(steps_p)
                )
            )
    return _with_collisions(tuple(entries), inputs, active, trusted)


def _with_collisions(
    entries: tuple[AgentEntry, ...], inputs: Inputs, active: Sequence[str], trusted: bool
) -> tuple[AgentEntry, ...]:
    """Each agent with whom it collides (``agent/name-collision``): among the agents in effect in this state, and,
    untrusted, among those once trusted (the plugins discovery counts as enabled then)."""
    later = None
    if not trusted:
        enabled = {
            agent.plugin
            for agent in inputs.agents.values()
            if agent.plugin is not None
            and agent.enabled
            and (plugin := inputs.plugins.get(agent.plugin)) is not None
            and plugin.not_loaded is None
        }
        later = effective_agents(inputs.agents, enabled, trusted=True)
    by_place = clashes(meetings(effective_agents(inputs.agents, active, trusted=trusted), later, tools=False))
    return tuple(replace(entry, collisions=by_place.get(Place(entry.path), ())) for entry in entries)
