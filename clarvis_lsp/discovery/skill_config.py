"""Options in, a concrete ``SkillConfig`` out (seed: ``AgentSkillsOptions``, ``resolveConfig``, ``SkillConfig``).

Everything the scan needs is decided here, once, before any directory is opened: where ``<ws>`` is, what every
root path means, and whether problems are fatal. The library reads no environment variable for this (the
workspace is an explicit option, else the cwd); the only process state consulted is the working directory and
the user's home, and only when the caller did not pass them.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from clarvis_lsp.discovery.errors import StartupError
from clarvis_lsp.discovery.paths import resolve_against, resolve_workspace_dir

DEFAULT_STRICT = False
"""Default of ``strict``: problems are warnings, not exceptions."""

DEFAULT_FOLLOW_SYMLINKS = True
"""Default of ``follow_symlinks``: symlinked skill directories, SKILL.md files and resources are followed."""

SkillScope = Literal["user", "workspace"]
"""Provenance label of a root. It never affects resolution: precedence is only the order of the roots."""

_SCOPES: tuple[str, ...] = get_args(SkillScope)


@dataclass(frozen=True)
class SkillRootInput:
    """A root as the caller writes it: ``~`` and relative paths allowed, labels optional."""

    path: str
    scope: SkillScope = "workspace"
    source: str = ""


@dataclass(frozen=True)
class SkillRoot:
    """A normalised root: ``path`` is absolute and normalised; ``scope`` and ``source`` are labels only."""

    path: str
    scope: SkillScope
    source: str


@dataclass(frozen=True)
class AgentSkillsOptions:
    """What ``create_agent_skills`` and ``resolve_config`` accept.

    ``roots`` are in ascending precedence (the last wins). ``cwd`` defaults to ``os.getcwd()`` and ``home`` to
    the user's home directory, both read at resolution time, not at import time.
    """

    roots: Sequence[SkillRootInput]
    workspace: str | None = None
    cwd: str | None = None
    home: str | None = None
    strict: bool = DEFAULT_STRICT
    follow_symlinks: bool = DEFAULT_FOLLOW_SYMLINKS


@dataclass(frozen=True)
class SkillConfig:
    """The resolved configuration discovery consumes; every field is concrete."""

    home: str
    workspace_dir: str
    roots: tuple[SkillRoot, ...]
    strict: bool
    follow_symlinks: bool


def default_home() -> str:
    """The user's home directory, the ``home`` default (``os.homedir()`` in the seed)."""
    return os.path.expanduser("~")


def resolve_config(options: AgentSkillsOptions) -> SkillConfig:
    """Apply the defaults, check the workspace, and normalise every root.

    Raises ``StartupError`` (never ``SkillError``) for an empty roots list, for an explicit workspace that
    does not exist and for one that is not a directory. The cwd fallback is trusted as it is: it is where the
    process runs, so checking it could only produce a confusing error about something the user never typed.
    """
    if len(options.roots) == 0:
        raise StartupError("At least one skill root is required: options.roots is empty")
    cwd = os.path.abspath(options.cwd if options.cwd is not None else os.getcwd())
    home = os.path.abspath(options.home if options.home is not None else default_home())
    workspace_dir = resolve_workspace_dir(options.workspace, cwd, home)
    if options.workspace is not None:
        check_workspace(workspace_dir)
    roots = tuple(_normalise_root(root, workspace_dir, home) for root in options.roots)
    return SkillConfig(
        home=home,
        workspace_dir=workspace_dir,
        roots=roots,
        strict=options.strict,
        follow_symlinks=options.follow_symlinks,
    )


def check_workspace(workspace_dir: str) -> None:
    """Raise ``StartupError`` unless an explicitly given workspace is an existing directory (seed: an explicit
    ``workspace`` that does not exist is a start-up error)."""
    try:
        mode = os.stat(workspace_dir).st_mode
    except FileNotFoundError:
        raise StartupError(f"Workspace does not exist: {workspace_dir}") from None
    except NotADirectoryError:  # a path component is a file: the workspace cannot exist
        raise StartupError(f"Workspace does not exist: {workspace_dir}") from None
    except OSError as error:  # unreadable parent, symlink loop: the workspace is unusable either way
        raise StartupError(f"Workspace cannot be read: {workspace_dir} ({error.strerror})") from None
    if not stat.S_ISDIR(mode):
        raise StartupError(f"Workspace is not a directory: {workspace_dir}")


def _normalise_root(root: SkillRootInput, workspace_dir: str, home: str) -> SkillRoot:
    # The type says "user" | "workspace", but roots also come from command lines and TOML files: a wrong label
    # is a configuration error, reported before scanning rather than surfacing later as a strange scope.
    if root.scope not in _SCOPES:
        raise StartupError(f"Invalid scope {root.scope!r} for root {root.path!r}: expected 'user' or 'workspace'")
    return SkillRoot(
        path=resolve_against(workspace_dir, root.path, home),
        scope=root.scope,
        source=root.source,
    )
