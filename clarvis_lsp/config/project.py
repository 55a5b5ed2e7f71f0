"""Project configuration: the effective options, read in layers from the project file, the editor's settings and
the CLI's flags.

The options are read in layers, ``defaults ← project file ← editor settings / CLI flags`` (the xcsh settings
model), and whatever a layer writes is validated by the same pydantic models (``config.validation``), so a key
means the same thing wherever it is written. The project file is ``.clarvis-lsp.toml`` at the workspace root
or, failing that, the ``[tool.clarvis-lsp]`` table of ``pyproject.toml``.

The effective options are a plain frozen dataclass, ``ProjectConfig``, and this module never imports pydantic:
the defaults, and the CLI's flags (booleans and a preset, checked here as strictly as the models check them),
need no validation beyond that, so a tree with no project file and no editor settings never loads it (0.2 s of
every ``--check``'s start-up). Anything else, a file, editor settings or a layer this module cannot take as it
is, goes through the models, and what they accept is turned into a ``ProjectConfig`` here. The words both
sides use (presets, scopes, key spellings, rule codes) live in ``config.vocabulary``: this module imports the
models, the models never import it.

Loading has three outcomes, like xcsh's ``ConfigFile.tryLoad()``: ``ok``, ``not-found`` (use the defaults) and
``error``. An error is never an exception: it comes back as ``config/invalid`` diagnostics on the file, each at
the exact key or value at fault, because a configuration that silently falls back to defaults makes every
other finding misleading. tomllib keeps no positions, so a small scanner (``TomlLocator`` in
``config.toml_positions``) finds them again in the text.

This module must not import pygls or lsprotocol: the ``--check`` path loads it and start-up time matters.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from clarvis_lsp.config.vocabulary import (
    CONFIG_FILE_NAME,
    FIELD_ALIASES,
    PRESETS,
    PYPROJECT_FILE_NAME,
    PYPROJECT_TABLE,
    SETTINGS_ALIASES,
    Preset,
    RuleSetting,
    Scope,
    split_root,
)
from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.findings import Diagnostic, Range, Severity
from clarvis_lsp.rules.project_config import INVALID

if TYPE_CHECKING:
    from pydantic import ValidationError

    from clarvis_lsp.config import validation

__all__ = [
    "CONFIG_FILE_NAME",
    "PYPROJECT_FILE_NAME",
    "PYPROJECT_TABLE",
    "ConfigLoad",
    "ProjectConfig",
    "RootSpec",
    "RuleSetting",
    "SettingsOptions",
    "as_options",
    "config_from_mapping",
    "layered",
    "load_project_config",
    "symlinks_followed",
    "validated",
    "validation_messages",
]


@dataclass(frozen=True)
class SettingsOptions:
    """Options for settings.json checks."""

    # Top-level settings.json fields a team uses on purpose, so settings/unknown-field does not report them.
    extra_fields: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RootSpec:
    """One skill root, replacing the preset's list: a path, its scope and the source it is reported under."""

    path: str
    scope: Scope = "workspace"
    source: str = ""

    @classmethod
    def parse(cls, text: str) -> RootSpec:
        """Read ``PATH[:scope[:source]]`` (the CLI's ``--root``); raises ``ValidationError`` (a ValueError)."""
        parts = split_root(text)
        if not parts["path"].strip():
            from clarvis_lsp.config.validation import parse_root

            return _root_of(parse_root(text))  # raises, with the message a root in a project file gets
        scope: Scope = "user" if parts.get("scope") == "user" else "workspace"
        return cls(path=parts["path"], scope=scope, source=parts.get("source", ""))


def parse_roots(texts: Sequence[str]) -> tuple[RootSpec, ...]:
    """The command line's ``--root`` values; raises ``ValueError`` with one line that names the value and what is
    wrong with it (the message a root in a project file gets), never a validation report."""
    specs = []
    for text in texts:
        try:
            specs.append(RootSpec.parse(text))
        except ValueError as error:
            errors = getattr(error, "errors", None)
            reason = errors()[0]["msg"] if callable(errors) else str(error)
            raise ValueError(f"--root {text!r}: {reason}") from None
    return tuple(specs)


