"""The shipped JSON Schemas as plain data: where every Clarvis fact the linter knows is read from.

Each schema is read with ``json.load`` from the package data the first time it is asked for and kept, so the
``--check`` path pays for no validator and for no schema it does not use. The dicts are shared: read-only. The
package data is read from the package's directory when it has one (an installed or editable package), through
``importlib.resources`` otherwise (a zip): importing that costs ~14 ms, a tenth of ``--check``'s start-up.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import re2
    import regex

SCHEMA_PACKAGE = "clarvis_lsp.schemas"
SCHEMA_SUFFIX = ".schema.json"


@functools.cache
def _directory() -> str | None:
    """The schema package's directory, or None when it is not one on disk (imported from a zip)."""
    locations = getattr(importlib.import_module(SCHEMA_PACKAGE), "__path__", None) or []
    found = [location for location in locations if os.path.isfile(os.path.join(location, "__init__.py"))]
    return found[0] if len(found) == 1 else None


@functools.cache
def schema_names() -> tuple[str, ...]:
    """The names of the shipped schemas, sorted (``"hook"``, ``"settings"``, ``"skill-frontmatter"``…)."""
    directory = _directory()
    if directory is not None:
        entries = os.listdir(directory)
    else:
        import importlib.resources

        entries = [entry.name for entry in importlib.resources.files(SCHEMA_PACKAGE).iterdir()]
    return tuple(sorted(entry[: -len(SCHEMA_SUFFIX)] for entry in entries if entry.endswith(SCHEMA_SUFFIX)))


@functools.cache
def load(name: str) -> dict[str, Any]:
    """The parsed schema ``name`` (``"settings"``); ``KeyError`` for a name that is not shipped."""
    if name not in schema_names():
        raise KeyError(f"unknown schema {name!r}; known: {', '.join(schema_names())}")
    directory = _directory()
    if directory is not None:
        with open(os.path.join(directory, name + SCHEMA_SUFFIX), encoding="utf-8") as stream:
            data = json.load(stream)
    else:
        import importlib.resources

        resource = importlib.resources.files(SCHEMA_PACKAGE).joinpath(name + SCHEMA_SUFFIX)
        with resource.open("r", encoding="utf-8") as stream:
            data = json.load(stream)
    if not isinstance(data, dict):
        raise ValueError(f"schema {name!r} is not a JSON object")
    return data


@dataclass(frozen=True)
class Field:
    """One property of an object in a schema, as much as a rule needs to check its value.

    ``types`` are the JSON types it accepts, from ``type`` or from the alternatives of ``anyOf`` (``("string",
    "array")`` for a string or a list of strings). ``plain`` is a string with no further constraint (no length,
    pattern or format), which a generic "is it a string" check covers entirely.
    """

    name: str
    types: tuple[str, ...]
    required: bool = False
    min_length: int = 0
    plain: bool = False


def _types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return (declared,)
    found: list[str] = []
    for alternative in schema.get("anyOf", ()):
        for kind in _types(alternative):
            if kind not in found:
                found.append(kind)
    return tuple(found)


def fields(schema: Mapping[str, Any]) -> dict[str, Field]:
    """The ``properties`` of an object schema, in schema order."""
    required = set(strings(schema.get("required", ())))
    found: dict[str, Field] = {}
    for name, member in schema.get("properties", {}).items():
        types = _types(member)
        constrained = any(keyword in member for keyword in ("minLength", "maxLength", "pattern", "format", "enum"))
        found[name] = Field(
            name=name,
            types=types,
            required=name in required,
            min_length=int(member.get("minLength", 0)),
            plain=types == ("string",) and not constrained and name not in required,
        )
    return found


