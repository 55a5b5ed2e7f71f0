"""The hooks' run plan: every hook in the order Clarvis runs them (personal, workspace, the active plugins in
``enabledPlugins`` order), then those that do not run, each with its state and its checklist (trust, plugin
enabled, the per-source and per-run limits, approval).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clarvis_lsp.documents.jsondoc import JsonArray, to_python
from clarvis_lsp.effective.entries import (
    BEYOND_RUN,
    BEYOND_SOURCE,
    HELD_BACK,
    NEEDS_APPROVAL,
    PLUGIN_NOT_ENABLED,
    RUNS,
    HookEntry,
    Inputs,
    Place,
    Step,
)
from clarvis_lsp.effective.sources import (
    _Settings,
)
from clarvis_lsp.knowledge import hooks as hook_facts
from clarvis_lsp.rules.hook_run_limit import HookSource, hook_objects, hook_range


def _hook_steps(origin: str, plugin: str | None, state: str, position: int | None, index: int) -> tuple[Step, ...]:
    steps: list[Step] = [Step("discovered", True, "declared in its source")]
    if origin == "workspace":
        if state == HELD_BACK:
            return (*steps, Step("workspace trusted", False, "workspace hooks are held back until /workspace-trust"))
        steps.append(Step("workspace trusted", True, "the workspace is trusted"))
    if origin == "plugin":
        if state == PLUGIN_NOT_ENABLED:
            return (*steps, Step("enabled", False, f"plugin {plugin} is not active"))
        steps.append(Step("enabled", True, f"plugin {plugin} is active"))
    if state == BEYOND_SOURCE:
        return (
            *steps,
            Step(
                "within limits",
                False,
                f"hook {index} of its source; one source declares at most {hook_facts.MAX_PER_SOURCE}",
            ),
        )
    if state == BEYOND_RUN:
        return (
            *steps,
            Step("within limits", False, f"hook {position} of the run; one run uses at most {hook_facts.MAX_PER_RUN}"),
        )
    steps.append(Step("within limits", True, f"hook {position} of the run"))
    if origin == "plugin":
        steps.append(Step("hook approved", False, "its fingerprint must be approved in /extensions/hooks"))
    return tuple(steps)


def _settings_hooks(label: str, settings: _Settings) -> HookSource | None:
    """The hooks of a settings file already parsed (as ``hook_run_limit.settings_hook_source`` reads them)."""
    if settings.document is None:
        return None
    hooks = settings.value("hooks")
    found = tuple(hook_objects(hooks)) if isinstance(hooks, JsonArray) else ()
    return HookSource(label, settings.path, settings.document, found)


def _hooks(
    inputs: Inputs,
    personal: _Settings,
    workspace: _Settings,
    plugin_sources: Mapping[str, HookSource | None],
    active: Sequence[str],
    loaded: set[str],
    trusted: bool,
) -> tuple[HookEntry, ...]:
    """The run plan: personal, workspace, the active plugins in enabledPlugins order, then what does not run."""
    sources: list[tuple[str, str | None, HookSource | None, bool]] = []  # origin, plugin, source, in the run
    if personal.document is not None:
        sources.append(("personal", None, _settings_hooks("personal settings", personal), True))
    if workspace.document is not None:
        sources.append(("workspace", None, _settings_hooks("workspace settings", workspace), trusted))
    for name in active:
        sources.append(("plugin", name, plugin_sources.get(name), True))
    for name in sorted(inputs.plugins):
        if name not in active and name in loaded:
            sources.append(("plugin", name, plugin_sources.get(name), False))
    entries: list[HookEntry] = []
    position = 0
    for origin, plugin, source, in_run in sources:
        if source is None:
            continue
        for index, hook in enumerate(source.hooks, start=1):
            event_value = to_python(hook.value_of("event")) if hook.value_of("event") is not None else None
            command_value = to_python(hook.value_of("command")) if hook.value_of("command") is not None else None
            event = event_value if isinstance(event_value, str) else ""
            event_class = hook_facts.EVENT_CLASS.get(event, "unknown")
            at: int | None = None
            if not in_run:
                state = HELD_BACK if origin == "workspace" else PLUGIN_NOT_ENABLED
            else:
                position += 1
                at = position
                if index > hook_facts.MAX_PER_SOURCE:
                    state = BEYOND_SOURCE
                elif position > hook_facts.MAX_PER_RUN:
                    state = BEYOND_RUN
                elif origin == "plugin":
                    state = NEEDS_APPROVAL
                else:
                    state = RUNS
            start = hook_range(source.document, hook).start
            entries.append(
                HookEntry(
                    source=source.label,
                    origin=origin,
                    plugin=plugin,
                    index=index,
                    event=event,
                    event_class=event_class,
                    can_block=event in hook_facts.CONTROL_EVENTS,
                    can_rewrite=event == hook_facts.REWRITE_EVENT,
                    command=command_value if isinstance(command_value, str) else "",
                    state=state,
                    position=at,
                    place=Place(source.path, start.line, start.character),
                    checklist=_hook_steps(origin, plugin, state, at, index),
                )
            )
    return tuple(entries)
