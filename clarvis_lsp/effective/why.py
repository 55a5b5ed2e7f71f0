""" "Why is this not active?": every entry of the model with a given name, and its activation checklist.

The checklist is computed with the model (``Step`` tuples in each entry), in the seed's order: discovered, valid,
not shadowed, plugin installed, enabled, workspace trusted, hook approved, within limits, provider selected. The
first step that fails says why the entry is not active; an entry whose steps all pass is active.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.effective.model import Effective, Place, Step


@dataclass(frozen=True)
class Answer:
    """One entry named ``name``: its kind, state, where it is declared and its checklist."""

    kind: str  # skill, agent, plugin, hook, mcp server, provider
    name: str
    state: str
    path: Path | None
    place: Place | None  # a position in a file (hooks, servers, providers); None when ``path`` is the whole entry
    checklist: tuple[Step, ...]

    @property
    def failed(self) -> Step | None:
        """The first step that fails, or None when the entry is active."""
        return next((step for step in self.checklist if not step.ok), None)


def why(model: Effective, name: str) -> list[Answer]:
    """Every skill, agent, plugin, hook (by event or command), MCP server or capability named ``name``."""
    wanted = name.strip()
    answers: list[Answer] = []
    for skill in model.skills:
        if skill.name == wanted:
            answers.append(Answer("skill", skill.name, skill.state, skill.path, None, skill.checklist))
    for agent in model.agents:
        if wanted in (agent.name, agent.name.split(":", 1)[-1]):
            answers.append(Answer("agent", agent.name, agent.state, agent.path, None, agent.checklist))
    for plugin in model.plugins:
        if plugin.name == wanted:
            answers.append(Answer("plugin", plugin.name, plugin.state, plugin.directory, None, plugin.checklist))
    for hook in model.hooks:
        if wanted in (hook.event, hook.command, _program(hook.command)):
            label = f"{hook.event} #{hook.index} of {hook.source}"
            answers.append(Answer("hook", label, hook.state, hook.place.path, hook.place, hook.checklist))
    for server in model.mcp_servers:
        if wanted in (server.name, server.name.split(":", 1)[-1]):
            label = f"{server.name} ({server.origin})"
            answers.append(Answer("mcp server", label, server.state, server.place.path, server.place, server.checklist))
    for item in model.capabilities:
        if wanted in (item.capability, f"{item.plugin}:{item.capability}"):
            label = f"{item.capability} of plugin {item.plugin}"
            answers.append(
                Answer("capability executable", label, item.state, item.place.path, item.place, item.checklist)
            )
    for rejected in model.rejected:
        if rejected.name == wanted:
            steps = (Step("valid", False, rejected.finding),)
            label = f"{rejected.name} ({rejected.origin} settings)"
            answers.append(Answer("setting", label, "rejected", rejected.place.path, rejected.place, steps))
    for provider in model.providers:
        if wanted in (provider.capability, provider.provider):
            path = provider.place.path if provider.place is not None else None
            label = f"{provider.capability}.provider {provider.provider}"
            answers.append(Answer("provider", label, provider.state, path, provider.place, provider.checklist))
    return answers


def _program(command: str) -> str:
    """The program a hook's command starts, without its directory (``./scripts/notify.sh x`` → ``notify.sh``)."""
    first = command.split(maxsplit=1)[0] if command.strip() else ""
    return first.rsplit("/", 1)[-1]
