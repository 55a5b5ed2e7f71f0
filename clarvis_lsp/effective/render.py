"""The effective configuration for people (``--effective``'s text, ``--why``) and for programs (its JSON).

``to_json`` is the one JSON shape: ``clarvis-lsp --effective --format json`` prints
``{"version", "workspaces": [to_json(model), …]}`` and the server's ``clarvis/effectiveConfiguration`` answers
``{"workspaces": [to_json(model), …]}``; README.md documents it. A skill's checklist is left out (a workspace has
thousands of skills; ``--why`` and ``clarvis/why`` give it). Places are absolute paths with a ``uri`` and a
1-based ``line`` and ``column`` (code points), as ``--check --format json`` counts them.

The text is meant to be read at a glance: one section per kind, states in words, paths relative to the working
directory or starting with ``~/`` for the home (``Display``), and, when the workspace is not trusted, the trust
preview "approving this workspace would activate … and replace …".
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from clarvis_lsp.effective.entries import Clash
from clarvis_lsp.effective.model import CapabilityEntry, Effective, HookEntry, Place, Step
from clarvis_lsp.effective.why import Answer

DisplayPath = Callable[[Path], str]


def display_paths(cwd: Path, home: Path) -> DisplayPath:
    """Paths as a person reads them: ``~/…`` under the home (unless the working directory is there too), else
    relative to the working directory when under it, else absolute."""
    cwd_text = os.path.normpath(cwd)
    home_text = os.path.normpath(home)

    def under(path: str, directory: str) -> bool:
        return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)

    cwd_in_home = under(cwd_text, home_text)

    def show(path: Path) -> str:
        text = os.path.normpath(path)
        if under(text, home_text) and not (cwd_in_home and under(text, cwd_text)):
            rest = os.path.relpath(text, home_text)
            return "~" if rest == "." else "~/" + rest.replace(os.sep, "/")
        if under(text, cwd_text):
            rest = os.path.relpath(text, cwd_text)
            return "." if rest == "." else rest.replace(os.sep, "/")
        return text

    return show


# -- JSON -------------------------------------------------------------------------------------------------------


def _place(place: Place | None) -> dict[str, Any] | None:
    if place is None:
        return None
    return {"path": str(place.path), "uri": place.path.as_uri(), "line": place.line + 1, "column": place.column + 1}


def _path(path: Path | None) -> dict[str, Any] | None:
    return _place(Place(path)) if path is not None else None


def _steps(steps: Sequence[Step]) -> list[dict[str, Any]]:
    return [
        {"step": step.name, "ok": step.ok, "detail": step.detail, "path": str(step.path) if step.path else None}
        for step in steps
    ]


def _clashes(clashes: Sequence[Clash]) -> list[dict[str, Any]]:
    return [
        {
            "kind": clash.kind,
            "name": clash.name,
            "origin": clash.origin,
            "place": _place(clash.place),
            "onceTrusted": clash.once_trusted,
        }
        for clash in clashes
    ]


def to_json(model: Effective) -> dict[str, Any]:
    """The documented JSON object of one workspace's effective configuration."""
    return {
        "workspace": str(model.workspace),
        "uri": model.workspace.as_uri(),
        "home": str(model.home),
        "trusted": model.trusted,
        "settings": [
            {
                "name": item.name,
                "value": item.value,
                "origin": item.origin,
                "place": _place(item.place),
                "heldBack": _place(item.held_back),
                "note": item.note,
            }
            for item in model.settings
        ],
        "enabledPlugins": list(model.enabled_plugins),
        "plugins": [
            {
                "name": plugin.name,
                "scope": plugin.scope,
                "place": _path(plugin.directory),
                "state": plugin.state,
                "position": plugin.position,
                "of": len(model.enabled_plugins),
                "hiddenBy": _path(plugin.hidden_by),
                "contributes": {
                    "skills": list(plugin.contributes.skills),
                    "agents": list(plugin.contributes.agents),
                    "mcpServers": list(plugin.contributes.mcp_servers),
                    "hooks": plugin.contributes.hooks,
                    "capabilities": list(plugin.contributes.capabilities),
                },
                "checklist": _steps(plugin.checklist),
            }
            for plugin in model.plugins
        ],
        "hooks": [
            {
                "source": hook.source,
                "origin": hook.origin,
                "plugin": hook.plugin,
                "index": hook.index,
                "event": hook.event,
                "eventClass": hook.event_class,
                "canBlock": hook.can_block,
                "canRewrite": hook.can_rewrite,
                "command": hook.command,
                "state": hook.state,
                "position": hook.position,
                "place": _place(hook.place),
                "checklist": _steps(hook.checklist),
            }
            for hook in model.hooks
        ],
        "mcpServers": [
            {
                "name": server.name,
                "transport": server.transport,
                "origin": server.origin,
                "plugin": server.plugin,
                "state": server.state,
                "place": _place(server.place),
                "replaces": _place(server.replaces),
                "replacedBy": _place(server.replaced_by),
                "reaches": server.reaches,
                "collisions": _clashes(server.collisions),
                "checklist": _steps(server.checklist),
            }
            for server in model.mcp_servers
        ],
        "agents": [
            {
                "name": agent.name,
                "origin": agent.origin,
                "plugin": agent.plugin,
                "place": _path(agent.path),
                "state": agent.state,
                "overrides": _path(agent.overrides),
                "collisions": _clashes(agent.collisions),
                "checklist": _steps(agent.checklist),
            }
            for agent in model.agents
        ],
        "skills": [
            {
                "name": skill.name,
                "place": _path(skill.path),
                "scope": skill.scope,
                "source": skill.source,
                "state": skill.state,
                "copies": skill.copies,
                "shadows": [str(path) for path in skill.shadowed],
                "userInvocable": skill.user_invocable,
            }
            for skill in model.skills
        ],
        "providers": [
            {
                "capability": provider.capability,
                "provider": provider.provider,
                "origin": provider.origin,
                "plugin": provider.plugin,
                "state": provider.state,
                "place": _place(provider.place),
                "checklist": _steps(provider.checklist),
            }
            for provider in model.providers
        ],
        "preview": (
            {"activates": list(model.preview.activates), "replaces": list(model.preview.replaces)}
            if model.preview is not None
            else None
        ),
        "rejected": [
            {"name": item.name, "origin": item.origin, "place": _place(item.place), "finding": item.finding}
            for item in model.rejected
        ],
        "capabilityExecutables": [
            {
                "plugin": item.plugin,
                "capability": item.capability,
                "command": item.command,
                "args": item.args,
                "env": item.env,
                "timeoutMs": item.timeout_ms,
                "defaults": list(item.defaults),
                "platform": item.platform,
                "override": list(item.override),
                "otherPlatforms": list(item.other_platforms),
                "state": item.state,
                "selectedBy": item.selected_by,
                "place": _place(item.place),
                "checklist": _steps(item.checklist),
            }
            for item in model.capabilities
        ],
    }


