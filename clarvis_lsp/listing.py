"""The effective skills of a workspace: which copy of each name wins, and the copies it shadows.

One view of the registry for both front ends: ``clarvis-lsp --list`` prints it, and the language server answers
the ``clarvis/effectiveSkills`` request with it (the VS Code client's "Effective skills" tree), so the command line
and the editor can never disagree about which copy Clarvis loads.

Besides the winners and the copies they shadow, the view holds what a user looking for "my skill" would otherwise
not find: the copies skipped as within-root duplicates, the skills whose name Clarvis rejects (listed, marked as
not loaded), and the SKILL.md files discovery could not load at all (no frontmatter, no description, bad YAML).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from clarvis_lsp.discovery import PluginInfo, SkillInfo, SkillRegistry, SkillRoot, unloaded_plugins
from clarvis_lsp.knowledge.skill import NAME_MAX_LENGTH, NAME_PATTERN
from clarvis_lsp.workspace.plugin_skills import plugin_skills

if TYPE_CHECKING:
    from clarvis_lsp.workspace.discovered import Discovered


def origin_label(scope: str, source: str) -> str:
    """``scope/source`` as ``--list`` prints it (``workspace/clarvis``, or just ``workspace``)."""
    return f"{scope}/{source}" if source else scope


@dataclass(frozen=True)
class SkillCopy:
    """One copy of a skill: where it is and the root it was found in."""

    name: str
    path: Path
    scope: str
    source: str
    root_index: int
    root_path: str

    @property
    def label(self) -> str:
        return origin_label(self.scope, self.source)


@dataclass(frozen=True)
class SkippedCopy:
    """A copy of a name that was read but not loaded: a within-root duplicate, behind ``kept`` in its root."""

    copy: SkillCopy
    kept: Path


@dataclass(frozen=True)
class EffectiveSkill:
    """A skill name: the copy that wins, the copies it shadows (highest precedence first) and the within-root
    duplicates skipped. ``valid_name`` is False when Clarvis rejects the name itself (``skill/invalid-name``): it
    would not load the skill, whichever copy."""

    name: str
    winner: SkillCopy
    shadowed: tuple[SkillCopy, ...]
    skipped: tuple[SkippedCopy, ...] = ()
    valid_name: bool = True


@dataclass(frozen=True)
class UnloadedSkill:
    """A SKILL.md discovery found but could not load (no frontmatter, bad YAML, no name or description)."""

    path: Path
    scope: str
    source: str
    reason: str

    @property
    def label(self) -> str:
        return origin_label(self.scope, self.source)


@dataclass(frozen=True)
class WorkspaceSkills:
    """Every effective skill of one workspace, with the roots that were scanned (ascending precedence)."""

    directory: Path
    roots: tuple[SkillRoot, ...]
    skills: tuple[EffectiveSkill, ...]
    unloaded: tuple[UnloadedSkill, ...] = ()


def effective_skills(
    directory: Path,
    registry: SkillRegistry,
    unloaded_plugins: Sequence[PluginInfo] = (),
    *,
    overlay: Mapping[Path, str] | None = None,
    held_back_plugins: Sequence[PluginInfo] = (),
) -> WorkspaceSkills:
    """The registry's winners, shadowed and skipped copies, by name in sorted order, then what could not load: the
    SKILL.md files discovery could not read, the skills of the enabled plugins Clarvis does not load
    (``unloaded_plugins``, see ``PluginInfo.not_loaded``), which discovery skips, and those of the plugins only an
    untrusted workspace enables (``held_back_plugins``), which contribute nothing until it is trusted.
    ``overlay``: the open buffers discovery read, read again for those plugins' skills."""
    duplicates: dict[str, list[SkippedCopy]] = {}
    unloaded: list[UnloadedSkill] = []
    roots = registry.config.roots
    for plugin in unloaded_plugins:
        unloaded.extend(_plugin_skills_not_loaded(plugin, registry, overlay))
    for plugin in held_back_plugins:
        unloaded.extend(_plugin_skills_not_loaded(plugin, registry, overlay, reason=HELD_BACK_REASON))
    for item in registry.skipped:
        if item.skill is not None and item.warning.other is not None:
            duplicates.setdefault(item.skill.name, []).append(SkippedCopy(_copy(item.skill), item.warning.other))
        elif item.warning.root_index is not None and item.warning.root_index < len(roots):
            root = roots[item.warning.root_index]
            unloaded.append(UnloadedSkill(item.path, root.scope, root.source, _reason(item.warning.message)))
    skills: list[EffectiveSkill] = []
    for name in registry.names():
        winner = registry.winner(name)
        if winner is None:
            continue
        shadowed = tuple(_copy(loser) for loser in registry.shadowed(name))
        skipped = tuple(sorted(duplicates.get(name, ()), key=lambda item: -item.copy.root_index))
        valid = NAME_PATTERN.match(name) is not None and len(name) <= NAME_MAX_LENGTH
        skills.append(EffectiveSkill(name, _copy(winner), shadowed, skipped, valid))
    return WorkspaceSkills(directory, tuple(roots), tuple(skills), tuple(sorted(unloaded, key=lambda u: u.path)))


