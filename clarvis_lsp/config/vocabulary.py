"""The words a configuration is written in: the project file's names, the presets, scopes and rule settings, how
each key is spelt, and the rule codes a ``rules`` table may name.

Both the plain options (``config.project``) and the models that validate what someone wrote
(``config.validation``) read them from here, so the two agree and neither imports the other's module to learn
them: the project module imports the models (lazily, only when something was written), never the other way.
This module imports neither, nor pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

__all__ = [
    "CONFIG_FILE_NAME",
    "FIELD_ALIASES",
    "PRESETS",
    "PYPROJECT_FILE_NAME",
    "PYPROJECT_TABLE",
    "RULE_SETTINGS",
    "SCOPES",
    "SETTINGS_ALIASES",
    "Preset",
    "RuleSetting",
    "Scope",
    "known_codes",
    "split_root",
    "suggest",
]

CONFIG_FILE_NAME = ".clarvis-lsp.toml"
PYPROJECT_FILE_NAME = "pyproject.toml"
PYPROJECT_TABLE = ("tool", "clarvis-lsp")

RuleSetting = Literal["off", "error", "warning", "information", "hint"]
Preset = Literal["clarvis", "xcsh"]
Scope = Literal["user", "workspace"]

RULE_SETTINGS: tuple[str, ...] = get_args(RuleSetting)
PRESETS: tuple[str, ...] = get_args(Preset)
SCOPES: tuple[str, ...] = get_args(Scope)

# How configuration spells each field (its alias), by field name; the plain dataclasses in config.project and the
# models in config.validation both follow it (a test keeps them equal).
FIELD_ALIASES: dict[str, str] = {
    "preset": "preset",
    "roots": "roots",
    "strict": "strict",
    "follow_symlinks": "followSymlinks",
    "include_user": "includeUser",
    "rules": "rules",
    "settings": "settings",
    "exclude": "exclude",
    "max_file_size_mb": "maxFileSizeMB",
}
SETTINGS_ALIASES: dict[str, str] = {"extra_fields": "extraFields"}


def known_codes() -> frozenset[str]:
    """Every rule code in the catalogue.

    Imported lazily (``all_rules`` imports every rule family) so that reading the configuration does not pull
    in the rules before they are needed, and looked up through this one function so tests can replace it.
    """
    from clarvis_lsp.rules.catalogue import all_rules

    return frozenset(declared.code for declared in all_rules())


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` most likely misspells (the rules' "did you mean", a little more lenient: a
    configuration key is short and a wrong guess costs nothing)."""
    from clarvis_lsp.rules.base import closest

    return closest(word, list(candidates), cutoff=0.6)


def split_root(text: str) -> dict[str, str]:
    """Split a root written as ``PATH[:scope[:source]]`` into its parts.

    Colons are legal in paths (``C:\\skills``, ``a:b``), so the text is split from the right, at most twice, and
    only where the part after the split is a valid scope; otherwise the whole text is the path. A scope with
    nothing before it (``:user``) leaves the path empty, which validation refuses: a directory named ``:user`` is
    far less likely than a root whose path was left out.
    """
    parts = text.rsplit(":", 2)
    if len(parts) == 3 and parts[1] in SCOPES:
        return {"path": parts[0], "scope": parts[1], "source": parts[2]}
    parts = text.rsplit(":", 1)
    if len(parts) == 2 and parts[1] in SCOPES:
        return {"path": parts[0], "scope": parts[1]}
    return {"path": text}
