"""Every copy of every skill: the winner of each name, the shadowed copies, and the state of a plugin's skills
(which follows its plugin in each trust state).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from clarvis_lsp.discovery import SkillInfo, SkillRegistry
from clarvis_lsp.effective.entries import (
    ACTIVE,
    HELD_BACK,
    NOT_LOADED,
    PLUGIN_NOT_ENABLED,
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


def _skill_groups(registry: SkillRegistry) -> dict[str, list[SkillInfo]]:
    """Every loaded copy by name, winner first then by descending precedence, in one pass over the roots (asking
    the registry name by name walks every root for each name)."""
    groups: dict[str, list[SkillInfo]] = {}
    for scan in reversed(registry.scans):
        for name, info in scan.skills.items():
            groups.setdefault(name, []).append(info)
    return groups


def _label(info: SkillInfo) -> str:
    return f"{info.scope}/{info.source}" if info.source else info.scope


def _skills(groups: Mapping[str, list[SkillInfo]]) -> tuple[SkillEntry, ...]:
    """Every copy of every skill, winners active (or not loaded for a name Clarvis rejects): the same in both
    states but for a plugin's skills, which ``_plugin_skill_states`` settles per state."""
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
    return tuple(entries)


def _plugin_skill_states(
    skills: tuple[SkillEntry, ...], active: Sequence[str], enabled_trusted: Sequence[str]
) -> tuple[SkillEntry, ...]:
    """The winning skills of plugins: active with their plugin, else held back or not enabled."""
    active_set = set(active)

    def settled(entry: SkillEntry) -> SkillEntry:
        if entry.winner is not None or not entry.valid or not entry.source.startswith("plugin:"):
            return entry
        plugin = entry.source[len("plugin:") :]
        if plugin in active_set:
            return replace(entry, plugin_active=True)
        state = HELD_BACK if plugin in enabled_trusted else PLUGIN_NOT_ENABLED
        return replace(entry, state=state, plugin_active=False)

    return tuple(settled(entry) for entry in skills)
