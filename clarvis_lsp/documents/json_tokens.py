"""The tokens of the tolerant JSON parser (``json_parser``) and the values its scalars stand for.

One regular expression matches leading JSON whitespace and then exactly one token; ``Match.lastindex`` says which
kind (the ``T_*`` numbers), so the parser dispatches on one integer per token. Two pairs are matched as one token,
because a valid file is mostly made of them and a token costs the parser a function call: a closed string and a
``:`` right after its quote (``T_STR_COLON``, a member's key and its colon as nearly every file writes them), and
a ``,`` followed by such a key with nothing to decode (``T_COMMA_KEY_COLON``, the next member). Wherever the
grammar does not expect the pair, the parser takes its first part alone and scans the rest again as the next
token.

Everything that is not JSON gets a token of its own (comments, single-quoted strings, unclosed strings, malformed
numbers, bare words, stray characters), so that the parser can say what was typed. The scalar readers here
(``decode_string``, ``number_node``, ``word_node``) turn a token into its Python value and report what is wrong
with it through the ``Report`` they are given; they know nothing of the tree being built.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from clarvis_lsp.documents.json_nodes import JsonNode

__all__ = [
    "COLON_AHEAD",
    "C_CLOSE_ARR",
    "C_CLOSE_OBJ",
    "C_COLON",
    "C_COMMA",
    "C_EOF",
    "C_NUM",
    "C_OPEN_ARR",
    "C_OPEN_OBJ",
    "C_SQ",
    "C_STRING",
    "C_WORD",
    "KEYLIKE",
    "LITERALS",
    "NEEDS_DECODING",
    "PUNCT_CATEGORY",
    "TOKEN",
    "T_COMMENT",
    "T_EOF",
    "T_FLOAT",
    "T_INT",
    "T_JUNK",
    "T_NUM",
    "T_PUNCT",
    "T_SPACE",
    "T_SQ",
    "T_SQ_OPEN",
    "T_STR",
    "T_STR_COLON",
    "T_STR_OPEN",
    "T_WORD",
    "VALUE_START",
    "Report",
    "char_name",
    "decode_string",
    "number_node",
    "show",
    "word_node",
]

Report = Callable[[str, int, int], None]
"""Where a scalar reader reports a syntax error: ``report(message, start, end)``."""

# What ``Match.lastindex`` is for each kind of token of ``TOKEN``.
T_COMMA = 1  # group 1: the ',' of a comma-and-key token (below)
T_COMMA_KEY = 2  # group 2: its key, a closed string with nothing to decode
T_COMMA_KEY_COLON = 3  # group 3: its ':' (lastindex is 3 for `, "key":`)
T_PUNCT = 4
T_STR_OPEN = 5  # a double-quoted string without its closing quote (ends at the line end)
T_STR = 6  # group 6 is the closing quote: lastindex is 6 when the string is closed
T_STR_COLON = 7  # group 7 is a ':' right after a closed string's quote (`"key":`): lastindex is 7
T_INT = 8  # a valid JSON integer
T_FLOAT = 9  # a valid JSON number with a fraction or an exponent
T_NUM = 10  # something number-like that is not valid JSON (01, .5, 1., 0x1F, +1, 12abc)
T_WORD = 11
T_SQ_OPEN = 12
T_SQ = 13
T_COMMENT = 14
T_SPACE = 15  # whitespace that JSON does not allow (NBSP, form feed, U+2028, ...)
T_EOF = 16
T_JUNK = 17

TOKEN = re.compile(
    r"[ \t\r\n]*(?:"
    r'(,)[ \t\r\n]*("[^"\\\x00-\x1f]*")(:)'
    r"|([{}\[\]:,])"
    r'|("[^"\\\r\n]*(?:\\[^\r\n]?[^"\\\r\n]*)*)(?:(")(:)?)?'
    r"|(-?(?:0|[1-9][0-9]*)(?![0-9A-Za-z_.]))"
    r"|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?![0-9A-Za-z_.]))"
    r"|([-+]?\.?[0-9](?:[0-9A-Za-z_.]|(?<=[eE])[-+])*)"
    r"|([-+](?:Infinity|NaN)(?![\w$])|(?:[^\W\d]|\$)[\w$]*)"
    r"|('[^'\\\r\n]*(?:\\[^\r\n]?[^'\\\r\n]*)*)(')?"
    r"|(//[^\r\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?)"
    r"|([^\S \t\r\n]+)"
    r"|(\Z)"
    r"|([^\s\w\"'{}\[\]:,/$+.\-]+|.)"
    r")"
)
LITERALS: dict[str, tuple[str, object]] = {
    "true": ("boolean", True),
    "false": ("boolean", False),
    "null": ("null", None),
}

# The next token (whitespace and closed comments skipped) is ':'.
COLON_AHEAD = re.compile(r"[ \t\r\n]*(?:(?://[^\r\n]*|/\*(?:[^*]|\*(?!/))*\*/)[ \t\r\n]*)*:")
NEEDS_DECODING = re.compile(r"[\\\x00-\x1f]")
_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_CONTROL = re.compile(r"[\x00-\x1f]")
_ESCAPE = re.compile(
    r"\\(?:(u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})|(u[0-9a-fA-F]{4})|(u)|(.)|$)", re.S
)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_CONTROL_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}

# The categories the parser's grammar speaks of: a token's kind, with punctuation told apart.
C_OPEN_OBJ = 0
C_OPEN_ARR = 1
C_CLOSE_OBJ = 2
C_CLOSE_ARR = 3
C_COLON = 4
C_COMMA = 5
C_STRING = 6
C_SQ = 7
C_NUM = 8
C_WORD = 9
C_EOF = 10
PUNCT_CATEGORY = {
    "{": C_OPEN_OBJ,
    "[": C_OPEN_ARR,
    "}": C_CLOSE_OBJ,
    "]": C_CLOSE_ARR,
    ":": C_COLON,
    ",": C_COMMA,
}
KEYLIKE = frozenset({C_STRING, C_SQ, C_WORD, C_NUM})
VALUE_START = frozenset({C_OPEN_OBJ, C_OPEN_ARR, C_STRING, C_SQ, C_NUM, C_WORD})


def show(text: str, limit: int = 40) -> str:
    """Text safe to put in a message: non-printable characters escaped, long text shortened."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char.isprintable():
            out.append(char)
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return "".join(out)


