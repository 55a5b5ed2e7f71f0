"""Syntax of JavaScript regular expressions, as Clarvis compiles a hook's ``match.args`` values.

``js_regex_error`` checks a pattern with a small scanner of the ECMAScript grammar in its default (non-``u``)
mode with the Annex B extensions Node.js accepts, and ES2025's modifier groups (``(?i:...)``) and duplicate names
in different alternatives: unbalanced groups, unterminated classes, quantifiers with nothing to repeat, ``{n,m}``
out of order, class ranges out of order, malformed group syntax and modifiers, group names used twice in one
alternative or never defined, a ``\\k`` without a name in a pattern with named groups, a trailing backslash. It
does not apply the stricter ``u``-mode rules (which Clarvis does not use). A test holds it to Node.js 24 on every
part of the grammar and on random patterns (``tests/core/test_js_regex_against_node.py``).

No library does this as well: Python's ``re`` rejects valid JavaScript (``(?<name>...)``) and accepts invalid
JavaScript (``(?P<name>...)``); the ECMAScript engines on PyPI either lack a wheel the VS Code bundle needs
(CPython 3.10, Linux arm64, macOS x86_64) or are not linear on patterns of thousands of alternatives (``regress``
grows quadratically and crashes the process near 50,000; the QuickJS bindings grow quadratically too), which a
settings.json checked on every keystroke must never be.
"""

from __future__ import annotations

import bisect
import re

_QUANTIFIER = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")
_NAME_ESCAPE = re.compile(r"\\u(?:([0-9A-Fa-f]{4})|\{([0-9A-Fa-f]{1,6})\})")
_MODIFIERS = re.compile(r"\(\?([ims]*)(?:-([ims]*))?:")
_SIMPLE_CLASS_ESCAPES = {"n": 10, "r": 13, "t": 9, "v": 11, "f": 12, "b": 8, "0": 0}


def _class_atom(pattern: str, index: int) -> tuple[int | None, int]:
    """One atom of a character class at ``index``: its code point (None for \\d, \\w… or unknown) and the end."""
    char = pattern[index]
    if char != "\\":
        return ord(char), index + 1
    if index + 1 >= len(pattern):
        return None, index + 1
    escaped = pattern[index + 1]
    if escaped in "dDwWsS":
        return None, index + 2
    if escaped in _SIMPLE_CLASS_ESCAPES and not (escaped == "0" and pattern[index + 2 : index + 3].isdigit()):
        return _SIMPLE_CLASS_ESCAPES[escaped], index + 2
    hex_length = {"x": 2, "u": 4}.get(escaped)
    if hex_length is not None:
        digits = pattern[index + 2 : index + 2 + hex_length]
        if len(digits) == hex_length and all(c in "0123456789abcdefABCDEF" for c in digits):
            return int(digits, 16), index + 2 + hex_length
        return ord(escaped), index + 2
    if escaped == "c" or escaped.isdigit():
        return None, index + 2  # control and octal escapes: not worth modelling, never a range error here
    return ord(escaped), index + 2


def _scan_class(pattern: str, start: int) -> tuple[int, tuple[int, str] | None]:
    """Scan a character class opening at ``start``; return its end and a problem, if any."""
    index = start + 1
    if pattern.startswith("^", index):
        index += 1
    length = len(pattern)
    while index < length and pattern[index] != "]":
        low, after = _class_atom(pattern, index)
        if after < length and pattern[after] == "-" and after + 1 < length and pattern[after + 1] != "]":
            high, end = _class_atom(pattern, after + 1)
            if low is not None and high is not None and low > high:
                return end, (index, "a character class range is out of order (write the smaller character first)")
            index = end
        else:
            index = after
    if index >= length:
        return length, (start, "the character class opened here is never closed with ']'")
    return index + 1, None


