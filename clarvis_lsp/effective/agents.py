"""The agents by effective name: a plugin's agents follow their plugin, a workspace agent is held back until trust
and then overrides the personal agent of the same name.
"""

from __future__ import annotations

from collections.abc import Sequence

from clarvis_lsp.effective.entries import (
    ACTIVE,
    HELD_BACK,
    OVERRIDDEN,
    PLUGIN_NOT_ENABLED,
    AgentEntry,
    Inputs,
    Step,
)


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
    return tuple(entries)
