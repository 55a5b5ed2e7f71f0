"""The skills of a plugin: what its ``skills/`` directory contributes, with the editor's open buffers first.

Hover and completion in a ``plugin.json``, go-to-definition of its ``bootstrapSkill``, ``--list`` (the skills of a
plugin Clarvis does not load) and the effective configuration (what each plugin contributes) all ask this one
question, so they must give one answer. It is the answer discovery gives for a root: the frontmatter names of
the well-formed skills, the first directory in sorted order winning a name, each SKILL.md read from its open
buffer when there is one (a renamed skill or a new SKILL.md counts before it is saved). When the plugin is
enabled its ``skills/`` is one of discovery's roots and that scan is reused; otherwise the one small directory is
scanned now, the way discovery would.

It takes discovery's results and the buffers as arguments and keeps no state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery import RootScan, SkillInfo, SkillRegistry, SkillScope

__all__ = ["PluginSkills", "plugin_skills"]


@dataclass(frozen=True)
class PluginSkills:
    """What one plugin's ``skills/`` directory holds, read as discovery reads a root."""

    skills: Mapping[str, SkillInfo]
    """The skills it contributes, by frontmatter name in name order (a within-root duplicate is not one)."""
    files: tuple[Path, ...]
    """Every SKILL.md read there, in path order: the skills', a duplicate's, and one that cannot load."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.skills)


def plugin_skills(
    registry: SkillRegistry,
    plugin_dir: Path,
    overlay: Mapping[Path, str] | None = None,
    *,
    scope: SkillScope = "workspace",
) -> PluginSkills:
    """The skills of the plugin in ``plugin_dir``: from ``registry`` when discovery scanned its ``skills/`` (the
    plugin is enabled), else from a scan of that directory alone under the registry's options, reading
    ``overlay`` (the open buffers) before the disk (``SkillRegistry.plugin_scan``). ``scope`` is the plugin's,
    for a directory scanned here."""
    return _of(registry.plugin_scan(plugin_dir, overlay, scope=scope))


def _of(scan: RootScan) -> PluginSkills:
    skills = {name: scan.skills[name] for name in sorted(scan.skills)}
    files = sorted({*(info.path for info in skills.values()), *(skipped.path for skipped in scan.skipped)})
    return PluginSkills(skills, tuple(files))
