"""Completion and hover (``clarvis_lsp.editor``) at any position of arbitrary and mutated documents of every kind:
never an exception, every range they return lies inside the document and on the cursor's line."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_corpus import OPTIONS, Seed, assert_inside, build_workspace
from hypothesis import given
from hypothesis import strategies as st
from mutations import any_text, mutated_frontmatter, mutated_json, spliced

from clarvis_lsp.config.project import ProjectConfig, layered
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.completion import complete
from clarvis_lsp.editor.hover import hover
from clarvis_lsp.findings import Position
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.discovered import Discovered
from clarvis_lsp.workspace.engine import WorkspaceEngine


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Discovered, list[Seed]]:
    home, seeds = build_workspace(tmp_path_factory.mktemp("editor"))
    examples = seeds[0].path.parents[0]
    while examples.name != "examples":
        examples = examples.parent
    engine = WorkspaceEngine(directory=examples, config=layered(ProjectConfig(), OPTIONS), home=home, overlay={})
    return engine.discovered, seeds


def assist_everywhere_once(text: str, kind: FileKind, path: Path, discovered: Discovered, data: st.DataObject) -> None:
    lines = LineIndex(text)
    line = data.draw(st.integers(0, lines.line_count - 1))
    position = Position(line, data.draw(st.integers(0, len(lines.line_text(line)))))
    trigger = data.draw(st.sampled_from([None, '"', ":", " ", "-"]))
    for candidate in complete(text, kind, position, discovered, path=path, snippets=True, trigger=trigger):
        assert_inside(lines, candidate.replace_range, candidate)
        assert candidate.replace_range.start.line == candidate.replace_range.end.line == line
        assert candidate.replace_range.contains(position)
        assert isinstance(candidate.insert_text, str)
    found = hover(text, kind, position, discovered, path=path)
    if found is not None:
        assert_inside(lines, found.range, found)
        assert found.markdown


@given(data=st.data(), text=any_text)
def test_assist_on_arbitrary_text(corpus: tuple[Discovered, list[Seed]], data: st.DataObject, text: str) -> None:
    discovered, seeds = corpus
    seed = data.draw(st.sampled_from(seeds))
    assist_everywhere_once(text, seed.kind, seed.path, discovered, data)


@given(data=st.data())
def test_assist_on_mutated_documents(corpus: tuple[Discovered, list[Seed]], data: st.DataObject) -> None:
    discovered, seeds = corpus
    seed = data.draw(st.sampled_from(seeds))
    if seed.kind in (FileKind.SKILL, FileKind.AGENT):
        text = data.draw(mutated_frontmatter(seed.text))
    else:
        text = data.draw(mutated_json(seed.text))
    text = data.draw(spliced(text)) if data.draw(st.booleans()) else text
    assist_everywhere_once(text, seed.kind, seed.path, discovered, data)


def test_assist_at_every_position_of_every_seed(corpus: tuple[Discovered, list[Seed]]) -> None:
    """Not a sample: every position of every example document, and of each one truncated in the middle."""
    discovered, seeds = corpus
    for seed in seeds:
        for text in (seed.text, seed.text[: len(seed.text) // 2]):
            lines = LineIndex(text)
            for line in range(lines.line_count):
                for character in range(len(lines.line_text(line)) + 1):
                    position = Position(line, character)
                    for candidate in complete(text, seed.kind, position, discovered, path=seed.path, snippets=True):
                        assert_inside(lines, candidate.replace_range, candidate)
                    found = hover(text, seed.kind, position, discovered, path=seed.path)
                    if found is not None:
                        assert_inside(lines, found.range, found)
