"""A workspace whose answer depends on trust (SPEC §2.1), shared by the CLI and the language-server tests.

The personal settings enable plugin ``alpha`` and select it as the memory provider; the workspace settings enable
``beta`` instead, select it, and declare subscription providers (which Clarvis strips from workspace settings).
Both plugins contribute a skill ``common`` and a memory executable; ``alpha`` also declares ``tasks``.

- Untrusted: the workspace's ``enabledPlugins`` and ``memory.provider`` are held back, so alpha is active, its
  ``common`` is the one copy in effect and its memory executable is selected; beta's copy neither wins nor
  shadows.
- Trusted: the workspace's list replaces the personal one whole: beta is active and alpha is not enabled.
- Either way ``providers`` is rejected, with a finding that says providers belong in the personal settings.
"""

from __future__ import annotations

import json
from pathlib import Path

SKILL = "---\nname: common\ndescription: {who} copy.\n---\nBody.\n"

ALPHA = {
    "name": "alpha",
    "capabilityExecutables": {
        "memory": {"command": "alpha-memory", "platforms": {"linux": {"command": "alpha-memory-linux"}}},
        "tasks": {"command": "alpha-tasks", "timeout_ms": 5000},
    },
}
BETA = {
    "name": "beta",
    "capabilityExecutables": {
        "memory": {"command": "beta-memory", "args": ["--serve"], "platforms": {"win32": {"command": "beta.exe"}}},
    },
}
PERSONAL = {"enabledPlugins": ["alpha"], "memory": {"provider": "alpha"}}
WORKSPACE = {
    "enabledPlugins": ["beta"],
    "memory": {"provider": "beta"},
    "providers": {"openai": {"apiKey": "${OPENAI_API_KEY}"}},
}


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def build_home(home: Path) -> None:
    """The personal half: settings and plugin alpha."""
    _write(home / ".clarvis/settings.json", json.dumps(PERSONAL, indent=2) + "\n")
    _write(home / ".clarvis/plugins/alpha/plugin.json", json.dumps(ALPHA, indent=2) + "\n")
    _write(home / ".clarvis/plugins/alpha/skills/common/SKILL.md", SKILL.format(who="Alpha's"))


def build_workspace(ws: Path) -> None:
    """The workspace half: settings and plugin beta."""
    _write(ws / ".clarvis/settings.json", json.dumps(WORKSPACE, indent=2) + "\n")
    _write(ws / ".clarvis/plugins/beta/plugin.json", json.dumps(BETA, indent=2) + "\n")
    _write(ws / ".clarvis/plugins/beta/skills/common/SKILL.md", SKILL.format(who="Beta's"))


def alpha_skill(home: Path) -> Path:
    return home / ".clarvis/plugins/alpha/skills/common/SKILL.md"


def beta_skill(ws: Path) -> Path:
    return ws / ".clarvis/plugins/beta/skills/common/SKILL.md"