def _group_name(written: str) -> str | None:
    """The name a ``(?<…>`` or ``\\k<…>`` spells, or None when it is no identifier: ECMAScript's IdentifierName,
    which allows any Unicode letter and ``\\uXXXX``/``\\u{…}`` escapes (Python's identifiers are the same
    Unicode classes; ``$`` is allowed as well)."""
    if "\\" in written:
        try:
            written = _NAME_ESCAPE.sub(lambda found: chr(int(found.group(1) or found.group(2), 16)), written)
        except (ValueError, OverflowError):
            return None
        if "\\" in written:
            return None
    return written if written and written.replace("$", "_").isidentifier() else None


class _Alternatives:
    """Which group names are taken where a new group is opened. Since ES2025 two groups may share a name when
    they are in different alternatives of one disjunction (``(?<y>\\d{4})-\\d\\d|\\d\\d-(?<y>\\d{4})``), as
    Node.js 24 accepts: only one of them can take part in a match.

    One frame per open group: the names of its current alternative, and of its earlier ones. ``live`` holds every
    name of the current alternative of every open group, the ones a new group may not reuse. Closing a group
    merges the smaller of its sets into the larger, so the work stays near-linear in the pattern."""

    def __init__(self) -> None:
        self.frames: list[tuple[set[str], set[str]]] = [(set(), set())]  # (current alternative, earlier ones)
        self.live: set[str] = set()

    def define(self, name: str) -> bool:
        """Record a group named ``name``; False when the name is taken in this alternative."""
        if name in self.live:
            return False
        self.live.add(name)
        self.frames[-1][0].add(name)
        return True

    def open(self) -> None:
        self.frames.append((set(), set()))

    def bar(self) -> None:
        """A ``|``: the names of the alternative it ends are free again in the next one."""
        current, earlier = self.frames[-1]
        self.live.difference_update(current)
        self.frames[-1] = (set(), _union(earlier, current))

    def close(self) -> None:
        """A ``)``: every name of the group is taken in the alternative that holds it."""
        current, earlier = self.frames.pop()
        self.live |= earlier  # those of its current alternative are taken already
        outer_current, outer_earlier = self.frames[-1]
        self.frames[-1] = (_union(outer_current, _union(current, earlier)), outer_earlier)


def _union(first: set[str], second: set[str]) -> set[str]:
    """Both sets as one, the smaller added to the larger (which is changed and returned)."""
    if len(first) < len(second):
        first, second = second, first
    first |= second
    return first


def _digits_above(low: str, high: str) -> bool:
    """Whether the decimal number ``low`` is greater than ``high``, compared as text: ``int()`` costs time
    quadratic in the number of digits and raises above 4,300 of them, and a pattern may hold any number."""
    low = low.lstrip("0")
    high = high.lstrip("0")
    return (len(low), low) > (len(high), high)


class _Closers:
    """Where the next ``>`` after an offset is, answered by a binary search over every ``>`` of the pattern
    (found once, on first use): ``str.find`` from each ``(?<`` or ``\\k<`` would read the rest of the pattern
    every time, quadratic in a pattern of thousands of them with no ``>``."""

    def __init__(self, pattern: str) -> None:
        self._pattern = pattern
        self._offsets: list[int] | None = None

    def after(self, start: int) -> int:
        """The offset of the first ``>`` at or after ``start``, or -1."""
        if self._offsets is None:
            self._offsets = [offset for offset, char in enumerate(self._pattern) if char == ">"]
        position = bisect.bisect_left(self._offsets, start)
        return self._offsets[position] if position < len(self._offsets) else -1


