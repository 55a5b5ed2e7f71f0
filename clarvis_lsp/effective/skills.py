"""Every copy of every skill in one trust state: the winner of each name, the shadowed copies, and the skills
of the plugins held back until trust.

Which copy wins depends on the state: untrusted, the workspace's ``enabledPlugins`` is held back and the personal
list is in force, so a plugin only the workspace enables contributes nothing (it can neither win nor shadow) and
one only the personal list enables does. The copies are therefore put in order here, per state, from the
standalone roots' scans and the active plugins' ``skills/`` scans (``SkillRegistry.plugin_scan``: discovery's
scan when the engine's state made it a root, else a scan of that one directory), rather than read off the
registry's winners, which answer for the engine's state only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from clarvis_lsp.discovery import PluginInfo, RootScan, SkillInfo, SkillRegistry
from clarvis_lsp.effective.entries import (
    ACTIVE,
    HELD_BACK,
    NOT_LOADED,
    SHADOWED,
    SkillEntry,
)
from clarvis_lsp.effective.sources import (
    _scope_word,
)
from clarvis_lsp.knowledge.skill import NAME_MAX_LENGTH, NAME_PATTERN


def _user_invocable(info: SkillInfo) -> bool:
    """``user-invocable`` (default true). The frontmatter's values are built only when the text mentions it."""
    if "user-invocable" not in info.parsed.text:
        return True
    return info.frontmatter.get("user-invocable", True) is not False


PLUGIN_SOURCE = "plugin:"  # the source of a plugin's skills root (``discovery.plugin_skill_roots``)


def plugin_scans(registry: SkillRegistry, plugins: Sequence[PluginInfo], overlay: Mapping[Path, str]) -> list[RootScan]:
    """The ``skills/`` scan of each plugin, in the order given (ascending precedence)."""
    return [registry.plugin_scan(plugin.directory, overlay, scope=plugin.scope) for plugin in plugins]


def _skill_groups(registry: SkillRegistry, active_plugins: Sequence[RootScan]) -> dict[str, list[SkillInfo]]:
    """Every loaded copy by name, winner first then by descending precedence, in one pass over the roots (asking
    the registry name by name walks every root for each name): the active plugins' skills (``active_plugins``,
    ascending) below every standalone root, as discovery orders them."""
    standalone = [scan for scan in registry.scans if not scan.root.source.startswith(PLUGIN_SOURCE)]
    groups: dict[str, list[SkillInfo]] = {}
    for scan in reversed([*active_plugins, *standalone]):
        for name, info in scan.skills.items():
            groups.setdefault(name, []).append(info)
    return groups


def _label(info: SkillInfo) -> str:
    return f"{info.scope}/{info.source}" if info.source else info.scope


def _skills(
    registry: SkillRegistry, active_plugins: Sequence[RootScan], held_back_plugins: Sequence[RootScan]
) -> tuple[SkillEntry, ...]:
    """Every copy of every skill in one state, winners active (or not loaded for a name Clarvis rejects), then
    the skills of the plugins held back until trust (``held_back_plugins``), which neither win nor shadow."""
    groups = _skill_groups(registry, active_plugins)
    entries: list[SkillEntry] = []
    for name in sorted(groups):
        copies = groups[name]
        winner = copies[0]
        valid = NAME_PATTERN.match(name) is not None and len(name) <= NAME_MAX_LENGTH
        label = _label(winner)
        entries.append(
            SkillEntry(
                name,
                winner.path,
                label,
                _scope_word(winner.scope),
                winner.source,
                ACTIVE if valid else NOT_LOADED,
                len(copies),
                tuple(copy.path for copy in copies[1:]),
                _user_invocable(winner),
                valid=valid,
                plugin_active=True if winner.source.startswith(PLUGIN_SOURCE) else None,
            )
        )
        for copy in copies[1:]:
            entries.append(
                SkillEntry(
                    name,
                    copy.path,
                    _label(copy),
                    _scope_word(copy.scope),
                    copy.source,
                    SHADOWED,
                    len(copies),
                    (),
                    True,
                    winner=winner.path,
                    winner_label=label,
                )
            )
    for scan in held_back_plugins:
        for name in sorted(scan.skills):
            info = scan.skills[name]
            entries.append(
                SkillEntry(
                    name,
                    info.path,
                    _label(info),
                    _scope_word(info.scope),
                    info.source,
                    HELD_BACK,
                    1,
                    (),
                    _user_invocable(info),
                    plugin_active=False,
                    held_back=True,
                )
            )
    return tuple(entries)