def answers_json(answers: Sequence[Answer]) -> list[dict[str, Any]]:
    """``--why --format json`` and ``clarvis/why``: each entry of the name, its state and checklist."""
    return [
        {
            "kind": answer.kind,
            "name": answer.name,
            "state": answer.state,
            "place": _place(answer.place) if answer.place is not None else _path(answer.path),
            "failed": answer.failed.name if answer.failed is not None else None,
            "checklist": _steps(answer.checklist),
        }
        for answer in answers
    ]


def dumps(value: object) -> str:
    """Compact JSON on one line: with ``indent`` the json module falls back to its pure-Python encoder, several
    times slower on the megabytes of a large workspace (pipe it through ``python -m json.tool`` to read it)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


# -- text -------------------------------------------------------------------------------------------------------


def _at(place: Place | None, show: DisplayPath) -> str:
    if place is None:
        return ""
    return f"{show(place.path)}:{place.line + 1}"


def _value_summary(name: str, value: object) -> str:
    if name == "hooks" and isinstance(value, list):
        return f"{len(value)} hook{'s' if len(value) != 1 else ''}"
    if name == "mcpServers" and isinstance(value, dict):
        return ", ".join(value) if value else "none"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _table(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    if not rows:
        return [f"{indent}(none)"]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)] + [row[-1]]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def format_text(model: Effective, show: DisplayPath) -> str:
    """One workspace's effective configuration, section by section."""
    state = "trusted" if model.trusted else "untrusted (as before /workspace-trust; --trusted shows it approved)"
    lines = [f"Workspace {show(model.workspace)}: {state}", ""]
    if model.preview is not None:
        lines.append("Trust preview")
        if model.preview.activates or model.preview.replaces:
            lines.append(
                "  approving this workspace would activate " + (", ".join(model.preview.activates) or "nothing")
            )
            lines.append("  and replace " + (", ".join(model.preview.replaces) or "nothing of yours"))
        else:
            lines.append("  approving this workspace would change nothing")
        lines.append("")

    lines.append("Settings")
    rows = []
    for item in model.settings:
        where = _at(item.place, show) if item.origin != "default" else ""
        extra = []
        if item.note:
            extra.append(item.note)
        if item.held_back is not None and not item.note:
            extra.append(f"workspace value held back until trust ({_at(item.held_back, show)})")
        detail = f"{_value_summary(item.name, item.value)}" + (f"  ({'; '.join(extra)})" if extra else "")
        rows.append([item.name, item.origin, where, detail])
    lines += _table(rows)
    lines.append("")
    if model.rejected:
        lines.append("Rejected settings fields (never in effect, trusted or not)")
        lines += _table([[item.name, item.origin, _at(item.place, show), item.finding] for item in model.rejected])
        lines.append("")

    enabled = ", ".join(model.enabled_plugins) or "none"
    lines.append(f"Plugins (enabledPlugins in force: {enabled})")
    rows = []
    for plugin in model.plugins:
        rank = f"#{plugin.position} of {len(model.enabled_plugins)}" if plugin.position is not None else "-"
        parts = []
        c = plugin.contributes
        if c.skills:
            parts.append(f"skills: {', '.join(c.skills)}")
        if c.agents:
            parts.append(f"agents: {', '.join(c.agents)}")
        if c.mcp_servers:
            parts.append(f"mcp: {', '.join(c.mcp_servers)}")
        if c.hooks:
            parts.append(f"hooks: {c.hooks}")
        if c.capabilities:
            parts.append(f"capabilities: {', '.join(c.capabilities)}")
        where = show(plugin.directory) if plugin.directory is not None else ""
        rows.append([rank, plugin.name, plugin.scope, plugin.state, where, " · ".join(parts)])
    lines += _table(rows)
    lines.append("")

    running = sum(1 for hook in model.hooks if hook.state == "runs")
    lines.append(f"Hook run plan ({running} of {len(model.hooks)} run; plugin hooks also need approval)")
    rows = []
    for group in _runs_of(model.hooks):
        shown = group if len(group) <= HOOK_RUN_SHOWN else [*group[:3], None, *group[-2:]]
        for hook in shown:
            if hook is None:
                hidden = group[3:-2]
                first, last = hidden[0], hidden[-1]
                rank = f"#{first.position}-{last.position}" if first.position is not None else "-"
                lines_span = f"{show(first.place.path)}:{first.place.line + 1}-{last.place.line + 1}"
                rows.append([rank, first.state, f"... {len(hidden)} more hooks", first.source, lines_span, ""])
                continue
            rank = f"#{hook.position}" if hook.position is not None else "-"
            effect = hook.event_class
            if hook.can_rewrite:
                effect += ", can block and rewrite"
            elif hook.can_block:
                effect += ", can block"
            row = [rank, hook.state, f"{hook.event} ({effect})", hook.source, _at(hook.place, show), hook.command]
            rows.append(row)
    lines += _table(rows)
    lines.append("")

    lines.append("MCP servers")
    rows = []
    for server in model.mcp_servers:
        notes = []
        if server.replaces is not None:
            verb = "replaces" if model.trusted else "would replace"
            notes.append(f"{verb} the personal one at {_at(server.replaces, show)}")
        elif server.replaced_by is not None:
            notes.append(f"by {_at(server.replaced_by, show)}")
        notes += [_clash_text(clash, show) for clash in server.collisions]
        where = _at(server.place, show)
        reaches = server.reaches or ""
        rows.append([server.name, server.transport, server.origin, server.state, where, reaches, "; ".join(notes)])
    lines += _table(rows)
    lines.append("")

    lines.append("Agents")
    rows = []
    for agent in model.agents:
        notes = [f"overrides {show(agent.overrides)}"] if agent.overrides is not None else []
        notes += [_clash_text(clash, show, line=False) for clash in agent.collisions]
        rows.append([agent.name, agent.origin, agent.state, show(agent.path), "; ".join(notes)])
    lines += _table(rows)
    lines.append("")

    lines.append("Skills")
    rows = []
    for skill in model.skills:
        notes = []
        if skill.copies > 1 and skill.state != "shadowed":
            notes.append(f"wins over {skill.copies - 1} cop{'ies' if skill.copies > 2 else 'y'}")
        if not skill.user_invocable:
            notes.append("no slash command (user-invocable: false)")
        origin = f"{skill.scope}/{skill.source}" if skill.source else skill.scope
        rows.append([skill.name, skill.state, origin, show(skill.path), "; ".join(notes)])
    lines += _table(rows)
    lines.append("")

    if model.capabilities:
        lines.append(f"Capability executables (overrides for {model.capabilities[0].platform})")
        lines += _table([_capability_row(item, show) for item in model.capabilities])
        lines.append("")

    lines.append("Capability providers")
    rows = []
    for provider in model.providers:
        failed = next((step for step in provider.checklist if not step.ok), None)
        why_not = _step_text(failed, show) if failed is not None else f"served by plugin {provider.plugin}"
        rows.append([provider.capability, provider.provider or "", provider.origin, provider.state, why_not])
    lines += _table(rows)
    return "\n".join(lines) + "\n"