@dataclass(frozen=True)
class ProjectConfig:
    """The effective options, whichever layer they came from."""

    preset: Preset = "clarvis"
    # None: the preset's roots. A list replaces them (strings "PATH[:scope[:source]]" or tables).
    roots: list[RootSpec] | None = None
    strict: bool = False
    follow_symlinks: bool = True
    include_user: bool = True
    rules: dict[str, RuleSetting] = field(default_factory=dict)
    settings: SettingsOptions = field(default_factory=SettingsOptions)
    exclude: list[str] = field(default_factory=list)
    max_file_size_mb: float = 10  # a larger file is reported as too large, never read in part

    def severity_for(self, code: str, default: Severity) -> Severity | None:
        """The severity to report ``code`` at, or None when it is off; an exact code beats ``family/*``."""
        setting = self.rules.get(code)
        if setting is None:
            setting = self.rules.get(code.split("/", 1)[0] + "/*")
        if setting is None:
            return default
        if setting == "off":
            return None
        return Severity.parse(setting)


def _config_of(model: validation.ProjectConfig) -> ProjectConfig:
    """The plain options a validated model holds."""
    return ProjectConfig(
        preset=model.preset,
        roots=None if model.roots is None else [_root_of(root) for root in model.roots],
        strict=model.strict,
        follow_symlinks=model.follow_symlinks,
        include_user=model.include_user,
        rules=dict(model.rules),
        settings=SettingsOptions(extra_fields=list(model.settings.extra_fields)),
        exclude=list(model.exclude),
        max_file_size_mb=model.max_file_size_mb,
    )


def _root_of(model: validation.RootSpec) -> RootSpec:
    return RootSpec(path=model.path, scope=model.scope, source=model.source)


def validated(data: Mapping[str, object]) -> ProjectConfig:
    """The configuration ``data`` writes, always through the models; raises pydantic's ``ValidationError`` (a
    ``ValueError``)."""
    from clarvis_lsp.config.validation import validate

    return _config_of(validate(data))


def as_options(config: ProjectConfig) -> dict[str, object]:
    """``config`` as a configuration would write it (aliases as keys, roots as tables): a lower layer to merge a
    higher one into and validate again."""
    return {
        "preset": config.preset,
        "roots": None
        if config.roots is None
        else [{"path": root.path, "scope": root.scope, "source": root.source} for root in config.roots],
        "strict": config.strict,
        "followSymlinks": config.follow_symlinks,
        "includeUser": config.include_user,
        "rules": dict(config.rules),
        "settings": {"extraFields": list(config.settings.extra_fields)},
        "exclude": list(config.exclude),
        "maxFileSizeMB": config.max_file_size_mb,
    }


def _spellings(aliases: Mapping[str, str]) -> dict[str, str]:
    """Every spelling a table accepts for its keys (alias and name) → the alias, as written in configuration."""
    keys: dict[str, str] = {}
    for name, alias in aliases.items():
        keys[alias] = alias
        keys[name] = alias
    return keys


_TOP_KEYS = _spellings(FIELD_ALIASES)
_SETTINGS_KEYS = _spellings(SETTINGS_ALIASES)
_FIELD_NAMES = {alias: name for name, alias in FIELD_ALIASES.items()}
_FLAGS = ("strict", "followSymlinks", "includeUser")  # the boolean options, by alias
_MERGED_KEYS = ("rules", "settings")  # tables merged key by key across layers, not replaced


def _without_nulls(data: Mapping[str, object]) -> dict[str, object]:
    """Drop top-level nulls: JSON clients send ``null`` for "not set", which must not override a lower layer."""
    return {key: value for key, value in data.items() if value is not None}


PLAIN_OPTIONS_FAST_PATH = True  # Kept: −8 % CPU of --check at 2,000 realistic skills (benchmarks/README.md)
"""Take plain options without the models (``benchmarks/bench_fast_paths.py`` switches it off)."""


def _plain_changes(options: Mapping[str, object]) -> dict[str, Any] | None:
    """``options`` as dataclass field changes when validating them cannot fail: booleans for the boolean options
    and a known preset (strictly: ``1`` is no boolean), each key written once. None for anything else, which the
    models validate."""
    changes: dict[str, Any] = {}
    for key, value in options.items():
        alias = _TOP_KEYS.get(key)
        if alias is None or _FIELD_NAMES[alias] in changes:
            return None
        if alias in _FLAGS and type(value) is bool:
            changes[_FIELD_NAMES[alias]] = value
        elif alias == "preset" and type(value) is str and value in PRESETS:
            changes["preset"] = value
        else:
            return None
    return changes


