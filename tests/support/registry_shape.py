"""Everything a registry tells its users, as plain values: two registries with equal shapes are the same answer.

Shared by the tests that read a root in more than one process (``--check``'s forked children, the server's scan
helper) and compare the result with one process reading it alone.
"""

from __future__ import annotations

from clarvis_lsp.discovery import SkillRegistry


def registry_shape(registry: SkillRegistry, *, name_at: bool = True) -> dict[str, object]:
    """``name_at``: with where each name is written as the quick look found it (``SkillInfo.name_at``), which a
    record read with a full parse does not carry."""
    return {
        "names": registry.names(),
        "winners": [(skill.name, skill.path, skill.description, skill.resources) for skill in registry.skills()],
        "all": [
            (
                skill.name,
                skill.description,
                skill.path,
                skill.directory,
                skill.root,
                skill.scope,
                skill.resources,
                skill.name_at if name_at else None,
            )
            for skill in registry.all_skills()
        ],
        "documents": [
            (skill.document.text, [(entry.key, entry.key_range, entry.value_range) for entry in skill.document.entries])
            for skill in registry.all_skills()
        ],
        "skipped": [
            (item.path, item.warning, item.skill, item.document.text if item.document else None)
            for item in registry.skipped
        ],
        "warnings": list(registry.warnings),
    }