def discovered_skills(
    directory: Path, discovered: Discovered, overlay: Mapping[Path, str] | None = None
) -> WorkspaceSkills:
    """``effective_skills`` of one engine's discovery, in its trust state: ``--list`` and the editor's Effective
    skills view both ask this, so they list the same copies and the same plugins held back or not loaded."""
    return effective_skills(
        directory,
        discovered.registry,
        # A plugin Clarvis does not load is listed in either state, whichever list enables it.
        unloaded_plugins(discovered.plugins, [*discovered.plugins_in_force, *discovered.enabled_plugins]),
        overlay=overlay,
        held_back_plugins=[discovered.plugins[name] for name in discovered.held_back_plugins],
    )


def format_listing(
    workspaces: list[WorkspaceSkills],
    display: Callable[[Path], str],
    from_project_file: Mapping[Path, tuple[Path, int]] | None = None,
) -> str:
    """The ``--list`` text: a header per workspace with its roots, then ``name<TAB>path<TAB>scope/source`` for each
    winner (with a fourth column ``not loaded: invalid name`` when Clarvis rejects the name), an indented
    ``shadows`` line for each copy it hides and a ``skipped`` line for each within-root duplicate, then a
    ``(not loaded)`` line for each SKILL.md that could not be loaded, with the reason.

    ``from_project_file`` maps a workspace to the project file that set its ``roots`` and how many they are (the
    last of its roots: plugin roots come first): those roots are marked, since a repository's project file can
    name any directory on the disk and each is read as given."""
    lines: list[str] = []
    for workspace in workspaces:
        lines.append(f"# workspace {display(workspace.directory)}")
        project = (from_project_file or {}).get(workspace.directory)
        first_from_project = len(workspace.roots) - project[1] if project is not None else len(workspace.roots)
        for index, root in enumerate(workspace.roots):
            line = f"#   root {index}: {display(Path(root.path))} ({origin_label(root.scope, root.source)})"
            if project is not None and index >= first_from_project:
                line += f" from {display(project[0])}"
            lines.append(line)
        for skill in workspace.skills:
            line = f"{skill.name}\t{display(skill.winner.path)}\t{skill.winner.label}"
            lines.append(line if skill.valid_name else f"{line}\tnot loaded: invalid name")
            lines.extend(f"  shadows\t{display(loser.path)}\t{loser.label}" for loser in skill.shadowed)
            lines.extend(
                f"  skipped\t{display(item.copy.path)}\t{item.copy.label}\tduplicate: {display(item.kept)} comes first"
                for item in skill.skipped
            )
        lines.extend(f"(not loaded)\t{display(item.path)}\t{item.label}\t{item.reason}" for item in workspace.unloaded)
    return "\n".join(lines) + "\n"


HELD_BACK_REASON = "held back: only the workspace settings enable this plugin, until /workspace-trust"


def _plugin_skills_not_loaded(
    plugin: PluginInfo, registry: SkillRegistry, overlay: Mapping[Path, str] | None, *, reason: str | None = None
) -> list[UnloadedSkill]:
    """Each SKILL.md in the ``skills/`` of a plugin Clarvis does not load (``workspace.plugin_skills``: open
    buffers first, a duplicate or malformed one too), with why."""
    reason = reason or f"not loaded: {plugin.not_loaded}"
    found = plugin_skills(registry, plugin.directory, overlay, scope=plugin.scope)
    return [UnloadedSkill(path, plugin.scope, f"plugin:{plugin.name}", reason) for path in found.files]


def _reason(message: str) -> str:
    """A discovery warning's message without the path it starts with, for a column of its own."""
    head, colon, rest = message.partition(": ")
    return rest if colon and ("/" in head or "\\" in head) else message


def _copy(info: SkillInfo) -> SkillCopy:
    return SkillCopy(info.name, info.path, info.scope, info.source, info.root_index, info.root.path)
