"""The discovery core: which skills, plugins and agents exist, and which copy of each wins.

A port of ``@clarvis/agent-skills`` (SPEC §2) plus the project's extensions (plugin skills, agents, nested
workspaces): read it and you read the seed's algorithm. How directories are read and how a root's work is mapped
over them come in as abstractions with plain defaults (``io``: ``DirectoryReader``, ``ScanStrategy``,
``DirectoryVisit``), so a caller can share listings or spread a large root over processes without discovery
knowing about either.

May import ``documents/``, ``knowledge/`` and the standard library only: never pygls or lsprotocol, ``rules/``,
``workspace/``, a front end, nor any process or pickling module (``tests/core/test_architecture.py``).

Typical use::

    options = AgentSkillsOptions(roots=clarvis_skill_roots(workspace="/srv/project"))
    skills = create_agent_skills(options)
    skills.winner("deploy"), skills.shadowed("deploy"), skills.registry.warnings

Incremental use (the language server): keep the ``SkillRegistry`` and call ``registry.refresh(changed_paths,
overlay)`` on each edit or file event; it re-reads only the affected skill directories.
"""

from clarvis_lsp.discovery.agents import AgentInfo, discover_agents
from clarvis_lsp.discovery.errors import SkillError, SkillErrorKind, StartupError
from clarvis_lsp.discovery.paths import expand_home, resolve_against, resolve_workspace_dir
from clarvis_lsp.discovery.plugins import (
    PluginInfo,
    PluginScan,
    discover_plugins,
    effective_enabled_plugins,
    plugin_locations,
    plugin_skill_roots,
    read_enabled_plugins,
    scan_plugins,
    unloaded_plugins,
)
from clarvis_lsp.discovery.presets import clarvis_skill_roots, xcsh_skill_roots
from clarvis_lsp.discovery.registry import AgentSkills, SkillRegistry, create_agent_skills, discover_skills
from clarvis_lsp.discovery.resources import MAX_RESOURCES
from clarvis_lsp.discovery.scan import (
    RootScan,
    malformed_reason,
    read_skill_dir,
    scan_root,
)
from clarvis_lsp.discovery.skill_config import (
    DEFAULT_FOLLOW_SYMLINKS,
    DEFAULT_STRICT,
    AgentSkillsOptions,
    SkillConfig,
    SkillRoot,
    SkillRootInput,
    SkillScope,
    default_home,
    resolve_config,
)
from clarvis_lsp.discovery.skills import RESOURCE_DIRS, DirScan, DiscoveryWarning, SkillInfo, SkippedSkill, WarningKind
from clarvis_lsp.discovery.walk import SKIPPED_DIRS, Excludes, walk_tree
from clarvis_lsp.discovery.workspace import (
    PRESETS,
    XCSH_MARKERS,
    effective_skill_roots,
    find_workspaces,
    is_workspace_dir,
    markers_for,
    nearest_with,
    nearest_workspace,
    workspace_roots,
)
from clarvis_lsp.knowledge.layout import SKILL_FILE, WORKSPACE_MARKERS

__all__ = [
    "DEFAULT_FOLLOW_SYMLINKS",
    "DEFAULT_STRICT",
    "MAX_RESOURCES",
    "PRESETS",
    "RESOURCE_DIRS",
    "SKILL_FILE",
    "SKIPPED_DIRS",
    "WORKSPACE_MARKERS",
    "XCSH_MARKERS",
    "AgentInfo",
    "AgentSkills",
    "AgentSkillsOptions",
    "DirScan",
    "DiscoveryWarning",
    "Excludes",
    "PluginInfo",
    "PluginScan",
    "RootScan",
    "SkillConfig",
    "SkillError",
    "SkillErrorKind",
    "SkillInfo",
    "SkillRegistry",
    "SkillRoot",
    "SkillRootInput",
    "SkillScope",
    "SkippedSkill",
    "StartupError",
    "WarningKind",
    "clarvis_skill_roots",
    "create_agent_skills",
    "default_home",
    "discover_agents",
    "discover_plugins",
    "discover_skills",
    "effective_enabled_plugins",
    "effective_skill_roots",
    "expand_home",
    "find_workspaces",
    "is_workspace_dir",
    "malformed_reason",
    "markers_for",
    "nearest_with",
    "nearest_workspace",
    "plugin_locations",
    "plugin_skill_roots",
    "read_enabled_plugins",
    "read_skill_dir",
    "resolve_against",
    "resolve_config",
    "resolve_workspace_dir",
    "scan_plugins",
    "scan_root",
    "unloaded_plugins",
    "walk_tree",
    "workspace_roots",
    "xcsh_skill_roots",
]
