"""The ``discovery/*`` rules: which copy of a skill wins across ordered roots, and which copies never load.

These findings are cross-file: each one sits on one copy's ``name`` and points (``related``) at the copy that
decides its fate, so an editor can jump between them and the CLI can print both places.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from clarvis_lsp.discovery import DiscoveryWarning, SkillInfo, SkillRegistry
from clarvis_lsp.documents.skill import SkillDocument
from clarvis_lsp.findings import Diagnostic, Range, Related, Severity
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule

DUPLICATE_NAME = rule(
    "discovery/duplicate-name",
    Severity.WARNING,
    "Another directory of the same root declares this name; this copy is skipped (an error in strict mode).",
    why="Within one root the first directory in sorted order wins and the others are silently skipped, so "
    "edits to this copy have no effect. With `strict`, Clarvis refuses to start.",
    example=".clarvis/skills/a/SKILL.md and .clarvis/skills/b/SKILL.md both with `name: review`",
    fix="Rename one of the skills, or delete the copy you do not want.",
    file_kind="skill",
)
SHADOWED = rule(
    "discovery/shadowed",
    Severity.WARNING,
    "A higher-precedence root has a skill of this name: this copy is never loaded.",
    why="Roots are ordered and the last one wins: a personal `~/.clarvis/skills/review` hides the workspace's "
    "`.agents/skills/review`, so changes here never reach the agent.",
    example="~/.clarvis/skills/review/SKILL.md and .agents/skills/review/SKILL.md, both `name: review`",
    fix="Rename this skill if both should exist, or remove the copy you no longer want.",
    file_kind="skill",
)
OVERRIDES = rule(
    "discovery/overrides",
    Severity.INFORMATION,
    "This skill overrides lower-precedence copies of the same name.",
    why="An override is normal precedence, not an error, but it is easy to forget that another copy exists.",
    example=".clarvis/skills/review/SKILL.md overriding ~/.clarvis/skills/review/SKILL.md",
    fix="Nothing to fix when intended; otherwise rename this skill.",
    file_kind="skill",
)
SYMLINK_IGNORED = rule(
    "discovery/symlink-ignored",
    Severity.INFORMATION,
    "`followSymlinks` is false and this skill directory, manifest or resource is a symlink, so it is ignored.",
    why="With symlinks off, Clarvis neither reads nor follows them: the linked skill or resource is not there "
    "for the agent.",
    example=".clarvis/skills/shared -> ../../shared-skills/shared   (with followSymlinks = false)",
    fix="Copy the files in place, or turn `followSymlinks` on.",
    file_kind="skill",
)

UNREADABLE = rule(
    "discovery/unreadable",
    Severity.WARNING,
    "A skill directory, SKILL.md, resource or other recognised file cannot be read, so Clarvis cannot load it.",
    why="A permission problem, a broken symlink or a file that is not a regular file (a FIFO, a device) makes the "
    "skill or setting vanish at run time without an error.",
    example=".clarvis/skills/deploy/SKILL.md -> ../missing/SKILL.md   (a broken symlink)",
    fix="Fix the permissions, the symlink or the file type so the file can be read.",
    file_kind="skill",
)


def name_range(document: SkillDocument | None) -> Range:
    """Where a skill's identity is written: its `name` value, else the first line."""
    if document is None:
        return Range.point(0, 0)
    entry = document.entry("name")
    return entry.value_range if entry is not None else document.first_line_range()


def skill_name_range(skill: SkillInfo) -> Range:
    """Where a loaded copy's name is written, without parsing its document when discovery saw where
    (``SkillInfo.name_at``): at the first scan, thousands of shadowed copies are reported and none is parsed."""
    if skill.name_at is not None:
        line, start, end = skill.name_at
        return Range.of(line, start, line, end)
    return name_range(skill.document)


def _describe(skill: SkillInfo) -> str:
    source = f"/{skill.source}" if skill.source else ""
    return f"{skill.scope}{source} root #{skill.root_index}"


