"""Findings about clarvis-lsp's own configuration file (``.clarvis-lsp.toml`` or ``[tool.clarvis-lsp]``).

The checks themselves live in ``clarvis_lsp.config.project``, which reads the file before any other rule runs (the
configuration decides which rules run at all); this module only declares the code, so that it is in the
catalogue, can be explained, and appears in SARIF like every other rule.
"""

from __future__ import annotations

from clarvis_lsp.findings import Severity
from clarvis_lsp.rules.catalogue import rule

INVALID = rule(
    "config/invalid",
    Severity.ERROR,
    "The project's clarvis-lsp configuration file is invalid.",
    why="A configuration that cannot be read is not applied at all: rule severities, roots, excludes and the "
    "preset silently fall back to their defaults, so the findings you see are not the ones you configured. "
    "The editor shows a message and `clarvis-lsp --check` exits with status 2 until the file is fixed. "
    "A valid file is applied as written: its `roots` are read as given, wherever they point (`/etc`, `~`, another "
    "checkout), so a cloned repository's project file decides which directories are scanned; `--list` marks "
    "the roots a project file set, and `--root` replaces them.",
    example='[tool.clarvis-lsp]\nstict = true\n\n[tool.clarvis-lsp.rules]\n"skill/unknwn-field" = "off"',
    fix="Correct the key or value the diagnostic points at: the message names the accepted keys, rule codes "
    "and values, with the closest one when it looks like a typo.",
    file_kind="config",
)
