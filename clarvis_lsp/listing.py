"""The effective skills of a workspace: which copy of each name wins, and the copies it shadows.

One view of the registry for both front ends: ``clarvis-lsp --list`` prints it, and the language server answers
the ``clarvis/effectiveSkills`` request with it (the VS Code client's "Effective skills" tree), so the command line
and the editor can never disagree about which copy Clarvis loads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery import SkillInfo, SkillRegistry, SkillRoot


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
        """``scope/source`` as ``--list`` prints it (``workspace/clarvis``, or just ``workspace``)."""
        return f"{self.scope}/{self.source}" if self.source else self.scope


@dataclass(frozen=True)
class EffectiveSkill:
    """A skill name: the copy that wins and the copies it shadows, highest precedence first."""

    name: str
    winner: SkillCopy
    shadowed: tuple[SkillCopy, ...]


@dataclass(frozen=True)
class WorkspaceSkills:
    """Every effective skill of one workspace, with the roots that were scanned (ascending precedence)."""

    directory: Path
    roots: tuple[SkillRoot, ...]
    skills: tuple[EffectiveSkill, ...]


def effective_skills(directory: Path, registry: SkillRegistry) -> WorkspaceSkills:
    """The registry's winners and shadowed copies, by name in sorted order."""
    skills: list[EffectiveSkill] = []
    for name in registry.names():
        winner = registry.winner(name)
        if winner is None:
            continue
        shadowed = tuple(_copy(loser) for loser in registry.shadowed(name))
        skills.append(EffectiveSkill(name, _copy(winner), shadowed))
    return WorkspaceSkills(directory, tuple(registry.config.roots), tuple(skills))


def format_listing(workspaces: list[WorkspaceSkills], display: Callable[[Path], str]) -> str:
    """The ``--list`` text: a header per workspace with its roots, then ``name<TAB>path<TAB>scope/source`` for each
    winner and an indented ``shadows`` line for each copy it hides."""
    lines: list[str] = []
    for workspace in workspaces:
        lines.append(f"# workspace {display(workspace.directory)}")
        for index, root in enumerate(workspace.roots):
            label = f"{root.scope}/{root.source}" if root.source else root.scope
            lines.append(f"#   root {index}: {root.path} ({label})")
        for skill in workspace.skills:
            lines.append(f"{skill.name}\t{display(skill.winner.path)}\t{skill.winner.label}")
            lines.extend(f"  shadows\t{display(loser.path)}\t{loser.label}" for loser in skill.shadowed)
    return "\n".join(lines) + "\n"


def _copy(info: SkillInfo) -> SkillCopy:
    return SkillCopy(info.name, info.path, info.scope, info.source, info.root_index, info.root.path)
