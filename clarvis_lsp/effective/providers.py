"""The capability providers (``memory``, ``plans``, ``tasks``): the provider selected in the settings in force and
the active plugin that serves it, or why none does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clarvis_lsp.documents.jsondoc import JsonObject, to_python
from clarvis_lsp.effective.entries import (
    ACTIVE,
    INERT,
    Inputs,
    Origin,
    Place,
    ProviderEntry,
    SettingField,
    Step,
)
from clarvis_lsp.effective.sources import (
    _field,
    _Manifest,
    _manifest_map,
    _Settings,
)
from clarvis_lsp.knowledge import settings as settings_facts


def _providers(
    settings: Sequence[SettingField],
    personal: _Settings,
    workspace: _Settings,
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    active: Sequence[str],
    trusted: bool,
) -> tuple[ProviderEntry, ...]:
    entries: list[ProviderEntry] = []
    for capability in settings_facts.CAPABILITY_FIELDS:
        found = _field(settings, capability)
        value = found.value if found is not None else None
        provider = value.get("provider") if isinstance(value, dict) else None
        if not isinstance(provider, str):
            continue
        w_value = to_python(workspace.value(capability)) if workspace.value(capability) is not None else None
        from_workspace = isinstance(w_value, dict) and w_value.get("provider") == provider and trusted
        origin: Origin = "workspace" if from_workspace else "personal"
        source = workspace if from_workspace else personal
        node = source.value(capability)
        place = None
        if isinstance(node, JsonObject) and (member := node.get("provider")) is not None and source.document:
            start = source.document.key_range(member).start
            place = Place(source.path, start.line, start.character)
        steps = [Step("discovered", True, f"{capability}.provider in {origin} settings")]
        plugin = None
        if provider not in inputs.plugins:
            steps.append(Step("plugin installed", False, f"no plugin named {provider} is installed"))
            state = INERT
        elif provider not in active:
            steps.append(Step("plugin installed", True, "installed:", inputs.plugins[provider].directory))
            steps.append(Step("enabled", False, f"plugin {provider} is not active"))
            state = INERT
        else:
            declared = _manifest_map(manifests[provider], "capabilityExecutables")
            steps.append(Step("plugin installed", True, "installed:", inputs.plugins[provider].directory))
            steps.append(Step("enabled", True, f"plugin {provider} is active"))
            if declared is None or declared.get(capability) is None:
                steps.append(
                    Step(
                        "provider selected", False, f"plugin {provider} declares no {capability} capability executable"
                    )
                )
                state = INERT
            else:
                steps.append(Step("provider selected", True, f"plugin {provider} serves {capability}"))
                plugin = provider
                state = ACTIVE
        entries.append(ProviderEntry(capability, provider, origin, plugin, state, place, tuple(steps)))
    return tuple(entries)
