"""With symlinks off no symlink is read or followed (SPEC §9): every symlinked manifest gets
``discovery/symlink-ignored`` in ``--check``, and an audit hook around ``check_paths`` sees no link target opened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths

FMT = ("--format", "json")
SKILL = "---\nname: {name}\ndescription: d\n---\nBody.\n"


def linked_tree(tmp_path: Path) -> tuple[Path, Path, dict[str, Path]]:
    """A workspace whose every manifest is a symlink into ``elsewhere/``; returns the workspace, the target
    directory and the link of each kind."""
    ws, elsewhere, home = tmp_path / "ws", tmp_path / "elsewhere", tmp_path / "home"
    home.mkdir()
    elsewhere.mkdir()
    (ws / ".clarvis/skills/a").mkdir(parents=True)
    (ws / ".clarvis/skills/a/SKILL.md").write_text(SKILL.format(name="a"), encoding="utf-8")
    targets = {
        "settings": (".clarvis/settings.json", '{"enabledPlugins": ["p"], "bogus": 1}'),
        "plugin": (".clarvis/plugins/p/plugin.json", '{"name": "p", "bogus": 1}'),
        "hooks": (".clarvis/plugins/p/hooks/hooks.json", '[{"event": "nope", "command": "x"}]'),
        "marketplace": ("marketplace.json", '{"plugins": [], "bogus": 1}'),
        "agent": (".clarvis/agents/helper.md", "---\nname: helper\n---\n"),
        "skill": (".clarvis/skills/linked/SKILL.md", SKILL.format(name="linked")),
    }
    links: dict[str, Path] = {}
    for kind, (relative, text) in targets.items():
        target = elsewhere / kind / Path(relative).name
        target.parent.mkdir()
        target.write_text(text, encoding="utf-8")
        link = ws / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)
        links[kind] = link
    plugin_dir = elsewhere / "q"
    plugin_dir.mkdir()
    (plugin_dir / "plugin.json").write_text('{"name": "q"}', encoding="utf-8")
    links["plugin directory"] = ws / ".clarvis/plugins/q"
    links["plugin directory"].symlink_to(plugin_dir, target_is_directory=True)
    return ws, elsewhere, links


def run_check(ws: Path, *extra: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clarvis_lsp",
            "--check",
            str(ws),
            "--no-user",
            "--home",
            str(ws.parent / "home"),
            *FMT,
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)["diagnostics"]
    return found


def test_every_symlinked_manifest_is_reported_and_not_read(tmp_path: Path) -> None:
    ws, _elsewhere, links = linked_tree(tmp_path)
    found = run_check(ws, "--no-follow-symlinks")
    by_path: dict[str, list[str]] = {}
    for item in found:
        by_path.setdefault(os.path.abspath(item["path"]), []).append(item["code"])
    for kind, link in links.items():
        assert by_path.get(str(link)) == ["discovery/symlink-ignored"], kind
    # Nothing of the targets was read: their unknown fields and the bad event are not reported anywhere.
    assert not [item for item in found if item["code"].endswith(("unknown-field", "unknown-event"))]


def test_the_same_tree_is_read_when_symlinks_are_followed(tmp_path: Path) -> None:
    """The counter-test: the links are real and readable, so the test above can fail."""
    ws, _elsewhere, _links = linked_tree(tmp_path)
    codes = {item["code"] for item in run_check(ws)}
    assert "discovery/symlink-ignored" not in codes
    assert {"settings/unknown-field", "plugin/unknown-field", "hooks/unknown-event"} <= codes


def test_a_symlinked_clarvis_directory_is_not_read_through(tmp_path: Path) -> None:
    """``O_NOFOLLOW`` guards the last component only: a symlinked ``.clarvis`` must not lead the read elsewhere."""
    ws, elsewhere = tmp_path / "ws", tmp_path / "elsewhere"
    (elsewhere / ".clarvis").mkdir(parents=True)
    (elsewhere / ".clarvis/settings.json").write_text('{"bogus": 1}', encoding="utf-8")
    ws.mkdir()
    (tmp_path / "home").mkdir()
    (ws / ".agents").mkdir()
    (ws / ".clarvis").symlink_to(elsewhere / ".clarvis", target_is_directory=True)
    opened = _opened_during(ws, tmp_path / "home", follow=False)
    assert not [path for path in opened if "settings.json" in path]


def _reached(path: str, flags: int) -> str:
    """The file an ``open`` of ``path`` reaches: with ``O_NOFOLLOW`` the last component is not followed (the
    open fails on a link), the directories above it are."""
    if flags & os.O_NOFOLLOW:
        return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
    return os.path.realpath(path)


def _opened_during(ws: Path, home: Path, *, follow: bool) -> list[str]:
    """Every file ``check_paths`` opens (as the open reaches it), seen by an audit hook on ``open``."""
    opened: list[str] = []
    active = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if active[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
            opened.append(_reached(os.fsdecode(args[0]), flags))

    sys.addaudithook(hook)  # audit hooks cannot be removed: this one switches itself off
    try:
        check_paths(
            CheckRequest(
                paths=[str(ws)],
                cwd=ws,
                home=home,
                overrides={"followSymlinks": follow, "includeUser": False},
            )
        )
    finally:
        active[0] = False
    return opened


@pytest.mark.parametrize("follow", [False, True])
def test_no_symlink_target_is_opened_in_process(tmp_path: Path, follow: bool) -> None:
    """An audit hook on ``open`` around ``check_paths``: with symlinks off no path inside the link targets is
    opened; with symlinks on the same targets are opened (so the hook does see them)."""
    ws, elsewhere, _links = linked_tree(tmp_path)
    opened = _opened_during(ws, tmp_path / "home", follow=follow)
    inside = [path for path in opened if path.startswith(str(elsewhere) + os.sep)]
    if follow:
        assert inside
    else:
        assert inside == []
