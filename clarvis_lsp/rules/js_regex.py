"""Syntax of JavaScript regular expressions, as Clarvis compiles a hook's ``match.args`` values.

``js_regex_error`` checks a pattern with a small scanner of the ECMAScript grammar in its default (non-``u``)
mode with the Annex B extensions browsers and Node.js accept. It is an approximation: it catches unbalanced
groups, unterminated classes, quantifiers with nothing to repeat, ``{n,m}`` out of order, class ranges out of
order, malformed group syntax, duplicate or undefined group names and a trailing backslash; it does not apply the
stricter ``u``-mode rules (which Clarvis does not use) and accepts the ES2025 modifier groups ``(?i:...)``.
Python's ``re`` is not used: it rejects valid JavaScript (``(?<name>...)``) and accepts invalid JavaScript
(``(?P<name>...)``).
"""

from __future__ import annotations

import bisect
import re

_QUANTIFIER = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")
_GROUP_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
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
    names: dict[str, int] = {}  # group name -> offset of its '('
    closers = _Closers(pattern)
    references: list[tuple[int, str]] = []
    quantifiable = False
    while index < length:
        char = pattern[index]
        if char == "\\":
            if index + 1 >= length:
                return index, "a pattern cannot end with a single backslash"
            escaped = pattern[index + 1]
            if escaped == "k" and pattern.startswith("<", index + 2):
                close = closers.after(index + 3)
                if close != -1:
                    references.append((index, pattern[index + 3 : close]))
                    index = close + 1
                    quantifiable = True
                    continue
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
                    name = pattern[index + 3 : close] if close != -1 else ""
                    if close == -1 or not _GROUP_NAME.fullmatch(name):
                        return index, "a named group needs a name of letters, digits, _ or $ in (?<name>...)"
                    if name in names:
                        return index, f'the group name "{name}" is used twice'
                    names[name] = index
                    step = close + 1 - index
                else:
                    modifiers = _MODIFIERS.match(pattern, index)
                    if modifiers is None or not (modifiers.group(1) or modifiers.group(2)):
                        return index, "'(?' must be followed by ':', '=', '!', '<=', '<!' or '<name>'"
                    step = modifiers.end() - index
            else:
                step = 1
            groups.append((index, quantifiable_group))
            index += step
            quantifiable = False
            continue
        if char == ")":
            if not groups:
                return index, "this ')' closes no group (escape it as \\) to match a parenthesis)"
            _, quantifiable = groups.pop()
            index += 1
            continue
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
    for offset, name in references:
        if names and name not in names:
            return offset, f'\\k<{name}> refers to no group named "{name}"'
    return None
