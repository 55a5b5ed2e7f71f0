"""The hooks document a plugin manifest names, which is a hooks file whatever its name (SPEC §3.5).

``"hooks": "./hooks.json"`` or ``"./config/my-hooks.json"``: Clarvis reads that file as the plugin's hooks, so it
is checked as ``<plugin>/hooks/hooks.json`` is, and only the manifest can say which file it is.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Container, Sequence
from pathlib import Path

from clarvis_lsp.discovery.fs import is_within
from clarvis_lsp.knowledge.files import CANDIDATE_NAMES
from clarvis_lsp.knowledge.layout import PLUGIN_MANIFEST


def named_hooks_file(manifest: Path, text: str | None, *, follow_symlinks: bool) -> Path | None:
    """The file ``manifest`` (its ``text``, read tolerantly) names as its hooks document, when that path stays
    inside the plugin (``plugin/path-escapes`` reports one that leaves it, and it is never read); None for inline
    hooks, no ``hooks``, or a manifest that is not a JSON object (its own findings say so)."""
    try:
        document = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        return None
    declared = document.get("hooks") if isinstance(document, dict) else None
    if not isinstance(declared, str):
        return None
    from clarvis_lsp.rules.plugin_paths import path_inside  # the JSON rules are imported on first use

    return path_inside(manifest.parent, declared, follow_symlinks=follow_symlinks)


def relative_to(path: Path, top: str) -> str:
    """``path`` relative to the walked directory ``top``, ``/``-separated (as the exclude patterns read it)."""
    return os.path.relpath(path, top).replace(os.sep, "/")


def walked_hooks_file(target: Path | None, top: str, skipped: Sequence[str], overlay: Container[Path]) -> Path | None:
    """The hooks document (``target``) a plugin.json found by a walk of ``top`` names, when the walk would not find
    it by its name (``./config/my-hooks.json``): inside the walked tree, not in a ``skipped`` one, and a file."""
    if target is None or target.name in CANDIDATE_NAMES:
        return None  # none, or found by the walk itself (and recognised by the engine's ``kind_of``)
    text = str(target)
    if not is_within(text, top) or any(is_within(text, path) for path in skipped):
        return None
    return target if target in overlay or os.path.isfile(target) else None


def holds_manifest(directory: Path, overlay: Container[Path], lexists: Callable[[str], bool]) -> bool:
    """Whether ``directory`` holds a ``plugin.json``, on disk or as an open buffer."""
    manifest = directory / PLUGIN_MANIFEST
    return manifest in overlay or lexists(str(manifest))