def char_name(char: str) -> str:
    """A character as a message names it: quoted when it can be seen, else its code point."""
    if char.isprintable() and not char.isspace():
        return f"'{char}'"
    return f"U+{ord(char):04X}"


def decode_string(text: str, start: int, end: int, quote: str, report: Report) -> str:
    """Decode the body of a string literal at ``text[start:end]``, reporting bad escapes and controls."""
    body = text[start:end]
    if NEEDS_DECODING.search(body) is None:
        return body
    control = _CONTROL.search(body)
    if control is not None:
        char = control.group()
        escape = _CONTROL_ESCAPES.get(char, f"\\u{ord(char):04x}")
        report(
            f"Control character {char_name(char)} in a string: write it as {escape}",
            start + control.start(),
            start + control.start() + 1,
        )
    if "\\" not in body:
        return body
    parts: list[str] = []
    last = 0
    for m in _ESCAPE.finditer(body):
        parts.append(body[last : m.start()])
        last = m.end()
        parts.append(_escaped(m, start, quote, report))
    parts.append(body[last:])
    return "".join(parts)


def _escaped(m: re.Match[str], start: int, quote: str, report: Report) -> str:
    """What one backslash escape of a string body (matched by ``_ESCAPE``, ``start`` the body's offset) stands for."""
    pair, unit, bad_u, simple = m.group(1, 2, 3, 4)
    if pair is not None:
        high = int(pair[1:5], 16)
        low = int(pair[7:11], 16)
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    if unit is not None:
        return chr(int(unit[1:], 16))
    if bad_u is not None:
        report("Invalid \\u escape: write four hexadecimal digits after \\u", start + m.start(), start + m.end())
        return "\\u"
    if simple is None:  # a backslash at the end of an unclosed string
        return "\\"
    decoded = _SIMPLE_ESCAPES.get(simple)
    if decoded is None and quote == "'" and simple == "'":
        decoded = "'"
    if decoded is None:
        report(
            f"Invalid escape '\\{show(simple)}': write '\\\\' for a backslash",
            start + m.start(),
            start + m.end(),
        )
        decoded = "\\" + simple
    return decoded