def js_regex_error(pattern: str) -> tuple[int, str] | None:
    """The first syntax error of a JavaScript regex (default mode, Annex B), as (index, reason), or None.

    One pass over the pattern: the work is linear in its length whatever it holds (a settings.json may hold
    patterns of thousands of named groups, checked on every keystroke in the editor).
    """
    index = 0
    length = len(pattern)
    groups: list[tuple[int, bool]] = []  # (offset of '(', quantifiable once closed)
    names: dict[str, int] = {}  # group name -> offset of its first '('
    alternatives = _Alternatives()
    closers = _Closers(pattern)
    references: list[tuple[int, str]] = []
    bare_references: list[int] = []  # a \k not followed by <name>: an error once the pattern has a named group
    quantifiable = False
    while index < length:
        char = pattern[index]
        if char == "\\":
            if index + 1 >= length:
                return index, "a pattern cannot end with a single backslash"
            escaped = pattern[index + 1]
            if escaped == "k":
                close = closers.after(index + 3) if pattern.startswith("<", index + 2) else -1
                if close != -1:
                    references.append((index, pattern[index + 3 : close]))
                    index = close + 1
                    quantifiable = True
                    continue
                bare_references.append(index)
            quantifiable = escaped not in "bB"
            index += 2
            continue
        if char == "[":
            index, problem = _scan_class(pattern, index)
            if problem is not None:
                return problem
            quantifiable = True
            continue
        if char == "(":
            quantifiable_group = True
            if pattern.startswith("(?", index):
                rest = pattern[index + 2 : index + 4]
                if rest[:1] in (":", "=", "!"):
                    step = 3
                elif rest in ("<=", "<!"):
                    step = 4
                    quantifiable_group = False
                elif rest[:1] == "<":
                    close = closers.after(index + 3)
                    name = _group_name(pattern[index + 3 : close]) if close != -1 else None
                    if name is None:
                        return index, "a named group needs a name of letters, digits, _ or $ in (?<name>...)"
                    if not alternatives.define(name):
                        return index, (
                            f'the group name "{name}" is used twice in one alternative (two groups may share a '
                            "name only in different alternatives of a |)"
                        )
                    names.setdefault(name, index)
                    step = close + 1 - index
                else:
                    modifiers = _MODIFIERS.match(pattern, index)
                    if modifiers is None or not (modifiers.group(1) or modifiers.group(2)):
                        return index, "'(?' must be followed by ':', '=', '!', '<=', '<!' or '<name>'"
                    flags = modifiers.group(1) + (modifiers.group(2) or "")
                    if len(set(flags)) != len(flags):
                        return index, "a modifier group names each of i, m and s at most once, on one side of '-'"
                    step = modifiers.end() - index
            else:
                step = 1
            groups.append((index, quantifiable_group))
            alternatives.open()
            index += step
            quantifiable = False
            continue
        if char == ")":
            if not groups:
                return index, "this ')' closes no group (escape it as \\) to match a parenthesis)"
            _, quantifiable = groups.pop()
            alternatives.close()
            index += 1
            continue
        if char == "|":
            alternatives.bar()
        if char in "*+?":
            if not quantifiable:
                return index, f"'{char}' has nothing to repeat (escape it as \\{char} to match it literally)"
            index += 1
            if pattern.startswith("?", index):
                index += 1
            quantifiable = False
            continue
        if char == "{":
            braces = _QUANTIFIER.match(pattern, index)
            if braces is not None:
                if not quantifiable:
                    return index, "this {...} quantifier has nothing to repeat"
                high = braces.group(3)
                if high and _digits_above(braces.group(1), high):
                    written = braces.group(0) if len(braces.group(0)) <= 24 else "this {...} quantifier"
                    return index, f"the numbers in {written} are out of order"
                index = braces.end()
                if pattern.startswith("?", index):
                    index += 1
                quantifiable = False
                continue
            quantifiable = True  # Annex B: a '{' that starts no quantifier is a literal
            index += 1
            continue
        quantifiable = char not in "^$|"
        index += 1
    if groups:
        return groups[-1][0], "the group opened here is never closed with ')'"
    if names and bare_references:
        return bare_references[0], "with named groups in the pattern, \\k must be followed by <name>"
    for offset, written in references:
        name = _group_name(written)
        if names and (name is None or name not in names):
            return offset, f'\\k<{written}> refers to no group named "{written}"'
    return None