def check_discovery(registry: SkillRegistry, *, strict: bool, names: Iterable[str] | None = None) -> list[Diagnostic]:
    """The discovery findings of a registry, on whichever file they concern.

    With ``names``, only the findings about those skill names (an edit changes the findings of the names it
    touches and no others, so the language server re-checks those alone).
    """
    found: list[Diagnostic] = []
    only = None if names is None else set(names)
    for name in registry.contested() if only is None else sorted(only):
        winner = registry.winner(name)
        if winner is None:
            continue
        losers = registry.shadowed(name)
        if not losers:
            continue
        for loser in losers:
            findings = Findings(loser.path)
            findings.add(
                SHADOWED.code,
                skill_name_range(loser),
                f'Shadowed by {winner.path} ({_describe(winner)}): this copy of "{name}" is never loaded. '
                "Rename it, or remove the copy you no longer want.",
                related=[Related(winner.path, skill_name_range(winner), f'the winning copy of "{name}"')],
                data={"winner": str(winner.path)},
            )
            found.extend(findings.items)
        findings = Findings(winner.path)
        count = len(losers)
        findings.add(
            OVERRIDES.code,
            skill_name_range(winner),
            f'Overrides {count} lower-precedence {"copy" if count == 1 else "copies"} of "{name}": '
            + ", ".join(str(loser.path) for loser in losers)
            + ".",
            related=[
                Related(loser.path, skill_name_range(loser), f"shadowed copy ({_describe(loser)})") for loser in losers
            ],
            data={"shadowed": [str(loser.path) for loser in losers]},
        )
        found.extend(findings.items)
    if only is None:
        found.extend(_warning_findings(registry.warnings, registry, strict=strict))
        return found
    for name in sorted(only):
        for _root, group in registry.declaring(name):
            for duplicate in group[1:]:
                found.append(_duplicate_finding(duplicate.path, duplicate.document, group[0], strict=strict))
    return found


def _duplicate_finding(
    path: Path, document: SkillDocument | None, kept: SkillInfo | None, *, strict: bool, kept_path: Path | None = None
) -> Diagnostic:
    kept_path = kept.path if kept is not None else kept_path
    assert kept_path is not None
    findings = Findings(path)
    findings.add(
        DUPLICATE_NAME.code,
        name_range(document),
        f"{kept_path.parent.name}/ in the same root declares the same name and comes first in "
        "sorted order: this copy is skipped. Rename one of the two skills.",
        severity=Severity.ERROR if strict else Severity.WARNING,
        related=[Related(kept_path, name_range(kept.document if kept else None), "the copy that is kept")],
    )
    return findings.items[0]


def manifest_findings(warnings: Iterable[DiscoveryWarning]) -> list[Diagnostic]:
    """``discovery/symlink-ignored`` and ``discovery/unreadable`` for what the skill scan does not see: a plugin
    directory or manifest, a settings file, a marketplace, an agent file."""
    return _warning_findings([warning for warning in warnings if warning.kind != "duplicate"], None, strict=False)


def _warning_findings(
    warnings: Iterable[DiscoveryWarning], registry: SkillRegistry | None, *, strict: bool
) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for warning in warnings:
        findings = Findings(Path(warning.path))
        if warning.kind == "duplicate" and warning.other is not None and registry is not None:
            kept = registry.by_path(Path(warning.other))
            skipped_document = _skipped_document(registry, Path(warning.path))
            findings.items.append(
                _duplicate_finding(
                    Path(warning.path), skipped_document, kept, strict=strict, kept_path=Path(warning.other)
                )
            )
        elif warning.kind == "unreadable":
            findings.add(UNREADABLE.code, Range.point(0, 0), f"{warning.message}: Clarvis cannot load it.")
        elif warning.kind == "symlink-ignored":
            findings.add(
                SYMLINK_IGNORED.code,
                Range.point(0, 0),
                f"{warning.message} (followSymlinks is false): Clarvis ignores it.",
            )
        found.extend(findings.items)
    return found


def _skipped_document(registry: SkillRegistry, path: Path) -> SkillDocument | None:
    skipped = registry.skipped_by_path(path)
    if skipped is None:
        return None
    return skipped.skill.document if skipped.skill is not None else skipped.document


def paths_of_name(registry: SkillRegistry, name: str) -> set[Path]:
    """Every SKILL.md that declares ``name``: loaded copies and within-root duplicates that were skipped."""
    return {skill.path for _root, group in registry.declaring(name) for skill in group}


def names_at(registry: SkillRegistry, path: Path) -> set[str]:
    """The skill name declared at ``path`` as the registry knows it (loaded or skipped), if any."""
    name = registry.declared_name(path)
    return {name} if name is not None else set()
