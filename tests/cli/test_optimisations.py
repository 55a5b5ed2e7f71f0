"""Every speed-up of ``--check`` leaves its findings exactly as they were (issue: speed).

A generated corpus with what the optimisations touch — four roots with shadowed and within-root duplicate names,
malformed skills, links that resolve and links that do not, resources with a symlink cycle and a dangling link,
a nested workspace, settings and a plugin — is checked with each optimisation on, and again with it switched off:
the shared directory listings (``Listings``), the fast scan of plainly structured bodies (``FAST_PATH``) and the
rule's look-up of every possible destination before the scan (``LOOKUP_FIRST_FAST_PATH``), the
collector paused during the scan (``bulk_allocation``), and the line index built on first use with the SKILL.md
split by string searches (``SPLIT_FAST_PATH``), and a SKILL.md's own rules run as discovery reads it
(``batch.ahead``), and the name and description of a plainly simple frontmatter read without composing it
(``SIMPLE_IDENTITY``). The reports must be equal, finding for finding. A check of some of the files (as pre-commit
runs it) parses only the skills it checks, and reports what it reported when discovery parsed every skill it read.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from pathlib import Path
from types import ModuleType

import pytest

from clarvis_lsp.batch.ahead import CheckAhead
from clarvis_lsp.batch.listings import Listings
from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.discovery import fs, scan
from clarvis_lsp.documents import skill as skill_document
from clarvis_lsp.documents import skill_identity, text
from clarvis_lsp.memory import paused_collector
from clarvis_lsp.rules import skill_links

ROOTS = (".clarvis/skills", ".agents/skills")
BODIES = (
    "# Steps\n\nSee [the guide](references/guide.md) and [gone](references/gone.md).\n",
    "```\n[in a fence](nowhere.md)\n```\n\n![logo](assets/logo.png)\n",
    "<!-- [hidden](gone.md) -->\n\n[ref][r]\n\n[r]: scripts/run.sh\n",
    "Text with `[code](gone.md)` and a [sibling](../other/SKILL.md).\n",
    "    [indented](gone.md)\n\n[real](references/guide.md)\n",
    "No links here at all.\n",
    "See [the docs](https://example.com/guide.md), [the top](#steps) and [gone](/etc/gone.md).\n",
)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _corpus(base: Path, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    ws, home = base / "ws", base / "home"
    for workspace in (ws, ws / "packages" / "nested"):
        _write(workspace / ".clarvis" / "settings.json", '{"enabledPlugins": ["kit"], "bogus": 1}')
        _write(workspace / ".clarvis/plugins/kit/plugin.json", '{"name": "kit", "description": "A kit."}')
        _write(workspace / ".clarvis/plugins/kit/skills/kit-skill/SKILL.md", "---\nname: kit-skill\n---\nBody.\n")
        for index in range(40):
            root = workspace / rng.choice(ROOTS)
            name = f"skill-{rng.randrange(30):02d}"  # names repeat: shadowed copies and within-root duplicates
            directory = root / f"{name}-{index}" if rng.random() < 0.3 else root / name
            frontmatter = f"name: {name}\ndescription: Skill {index}.\n" if rng.random() < 0.9 else "name: [\n"
            _write(directory / "SKILL.md", f"---\n{frontmatter}---\n{rng.choice(BODIES)}")
            if rng.random() < 0.7:
                _write(directory / "references" / "guide.md", "# Guide\n")
            if rng.random() < 0.2:
                (directory / "scripts").mkdir(exist_ok=True)
                with contextlib.suppress(FileExistsError):
                    (directory / "scripts" / "loop").symlink_to(directory, target_is_directory=True)
                    (directory / "scripts" / "dangling").symlink_to(base / "missing")
    _write(home / ".clarvis/skills/skill-01/SKILL.md", "---\nname: skill-01\ndescription: Personal.\n---\n")
    return ws, home


def _report(ws: Path, home: Path, **overrides: object) -> list[tuple[str, str, int, int, str]]:
    request = CheckRequest(paths=[str(ws)], cwd=ws, home=home, overrides=overrides)
    result = check_paths(request).result
    return sorted(
        (os.fspath(item.path), item.code, item.range.start.line, item.range.start.character, item.message)
        for item in result.diagnostics
    )


@contextlib.contextmanager
def _without_shared_listings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with monkeypatch.context() as patch:
        patch.setattr(Listings, "list_sorted", lambda self, directory: fs.list_sorted(directory))
        yield


def _flag_off(module: ModuleType, flag: str) -> Callable[[pytest.MonkeyPatch], contextlib.AbstractContextManager[None]]:
    """A switch that turns a module's optimisation flag off for the run."""

    @contextlib.contextmanager
    def switched(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        with monkeypatch.context() as patch:
            patch.setattr(module, flag, False)
            yield

    return switched


@contextlib.contextmanager
def _eager_line_index(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    built = text.LineIndex.__init__

    def eager(self: text.LineIndex, source: str) -> None:
        built(self, source)
        self.line_count  # noqa: B018 - the property builds the line starts at once, as before the optimisation

    with monkeypatch.context() as patch:
        patch.setattr(text.LineIndex, "__init__", eager)
        patch.setattr(skill_document, "SPLIT_FAST_PATH", False)
        yield


@contextlib.contextmanager
def _checked_after_discovery(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with monkeypatch.context() as patch:
        patch.setattr(CheckAhead, "__call__", lambda self, scan: None)
        yield


@contextlib.contextmanager
def _collector_running(_monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield  # the plain run is not wrapped in a paused collector at all


SWITCHES = {
    "shared listings": _without_shared_listings,
    "fast link scan": _flag_off(skill_links, "FAST_PATH"),
    "destinations looked up before the scan": _flag_off(skill_links, "LOOKUP_FIRST_FAST_PATH"),
    "collector paused": _collector_running,
    "line index on first use": _eager_line_index,
    "checked where discovery reads it": _checked_after_discovery,
    "simple frontmatter read without a parse": _flag_off(skill_identity, "SIMPLE_IDENTITY"),
}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("switch", list(SWITCHES))
def test_findings_are_identical_without_the_optimisation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, switch: str
) -> None:
    ws, home = _corpus(tmp_path, seed)
    with paused_collector():  # as the CLI runs a check (without freezing this test process's objects)
        optimised = _report(ws, home)
    with SWITCHES[switch](monkeypatch), paused_collector() if switch != "collector paused" else nullcontext():
        plain = _report(ws, home)
    assert optimised, "the corpus must have findings"
    assert {code for _path, code, *_rest in optimised} >= {
        "discovery/shadowed",
        "skill/broken-link",
        "skill/invalid-yaml",
        "settings/unknown-field",
    }
    assert plain == optimised


SPLIT_CASES = (
    "",
    "---",
    "---\n",
    "no frontmatter\n[a](b.md)\n",
    "---\nname: x\n---",
    "---\nname: x\n---\n",
    "---  \nname: x\n---\t\nbody [a](b.md)\n",
    "---\nname: [\n---\n",
    "\n---\nname: x\n---\n",
    "---\na: b\n----\n---\nbody\n",
    "---\nname: x\ndescription: d\n",
    "---\n---\n",
    "---\nname: x\n...\n---\n\n\n[c](d.md)",
    "---\nkey: 'unclosed\n---\n",
)


@pytest.mark.parametrize("source", SPLIT_CASES)
def test_the_split_by_string_search_matches_the_line_index(monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    def shape(document: skill_document.SkillDocument) -> tuple[object, ...]:
        return (
            document.has_frontmatter,
            document.frontmatter_closed,
            document.close_line,
            document.body_start_line,
            document.body_offset,
            document.yaml_problem,
            document.frontmatter_range,
            [(entry.key, entry.key_range, entry.value_range, entry.value) for entry in document.entries],
        )

    path = Path("/ws/.clarvis/skills/x/SKILL.md")
    fast = shape(skill_document.parse_skill(path, source))
    monkeypatch.setattr(skill_document, "SPLIT_FAST_PATH", False)
    assert shape(skill_document.parse_skill(path, source)) == fast


@contextlib.contextmanager
def _every_skill_parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Discovery parses every skill it reads when it runs a check's rules alongside, as it did before a check of
    some files left the others to be parsed when asked."""
    with monkeypatch.context() as patch:
        patch.setattr(CheckAhead, "reads_document", lambda self, skill_md: True)
        yield


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_check_of_some_files_parses_only_those_and_finds_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    ws, home = _corpus(tmp_path, seed)
    skills = sorted(ws.glob(".clarvis/skills/*/SKILL.md"))
    targets = [str(path) for path in skills[::4]] + [str(ws / ".agents")]
    parsed: list[str] = []
    parse = skill_document.parse_skill

    def counted(path: Path, source: str) -> skill_document.SkillDocument:
        parsed.append(str(path))
        return parse(path, source)

    monkeypatch.setattr(scan, "parse_skill", counted)
    monkeypatch.setattr(skill_document, "parse_skill", counted)  # a document parsed on first use

    def report() -> tuple[list[tuple[str, str, int, int, str]], int]:
        parsed.clear()
        request = CheckRequest(paths=targets, cwd=ws, home=home, overrides={})
        with paused_collector():
            diagnostics = check_paths(request).result.diagnostics
        found = sorted(
            (os.fspath(item.path), item.code, item.range.start.line, item.range.start.character, item.message)
            for item in diagnostics
        )
        return found, len(parsed)

    some, parsed_some = report()
    with _every_skill_parsed(monkeypatch):
        every, parsed_every = report()
    assert some and {code for _path, code, *_rest in some} >= {"discovery/shadowed", "skill/broken-link"}
    assert some == every
    assert parsed_some < parsed_every  # the skills of other files were left unparsed