def _capability_row(item: CapabilityEntry, show: DisplayPath) -> list[str]:
    """A capability executable: what would start, the override and defaults in it, and what selects it."""
    args = item.args if isinstance(item.args, list) else []
    command = " ".join(str(part) for part in [item.command, *args] if part is not None)
    notes = []
    if item.override:
        notes.append(f"{item.platform} override: {', '.join(item.override)}")
    if item.other_platforms:
        notes.append(f"overrides also for {', '.join(item.other_platforms)}")
    if item.defaults:
        notes.append(f"defaults: {', '.join(item.defaults)}")
    failed = next((step for step in item.checklist if not step.ok), None)
    notes.append(_step_text(failed, show) if failed is not None else item.checklist[-1].detail)
    return [item.capability, item.plugin, item.state, _at(item.place, show), command, "; ".join(notes)]


CLASH_WORDS = {
    "same name": "the same name",
    "spelling": "differs only in case or -/_",
    "namespace": "tool namespaces overlap",
    "launch": "starts the same server",
}
"""How a collision's kind reads in the text (``mcp/name-collision``, ``agent/name-collision`` say more)."""


def _clash_text(clash: Clash, show: DisplayPath, *, line: bool = True) -> str:
    verb = "would collide with" if clash.once_trusted else "collides with"
    suffix = " once trusted" if clash.once_trusted else ""
    where = _at(clash.place, show) if line else show(clash.place.path)
    words = CLASH_WORDS.get(clash.kind, clash.kind)
    return f"{verb} {clash.origin} {clash.name} at {where} ({words}){suffix}"