def config_from_mapping(data: Mapping[str, object]) -> ProjectConfig:
    """Validate editor settings (``initializationOptions``, ``workspace/configuration`` section ``clarvis``).

    Raises pydantic's ``ValidationError``; the server turns it into a ``window/showMessage``.
    """
    options = _without_nulls(data)
    changes = _plain_changes(options) if PLAIN_OPTIONS_FAST_PATH else None
    if changes is not None:
        return ProjectConfig(**changes)
    return validated(options)


def layered(base: ProjectConfig, overrides: Mapping[str, object]) -> ProjectConfig:
    """Apply a higher layer (editor settings, CLI flags) on top of ``base``.

    Only keys present in ``overrides`` (and not null) replace the base's. ``rules`` and ``settings`` are
    merged one level deep, code by code and option by option: turning one rule off in the editor must not
    discard the severities the project file sets for the others. Raises ``ValidationError`` like
    ``config_from_mapping``.
    """
    options = _without_nulls(overrides)
    changes = _plain_changes(options) if PLAIN_OPTIONS_FAST_PATH else None
    if changes is not None:
        return replace(base, **changes)
    merged = as_options(base)
    for key, value in options.items():
        alias = _TOP_KEYS.get(key, key)
        current = merged.get(alias)
        if alias in _MERGED_KEYS and isinstance(value, Mapping) and isinstance(current, dict):
            inner_keys = _SETTINGS_KEYS if alias == "settings" else {}
            combined = dict(current)
            for inner, inner_value in value.items():
                combined[inner_keys.get(str(inner), str(inner))] = inner_value
            merged[alias] = combined
        else:
            merged[alias] = value
    return validated(merged)


def validation_messages(error: ValidationError, *, table: Iterable[str] = ()) -> list[str]:
    """One message per problem in ``error``, for editor settings the server reports with ``window/showMessage``.

    ``table`` names where the options were written (``("clarvis",)`` for the editor's section), so messages
    read ``Unknown key "x" in [clarvis]``.
    """
    from clarvis_lsp.config import validation

    return validation.validation_messages(error, table=tuple(table))


@dataclass(frozen=True)
class ConfigLoad:
    """The outcome of reading the project file (xcsh ``tryLoad``): ok, not-found or error."""

    status: Literal["ok", "not-found", "error"]
    config: ProjectConfig  # the defaults unless status is "ok"
    path: Path | None  # the file that was read, or that failed
    diagnostics: list[Diagnostic] = field(default_factory=list)  # config/invalid findings on ``path``
    message: str = ""  # one line, for window/showMessage and the CLI's stderr


def load_project_config(workspace_dir: Path, *, follow_symlinks: bool = True) -> ConfigLoad:
    """Read ``.clarvis-lsp.toml`` or, failing that, ``[tool.clarvis-lsp]`` in ``pyproject.toml``.

    ``follow_symlinks`` is what the CLI flag or the editor's setting says (``symlinks_followed``): a project file
    cannot decide for itself whether it may be read. When it is false, a symlinked project file is never opened
    (SPEC §9): it gets ``discovery/symlink-ignored`` and counts as absent, so nothing it holds, not even a value
    echoed in a ``config/invalid`` message, reaches the user. Either way the file is read only if it is a regular
    file (a FIFO under the name would block the check for ever).
    """
    ignored: list[Diagnostic] = []
    for path, table in ((workspace_dir / CONFIG_FILE_NAME, ()), (workspace_dir / PYPROJECT_FILE_NAME, PYPROJECT_TABLE)):
        if not follow_symlinks and os.path.islink(path):
            ignored.append(_symlink_ignored(path))
            continue
        if path.is_file() if table else path.exists():  # as before: a pyproject.toml that is no file is not ours
            load = _load_file(path, table, follow_symlinks=follow_symlinks)
            if load.status != "not-found" or not table:
                return replace(load, diagnostics=[*load.diagnostics, *ignored])
    return replace(_not_found(workspace_dir), diagnostics=ignored)


def symlinks_followed(*layers: Mapping[str, object]) -> bool:
    """Whether symlinks are followed according to the layers above the project file (CLI flags, editor
    settings; the last that says wins), which decide before the project file is opened."""
    follow = True
    for layer in layers:
        for key in ("followSymlinks", "follow_symlinks"):
            value = layer.get(key)
            if isinstance(value, bool):
                follow = value
    return follow


