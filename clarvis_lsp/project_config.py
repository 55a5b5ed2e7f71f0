"""Project configuration: one model for the project file, the editor's settings and the CLI's flags.

The options are read in layers, ``defaults ← project file ← editor settings / CLI flags`` (the xcsh settings
model), and every layer is validated by the same pydantic model, so a key means the same thing wherever it is
written. The project file is ``.clarvis-lsp.toml`` at the workspace root or, failing that, the
``[tool.clarvis-lsp]`` table of ``pyproject.toml``.

Loading has three outcomes, like xcsh's ``ConfigFile.tryLoad()``: ``ok``, ``not-found`` (use the defaults) and
``error``. An error is never an exception: it comes back as ``config/invalid`` diagnostics on the file, each at
the exact key or value at fault, because a configuration that silently falls back to defaults makes every
other finding misleading. tomllib keeps no positions, so a small scanner (``TomlLocator`` in
``project_config_toml``) finds them again in the text.

This module must not import pygls or lsprotocol: the ``--check`` path loads it and start-up time matters.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from clarvis_lsp.documents.text import LineIndex, decode
from clarvis_lsp.findings import Diagnostic, Range, Severity
from clarvis_lsp.project_config_toml import KeyPath, TomlLocator
from clarvis_lsp.rules.project_config import INVALID

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "CONFIG_FILE_NAME",
    "PYPROJECT_FILE_NAME",
    "PYPROJECT_TABLE",
    "ConfigLoad",
    "ProjectConfig",
    "RootSpec",
    "RuleSetting",
    "SettingsOptions",
    "config_from_mapping",
    "known_codes",
    "layered",
    "load_project_config",
    "validation_messages",
]

CONFIG_FILE_NAME = ".clarvis-lsp.toml"
PYPROJECT_FILE_NAME = "pyproject.toml"
PYPROJECT_TABLE = ("tool", "clarvis-lsp")

RuleSetting = Literal["off", "error", "warning", "information", "hint"]
Preset = Literal["clarvis", "xcsh"]
Scope = Literal["user", "workspace"]

_RULE_SETTINGS: tuple[str, ...] = get_args(RuleSetting)
_PRESETS: tuple[str, ...] = get_args(Preset)
_SCOPES: tuple[str, ...] = get_args(Scope)


def known_codes() -> frozenset[str]:
    """Every rule code in the catalogue.

    Imported lazily (``all_rules`` imports every rule family) so that reading the configuration does not pull
    in the rules before they are needed, and looked up through this one function so tests can replace it.
    """
    from clarvis_lsp.rules.catalogue import all_rules

    return frozenset(declared.code for declared in all_rules())


def _suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` most likely misspells (the rules' "did you mean", a little more lenient: a
    configuration key is short and a wrong guess costs nothing)."""
    from clarvis_lsp.rules.base import closest

    return closest(word, list(candidates), cutoff=0.6)


def _check_rule_key(code: str) -> str:
    """Accept a catalogue code or a ``family/*`` wildcard; anything else is a typo that would silently do nothing."""
    codes = known_codes()
    families = sorted({known.split("/", 1)[0] for known in codes})
    wildcards = [f"{family}/*" for family in families]
    if code in codes or code in wildcards:
        return code
    if code.endswith("/*"):
        near = _suggest(code, wildcards)
        detail = f'Unknown rule family "{code}" in rules: ' + (
            f'did you mean "{near}"?' if near else f"families are {', '.join(families)}."
        )
    else:
        near = _suggest(code, [*codes, *wildcards])
        detail = f'Unknown rule code "{code}" in rules: ' + (
            f'did you mean "{near}"?' if near else "see `clarvis-lsp --explain` for the list of codes."
        )
    raise PydanticCustomError("unknown_rule_code", "{detail}", {"detail": detail})


RuleCode = Annotated[str, AfterValidator(_check_rule_key)]


class _Model(BaseModel):
    # strict: "yes" is not a boolean and 1 is not a string in a configuration file; lax coercion would hide typos.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)


class SettingsOptions(_Model):
    """Options for settings.json checks."""

    # Top-level settings.json fields a team uses on purpose, so settings/unknown-field does not report them.
    extra_fields: list[str] = Field(default_factory=list, alias="extraFields")


