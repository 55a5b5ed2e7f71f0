"""The bundled examples against the JSON Schemas: the schemas and the rules must agree on what is valid.

Editors that validate JSON themselves (VS Code's ``jsonValidation``) use the schemas; ``--check`` and the server
use the rules. A file one of them accepts and the other rejects would show different problems in different
tools, so every example is checked both ways.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.schema_docs import validator

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# The skill rules that say the same as the frontmatter schema (the others need more than one file to decide).
SCHEMA_SKILL_CODES = {
    "skill/missing-name",
    "skill/invalid-name",
    "skill/missing-description",
    "skill/unknown-field",
    "skill/invalid-field-type",
}
SCHEMA_OF = {
    "settings.json": "settings",
    "plugin.json": "plugin",
    "hooks.json": "hooks",
    "marketplace.json": "marketplace",
}


@pytest.fixture(scope="module")
def findings_by_path(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, set[str]]:
    home = tmp_path_factory.mktemp("home")
    report = check_paths(CheckRequest(paths=[str(EXAMPLES)], cwd=EXAMPLES, home=home))
    found: dict[Path, set[str]] = {}
    for diagnostic in report.result.diagnostics:
        found.setdefault(diagnostic.path, set()).add(diagnostic.code)
    return found


SKILLS = sorted(EXAMPLES.rglob("SKILL.md"))


@pytest.mark.parametrize("path", SKILLS, ids=[str(p.relative_to(EXAMPLES)) for p in SKILLS])
def test_skill_frontmatter_schema_agrees_with_the_rules(path: Path, findings_by_path: dict[Path, set[str]]) -> None:
    document = parse_skill(path, path.read_text(encoding="utf-8"))
    if not document.frontmatter_ok:
        pytest.skip("no frontmatter mapping to validate (skill/no-frontmatter or skill/invalid-yaml)")
    errors = list(validator("skill-frontmatter").iter_errors(document.fields()))
    rule_codes = findings_by_path.get(path, set()) & SCHEMA_SKILL_CODES
    assert bool(errors) == bool(rule_codes), (errors, rule_codes)


def test_some_example_skills_are_valid() -> None:
    valid = [
        path
        for path in SKILLS
        if (document := parse_skill(path, path.read_text(encoding="utf-8"))).frontmatter_ok
        and not list(validator("skill-frontmatter").iter_errors(document.fields()))
    ]
    assert len(valid) >= 3  # code-review, release-notes, the plugin's lint-fix, …


JSON_FILES = sorted(path for name in SCHEMA_OF for path in EXAMPLES.rglob(name))


@pytest.mark.parametrize("path", JSON_FILES, ids=[str(p.relative_to(EXAMPLES)) for p in JSON_FILES])
def test_json_examples_are_rejected_by_both(path: Path, findings_by_path: dict[Path, set[str]]) -> None:
    """Each JSON example holds deliberate mistakes: the schema rejects it and the rules report them."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(validator(SCHEMA_OF[path.name]).iter_errors(data))
    assert findings_by_path.get(path)