def number_node(text: str, start: int, end: int, parent: JsonNode | None, report: Report) -> JsonNode:
    """The node of a number-like token: its value when JSON has one, else the error and the nearest reading."""
    source = text[start:end]
    if _STRICT_NUMBER.fullmatch(source) is not None:
        if "." in source or "e" in source or "E" in source:
            return JsonNode("number", start, end, float(source), parent)
        try:
            return JsonNode("number", start, end, int(source), parent)
        except ValueError:  # more digits than int() converts by default
            return JsonNode("number", start, end, float(source), parent)
    report(_number_problem(source), start, end)
    value = _loose_number(source)
    if value is None:
        return JsonNode("invalid", start, end, None, parent)
    return JsonNode("number", start, end, value, parent)


def _number_problem(source: str) -> str:
    """What is wrong with a number-like token that is not a JSON number, and how to write it."""
    digits = source.lstrip("+-")
    if source.startswith("+"):
        return f"Numbers cannot start with '+': write {show(source[1:])}"
    if digits[:2] in ("0x", "0X"):
        return "Hexadecimal numbers are not allowed in JSON: write the decimal value"
    if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
        fixed = digits.lstrip("0") or "0"
        if fixed.startswith("."):
            fixed = "0" + fixed
        sign = source[: len(source) - len(digits)]
        return f"Leading zeros are not allowed in JSON numbers: write {show(sign + fixed)}"
    if digits.startswith("."):
        return f"A number needs a digit before '.': write 0{show(digits)}"
    if re.search(r"\.(?![0-9])", digits):
        return "A number needs a digit after '.'"
    return f"Invalid number '{show(source)}'"


def _loose_number(source: str) -> int | float | None:
    """The value Python reads in a number-like token JSON rejects (hex, leading zeros, ...), if any."""
    digits = source.lstrip("+-")
    try:
        return int(source, 16) if digits[:2] in ("0x", "0X") else int(source)
    except ValueError:
        try:
            return float(source)
        except ValueError:
            return None


def word_node(text: str, start: int, end: int, parent: JsonNode | None, report: Report) -> JsonNode:
    """The node of a bare word: a literal, or the value a wrong-case literal or ``NaN`` meant, or an invalid node."""
    word = text[start:end]
    if word == "true":
        return JsonNode("boolean", start, end, True, parent)
    if word == "false":
        return JsonNode("boolean", start, end, False, parent)
    if word == "null":
        return JsonNode("null", start, end, None, parent)
    lower = word.lower()
    if lower in ("true", "false"):
        report(f"'{word}' is not valid JSON: write {lower}", start, end)
        return JsonNode("boolean", start, end, lower == "true", parent)
    if lower in ("null", "none", "nil", "undefined"):
        report(f"'{word}' is not valid JSON: write null", start, end)
        return JsonNode("null", start, end, None, parent)
    bare = word.lstrip("+-")
    if bare in ("NaN", "Infinity"):
        report(f"{word} is not allowed in JSON: use a number or null", start, end)
        return JsonNode("number", start, end, float(word), parent)
    report(f"Unexpected '{show(word)}': text values need double quotes: write \"{show(word)}\"", start, end)
    return JsonNode("invalid", start, end, None, parent)
