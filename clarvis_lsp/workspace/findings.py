"""The one place that assembles a file's findings, for both front ends (``--check`` and the language server).

A file's findings are its own rules' plus the cross-file findings that concern it, at the configured severities,
without the codes switched off or left out by ``--select``/``--ignore``, sorted by position.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from clarvis_lsp.config.project import layered, load_project_config, symlinks_followed
from clarvis_lsp.discovery import nearest_workspace
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.workspace.engine import WorkspaceEngine

OwnFindings = Callable[[Path], "list[Diagnostic]"]


def file_findings(
    engine: WorkspaceEngine, paths: Iterable[Path], *, alone: bool = False, own: OwnFindings | None = None
) -> dict[Path, list[Diagnostic]]:
    """Each file's findings as both front ends report them.

    ``alone``: only what the file shows without discovery (``WorkspaceEngine.check_file_alone``), as the server
    publishes while the first scan runs or when the configuration cannot start discovery. ``own``: where the
    file's own findings come from, when not from ``engine.check_file`` (a headless run computed some of them
    while discovery read the files, ``batch.ahead``)."""
    cross = {} if alone else engine.cross_by_path()
    own_findings = engine.check_file_alone if alone else (own or engine.check_file)
    found: dict[Path, list[Diagnostic]] = {}
    for path in paths:
        items = [*cross.get(path, []), *own_findings(path)]
        kept = engine.rules.apply(items)
        found[path] = sorted(kept, key=Diagnostic.sort_key)
    return found


def check_text(
    path: Path,
    text: str,
    *,
    home: Path,
    overrides: Mapping[str, object] | None = None,
    open_buffers: Mapping[Path, str] | None = None,
    ceiling: Path | None = None,
) -> list[Diagnostic]:
    """The findings of one buffer as an editor holds it (``text``, unsaved), in the workspace nearest to ``path``,
    with the project configuration found there under ``overrides``. ``open_buffers`` are other unsaved files that
    override the disk, for discovery too. The workspace is looked for up to ``ceiling`` (default: the file
    system's root), as the editor looks up to its workspace folder."""
    path = Path(os.path.abspath(path))
    directory = nearest_workspace(path, ceiling or Path(path.anchor))
    load = load_project_config(directory, follow_symlinks=symlinks_followed(overrides or {}))
    engine = WorkspaceEngine(
        directory=directory,
        config=layered(load.config, overrides or {}),
        home=home,
        overlay={**(open_buffers or {}), path: text},
    )
    return file_findings(engine, [path])[path]
