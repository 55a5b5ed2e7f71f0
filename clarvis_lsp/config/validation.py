"""Validation of configuration someone wrote: the pydantic models of the project file and the editor's settings,
and the ``config/invalid`` messages made from their errors.

Only a written configuration comes here (a ``.clarvis-lsp.toml``, a ``[tool.clarvis-lsp]`` table, editor
settings, a CLI flag the plain layer cannot take as it is); what comes out is a validated model, or the problems
with it, which ``config.project`` turns into its plain ``ProjectConfig`` dataclass. A tree with no configuration
never imports this module, and so never pydantic (0.2 s of every ``--check``'s start-up).

The imports go one way: ``config.project`` imports this module, which learns the words of a configuration from
``config.vocabulary`` and never imports ``config.project``.

The models keep the dataclasses' names (``ProjectConfig``, ``RootSpec``, ``SettingsOptions``): pydantic puts a
model's name into some of its messages. Every model is strict: ``"yes"`` is not a boolean and ``1`` is not a
string in a configuration file; lax coercion would hide typos.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from clarvis_lsp.config import vocabulary
from clarvis_lsp.config.toml_positions import KeyPath
from clarvis_lsp.config.vocabulary import (
    CONFIG_FILE_NAME,
    PRESETS,
    RULE_SETTINGS,
    SCOPES,
    Preset,
    RuleSetting,
    Scope,
    split_root,
    suggest,
)

__all__ = [
    "Problem",
    "ProjectConfig",
    "RootSpec",
    "SettingsOptions",
    "parse_root",
    "problems_of",
    "validate",
    "validation_messages",
]

Problem = tuple[KeyPath, bool, str]
"""One ``config/invalid`` finding before it has a position: where (a key path), whether it is about the key
rather than its value, and the message."""


def _check_rule_key(code: str) -> str:
    """Accept a catalogue code or a family (``skill``, ``skill/`` or ``skill/*``, kept as ``skill/*``, the form
    ``severity_for`` looks up), as ``--select`` does; anything else is a typo that would silently do nothing.

    The codes are looked up through ``vocabulary.known_codes`` (an attribute lookup, so tests can replace
    it)."""
    codes = vocabulary.known_codes()
    families = sorted({known.split("/", 1)[0] for known in codes})
    wildcards = [f"{family}/*" for family in families]
    if code in codes or code in wildcards:
        return code
    if code.rstrip("/") in families:
        return code.rstrip("/") + "/*"
    if code.endswith("/*"):
        near = suggest(code, wildcards)
        detail = f'Unknown rule family "{code}" in rules: ' + (
            f'did you mean "{near}"?' if near else f"families are {', '.join(families)}."
        )
    else:
        near = suggest(code, [*codes, *wildcards])
        detail = f'Unknown rule code "{code}" in rules: ' + (
            f'did you mean "{near}"?' if near else "see `clarvis-lsp --explain` for the list of codes."
        )
    raise PydanticCustomError("unknown_rule_code", "{detail}", {"detail": detail})


RuleCode = Annotated[str, AfterValidator(_check_rule_key)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)


class SettingsOptions(_Model):
    """Options for settings.json checks."""

    extra_fields: list[str] = Field(default_factory=list, alias="extraFields")


class RootSpec(_Model):
    """One skill root: a string ``PATH[:scope[:source]]`` or a table."""

    path: str
    scope: Scope = "workspace"
    source: str = ""

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, data: Any) -> Any:
        if isinstance(data, str):
            return split_root(data)
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
    """The options as a configuration writes them."""

    preset: Preset = "clarvis"
    roots: list[RootSpec] | None = None
    strict: bool = False
    follow_symlinks: bool = Field(default=True, alias="followSymlinks")
    include_user: bool = Field(default=True, alias="includeUser")
    rules: dict[RuleCode, RuleSetting] = Field(default_factory=dict)
    settings: SettingsOptions = Field(default_factory=SettingsOptions)
    exclude: list[str] = Field(default_factory=list)
    max_file_size_mb: float = Field(default=10, alias="maxFileSizeMB", gt=0, le=4096)


def validate(data: Mapping[str, object]) -> ProjectConfig:
    """The configuration ``data`` writes; raises pydantic's ``ValidationError`` (a ``ValueError``)."""
    return ProjectConfig.model_validate(data)


def parse_root(text: str) -> RootSpec:
    """``PATH[:scope[:source]]`` validated as a root table's string; raises ``ValidationError``."""
    return RootSpec.model_validate(text)


def problems_of(section: Mapping[str, object], table: tuple[str, ...]) -> ProjectConfig | list[Problem]:
    """The configuration a project file's ``section`` writes, or every problem in it (none is an exception)."""
    try:
        return validate(section)
    except ValidationError as error:
        return [(_clean_loc(detail["loc"]), _about_key(detail), _describe(detail, table)) for detail in error.errors()]


def validation_messages(error: ValidationError, *, table: Sequence[str] = ()) -> list[str]:
    """One message per problem in ``error``, for editor settings the server reports with ``window/showMessage``.

    ``table`` names where the options were written (``("clarvis",)`` for the editor's section), so messages
    read ``Unknown key "x" in [clarvis]``.
    """
    return [_describe(detail, tuple(table)) for detail in error.errors()]


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
        near = suggest(name, keys)
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
            choices, what = RULE_SETTINGS, f'severity {_shown(value)} for rule "{loc[1]}"'
        elif loc == ("preset",):
            choices, what = PRESETS, f"preset {_shown(value)}"
        elif loc[-1:] == ("scope",):
            choices, what = SCOPES, f'scope {_shown(value)} in "{_dotted(loc[:-1])}"'
        else:
            return f'Invalid value {_shown(value)} for "{where}": {detail["msg"]}.'
        near = suggest(str(value), choices) if isinstance(value, str) else None
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
