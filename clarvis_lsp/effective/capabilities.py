"""The capability executables of the installed plugins (``capabilityExecutables`` in plugin.json): what Clarvis
would start for each capability, and whether it is selected.

The seed (``clarvis-extensions-reference``, "Executáveis de capacidade"): ``command`` is required, ``args`` and
``env`` default to empty collections and ``timeout_ms`` to 30000; ``platforms`` maps a platform (``win32``,
``darwin``, ``linux``) to overrides of those fields. A capability service stays inert until the plugin is enabled
and selected as that capability's provider (``memory.provider``, ``plans.provider``, ``tasks.provider``). The
model shows each executable with the defaults it leaves out and the override in effect on this platform, so
nothing Clarvis would run is hidden in a default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clarvis_lsp.documents.jsondoc import JsonObject, to_python
from clarvis_lsp.effective.entries import (
    ACTIVE,
    INERT,
    CapabilityEntry,
    Inputs,
    Place,
    ProviderEntry,
    Step,
)
from clarvis_lsp.effective.sources import _Manifest, _manifest_map
from clarvis_lsp.knowledge import settings as settings_facts

DEFAULTS: Mapping[str, object] = {"args": [], "env": {}, "timeout_ms": 30000}
"""What Clarvis uses for a field an executable leaves out (``command`` has no default: it is required)."""

OVERRIDABLE = ("command", "args", "env", "timeout_ms")


def _capabilities(
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    loaded: set[str],
    active: Sequence[str],
    providers: Sequence[ProviderEntry],
) -> tuple[CapabilityEntry, ...]:
    """Every capability executable of every plugin Clarvis loads, active plugins first (in precedence order)."""
    selected = {provider.capability: provider for provider in providers}
    entries: list[CapabilityEntry] = []
    for name in [*active, *sorted(loaded - set(active))]:
        manifest = manifests[name]
        executables = _manifest_map(manifest, "capabilityExecutables")
        if executables is None or manifest.document is None or name not in inputs.plugins:
            continue
        for member in executables.members:
            if not isinstance(member.value, JsonObject):
                continue  # plugin/invalid-executable reports it; nothing here would start
            start = manifest.document.key_range(member).start
            place = Place(inputs.plugins[name].manifest or inputs.plugins[name].directory, start.line, start.character)
            entries.append(_entry(name, member.key, member.value, place, inputs.platform, name in active, selected))
    return tuple(entries)


def _entry(
    plugin: str,
    capability: str,
    executable: JsonObject,
    place: Place,
    platform: str,
    plugin_active: bool,
    selected: Mapping[str, ProviderEntry],
) -> CapabilityEntry:
    declared = {
        key: to_python(value) for key, value in ((m.key, m.value) for m in executable.members) if value is not None
    }
    fields = {key: declared[key] for key in OVERRIDABLE if key in declared}
    defaults = tuple(f"{key} {_shown(value)}" for key, value in DEFAULTS.items() if key not in fields)
    for key, value in DEFAULTS.items():
        fields.setdefault(key, value)
    platforms = declared.get("platforms")
    override: tuple[str, ...] = ()
    others: tuple[str, ...] = ()
    if isinstance(platforms, dict):
        here = platforms.get(platform)
        if isinstance(here, dict):
            override = tuple(key for key in OVERRIDABLE if key in here)
            fields.update({key: here[key] for key in override})
        others = tuple(sorted(key for key in platforms if key != platform))
    steps = [Step("discovered", True, f"capabilityExecutables.{capability} of plugin {plugin}:", place.path)]
    provider = selected.get(capability)
    field = f"{capability}.provider" if capability in settings_facts.CAPABILITY_FIELDS else None
    state = INERT
    if not plugin_active:
        steps.append(Step("enabled", False, f"plugin {plugin} is not active"))
    elif field is None:
        steps.append(Step("enabled", True, f"plugin {plugin} is active"))
        steps.append(Step("provider selected", False, f"no settings field selects a {capability} provider"))
    elif provider is None or provider.provider != plugin:
        steps.append(Step("enabled", True, f"plugin {plugin} is active"))
        chosen = f"names {provider.provider}" if provider is not None and provider.provider else "is not set"
        steps.append(Step("provider selected", False, f"{field} {chosen} in the settings in force"))
    else:
        steps.append(Step("enabled", True, f"plugin {plugin} is active"))
        steps.append(Step("provider selected", True, f"selected by {field} in {provider.origin} settings"))
        state = ACTIVE
    return CapabilityEntry(
        plugin,
        capability,
        fields.get("command"),
        fields["args"],
        fields["env"],
        fields["timeout_ms"],
        defaults,
        platform,
        override,
        others,
        state,
        field,
        place,
        tuple(steps),
    )


def _shown(value: object) -> str:
    return "[]" if value == [] else "{}" if value == {} else str(value)