HOOK_RUN_SHOWN = 8
"""Consecutive hooks of one source in one state longer than this show their first three and last two, with a line
saying how many are left out between (the JSON lists every hook, and ``--why`` names any of them)."""


def _runs_of(hooks: Sequence[HookEntry]) -> list[list[HookEntry]]:
    """The hooks in run order, cut wherever the source or the state changes."""
    groups: list[list[HookEntry]] = []
    for hook in hooks:
        if groups and groups[-1][-1].source == hook.source and groups[-1][-1].state == hook.state:
            groups[-1].append(hook)
        else:
            groups.append([hook])
    return groups


def _step_text(step: Step, show: DisplayPath) -> str:
    return f"{step.detail} {show(step.path)}" if step.path is not None else step.detail


def format_why(name: str, answers: Sequence[Answer], show: DisplayPath) -> str:
    """``--why NAME``: each entry of that name, its state, and its checklist up to the step that fails."""
    if not answers:
        return (
            f"Nothing named {name!r} was found: no skill, agent, plugin, hook event or command, MCP server or "
            "provider.\n"
        )
    lines: list[str] = []
    for answer in answers:
        if answer.place is not None:
            where = f" ({_at(answer.place, show)})"
        else:
            where = f" ({show(answer.path)})" if answer.path is not None else ""
        verdict = "active" if answer.failed is None and answer.state in ("active", "runs") else answer.state
        lines.append(f"{answer.kind} {answer.name}{where}: {verdict}")
        for step in answer.checklist:
            mark = "ok " if step.ok else "NO "
            lines.append(f"  {mark} {step.name}: {_step_text(step, show)}")
        lines.append("")
    return "\n".join(lines)
