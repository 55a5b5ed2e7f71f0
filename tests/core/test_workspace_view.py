"""``WorkspaceView``: a workspace at one moment. A view taken before an edit keeps answering from the state it was
taken in (discovery, open buffers, what each file is) after the engine has moved on, and it holds no reference to
the engine. The workspace lives in ``tmp_path/ws``, the personal configuration in ``tmp_path/home``."""

from __future__ import annotations

import gc
import types
import weakref
from pathlib import Path

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.effective import effective_of
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.view import WorkspaceView


def skill_md(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\nBody.\n"


class Tree:
    """A workspace with one skill and a plugin whose manifest names its hooks document, over a buffer map the test
    edits as an editor would."""

    def __init__(self, root: Path) -> None:
        self.ws, self.home = root / "ws", root / "home"
        self.skill = self.write(".clarvis/skills/review/SKILL.md", skill_md("review"))
        self.manifest = self.write(".clarvis/plugins/p/plugin.json", '{"name": "p", "hooks": "hooks/extra.json"}\n')
        self.hooks = self.write(".clarvis/plugins/p/hooks/extra.json", "[]\n")
        self.home.mkdir()
        self.buffers: dict[Path, str] = {}
        self.engine = WorkspaceEngine(
            directory=self.ws, config=ProjectConfig(include_user=False), home=self.home, overlay=self.buffers
        )
        self.engine.warm()

    def write(self, relative: str, text: str) -> Path:
        path = self.ws / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def edit(self, path: Path, text: str) -> None:
        """An unsaved edit in the editor, and the engine told of it."""
        self.buffers[path] = text
        self.engine.update([path])


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


def test_a_view_keeps_the_discovery_it_was_taken_with(tree: Tree) -> None:
    before = tree.engine.view()
    registry = before.discovered.registry if before.discovered is not None else None
    tree.edit(tree.skill, skill_md("audit"))  # a SKILL.md edit: the engine refreshes that skill directory only
    assert before.discovered is not None and before.discovered.registry is registry
    assert before.discovered.registry.names() == ["review"]
    assert before.discovered.registry.declared_name(tree.skill) == "review"
    after = tree.engine.view()
    assert after.discovered is not None and after.discovered.registry.names() == ["audit"]
    assert after.discovered is not before.discovered


def test_a_view_keeps_the_buffers_and_the_answers_of_its_moment(tree: Tree) -> None:
    assert tree.engine.kind_of(tree.hooks) is FileKind.HOOKS  # the engine knows what the manifest names now
    tree.buffers[tree.skill] = skill_md("draft")
    before = tree.engine.view()
    tree.edit(tree.skill, skill_md("final"))
    tree.edit(tree.manifest, '{"name": "p"}\n')  # the manifest names no hooks document any more
    assert tree.engine.kind_of(tree.hooks) is None
    assert before.kind_of(tree.hooks) is FileKind.HOOKS
    assert before.read_text(tree.skill) == skill_md("draft")
    assert before.read_text(tree.manifest) == '{"name": "p", "hooks": "hooks/extra.json"}\n'
    assert tree.hooks in set(before.files()) and tree.hooks not in set(tree.engine.files())
    with pytest.raises(TypeError):
        before.overlay[tree.skill] = "changed"  # type: ignore[index]


def test_a_view_before_the_first_scan_has_no_discovery_and_starts_none(tmp_path: Path) -> None:
    (tmp_path / "ws/.clarvis/skills/a").mkdir(parents=True)
    (tmp_path / "ws/.clarvis/skills/a/SKILL.md").write_text(skill_md("a"), encoding="utf-8")
    engine = WorkspaceEngine(directory=tmp_path / "ws", config=ProjectConfig(include_user=False), home=tmp_path)
    view = engine.view()
    assert view.discovered is None and not view.is_discovered
    assert view.kind_of(tmp_path / "ws/.clarvis/skills/a/SKILL.md") is FileKind.SKILL
    assert not engine.is_discovered
    with pytest.raises(ValueError, match="no discovery"):
        effective_of(view, trusted=False)


def test_a_view_and_its_engine_give_the_same_effective_configuration(tree: Tree) -> None:
    assert effective_of(tree.engine.view(), trusted=False) == effective_of(tree.engine, trusted=False)


def _reachable(start: object) -> list[object]:
    """Every object ``start`` refers to, directly or not, through data only: types, modules and functions (which
    lead to every module's globals) are not followed."""
    skipped = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    seen: dict[int, object] = {id(start): start}
    pending = [start]
    while pending:
        for referent in gc.get_referents(pending.pop()):
            if id(referent) not in seen and not isinstance(referent, skipped):
                seen[id(referent)] = referent
                pending.append(referent)
    return list(seen.values())


def test_a_view_holds_no_reference_to_the_engine(tree: Tree) -> None:
    view = tree.engine.view()
    view.kind_of(tree.hooks)
    list(view.files())
    assert not any(item is tree.engine for item in _reachable(view))
    assert not any(isinstance(item, WorkspaceEngine) for item in _reachable(view))
    engine = weakref.ref(tree.engine)
    del tree.engine
    gc.collect()
    assert engine() is None  # the view outlives the engine it was taken from
    assert isinstance(view, WorkspaceView) and view.discovered is not None
    assert view.discovered.registry.names() == ["review"]
