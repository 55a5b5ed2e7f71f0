"""``clarvis-lsp --effective [PATH…] [--trusted] [--format text|json]`` and ``clarvis-lsp --why NAME``.

Each PATH is split into workspaces as ``--check`` splits it (the nearest workspace, then every nested one), each
discovered with its own roots and project configuration, and no file is checked: the model needs discovery and
the few settings, plugin and hooks documents it reads, so ``--effective`` stays fast on large trees.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from clarvis_lsp import __version__
from clarvis_lsp.batch.plan import lookup_ceiling
from clarvis_lsp.batch.run import discover
from clarvis_lsp.config.project import layered, load_project_config
from clarvis_lsp.discovery import SkillRootInput, StartupError, find_workspaces, markers_for, nearest_workspace
from clarvis_lsp.effective import effective_of
from clarvis_lsp.effective.model import Effective
from clarvis_lsp.effective.render import answers_json, display_paths, dumps, format_text, format_why, to_json
from clarvis_lsp.effective.why import why
from clarvis_lsp.memory import bulk_allocation
from clarvis_lsp.workspace.engine import WorkspaceEngine

EXIT_OK = 0
EXIT_USAGE = 2


@dataclass(frozen=True)
class EffectiveRequest:
    """What ``--effective`` or ``--why NAME`` asks about and how: the CLI's arguments, already parsed and checked
    (the format is one this run prints, the workspace, when given, a directory)."""

    paths: Sequence[str]
    cwd: Path
    home: Path
    overrides: Mapping[str, object] = field(default_factory=dict)  # CLI flags, as configuration keys
    explicit_roots: tuple[SkillRootInput, ...] | None = None
    workspace: Path | None = None
    jobs: int | None = None  # processes for discovery's reads; None: one a core when it pays
    trusted: bool = False  # --trusted: the workspace is approved, its enabledPlugins' skills count
    platform: str | None = None  # whose capability-executable overrides apply; None: this machine's
    why: str | None = None  # --why NAME: the entry to explain, instead of the whole configuration
    output_format: Literal["text", "json"] = "text"


def workspace_models(request: EffectiveRequest) -> list[Effective]:
    """The effective configuration of every workspace under the paths given. Raises ``StartupError``."""
    cwd, home, overrides = request.cwd, request.home, request.overrides
    directories: list[tuple[Path, Path]] = []  # (workspace, ceiling)
    if request.workspace is not None:
        directories.append((Path(os.path.abspath(request.workspace)), Path(os.path.abspath(request.workspace))))
    else:
        for given in request.paths or ["."]:
            target = Path(os.path.normpath(os.path.join(cwd, os.path.expanduser(given))))
            if not target.exists():
                raise StartupError(f"No such file or directory: {given}")
            ceiling = lookup_ceiling(target, cwd)
            config = layered(load_project_config(ceiling).config, overrides)
            markers = markers_for(config.preset)
            top = nearest_workspace(target, ceiling, markers)
            found = [top]
            if target.is_dir():
                found += [path for path in find_workspaces(target, home=home, markers=markers) if path != top]
            directories += [(directory, ceiling) for directory in found]
    models: list[Effective] = []
    seen: set[Path] = set()
    for directory, ceiling in directories:
        if directory in seen:
            continue
        seen.add(directory)
        load = load_project_config(directory)
        if load.status == "error":
            raise StartupError(load.message)
        engine = WorkspaceEngine(
            directory=directory,
            config=layered(load.config, overrides),
            home=home,
            explicit_roots=request.explicit_roots,
            ceiling=ceiling,
            trusted=request.trusted,
        )
        discover(engine, jobs=request.jobs)
        models.append(effective_of(engine, trusted=request.trusted, platform=request.platform))
    return models


def run_effective(request: EffectiveRequest) -> int:
    """``--effective`` or ``--why NAME``: print, then the exit status (2 for a request that cannot be answered)."""
    try:
        # One scan, then the process prints and exits: the collector waits, as it does for --check.
        with bulk_allocation():
            models = workspace_models(request)
    except StartupError as error:
        print(f"clarvis-lsp: {error}", file=sys.stderr)
        return EXIT_USAGE
    show = display_paths(request.cwd, request.home)
    name = request.why
    if name is not None:
        if request.output_format == "json":
            sys.stdout.write(
                dumps(
                    {
                        "version": __version__,
                        "name": name,
                        "workspaces": [
                            {
                                "workspace": str(model.workspace),
                                "trusted": model.trusted,
                                "answers": answers_json(why(model, name)),
                            }
                            for model in models
                        ],
                    }
                )
            )
        else:
            parts = []
            for model in models:
                header = f"# workspace {show(model.workspace)} ({'trusted' if model.trusted else 'untrusted'})\n"
                parts.append(header + format_why(name, why(model, name), show))
            sys.stdout.write("\n".join(parts))
        return EXIT_OK
    if request.output_format == "json":
        sys.stdout.write(dumps({"version": __version__, "workspaces": [to_json(model) for model in models]}))
    else:
        sys.stdout.write("\n".join(format_text(model, show) for model in models))
    return EXIT_OK
