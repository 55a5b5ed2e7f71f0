"""A plugin path that leaves its directory (``../``, absolute, through a symlink) is reported and never opened."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_an_escaping_hooks_path_is_reported_and_not_opened(tmp_path: Path, how: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "hooks.json"
    target.write_text('[{"event": "nope", "command": "x"}]', encoding="utf-8")
    plugin = tmp_path / "ws/.clarvis/plugins/p"
    plugin.mkdir(parents=True)
    if how == "dotdot":
        value = "../../../../outside/hooks.json"
    elif how == "absolute":
        value = str(target)
    else:
        (plugin / "linked.json").symlink_to(target)
        value = "linked.json"
    (plugin / "plugin.json").write_text(json.dumps({"name": "p", "hooks": value}), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    opened: list[str] = []
    active = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if active[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            opened.append(os.path.realpath(os.fsdecode(args[0])))

    sys.addaudithook(hook)
    try:
        report = check_paths(
            CheckRequest(paths=[str(tmp_path / "ws")], cwd=tmp_path, home=home, overrides={"includeUser": False})
        )
    finally:
        active[0] = False
    codes = [item.code for item in report.result.diagnostics if item.path == plugin / "plugin.json"]
    assert "plugin/path-escapes" in codes
    assert str(target) not in opened
    assert not [item for item in report.result.diagnostics if item.code == "hooks/unknown-event"]
