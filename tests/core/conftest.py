"""Shared fixtures for the core tests."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest


class DiscoveryTree:
    """A throwaway home and workspace under ``tmp_path``, with helpers that write skills, plugins and agents.

    Tests build the smallest tree that shows the behaviour; every helper returns the path it wrote.
    """

    def __init__(self, base: Path) -> None:
        self.base = base
        self.home = base / "home"
        self.ws = base / "ws"
        self.home.mkdir()
        self.ws.mkdir()

    # The four clarvis roots, by their seed index.
    @property
    def user_agents(self) -> Path:
        return self.home / ".agents" / "skills"

    @property
    def ws_agents(self) -> Path:
        return self.ws / ".agents" / "skills"

    @property
    def user_clarvis(self) -> Path:
        return self.home / ".clarvis" / "skills"

    @property
    def ws_clarvis(self) -> Path:
        return self.ws / ".clarvis" / "skills"

    def skill(
        self,
        root: Path,
        dir_name: str,
        name: str | None = None,
        description: str | None = "Does a thing.",
        extra: Iterable[str] = (),
        body: str = "Body.\n",
        omit_name: bool = False,
    ) -> Path:
        """Write ``<root>/<dir_name>/SKILL.md``; ``name`` defaults to the directory name.

        ``omit_name`` leaves ``name`` out, ``description=None`` leaves the description out.
        """
        directory = root / dir_name
        directory.mkdir(parents=True, exist_ok=True)
        lines = ["---"]
        if not omit_name:
            lines.append(f"name: {name if name is not None else dir_name}")
        if description is not None:
            lines.append(f"description: {description}")
        lines.extend(extra)
        lines.append("---")
        path = directory / "SKILL.md"
        path.write_text("\n".join(lines) + "\n" + body, encoding="utf-8")
        return path

    def raw_skill(self, root: Path, dir_name: str, content: str | bytes) -> Path:
        """Write a SKILL.md with exactly ``content``."""
        directory = root / dir_name
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / "SKILL.md"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    def file(self, path: Path, content: str = "") -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        return path


@pytest.fixture
def discovery_tree(tmp_path: Path) -> DiscoveryTree:
    return DiscoveryTree(tmp_path)