class RootSpec(_Model):
    """One skill root, replacing the preset's list: a path, its scope and the source it is reported under."""

    path: str
    scope: Scope = "workspace"
    source: str = ""

    @classmethod
    def parse(cls, text: str) -> RootSpec:
        """Read ``PATH[:scope[:source]]`` (the CLI's ``--root``); raises ``ValidationError`` (a ValueError)."""
        return cls.model_validate(text)

    @staticmethod
    def split(text: str) -> dict[str, str]:
        """Split ``PATH[:scope[:source]]`` into its parts.

        Colons are legal in paths (``C:\\skills``, ``a:b``), so the text is split from the right, at most twice,
        and only where the part after the split is a valid scope; otherwise the whole text is the path.
        """
        parts = text.rsplit(":", 2)
        if len(parts) == 3 and parts[1] in _SCOPES and parts[0]:
            return {"path": parts[0], "scope": parts[1], "source": parts[2]}
        parts = text.rsplit(":", 1)
        if len(parts) == 2 and parts[1] in _SCOPES and parts[0]:
            return {"path": parts[0], "scope": parts[1]}
        return {"path": text}

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, data: Any) -> Any:
        if isinstance(data, str):
            return cls.split(data)
        if isinstance(data, (dict, RootSpec)):
            return data
        raise PydanticCustomError(
            "invalid_root",
            "{detail}",
            {"detail": 'must be a string "PATH[:scope[:source]]" or a table { path = "…", scope = "workspace" }'},
        )

    @field_validator("path")
    @classmethod
    def _non_empty(cls, path: str) -> str:
        if not path.strip():
            raise PydanticCustomError("empty_root", "{detail}", {"detail": "is empty: give the root's directory"})
        return path


class ProjectConfig(_Model):
    """The effective options, whichever layer they came from."""

    preset: Preset = "clarvis"
    # None: the preset's roots. A list replaces them (strings "PATH[:scope[:source]]" or tables).
    roots: list[RootSpec] | None = None
    strict: bool = False
    follow_symlinks: bool = Field(default=True, alias="followSymlinks")
    include_user: bool = Field(default=True, alias="includeUser")
    rules: dict[RuleCode, RuleSetting] = Field(default_factory=dict)
    settings: SettingsOptions = Field(default_factory=SettingsOptions)
    exclude: list[str] = Field(default_factory=list)

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


def _field_keys(model: type[BaseModel]) -> dict[str, str]:
    """Every spelling a model accepts for its fields (alias and name) → the alias, as written in configuration."""
    keys: dict[str, str] = {}
    for name, info in model.model_fields.items():
        alias = info.alias or name
        keys[alias] = alias
        keys[name] = alias
    return keys


_TOP_KEYS = _field_keys(ProjectConfig)
_MERGED_KEYS = ("rules", "settings")  # tables merged key by key across layers, not replaced


def _without_nulls(data: Mapping[str, object]) -> dict[str, object]:
    """Drop top-level nulls: JSON clients send ``null`` for "not set", which must not override a lower layer."""
    return {key: value for key, value in data.items() if value is not None}


def config_from_mapping(data: Mapping[str, object]) -> ProjectConfig:
    """Validate editor settings (``initializationOptions``, ``workspace/configuration`` section ``clarvis``).

    Raises pydantic's ``ValidationError``; the server turns it into a ``window/showMessage``.
    """
    return ProjectConfig.model_validate(_without_nulls(data))


def layered(base: ProjectConfig, overrides: Mapping[str, object]) -> ProjectConfig:
    """Apply a higher layer (editor settings, CLI flags) on top of ``base``.

    Only keys present in ``overrides`` (and not null) replace the base's. ``rules`` and ``settings`` are
    merged one level deep, code by code and option by option: turning one rule off in the editor must not
    discard the severities the project file sets for the others. Raises ``ValidationError`` like
    ``config_from_mapping``.
    """
    merged: dict[str, object] = base.model_dump(by_alias=True)
    for key, value in _without_nulls(overrides).items():
        alias = _TOP_KEYS.get(key, key)
        current = merged.get(alias)
        if alias in _MERGED_KEYS and isinstance(value, Mapping) and isinstance(current, dict):
            inner_keys = _field_keys(SettingsOptions) if alias == "settings" else {}
            combined = dict(current)
            for inner, inner_value in value.items():
                combined[inner_keys.get(str(inner), str(inner))] = inner_value
            merged[alias] = combined
        else:
            merged[alias] = value
    return ProjectConfig.model_validate(merged)


@dataclass(frozen=True)
class ConfigLoad:
    """The outcome of reading the project file (xcsh ``tryLoad``): ok, not-found or error."""

    status: Literal["ok", "not-found", "error"]
    config: ProjectConfig  # the defaults unless status is "ok"
    path: Path | None  # the file that was read, or that failed
    diagnostics: list[Diagnostic] = field(default_factory=list)  # config/invalid findings on ``path``
    message: str = ""  # one line, for window/showMessage and the CLI's stderr


def load_project_config(workspace_dir: Path) -> ConfigLoad:
    """Read ``.clarvis-lsp.toml`` or, failing that, ``[tool.clarvis-lsp]`` in ``pyproject.toml``."""
    own = workspace_dir / CONFIG_FILE_NAME
    if own.exists():
        return _load_file(own, table=())
    pyproject = workspace_dir / PYPROJECT_FILE_NAME
    if pyproject.is_file():
        return _load_file(pyproject, table=PYPROJECT_TABLE)
    return _not_found(workspace_dir)


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


