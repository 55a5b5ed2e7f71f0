"""Every rule family through ``check_text`` (the editor's door), on arbitrary text and on mutations of the example
documents of every kind: no rule raises, every range lies inside the document, the output is deterministic, and a
change that keeps the meaning (CRLF, a BOM) keeps the findings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from fuzz_corpus import Seed, assert_sound, build_workspace, check
from hypothesis import given
from hypothesis import strategies as st
from mutations import any_text, mutated_frontmatter, mutated_json, spliced

from clarvis_lsp.knowledge.files import FileKind


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Seed]]:
    return build_workspace(tmp_path_factory.mktemp("fuzz"))


def one_seed_per_kind(seeds: list[Seed]) -> list[Seed]:
    chosen: dict[FileKind, Seed] = {}
    for seed in seeds:
        chosen.setdefault(seed.kind, seed)
    return list(chosen.values())


def test_the_corpus_covers_every_kind(corpus: tuple[Path, list[Seed]]) -> None:
    _home, seeds = corpus
    assert {seed.kind for seed in seeds} == set(FileKind)
    # The clean settings enable a plugin and declare a hook: both wait for /workspace-trust (information).
    clean = {seed.kind: seed.baseline for seed in seeds if "clean" in seed.path.parts}
    assert clean[FileKind.SETTINGS] == ("settings/requires-trust", "settings/requires-trust")
    assert all(codes == () for kind, codes in clean.items() if kind is not FileKind.SETTINGS)


def checked_twice(path: Path, text: str, home: Path) -> None:
    first = check(path, text, home)
    assert_sound(path, text, first)
    second = check(path, text, home)
    assert [(item.code, item.range, item.message, item.fixes) for item in first] == [
        (item.code, item.range, item.message, item.fixes) for item in second
    ]


@given(data=st.data(), text=any_text)
def test_arbitrary_text_in_every_kind(corpus: tuple[Path, list[Seed]], data: st.DataObject, text: str) -> None:
    home, seeds = corpus
    seed = data.draw(st.sampled_from(one_seed_per_kind(seeds)))
    checked_twice(seed.path, text, home)


@given(data=st.data())
def test_structured_mutations(corpus: tuple[Path, list[Seed]], data: st.DataObject) -> None:
    home, seeds = corpus
    seed = data.draw(st.sampled_from(seeds))
    if seed.kind in (FileKind.SKILL, FileKind.AGENT):
        text = data.draw(mutated_frontmatter(seed.text))
    else:
        text = data.draw(mutated_json(seed.text))
    if data.draw(st.booleans()):
        text = data.draw(spliced(text))
    checked_twice(seed.path, text, home)


@given(data=st.data())
def test_splices_of_every_seed(corpus: tuple[Path, list[Seed]], data: st.DataObject) -> None:
    home, seeds = corpus
    seed = data.draw(st.sampled_from(seeds))
    checked_twice(seed.path, data.draw(spliced(seed.text)), home)


@pytest.mark.parametrize("change", ["crlf", "bom", "crlf+bom"])
def test_line_breaks_and_a_bom_keep_the_findings(corpus: tuple[Path, list[Seed]], change: str) -> None:
    """A valid document stays clean, and every other keeps its findings, when saved with CRLF or a BOM."""
    home, seeds = corpus
    for seed in seeds:
        text = seed.text.replace("\n", "\r\n") if "crlf" in change else seed.text
        text = "\ufeff" + text if "bom" in change else text
        found = check(seed.path, text, home)
        assert_sound(seed.path, text, found)
        assert Counter(item.code for item in found) == Counter(seed.baseline), seed.path


def test_truncation_at_every_offset(corpus: tuple[Path, list[Seed]]) -> None:
    """Half-typed documents: every prefix of the clean document of each kind (every offset, not a sample)."""
    home, seeds = corpus
    clean = [seed for seed in seeds if "clean" in seed.path.parts]
    assert {seed.kind for seed in clean} >= {FileKind.SKILL, FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS}
    for seed in clean:
        for end in range(len(seed.text) + 1):
            text = seed.text[:end]
            assert_sound(seed.path, text, check(seed.path, text, home))
