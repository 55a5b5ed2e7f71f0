"""``clarvis-lsp --effective [PATH…] [--trusted] [--format text|json]`` and ``clarvis-lsp --why NAME``.

Each PATH is split into workspaces as ``--check`` splits it (the nearest workspace, then every nested one), each
discovered with its own roots and project configuration, and no file is checked: the model needs discovery and
the few settings, plugin and hooks documents it reads, so ``--effective`` stays fast on large trees.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from clarvis_lsp import __version__
from clarvis_lsp.batch.plan import command_line_overrides, explicit_roots, lookup_ceiling
from clarvis_lsp.batch.run import discover
from clarvis_lsp.config.project import layered, load_project_config
from clarvis_lsp.discovery import StartupError, find_workspaces, markers_for, nearest_workspace
from clarvis_lsp.effective import effective_of
from clarvis_lsp.effective.model import Effective
from clarvis_lsp.effective.render import answers_json, display_paths, dumps, format_text, format_why, to_json
from clarvis_lsp.effective.why import why
from clarvis_lsp.memory import bulk_allocation
from clarvis_lsp.workspace.engine import WorkspaceEngine

EXIT_OK = 0
EXIT_USAGE = 2


def workspace_models(args: argparse.Namespace, cwd: Path, home: Path, *, trusted: bool) -> list[Effective]:
    """The effective configuration of every workspace under the paths given. Raises ``StartupError``."""
    overrides = command_line_overrides(args)
    try:
        explicit = explicit_roots(args.root)
    except ValueError as error:  # a --root value that names no directory: refused like a bad workspace
        raise StartupError(str(error)) from None
    directories: list[tuple[Path, Path]] = []  # (workspace, ceiling)
    if args.workspace:
        directories.append((Path(os.path.abspath(args.workspace)), Path(os.path.abspath(args.workspace))))
    else:
        for given in args.paths or ["."]:
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
            explicit_roots=explicit,
            ceiling=ceiling,
            trusted=trusted,
        )
        discover(engine, jobs=args.jobs)
        models.append(effective_of(engine, trusted=trusted, platform=args.platform))
    return models


def run_effective(args: argparse.Namespace) -> int:
    """``--effective`` or ``--why NAME``: print, then the exit status (2 for a request that cannot be answered)."""
    if args.format not in ("text", "json"):
        print(f"clarvis-lsp: --effective and --why print text or json, not {args.format}", file=sys.stderr)
        return EXIT_USAGE
    if args.workspace and not os.path.isdir(args.workspace):
        kind = "is not a directory" if os.path.exists(args.workspace) else "does not exist"
        print(f"clarvis-lsp: Workspace {kind}: {os.path.abspath(args.workspace)}", file=sys.stderr)
        return EXIT_USAGE
    cwd = Path(os.getcwd())
    home = Path(os.path.abspath(os.path.expanduser(args.home))) if args.home else Path.home()
    try:
        # One scan, then the process prints and exits: the collector waits, as it does for --check.
        with bulk_allocation():
            models = workspace_models(args, cwd, home, trusted=args.trusted)
    except StartupError as error:
        print(f"clarvis-lsp: {error}", file=sys.stderr)
        return EXIT_USAGE
    show = display_paths(cwd, home)
    if args.why is not None:
        if args.format == "json":
            sys.stdout.write(
                dumps(
                    {
                        "version": __version__,
                        "name": args.why,
                        "workspaces": [
                            {
                                "workspace": str(model.workspace),
                                "trusted": model.trusted,
                                "answers": answers_json(why(model, args.why)),
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
                parts.append(header + format_why(args.why, why(model, args.why), show))
            sys.stdout.write("\n".join(parts))
        return EXIT_OK
    if args.format == "json":
        sys.stdout.write(dumps({"version": __version__, "workspaces": [to_json(model) for model in models]}))
    else:
        sys.stdout.write("\n".join(format_text(model, show) for model in models))
    return EXIT_OK