def _load_file(path: Path, table: tuple[str, ...]) -> ConfigLoad:
    try:
        data = path.read_bytes()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return _failed(path, [_invalid(path, Range.point(0, 0), f"Cannot read {path.name}: {reason}.")])
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
    locator = TomlLocator(text, table)
    if not isinstance(section, dict):
        return _failed(
            path,
            [_invalid(path, locator.locate((), key=False), "[tool.clarvis-lsp] must be a table of options.")],
        )
    try:
        config = ProjectConfig.model_validate(section)
    except ValidationError as error:
        diagnostics = [
            _invalid(path, locator.locate(_clean_loc(detail["loc"]), key=_about_key(detail)), _describe(detail, table))
            for detail in error.errors()
        ]
        return _failed(path, diagnostics)
    return ConfigLoad("ok", config, path, [], f"Loaded clarvis-lsp configuration from {path}.")


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


# --- messages -------------------------------------------------------------------------------------------------


def _clean_loc(loc: Sequence[str | int]) -> KeyPath:
    return tuple(part for part in loc if part != "[key]")


def _about_key(detail: ErrorDetails) -> bool:
    """Whether the error is about a key (an unknown key, an unknown rule code) rather than its value."""
    return detail["type"] == "extra_forbidden" or "[key]" in detail["loc"]


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _dotted(loc: KeyPath) -> str:
    """A location as a TOML-style dotted key: ``roots[0].scope``, ``rules."skill/x"``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            name = part if _BARE_KEY.fullmatch(part) else json.dumps(part, ensure_ascii=False)
            text += f".{name}" if text else name
    return text


def _shown(value: object) -> str:
    """A value as the user wrote it, roughly (TOML scalars print like JSON), cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _keys_of(parent: KeyPath) -> list[str]:
    """The keys accepted in the table at ``parent``, as configuration spells them."""
    if not parent:
        model: type[BaseModel] = ProjectConfig
    elif parent == ("settings",):
        model = SettingsOptions
    elif len(parent) == 2 and parent[0] == "roots":
        model = RootSpec
    else:
        return []
    return [info.alias or name for name, info in model.model_fields.items()]


_EXPECTED = {
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "list_type": "an array",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
}


def validation_messages(error: ValidationError, *, table: Sequence[str] = ()) -> list[str]:
    """One message per problem in ``error``, for editor settings the server reports with ``window/showMessage``.

    ``table`` names where the options were written (``("clarvis",)`` for the editor's section), so messages
    read ``Unknown key "x" in [clarvis]``.
    """
    return [_describe(detail, tuple(table)) for detail in error.errors()]


def _table_name(table: tuple[str, ...], parent: KeyPath) -> str:
    """How to name the table holding ``parent`` in a message: ``[tool.clarvis-lsp.settings]``, ``[roots[0]]``."""
    if not table and not parent:
        return CONFIG_FILE_NAME
    return f"[{_dotted((*table, *parent))}]"


def _describe(detail: ErrorDetails, table: tuple[str, ...] = ()) -> str:
    """A message that says what is wrong and what to write instead."""
    loc = _clean_loc(detail["loc"])
    kind = detail["type"]
    where = _dotted(loc) or "the configuration"
    if kind == "extra_forbidden" and loc:
        parent, name = loc[:-1], str(loc[-1])
        keys = _keys_of(parent)
        container = _table_name(table, parent)
        near = _suggest(name, keys)
        if near:
            return f'Unknown key "{name}" in {container}: did you mean "{near}"?'
        return f'Unknown key "{name}" in {container}: remove it (known keys: {", ".join(keys)}).'
    if kind == "unknown_rule_code":
        return str(detail["msg"])
    if kind in ("invalid_root", "empty_root"):
        return f'"{where}" {detail["msg"]}.'
    if kind == "literal_error":
        value = detail["input"]
        if loc and loc[0] == "rules" and len(loc) == 2:
            choices, what = _RULE_SETTINGS, f'severity {_shown(value)} for rule "{loc[1]}"'
        elif loc == ("preset",):
            choices, what = _PRESETS, f"preset {_shown(value)}"
        elif loc[-1:] == ("scope",):
            choices, what = _SCOPES, f'scope {_shown(value)} in "{_dotted(loc[:-1])}"'
        else:
            return f'Invalid value {_shown(value)} for "{where}": {detail["msg"]}.'
        near = _suggest(str(value), choices) if isinstance(value, str) else None
        if near:
            return f'Invalid {what}: did you mean "{near}"? Use one of {", ".join(choices)}.'
        return f"Invalid {what}: use one of {', '.join(choices)}."
    if kind == "missing":
        owner = _dotted(loc[:-1]) or "the configuration"
        return f'"{owner}" is missing the required key "{loc[-1]}".'
    expected = _EXPECTED.get(kind)
    if expected:
        if loc and loc[0] == "rules" and len(loc) == 1:
            expected = "a table of rule codes to off, error, warning, information or hint"
        elif loc in (("exclude",), ("settings", "extraFields")):
            expected = "an array of strings"
        elif loc == ("roots",):
            expected = 'an array of roots ("PATH[:scope[:source]]" strings or tables)'
        return f'"{where}" must be {expected}, not {_shown(detail["input"])}.'
    return f'Invalid value {_shown(detail["input"])} for "{where}": {detail["msg"]}.'
