"""Every quick fix offered on the example documents and their mutations: its edits lie inside the document and do
not overlap, applying it changes the text only inside them, and the result still parses and checks soundly."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from fuzz_corpus import Seed, assert_sound, build_workspace, check
from hypothesis import given
from hypothesis import strategies as st
from mutations import mutated_frontmatter, mutated_json, spliced

from clarvis_lsp.documents.text import LineIndex, strip_bom
from clarvis_lsp.findings import Fix
from clarvis_lsp.fixes import UNPARSED_CODES
from clarvis_lsp.knowledge.files import FileKind


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Seed]]:
    return build_workspace(tmp_path_factory.mktemp("fixes"))


def apply(text: str, path: Path, fix: Fix) -> str:
    """The text after ``fix``, as an editor applies a workspace edit; checks that only the edited spans change."""
    lines = LineIndex(text)
    spans = sorted((lines.offset(edit.range.start), lines.offset(edit.range.end), edit.new_text) for edit in fix.edits)
    assert all(edit.path == path for edit in fix.edits), fix
    for (_s, end, _t), (start, _e, _u) in itertools.pairwise(spans):
        assert end <= start, f"overlapping edits in {fix.title}"
    pieces: list[str] = []
    cursor = 0
    for start, end, new_text in spans:
        pieces += [text[cursor:start], new_text]
        cursor = end
    after = "".join([*pieces, text[cursor:]])
    # Outside the edits nothing moved: the untouched pieces appear in order, unchanged.
    position = 0
    cursor = 0
    for start, end, new_text in spans:
        kept = text[cursor:start]
        assert after.startswith(kept, position)
        position += len(kept) + len(new_text)
        cursor = end
    assert after[position:] == text[cursor:]
    return after


def every_fix_holds(path: Path, text: str, home: Path) -> int:
    """Apply each fix offered on ``text`` alone; returns how many were tried."""
    found = check(path, text, home)
    assert_sound(path, text, found)
    parsed = not any(item.code in UNPARSED_CODES for item in found)
    tried = 0
    for item in found:
        for fix in item.fixes:
            if any(edit.path != path for edit in fix.edits):
                continue  # a fix in another file (none today): checked where that file is the document
            after = apply(strip_bom(text), path, fix)
            again = check(path, after, home)
            assert_sound(path, after, again)
            if parsed:
                broken = [other.code for other in again if other.code in UNPARSED_CODES]
                assert broken == [], f"{fix.title!r} left {broken} in {path}"
            tried += 1
    return tried


def test_every_fix_of_every_example(corpus: tuple[Path, list[Seed]]) -> None:
    home, seeds = corpus
    tried = sum(every_fix_holds(seed.path, seed.text, home) for seed in seeds)
    assert tried >= 10  # the examples show most fixes: a corpus without them would test nothing


@given(data=st.data())
def test_fixes_on_mutated_documents(corpus: tuple[Path, list[Seed]], data: st.DataObject) -> None:
    home, seeds = corpus
    seed = data.draw(st.sampled_from(seeds))
    if seed.kind in (FileKind.SKILL, FileKind.AGENT):
        text = data.draw(mutated_frontmatter(seed.text))
    else:
        text = data.draw(mutated_json(seed.text))
    if data.draw(st.booleans()):
        text = data.draw(spliced(text))
    every_fix_holds(seed.path, text, home)


def test_a_stub_in_an_indented_frontmatter_keeps_it_parseable(corpus: tuple[Path, list[Seed]]) -> None:
    """Found by the long profile: "Add a description stub" wrote the key at column 0 under keys indented by two
    spaces, and the frontmatter no longer parsed."""
    home, seeds = corpus
    seed = next(seed for seed in seeds if seed.path.parent.name == "changelog")
    assert every_fix_holds(seed.path, seed.text.replace("\nname:", "\n  name:"), home) >= 1
