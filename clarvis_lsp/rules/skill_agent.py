"""A skill that names its own plugin's agent by the bare name (``agent: rev`` for ``<plugin>/agents/rev.md``).

The agents of a plugin are named ``<plugin>:<agent>`` (SPEC §2), in its own skills too, so a bare name finds no
agent; public plugins write it that way often enough that ``skill/unknown-agent`` says which name is meant and
offers it. The plugin is the one ``discovery.owner`` gives the skill, the one every other finding names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import yaml

from clarvis_lsp.discovery.owner import PluginOwner
from clarvis_lsp.knowledge import skill as facts
from clarvis_lsp.knowledge.layout import AGENT_SUFFIX, AGENTS_DIR

OwnerOf = Callable[[Path], PluginOwner | None]
"""The plugin a file belongs to, or None (the engine's ``plugin_owner``)."""


def own_plugin_agent(
    skill_md: Path,
    name: str,
    agents: Mapping[str, object] | None,
    owner_of: OwnerOf | None,
    lexists: Callable[[str], bool],
) -> tuple[str, Path] | None:
    """The qualified name and file of the agent a bare ``name`` means in the skill at ``skill_md``: its plugin's
    ``agents/<name>.md``, discovered (an installed plugin, enabled or not) or on disk (a plugin developed in a
    repository); None when the skill is no plugin's or its plugin has no such agent."""
    if ":" in name or owner_of is None or not facts.NAME_PATTERN.match(name):
        return None  # qualified already, or a name no agent file can have (never a path to look up)
    owner = owner_of(skill_md)
    if owner is None:
        return None
    qualified = f"{owner.name}:{name}"
    path = getattr(agents.get(qualified), "path", None) if agents is not None else None
    if isinstance(path, Path):
        return qualified, path
    path = owner.directory / AGENTS_DIR / f"{name}{AGENT_SUFFIX}"
    return (qualified, path) if lexists(str(path)) else None


def agent_scalar(qualified: str) -> str:
    """``p:rev`` as YAML writes it plainly (a colon not followed by a space belongs to a plain scalar), quoted only
    when it would not read back as that string."""
    try:
        if yaml.safe_load(f"agent: {qualified}") == {"agent": qualified}:
            return qualified
    except yaml.YAMLError:
        pass
    return '"' + qualified.replace("\\", "\\\\").replace('"', '\\"') + '"'
