"""The rule steps' declared codes: the runner skips a step none of whose codes is enabled, so a step that reports a
code it does not declare would go silent under ``--select`` of that code. Each JSON step is run alone over the
structural corpus (the examples, the rule tests' documents and their mutants, each as every JSON kind) and may
report only what it declares."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from structural_corpus import KIND_PATHS, make_workspace, samples

from clarvis_lsp.config.project import config_from_mapping
from clarvis_lsp.documents.jsondoc import parse_json
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.rules import runner
from clarvis_lsp.rules.base import Findings, RuleStep
from clarvis_lsp.rules.catalogue import KNOWN_CODES
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.workspace.engine import WorkspaceEngine

REPO = Path(__file__).resolve().parents[2]


def test_every_step_declares_known_codes() -> None:
    tables: list[Sequence[RuleStep[Any, Any]]] = [runner.SKILL_RULES, runner.agent_rules()]
    for steps in [*tables, *runner.json_rules().values()]:
        for step in steps:
            assert step.codes and set(step.codes) <= KNOWN_CODES, step.name
        assert len({step.name for step in steps}) == len(steps)  # internal/rule-failed names the step


def _annotated_codes(value: Any) -> set[str]:
    if isinstance(value, dict):
        own = {entry["code"] for entry in value.get("x-clarvis-errors", [])}
        return own.union(*(_annotated_codes(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_annotated_codes(item) for item in value))
    return set()


@pytest.mark.parametrize("kind", [FileKind.SETTINGS, FileKind.PLUGIN, FileKind.MARKETPLACE])
def test_each_structure_step_declares_its_schemas_codes(kind: FileKind) -> None:
    schema = json.loads((REPO / "schemas" / f"{kind.value}.schema.json").read_text(encoding="utf-8"))
    (step,) = [step for step in runner.json_rules()[kind] if step.name == f"{kind.value}/structure"]
    assert _annotated_codes(schema) and _annotated_codes(schema) <= set(step.codes)


@pytest.fixture(scope="module")
def contexts(tmp_path_factory: pytest.TempPathFactory) -> dict[FileKind, JsonFileContext]:
    base = tmp_path_factory.mktemp("steps").resolve()
    make_workspace(base)
    engine = WorkspaceEngine(directory=base / "ws", config=config_from_mapping({}), home=base / "home")
    return {FileKind(kind): engine.json_context(base / relative) for kind, relative in KIND_PATHS.items()}


def test_each_json_step_reports_only_the_codes_it_declares(contexts: dict[FileKind, JsonFileContext]) -> None:
    table = runner.json_rules()
    undeclared: list[str] = []
    reported: set[str] = set()
    for sample in samples():
        kind = FileKind(sample.kind)
        context = contexts[kind]
        document = parse_json(sample.text)
        for step in table[kind]:
            findings = Findings(context.path)
            step.check(document, context, findings)
            codes = {item.code for item in findings.items}
            reported |= codes
            undeclared += [f"{step.name} reported {code}" for code in sorted(codes - set(step.codes))]
    assert not sorted(set(undeclared)), sorted(set(undeclared))
    assert len(reported) > 30  # the corpus reaches most of the JSON codes
