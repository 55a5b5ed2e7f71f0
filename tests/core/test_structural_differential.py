"""The schema-driven structural checks report exactly what the hand-written rules reported before them.

``golden/structural.json`` holds the findings (code, range, severity, message, related, fixes) of every document
of the corpus (``structural_corpus.py``: the examples, the JSON fixtures of the rule tests, and mutants of both,
each checked as every JSON kind), recorded by ``golden/make_golden.py`` before the change. Each document is
checked again through ``check_text``, the facade both front ends use, and must give the same findings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from structural_corpus import GOLDEN, KIND_PATHS, Sample, findings_of, make_workspace, samples

CORPUS = samples()


@pytest.fixture(scope="module")
def golden() -> dict[str, list[dict[str, Any]]]:
    recorded: dict[str, list[dict[str, Any]]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return recorded


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("structural").resolve()
    make_workspace(directory)
    return directory


def test_the_corpus_covers_every_kind_and_the_mistakes() -> None:
    """The corpus is large enough to mean something: every kind, and mutants beside the base documents."""
    assert {sample.kind for sample in CORPUS} == set(KIND_PATHS)
    assert len(CORPUS) > 2000


def test_the_golden_file_records_every_document_of_the_corpus(golden: dict[str, list[dict[str, Any]]]) -> None:
    missing = [sample.key for sample in CORPUS if sample.key not in golden]
    assert not missing, "the corpus changed: re-record golden/structural.json on the code before the change"


@pytest.mark.parametrize("kind", sorted(KIND_PATHS))
def test_findings_are_identical_to_the_recorded_ones(
    kind: str, golden: dict[str, list[dict[str, Any]]], base: Path
) -> None:
    differences: list[str] = []
    for sample in (sample for sample in CORPUS if sample.kind == kind):
        now = findings_of(sample, base)
        before = golden.get(sample.key)
        if before is not None and now != before:
            differences.append(_difference(sample, before, now))
    assert not differences, f"{len(differences)} documents differ; the first:\n" + "\n".join(differences[:3])


def test_the_recorded_findings_include_structural_errors_of_every_kind(
    golden: dict[str, list[dict[str, Any]]],
) -> None:
    """The comparison would be empty if the corpus held only valid documents: it holds the errors under test."""
    codes = {finding["code"] for findings in golden.values() for finding in findings}
    for code in (
        "marketplace/invalid-value",
        "marketplace/entry-omitted",
        "marketplace/unknown-field",
        "plugin/invalid-value",
        "plugin/invalid-executable",
        "plugin/invalid-run-policy",
        "settings/unknown-field",
        "hooks/invalid-value",
        "mcp/invalid-value",
    ):
        assert code in codes


def _difference(sample: Sample, before: list[dict[str, Any]], now: list[dict[str, Any]]) -> str:
    gone = [finding for finding in before if finding not in now]
    new = [finding for finding in now if finding not in before]
    return f"--- {sample.kind} document:\n{sample.text}\n--- no longer reported: {gone}\n--- newly reported: {new}"