def _symlink_ignored(path: Path) -> Diagnostic:
    from clarvis_lsp.rules.discovery import SYMLINK_IGNORED

    return Diagnostic(
        path,
        Range.point(0, 0),
        SYMLINK_IGNORED.severity,
        SYMLINK_IGNORED.code,
        f"{path.name} is a symlink and followSymlinks is off, so this project configuration is not read.",
    )


def _not_found(workspace_dir: Path) -> ConfigLoad:
    return ConfigLoad(
        "not-found",
        ProjectConfig(),
        None,
        [],
        f"No clarvis-lsp configuration in {workspace_dir} ({CONFIG_FILE_NAME} or [tool.clarvis-lsp] in "
        f"{PYPROJECT_FILE_NAME}); using the defaults.",
    )


def _failed(path: Path, diagnostics: list[Diagnostic]) -> ConfigLoad:
    diagnostics.sort(key=Diagnostic.sort_key)
    first = diagnostics[0]
    more = len(diagnostics) - 1
    message = (
        "Invalid clarvis-lsp configuration (using the defaults until it is fixed): "
        f"{path}:{first.range.start.line + 1}:{first.range.start.character + 1}: {first.message}"
        + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")
    )
    return ConfigLoad("error", ProjectConfig(), path, diagnostics, _one_line(message))


def _invalid(path: Path, range_: Range, message: str) -> Diagnostic:
    return Diagnostic(path, range_, INVALID.severity, INVALID.code, _one_line(message))


def _one_line(text: str) -> str:
    return " ".join(text.split("\n")).replace("\r", " ")


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)\s*$")


def _load_file(path: Path, table: tuple[str, ...], *, follow_symlinks: bool = True) -> ConfigLoad:
    # Imported here: a workspace without a project file needs neither a TOML parser nor the models.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    from clarvis_lsp.discovery.fs import read_regular_file

    data, why = read_regular_file(str(path), follow_symlinks)
    if data is None:
        if not table or os.path.islink(path) or os.path.exists(path):  # pyproject.toml may vanish: not ours
            return _failed(path, [_invalid(path, Range.point(0, 0), f"Cannot read {path.name}: {why}.")])
        return _not_found(path.parent)
    decoded = decode(data)
    text = decoded.text
    lines = LineIndex(text)
    ours = not table or "clarvis-lsp" in text
    if decoded.invalid_utf8_offset is not None and ours:
        offset = max(text.find("\ufffd"), 0)
        return _failed(
            path,
            [
                _invalid(
                    path,
                    lines.range(offset, offset + 1),
                    f"{path.name} is not valid UTF-8 (first bad byte at byte offset "
                    f"{decoded.invalid_utf8_offset}): re-save it as UTF-8.",
                )
            ],
        )
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        if not ours:
            # A broken pyproject.toml that does not mention clarvis-lsp is some other tool's problem.
            return _not_found(path.parent)
        return _failed(path, [_syntax_error(path, lines, str(error))])

    section: object = document
    for key in table:
        if not isinstance(section, dict) or key not in section:
            return _not_found(path.parent)
        section = section[key]

    from clarvis_lsp.config.toml_positions import TomlLocator
    from clarvis_lsp.config.validation import problems_of

    locator = TomlLocator(text, table)
    if not isinstance(section, dict):
        return _failed(
            path,
            [_invalid(path, locator.locate((), key=False), "[tool.clarvis-lsp] must be a table of options.")],
        )
    outcome = problems_of(section, table)
    if isinstance(outcome, list):
        return _failed(path, [_invalid(path, locator.locate(loc, key=key), message) for loc, key, message in outcome])
    return ConfigLoad("ok", _config_of(outcome), path, [], f"Loaded clarvis-lsp configuration from {path}.")


def _syntax_error(path: Path, lines: LineIndex, raw: str) -> Diagnostic:
    """A TOML syntax error, at the line and column tomllib names in its message (both 1-based)."""
    reason = raw
    match = _TOML_POSITION.search(raw)
    if match:
        reason = raw[: match.start()]
        line = int(match.group(1)) - 1
        offset = lines.line_start(line) + int(match.group(2)) - 1
        offset = min(offset, lines.line_end(line))
    else:
        end_match = _TOML_AT_END.search(raw)
        if end_match:
            reason = raw[: end_match.start()]
        offset = len(lines.text)
    end = offset + 1 if offset < len(lines.text) and lines.text[offset] not in "\r\n" else offset
    return _invalid(path, lines.range(offset, end), f"{path.name} is not valid TOML: {reason}; fix the syntax.")