def strings(value: Any) -> tuple[str, ...]:
    """A schema list of strings (an ``enum``, ``required``, an annotation) as a tuple; anything else is a bug."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"expected a list of strings in the schemas, found {value!r}")
    return tuple(value)


class SchemaPattern:
    """A schema ``pattern`` compiled for Python: ``match(text)`` is truthy when the whole text matches.

    The pattern is ECMAScript, compiled with ``regex`` (``pattern`` is that regex's source), and only when a text
    needs it: an ASCII text is matched by the pattern's ASCII projection, compiled with ``re``, where one exists
    (``\\p{L}`` in a class is ``A-Za-z`` for an ASCII text). So checking skills with ASCII names never imports
    ``regex``.
    """

    __slots__ = ("_ascii", "_compiled", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: regex.Pattern[str] | None = None
        projection = ascii_projection(pattern)
        self._ascii = re.compile(projection) if projection is not None else None

    def match(self, text: str) -> re.Match[str] | regex.Match[str] | re2._Match[str] | None:
        if len(text) > SHORT_TEXT:  # a text of any length from a file: matched in linear time where RE2 can
            linear = re2_pattern(self.pattern.removesuffix("\\Z") + "\\z")
            if linear is not None and _encodable(text):
                return linear.match(text)
        if self._ascii is not None and text.isascii():
            return self._ascii.match(text)
        return self.compiled.match(text)

    @property
    def compiled(self) -> regex.Pattern[str]:
        """The pattern as ``regex`` compiles it (ECMAScript's ``\\p{…}`` classes and ``\\s`` included)."""
        if self._compiled is None:
            import regex

            self._compiled = regex.compile(self.pattern, regex.VERSION0)
        return self._compiled


SHORT_TEXT = 256
"""Texts up to this length are matched by the backtracking engines (``re``, ``regex``) even where a pattern could
backtrack: the worst of the schemas' patterns costs well under a millisecond there, and ``re`` needs no import."""


@functools.cache
def re2_pattern(source: str) -> re2._Regexp[str] | None:
    """``source`` compiled by RE2, whose matching time is linear in the text, or None when RE2 might read it
    otherwise than ECMAScript (and ``regex``) do: ``\\s``, ``\\w`` and ``\\b`` are ASCII-only in RE2 and a ``.``
    outside a class matches U+2028 there; lookarounds and backreferences do not compile.

    The schemas' patterns that RE2 takes include the only one that backtracks quadratically in ``regex``, the
    semantic version's (a prerelease of thousands of ``1.`` parts cost seconds per string).
    """
    if _differs_in_re2(source):
        return None
    import re2  # imported here: most checks never match a long text

    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(source, options)
    except re2.error:
        return None


def _differs_in_re2(source: str) -> bool:
    """Whether ``source`` has an escape or a ``.`` that RE2 reads otherwise than ECMAScript (conservatively)."""
    in_class = False
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\":
            if source[index + 1 : index + 2] in ("s", "S", "w", "W", "b", "B"):
                return True
            index += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "." and not in_class:
            return True
        index += 1
    return False


def _encodable(text: str) -> bool:
    """RE2 reads UTF-8: a string holding a lone surrogate (``"\\ud800"`` in JSON) goes to the other engines."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def ecmascript_search(pattern: str, text: str, fallback: Callable[[str, str], object]) -> bool:
    """Whether a schema's ECMAScript ``pattern`` matches somewhere in ``text``: by RE2 for a long text where RE2
    reads the pattern as ECMAScript does, else by ``fallback`` (``re.search`` or ``regex.search``)."""
    if len(text) > SHORT_TEXT:
        linear = re2_pattern(pattern)
        if linear is not None and _encodable(text):
            return linear.search(text) is not None
    return fallback(pattern, text) is not None


# What a Unicode property class holds of ASCII: \p{L} and \p{M} as the Unicode database has it (no ASCII mark).
_ASCII_OF_PROPERTY = {"L": "A-Za-z", "Lu": "A-Z", "Ll": "a-z", "M": "", "N": "0-9", "Nd": "0-9"}
# Escapes that mean the same in ``re`` and ``regex`` for an ASCII text (``\\s`` does not: ``re`` takes \x1c-\x1f).
_SAME_ESCAPES = frozenset("dDZ")
_PROPERTY = re.compile(r"p\{(\w+)\}")


def ascii_projection(pattern: str) -> str | None:
    """``pattern`` as ``re`` matches ASCII texts the way ``regex`` matches them, or None when that is not certain:
    ``\\p{…}`` only inside a character class and only for the classes in ``_ASCII_OF_PROPERTY``, no escape but
    punctuation and ``\\d``, ``\\D``, ``\\Z``, no inline flag."""
    out: list[str] = []
    in_class = False
    class_body = -1  # where the open class's members start: a "]" there is a member, not the end
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            following = pattern[i + 1 : i + 2]
            prop = _PROPERTY.match(pattern, i + 1)
            if prop is not None:
                ascii_part = _ASCII_OF_PROPERTY.get(prop.group(1))
                if not in_class or ascii_part is None:
                    return None
                out.append(ascii_part)
                i = prop.end()
                continue
            if not following or (following.isalnum() and following not in _SAME_ESCAPES):
                return None
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
            class_body = i + 2 if pattern[i + 1 : i + 2] == "^" else i + 1
        elif char == "]" and in_class and i != class_body:
            in_class = False
        elif char == "(" and pattern[i + 1 : i + 2] == "?" and pattern[i + 2 : i + 3] not in (":", "=", "!", "<"):
            return None  # an inline flag or a named group: not worth telling apart
        out.append(char)
        i += 1
    projected = "".join(out)
    try:
        re.compile(projected)
    except re.error:
        return None
    return projected


def python_pattern(pattern: str) -> SchemaPattern:
    """A schema ``pattern`` anchored as ``^…$`` as a Python regex for ``match``.

    Compiled with ``regex``, not ``re``: schema patterns are ECMAScript, where ``\\p{L}`` (any letter) is
    standard with the ``u`` flag VS Code uses, and Python's ``re`` has no Unicode property classes. ``$`` becomes
    ``\\Z``: in Python ``$`` also matches before a final newline, which the schema's ECMAScript ``$`` does not, so
    ``"git@host:x\\n"`` must not pass.
    """
    if not pattern.startswith("^") or not pattern.endswith("$") or pattern.endswith("\\$"):
        raise ValueError(f"schema pattern {pattern!r} is not anchored with ^ and $")
    return SchemaPattern(f"(?:{pattern[1:-1]})\\Z")


__all__ = [
    "SCHEMA_PACKAGE",
    "SCHEMA_SUFFIX",
    "Field",
    "SchemaPattern",
    "ascii_projection",
    "ecmascript_search",
    "fields",
    "load",
    "python_pattern",
    "re2_pattern",
    "schema_names",
    "strings",
]
