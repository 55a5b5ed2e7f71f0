"""Workspaces inside a tree: which directory is ``<ws>`` for a file, and which roots that workspace scans.

SPEC §2 (from seed xcsh ``findAllNearestProjectConfigDirs``): for a file deep in a monorepo, ``<ws>`` is the
nearest ancestor, up to the editor's workspace folder or the path given to ``--check``, that contains
``.clarvis/`` or ``.agents/``. A tree with several such directories is several workspaces, each checked with its
own roots. The home directory is never a workspace: its ``.clarvis`` is the personal configuration.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from clarvis_lsp.discovery.errors import StartupError
from clarvis_lsp.discovery.io import OS_READER, DirectoryReader
from clarvis_lsp.discovery.plugins import discover_plugins, effective_enabled_plugins, plugin_skill_roots
from clarvis_lsp.discovery.presets import clarvis_skill_roots, xcsh_skill_roots
from clarvis_lsp.discovery.skill_config import SkillRootInput, default_home
from clarvis_lsp.discovery.walk import Excludes, walk_tree
from clarvis_lsp.knowledge.layout import WORKSPACE_MARKERS

XCSH_MARKERS: tuple[str, ...] = (".xcsh", ".claude", ".codex", ".gemini", ".agents")
"""Under the xcsh preset, a directory holding any of its source directories is a workspace (SPEC §2)."""

ALL_MARKERS: frozenset[str] = frozenset(WORKSPACE_MARKERS + XCSH_MARKERS)


def markers_for(preset: str | None) -> tuple[str, ...]:
    """The directories that make a directory a workspace under ``preset``."""
    return XCSH_MARKERS if preset == "xcsh" else WORKSPACE_MARKERS


PRESETS: dict[str, Callable[..., list[SkillRootInput]]] = {
    "clarvis": clarvis_skill_roots,
    "xcsh": xcsh_skill_roots,
}


NON_EMPTY_ONLY: frozenset[str] = frozenset({".xcsh"})
"""Markers that count only when the directory exists and is not empty: xcsh's native provider admits its
directory with ``ifNonEmptyDir``, so an empty ``.xcsh/`` is as if absent, for the nearest-ancestor search too."""


def _has_marker(directory: str | Path, marker: str) -> bool:
    path = os.path.join(directory, marker)
    return _non_empty_dir(Path(path)) if marker in NON_EMPTY_ONLY else os.path.isdir(path)


def is_workspace_dir(path: str | Path, markers: tuple[str, ...] = WORKSPACE_MARKERS) -> bool:
    """Whether ``path`` contains one of ``markers`` (``.clarvis/`` or ``.agents/`` by default; an empty
    ``.xcsh/`` does not count)."""
    return any(_has_marker(path, marker) for marker in markers)


def nearest_with(path: str | Path, ceiling: str | Path, directory_name: str) -> Path | None:
    """The nearest ancestor of ``path`` (itself included), up to ``ceiling``, that has a ``directory_name``
    directory (seed xcsh ``findAllNearestProjectConfigDirs``, for one source); None when none has. An empty
    ``.xcsh`` is passed over (``NON_EMPTY_ONLY``): the search goes on to the ancestors."""
    top = os.path.normpath(os.path.abspath(ceiling))
    current = os.path.normpath(os.path.abspath(path))
    if current != top and not current.startswith(top.rstrip(os.sep) + os.sep):
        return None
    while True:
        if _has_marker(current, directory_name):
            return Path(current)
        if current == top:
            return None
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def nearest_workspace(path: str | Path, ceiling: str | Path, markers: tuple[str, ...] = WORKSPACE_MARKERS) -> Path:
    """The nearest ancestor of ``path`` (itself if a directory), up to and including ``ceiling``, that is a
    workspace; ``ceiling`` when there is none.

    The walk never goes above ``ceiling`` (the editor's workspace folder or the ``--check`` path): nothing
    outside it is read. A ``path`` outside ``ceiling`` gets ``ceiling`` too. The ``.clarvis`` and ``.agents``
    directories themselves are never candidates (a skill file's ancestors include them).
    """
    top = Path(os.path.normpath(os.path.abspath(ceiling)))
    current = Path(os.path.normpath(os.path.abspath(path)))
    if not current.is_dir():
        current = current.parent
    if current != top and top not in current.parents:
        return top
    while True:
        if current.name not in ALL_MARKERS and is_workspace_dir(current, markers):
            return current
        if current == top:
            return top
        current = current.parent


def find_workspaces(
    tree: str | Path,
    *,
    home: str | Path | None = None,
    exclude: Iterable[str] | Excludes = (),
    markers: tuple[str, ...] = WORKSPACE_MARKERS,
    reader: DirectoryReader = OS_READER,
) -> list[Path]:
    """Every workspace under ``tree``, ``tree`` itself first, in sorted depth-first order (``reader``: how
    directories are listed, ``discovery.io``).

    ``tree`` is always the first entry (the workspace of the files not inside a nested one) unless it is the
    home directory, which is never listed: its ``.clarvis`` is the personal configuration. The walk skips
    ``SKIPPED_DIRS``, the ``.clarvis``/``.agents`` directories themselves, and what the ``exclude`` patterns
    (``.gitignore`` semantics, relative to ``tree``) exclude; it never follows a symlinked directory and silently
    skips directories it cannot read.
    """
    top = Path(os.path.normpath(os.path.abspath(tree)))
    home_path = os.path.normpath(os.path.abspath(home if home is not None else default_home()))
    excludes = exclude if isinstance(exclude, Excludes) else Excludes(tuple(exclude))
    found: list[Path] = []
    if str(top) != home_path:
        found.append(top)

    # A directory is a workspace when the walk meets one of its markers: as a subdirectory (pruned from the walk
    # right here, after the exclude check has passed it) or as a symlink to a directory (listed with the files).
    # No directory is asked about its markers with extra stat calls.
    with_marker: set[str] = set()

    def not_a_marker(entry: os.DirEntry[str]) -> bool:
        if entry.name not in ALL_MARKERS:
            return True
        if entry.name in markers and (entry.name not in NON_EMPTY_ONLY or _non_empty_dir(Path(entry.path))):
            with_marker.add(os.path.dirname(entry.path))
        return False

    for directory in walk_tree(str(top), excludes, keep_directory=not_a_marker, reader=reader):
        for entry in directory.files:
            if (
                entry.name in markers
                and entry.is_symlink()
                and _has_marker(directory.path, entry.name)
                and not excludes.directory(directory.child_relative(entry.name))
            ):
                with_marker.add(directory.path)
    found.extend(Path(path) for path in with_marker if path not in (str(top), home_path))
    return _depth_first_order(top, found)


def _depth_first_order(top: Path, found: list[Path]) -> list[Path]:
    first = [path for path in found if path == top]
    rest = sorted((path for path in found if path != top), key=lambda path: path.parts)
    return first + rest


def workspace_roots(
    workspace_dir: str | Path,
    home: str | Path,
    *,
    preset: str = "clarvis",
    include_user: bool = True,
    ceiling: str | Path | None = None,
) -> list[SkillRootInput]:
    """The preset's roots for ``workspace_dir``, without the user ones when ``include_user`` is false.

    Under the xcsh preset each source's project root is the nearest ancestor of the workspace, up to ``ceiling``
    (the editor folder or the ``--check`` path; default the workspace itself), that has that source's directory,
    so a package of a monorepo inherits the repository's ``.xcsh/skills``; the native roots (``.xcsh``) count
    only when the ``.xcsh`` directory exists and is not empty (seed: ``ifNonEmptyDir``).

    When the workspace is the home directory a user root and a workspace root can be the same directory; it is
    kept once, at its higher position, so that no skill appears to shadow itself. Raises ``StartupError`` for an
    unknown preset.
    """
    builder = PRESETS.get(preset)
    if builder is None:
        raise StartupError(f"Unknown preset {preset!r}: expected one of {', '.join(sorted(PRESETS))}")
    ws = os.fspath(workspace_dir)
    if preset == "xcsh":
        roots = _xcsh_roots(ws, os.fspath(home), os.fspath(ceiling) if ceiling is not None else ws)
    else:
        roots = builder(workspace=ws, cwd=ws, home=os.fspath(home))
    if not include_user:
        roots = [root for root in roots if root.scope != "user"]
    return _dedupe_keep_last(roots)


def effective_skill_roots(
    workspace_dir: str | Path,
    home: str | Path,
    *,
    preset: str = "clarvis",
    include_user: bool = True,
    follow_symlinks: bool = True,
    overlay: Mapping[Path, str] | None = None,
) -> list[SkillRootInput]:
    """Plugin skill roots (enabled, installed plugins, lowest first) followed by ``workspace_roots``.

    This is the full ascending root list the server and the CLI scan for one workspace.
    """
    plugins = discover_plugins(workspace_dir, home, include_user=include_user, follow_symlinks=follow_symlinks)
    enabled = effective_enabled_plugins(workspace_dir, home, include_user, overlay, follow_symlinks=follow_symlinks)
    standalone = workspace_roots(workspace_dir, home, preset=preset, include_user=include_user)
    return _dedupe_keep_last([*plugin_skill_roots(plugins, enabled), *standalone])


def _xcsh_roots(workspace: str, home: str, ceiling: str) -> list[SkillRootInput]:
    """The xcsh preset's roots with each source's project root found by the nearest-ancestor lookup."""
    roots: list[SkillRootInput] = []
    for root in xcsh_skill_roots(workspace=workspace, cwd=workspace, home=home):
        config_dir_name = ".xcsh" if root.source == "native" else f".{root.source}"
        if root.scope == "workspace":
            # No ancestor has this source: the workspace's own (missing) directory, which contributes nothing.
            project = nearest_with(workspace, ceiling, config_dir_name) or Path(workspace)
            root = SkillRootInput(
                os.path.join(project, *Path(root.path).relative_to(workspace).parts), root.scope, root.source
            )
        if root.source == "native" and not _non_empty_dir(Path(root.path).parent):  # <proj>/.xcsh, ~/.xcsh/agent
            continue
        roots.append(root)
    return roots


def _non_empty_dir(path: Path) -> bool:
    try:
        with os.scandir(path) as entries:
            return any(True for _ in entries)
    except OSError:
        return False


def _dedupe_keep_last(roots: list[SkillRootInput]) -> list[SkillRootInput]:
    last: dict[str, int] = {}
    for index, root in enumerate(roots):
        last[os.path.normpath(root.path)] = index
    return [root for index, root in enumerate(roots) if last[os.path.normpath(root.path)] == index]
