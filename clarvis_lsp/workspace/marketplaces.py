"""Where a marketplace's relative sources point: the plugin directories a ``marketplace.json`` names.

SPEC §3 recognises a ``plugin.json`` in a directory that a marketplace entry points to, wherever it sits (a
repository that publishes its plugins through a marketplace rarely keeps them under ``plugins/``). A relative
``source`` is read against the marketplace file's directory and, for a marketplace kept in ``.claude-plugin/``
as Claude Code's repositories keep it, against the repository directory above it too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from clarvis_lsp.rules.base import Findings

CLAUDE_PLUGIN_DIR = ".claude-plugin"


def marketplace_sources(path: Path, read: tuple[str, Findings] | None) -> Iterator[Path]:
    """The directories the relative ``source`` of each entry of the marketplace at ``path`` names (normalised,
    not checked for existence); nothing when the file cannot be read or is not well-formed JSON (its own
    findings say so)."""
    from clarvis_lsp.rules.marketplace import is_relative_source  # the JSON families are imported on first use

    if read is None:
        return
    try:
        document = json.loads(read[0])
    except (ValueError, RecursionError):  # not JSON, or nested past the decoder's depth (json/syntax says so)
        return
    plugins = document.get("plugins") if isinstance(document, dict) else None
    if not isinstance(plugins, list):
        return
    bases = [path.parent]
    if path.parent.name == CLAUDE_PLUGIN_DIR:
        bases.append(path.parent.parent)
    for entry in plugins:
        source = entry.get("source") if isinstance(entry, dict) else None
        if isinstance(source, str) and source.strip() and is_relative_source(source) and not os.path.isabs(source):
            for base in bases:
                yield Path(os.path.normpath(base / source))
