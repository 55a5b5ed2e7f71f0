"""Where Clarvis keeps its files on disk: the directory and file names every part of the linter agrees on.

Recognition is by place (SPEC §3): only ``.clarvis/settings.json`` is a settings file, a ``plugin.json`` counts
in ``plugins/<name>/``, a plugin's hooks file is ``hooks/hooks.json``, agents are ``agents/<name>.md``. The same
layout holds under the workspace and under the home directory (``~/.clarvis/…``).
"""

from __future__ import annotations

from pathlib import Path

CLARVIS_DIR = ".clarvis"
"""Clarvis's own directory, in the workspace and in the home directory."""
AGENTS_STANDARD_DIR = ".agents"
"""The tool-neutral directory whose ``skills/`` Clarvis reads too, below its own."""
WORKSPACE_MARKERS: tuple[str, ...] = (CLARVIS_DIR, AGENTS_STANDARD_DIR)
"""A directory holding one of these is a workspace."""

SETTINGS_FILE = "settings.json"
SKILLS_DIR = "skills"
SKILL_FILE = "SKILL.md"
PLUGINS_DIR = "plugins"
PLUGIN_MANIFEST = "plugin.json"
HOOKS_DIR = "hooks"
HOOKS_FILE = "hooks.json"
AGENTS_DIR = "agents"
AGENT_SUFFIX = ".md"
MARKETPLACE_FILE = "marketplace.json"

PLUGIN_HOOKS_FILE = Path(HOOKS_DIR) / HOOKS_FILE
"""A plugin's hooks file, relative to the plugin directory; read only when plugin.json declares no ``hooks``."""


def _as_path(base: Path | str) -> Path:
    """``base`` as a ``Path``, never rebuilt from its parts: ``Path(path)`` reads every component again, which a
    workspace 1,000 directories deep pays for each file it names."""
    return base if isinstance(base, Path) else Path(base)


def settings_file(base: Path | str) -> Path:
    """``<base>/.clarvis/settings.json``: the workspace settings, or the personal ones when ``base`` is the home."""
    return _as_path(base) / CLARVIS_DIR / SETTINGS_FILE


def plugins_dir(base: Path | str) -> Path:
    """``<base>/.clarvis/plugins``, holding one ``<name>/`` directory per installed plugin."""
    return _as_path(base) / CLARVIS_DIR / PLUGINS_DIR


def agents_dir(base: Path | str) -> Path:
    """``<base>/.clarvis/agents``, holding one ``<name>.md`` per agent."""
    return _as_path(base) / CLARVIS_DIR / AGENTS_DIR
