"""A tolerant JSON parser that keeps the position of every key and value.

Why a hand-written parser rather than ``json`` or ``tree-sitter-json``:

- ``json.loads`` has no positions and stops at the first error; an editor sends half-typed documents on every
  keystroke and we still need the tree around the error (for diagnostics, completion and hover).
- Offsets here are indexes into the Python ``str`` (code points), which is what the rest of the engine uses
  (``LineIndex``); tree-sitter reports UTF-8 byte offsets that would need converting back everywhere.
- The error messages say what a person typed and what to do about it ("Trailing comma: remove the ','
  before '}'"), instead of a generic ``ERROR`` node.
- No native dependency to build or ship.
- It is iterative (an explicit stack, no recursion), so 100,000-deep nesting cannot raise ``RecursionError``;
  tokens are matched with one compiled regex, so a 1 MB file parses in a fraction of a second.

It never raises on any input. What it recovers from, each reported as a ``JsonSyntaxError`` at the place:
comments, trailing and missing commas, missing colons and values, unclosed strings (they stop at the end of
their line), unclosed or mismatched brackets, single-quoted strings, unquoted keys, invalid escapes, raw control
characters in strings, leading zeros / hex / ``NaN`` / ``Infinity``, wrong-case literals, stray characters,
content after the root value and an empty file. Everything that parsed around an error stays in the tree.

Two limits keep hostile input bounded: nesting deeper than ``MAX_DEPTH`` is skipped (one error), and after
``MAX_ERRORS`` errors the parse stops with a last "Too many syntax errors" error; the tree keeps what was parsed
up to there.
"""

from __future__ import annotations

import re

from clarvis_lsp.documents.json_tree import (
    JsonArray,
    JsonDocument,
    JsonMember,
    JsonNode,
    JsonObject,
    JsonSyntaxError,
)
from clarvis_lsp.documents.text import LineIndex

__all__ = ["MAX_DEPTH", "MAX_ERRORS", "parse_json"]

MAX_DEPTH = 200_000
MAX_ERRORS = 1000


# ------------------------------------------------------------------------------------------- tokenizer

# One regex matches leading JSON whitespace and then exactly one token; ``lastindex`` says which.
_T_PUNCT = 1
_T_STR_OPEN = 2  # a double-quoted string without its closing quote (ends at the line end)
_T_STR = 3  # group 3 is the closing quote: lastindex is 3 when the string is closed
_T_INT = 4  # a valid JSON integer
_T_FLOAT = 5  # a valid JSON number with a fraction or an exponent
_T_NUM = 6  # something number-like that is not valid JSON (01, .5, 1., 0x1F, +1, 12abc)
_T_WORD = 7
_T_SQ_OPEN = 8
_T_SQ = 9
_T_COMMENT = 10
_T_SPACE = 11  # whitespace that JSON does not allow (NBSP, form feed, U+2028, ...)
_T_EOF = 12
_T_JUNK = 13

_TOKEN = re.compile(
    r"[ \t\r\n]*(?:"
    r"([{}\[\]:,])"
    r'|("[^"\\\r\n]*(?:\\[^\r\n]?[^"\\\r\n]*)*)(")?'
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
_LITERALS: dict[str, tuple[str, object]] = {
    "true": ("boolean", True),
    "false": ("boolean", False),
    "null": ("null", None),
}

_COLON_AHEAD = re.compile(r"[ \t\r\n]*(?:(?://[^\r\n]*|/\*(?:[^*]|\*(?!/))*\*/)[ \t\r\n]*)*:")
_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_NEEDS_DECODING = re.compile(r"[\\\x00-\x1f]")
_CONTROL = re.compile(r"[\x00-\x1f]")
_ESCAPE = re.compile(
    r"\\(?:(u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})|(u[0-9a-fA-F]{4})|(u)|(.)|$)", re.S
)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_CONTROL_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}

# Token categories the parser dispatches on.
_C_OPEN_OBJ = 0
_C_OPEN_ARR = 1
_C_CLOSE_OBJ = 2
_C_CLOSE_ARR = 3
_C_COLON = 4
_C_COMMA = 5
_C_STRING = 6
_C_SQ = 7
_C_NUM = 8
_C_WORD = 9
_C_EOF = 10
_PUNCT_CATEGORY = {
    "{": _C_OPEN_OBJ,
    "[": _C_OPEN_ARR,
    "}": _C_CLOSE_OBJ,
    "]": _C_CLOSE_ARR,
    ":": _C_COLON,
    ",": _C_COMMA,
}
_KEYLIKE = frozenset({_C_STRING, _C_SQ, _C_WORD, _C_NUM})
_VALUE_START = frozenset({_C_OPEN_OBJ, _C_OPEN_ARR, _C_STRING, _C_SQ, _C_NUM, _C_WORD})

# Parser states.
_ROOT_VALUE = 0
_ROOT_AFTER = 1
_OBJ_KEY_FIRST = 2  # after '{'
_OBJ_KEY_NEXT = 3  # after ','
_OBJ_COLON = 4  # after a key
_OBJ_VALUE = 5  # after ':'
_OBJ_AFTER = 6  # after a value
_ARR_FIRST = 7  # after '['
_ARR_NEXT = 8  # after ','
_ARR_AFTER = 9  # after an item


def _show(text: str, limit: int = 40) -> str:
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


def _char_name(char: str) -> str:
    if char.isprintable() and not char.isspace():
        return f"'{char}'"
    return f"U+{ord(char):04X}"


class _Frame:
    __slots__ = ("colon", "comma", "member", "node", "quiet", "state", "up_array", "up_object")

    def __init__(self, node: JsonObject | JsonArray | None, state: int, up_object: int, up_array: int) -> None:
        self.node = node
        self.state = state
        # Stack indexes of the nearest object / array frame at or below this one (0: none), so that a
        # mismatched closer finds what it closes without scanning the stack.
        self.up_object = up_object
        self.up_array = up_array
        self.member: JsonMember | None = None
        self.colon = -1  # offset of the last ':' seen in this object
        self.comma = -1  # offset of the last ',' seen in this container
        self.quiet = False  # the last token was an unclosed string: do not also report a missing ',' / ':'


# ---------------------------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.root: JsonNode | None = None
        self.errors: list[JsonSyntaxError] = []
        self.duplicates: list[tuple[JsonMember, JsonMember]] = []
        self.first_of: dict[tuple[int, str], JsonMember] = {}  # (id(object), key) -> first member, once repeated
        self.stack: list[_Frame] = [_Frame(None, _ROOT_VALUE, 0, 0)]
        self.last_end = 0  # end of the last token consumed (comments excluded)
        self.halted = False  # too many errors: stop at the next token
        self.finishing = False
        self.resume = -1  # where the main loop goes on after a skipped region; len(text) + 1 to stop

    # ---- errors

    def error(self, message: str, start: int, end: int) -> None:
        errors = self.errors
        length = len(self.text)
        start = min(max(start, 0), length)
        end = min(max(end, start), length)
        if end == start and start < length:
            end = start + 1
        if len(errors) >= MAX_ERRORS:
            if len(errors) == MAX_ERRORS:
                if self.finishing:
                    message = "Too many syntax errors: the rest are not reported"
                else:
                    # Past this many errors the text is not JSON in any useful sense: stop rather than spend
                    # seconds building a tree of noise (the tree keeps what was parsed so far).
                    message = "Too many syntax errors: the rest of the file is not checked"
                    self.halted = True
                errors.append(JsonSyntaxError(message, start, end))
            return
        errors.append(JsonSyntaxError(message, start, end))

    def describe(self, category: int, start: int, end: int) -> str:
        if category == _C_EOF:
            return "end of file"
        if category in (_C_STRING, _C_SQ):
            return f"string {_show(self.text[start:end])}"
        if category == _C_NUM:
            return f"number {_show(self.text[start:end])}"
        return f"'{_show(self.text[start:end])}'"

    # ---- main loop

    def run(self) -> None:
        """The main loop: common, well-formed transitions inline (for speed), everything else in ``handle``."""
        text = self.text
        match = _TOKEN.match
        colon_ahead = _COLON_AHEAD.match
        needs_decoding = _NEEDS_DECODING.search
        literals = _LITERALS
        stack = self.stack
        frame = stack[-1]
        pos = 0
        while True:
            if self.halted:
                self.finish(self.last_end)
                break
            m = match(text, pos)
            if m is None:  # cannot happen: the last alternative matches any character
                break
            kind = m.lastindex
            state = frame.state
            if kind == _T_PUNCT:
                start = m.start(_T_PUNCT)
                end = pos = start + 1
                char = text[start]
                if char == ",":
                    if state == _OBJ_AFTER:
                        frame.state = _OBJ_KEY_NEXT
                        frame.comma = start
                        self.last_end = end
                        continue
                    if state == _ARR_AFTER:
                        frame.state = _ARR_NEXT
                        frame.comma = start
                        self.last_end = end
                        continue
                elif char == ":":
                    if state == _OBJ_COLON:
                        member = frame.member
                        if member is not None:
                            member.colon = start
                        frame.colon = start
                        frame.state = _OBJ_VALUE
                        self.last_end = end
                        continue
                elif char == "}":
                    if state in (_OBJ_AFTER, _OBJ_KEY_FIRST):
                        container = frame.node
                        assert container is not None
                        container.end = end
                        container.closed = True
                        stack.pop()
                        frame = stack[-1]
                        self.last_end = end
                        continue
                elif (char == "{" or char == "[") and (
                    state in (_ARR_NEXT, _ARR_FIRST) or (state == _OBJ_VALUE and frame.member is not None)
                ):
                    if len(stack) <= MAX_DEPTH:
                        child: JsonObject | JsonArray
                        if char == "{":
                            child = JsonObject("object", start, end, None, frame.node, False)
                            self.attach_fast(frame, child)
                            frame = _Frame(child, _OBJ_KEY_FIRST, len(stack), frame.up_array)
                        else:
                            child = JsonArray("array", start, end, None, frame.node, False)
                            self.attach_fast(frame, child)
                            frame = _Frame(child, _ARR_FIRST, frame.up_object, len(stack))
                        stack.append(frame)
                        self.last_end = end
                        continue
                elif char == "]" and state in (_ARR_AFTER, _ARR_FIRST):
                    container = frame.node
                    assert container is not None
                    container.end = end
                    container.closed = True
                    stack.pop()
                    frame = stack[-1]
                    self.last_end = end
                    continue
                category = _PUNCT_CATEGORY[char]
                closed = True
            elif kind == _T_STR:
                start = m.start(_T_STR_OPEN)
                end = pos = m.end()
                if state in (_OBJ_KEY_NEXT, _OBJ_KEY_FIRST):
                    if needs_decoding(text, start + 1, end - 1) is None:
                        key = text[start + 1 : end - 1]
                    else:
                        key = self.decode(start + 1, end - 1, '"')
                    obj = frame.node
                    assert isinstance(obj, JsonObject)
                    member = JsonMember(key, start, end, None, None, obj)
                    obj.members.append(member)
                    by_key = obj._by_key
                    if key in by_key:
                        self.duplicate(obj, by_key[key], member)
                    by_key[key] = member
                    frame.member = member
                    frame.state = _OBJ_COLON
                    frame.quiet = False
                    self.last_end = end
                    continue
                if state in (_ARR_NEXT, _ARR_FIRST) or (
                    state == _OBJ_VALUE
                    and frame.member is not None
                    and (text[end : end + 1] in (",", "}") or colon_ahead(text, end) is None)
                ):
                    if needs_decoding(text, start + 1, end - 1) is None:
                        value: object = text[start + 1 : end - 1]
                    else:
                        value = self.decode(start + 1, end - 1, '"')
                    node_kind = "string"
                else:
                    category = _C_STRING
                    closed = True
                    node_kind = ""
                if node_kind:
                    node = JsonNode(node_kind, start, end, value, frame.node)
                    self.attach_fast(frame, node)
                    self.last_end = end
                    continue
            elif kind in (_T_INT, _T_FLOAT):
                start, end = m.span(kind)
                pos = end
                if (
                    state in (_ARR_NEXT, _ARR_FIRST) or (state == _OBJ_VALUE and frame.member is not None)
                ) and end - start < 4000:
                    source = text[start:end]
                    node = JsonNode("number", start, end, int(source) if kind == _T_INT else float(source), frame.node)
                    self.attach_fast(frame, node)
                    self.last_end = end
                    continue
                category = _C_NUM
                closed = True
            elif kind == _T_WORD:
                start, end = m.span(_T_WORD)
                pos = end
                literal = literals.get(text[start:end])
                if literal is not None and (
                    state in (_ARR_NEXT, _ARR_FIRST)
                    or (state == _OBJ_VALUE and frame.member is not None and colon_ahead(text, end) is None)
                ):
                    node = JsonNode(literal[0], start, end, literal[1], frame.node)
                    self.attach_fast(frame, node)
                    self.last_end = end
                    continue
                category = _C_WORD
                closed = True
            elif kind == _T_STR_OPEN:
                start, end = m.span(_T_STR_OPEN)
                pos = end
                category = _C_STRING
                closed = False
            elif kind == _T_NUM:
                start, end = m.span(_T_NUM)
                pos = end
                category = _C_NUM
                closed = True
            elif kind in (_T_SQ, _T_SQ_OPEN):
                start, end = m.start(_T_SQ_OPEN), m.end()
                pos = end
                category = _C_SQ
                closed = kind == _T_SQ
            elif kind == _T_COMMENT:
                start, end = m.span(_T_COMMENT)
                pos = end
                if text.startswith("/*", start) and (end - start < 4 or not text.startswith("*/", end - 2)):
                    self.error("Unclosed comment: add '*/' (and remove the comment: JSON has none)", start, end)
                else:
                    self.error("Comments are not allowed in JSON: remove the comment", start, end)
                continue
            elif kind == _T_SPACE:
                start, end = m.span(_T_SPACE)
                pos = end
                self.error(
                    f"Unexpected whitespace character {_char_name(text[start])}: "
                    "JSON allows only spaces, tabs and line breaks",
                    start,
                    end,
                )
                continue
            elif kind == _T_EOF:
                self.finish(m.start(_T_EOF))
                break
            else:
                start, end = m.span(_T_JUNK)
                pos = end
                if state == _ROOT_AFTER:
                    self.error("Unexpected content after the end of the JSON value: remove it", start, end)
                    break
                what = (
                    f"character {_char_name(text[start])}"
                    if end - start == 1
                    else f"characters '{_show(text[start:end], 20)}'"
                )
                self.error(f"Unexpected {what}", start, end)
                continue

            if self.handle(category, start, end, closed):
                pos = start  # a mismatched closer closed inner containers: handle it again at the new top
            else:
                self.last_end = end
            frame = stack[-1]
            if self.resume >= 0:
                if self.resume > len(text):  # content after the root value was reported
                    break
                pos = self.resume
                self.resume = -1

    def attach_fast(self, frame: _Frame, node: JsonNode) -> None:
        """``attach`` in the common cases: a value in an array, or after a member's ':'."""
        owner = frame.node
        if frame.state == _OBJ_VALUE:
            member = frame.member
            assert member is not None
            member.value = node
            node.member = member
            frame.member = None
            frame.state = _OBJ_AFTER
        else:
            assert isinstance(owner, JsonArray)
            items = owner.items
            node.index = len(items)
            items.append(node)
            frame.state = _ARR_AFTER
        frame.quiet = False

    # ---- token dispatch

    def handle(self, category: int, start: int, end: int, closed: bool) -> bool:
        """Handle one token; return True when it must be handled again (after popping frames)."""
        frame = self.stack[-1]
        state = frame.state
        quiet = frame.quiet
        frame.quiet = False
        node = frame.node

        if node is None:
            if state == _ROOT_AFTER:
                self.error(
                    f"Unexpected {self.describe(category, start, end)} after the end of the JSON value: remove it",
                    start,
                    end,
                )
                self.resume = len(self.text) + 1
            elif category in _VALUE_START:
                self.value(frame, category, start, end, closed)
            else:
                self.error(f"Unexpected {self.describe(category, start, end)}: expected a JSON value", start, end)
            return False

        if node.kind == "object":
            if state == _OBJ_AFTER:
                if category == _C_COMMA:
                    frame.state = _OBJ_KEY_NEXT
                    frame.comma = start
                elif category == _C_CLOSE_OBJ:
                    self.close(start)
                elif category in (_C_STRING, _C_SQ, _C_WORD):
                    if not quiet:
                        self.error("Missing ',' between members: add ',' before this key", start, end)
                    self.start_member(frame, category, start, end, closed)
                elif category == _C_COLON:
                    self.error("Unexpected ':': expected ',' or '}'", start, end)
                elif category == _C_CLOSE_ARR:
                    return self.mismatch(category, start, end)
                else:
                    self.error(
                        f"Unexpected {self.describe(category, start, end)}: expected ',' or '}}' after a value",
                        start,
                        end,
                    )
                    frame.state = _OBJ_VALUE
                    frame.member = None
                    self.value(frame, category, start, end, closed)
            elif state in (_OBJ_KEY_FIRST, _OBJ_KEY_NEXT):
                if category in _KEYLIKE:
                    self.start_member(frame, category, start, end, closed)
                elif category == _C_CLOSE_OBJ:
                    if state == _OBJ_KEY_NEXT:
                        self.error("Trailing comma: remove the ',' before '}'", frame.comma, frame.comma + 1)
                    self.close(start)
                elif category == _C_COMMA:
                    if state == _OBJ_KEY_FIRST:
                        self.error("Unexpected ',': expected a property name or '}'", start, end)
                    else:
                        self.error("Extra ',': remove it", start, end)
                        frame.comma = start
                elif category == _C_COLON:
                    self.error("Expected a property name before ':'", start, end)
                    frame.member = None
                    frame.colon = start
                    frame.state = _OBJ_VALUE
                elif category == _C_CLOSE_ARR:
                    return self.mismatch(category, start, end)
                else:  # '{' or '['
                    self.error(f"Expected a property name in double quotes before '{self.text[start]}'", start, end)
                    frame.member = None
                    frame.state = _OBJ_VALUE
                    self.value(frame, category, start, end, closed)
            elif state == _OBJ_COLON:
                member = frame.member
                if category == _C_COLON:
                    if member is not None:
                        member.colon = start
                    frame.colon = start
                    frame.state = _OBJ_VALUE
                elif category == _C_COMMA:
                    if not quiet:
                        self.missing_colon_and_value(member)
                    frame.member = None
                    frame.state = _OBJ_KEY_NEXT
                    frame.comma = start
                elif category == _C_CLOSE_OBJ:
                    if not quiet:
                        self.missing_colon_and_value(member)
                    self.close(start)
                elif category == _C_CLOSE_ARR:
                    if not quiet:
                        self.missing_colon_and_value(member)
                    frame.state = _OBJ_AFTER
                    return self.mismatch(category, start, end)
                elif category in _KEYLIKE and category != _C_NUM and self.colon_follows(end):
                    # `"a"` then a new `"b": ...` on the next line: the value of "a" was never typed.
                    if not quiet:
                        self.missing_colon_and_value(member)
                    self.start_member(frame, category, start, end, closed)
                else:
                    if not quiet and member is not None:
                        self.error(
                            f"Missing ':' after the key \"{_show(member.key)}\"", member.key_start, member.key_end
                        )
                    frame.state = _OBJ_VALUE
                    self.value(frame, category, start, end, closed)
            else:  # _OBJ_VALUE
                if category in _VALUE_START:
                    if (
                        frame.member is not None
                        and (category in (_C_STRING, _C_SQ, _C_WORD))
                        and self.colon_follows(end)
                    ):
                        # `"a": ` then `"b": 1` on the next line: the value of "a" was never typed.
                        self.missing_value(frame)
                        self.start_member(frame, category, start, end, closed)
                    else:
                        self.value(frame, category, start, end, closed)
                elif category == _C_COMMA:
                    self.missing_value(frame)
                    frame.member = None
                    frame.state = _OBJ_KEY_NEXT
                    frame.comma = start
                elif category == _C_CLOSE_OBJ:
                    self.missing_value(frame)
                    self.close(start)
                elif category == _C_COLON:
                    self.error("Extra ':': remove it", start, end)
                else:  # ']'
                    self.missing_value(frame)
                    frame.state = _OBJ_AFTER
                    return self.mismatch(category, start, end)
            return False

        # array
        if state == _ARR_AFTER:
            if category == _C_COMMA:
                frame.state = _ARR_NEXT
                frame.comma = start
            elif category == _C_CLOSE_ARR:
                self.close(start)
            elif category in _VALUE_START:
                if not quiet:
                    self.error("Missing ',' between items: add ',' before this value", start, end)
                self.value(frame, category, start, end, closed)
            elif category == _C_COLON:
                self.error("Unexpected ':': an array holds values, not \"key\": value pairs", start, end)
            else:  # '}'
                return self.mismatch(category, start, end)
        else:  # _ARR_FIRST or _ARR_NEXT
            if category in _VALUE_START:
                self.value(frame, category, start, end, closed)
            elif category == _C_CLOSE_ARR:
                if state == _ARR_NEXT:
                    self.error("Trailing comma: remove the ',' before ']'", frame.comma, frame.comma + 1)
                self.close(start)
            elif category == _C_COMMA:
                if state == _ARR_FIRST:
                    self.error("Unexpected ',': expected a value or ']'", start, end)
                else:
                    self.error("Extra ',': remove it", start, end)
                    frame.comma = start
            elif category == _C_COLON:
                self.error("Unexpected ':': an array holds values, not \"key\": value pairs", start, end)
            else:  # '}'
                return self.mismatch(category, start, end)
        return False

    def colon_follows(self, pos: int) -> bool:
        """Whether the next token (whitespace and closed comments skipped) is ':'."""
        return _COLON_AHEAD.match(self.text, pos) is not None

    def missing_colon_and_value(self, member: JsonMember | None) -> None:
        if member is not None:
            self.error(
                f"Expected ':' and a value after the key \"{_show(member.key)}\"", member.key_start, member.key_end
            )

    def missing_value(self, frame: _Frame) -> None:
        self.error("Expected a value after ':'", frame.colon, frame.colon + 1)

    # ---- building the tree

    def start_member(self, frame: _Frame, category: int, start: int, end: int, closed: bool) -> None:
        obj = frame.node
        assert isinstance(obj, JsonObject)
        text = self.text
        if category == _C_STRING:
            key = self.decode(start + 1, end - 1 if closed else end, '"')
            if not closed:
                self.error("Unclosed string: add a closing '\"'", start, end)
        elif category == _C_SQ:
            key = self.decode(start + 1, end - 1 if closed else end, "'")
            self.error("Property names need double quotes, not single quotes", start, end)
        else:
            key = text[start:end]
            if category == _C_WORD:
                self.error(f'Unquoted property name: write "{_show(key)}" in double quotes', start, end)
            else:
                self.error(f'Property names must be strings: write "{_show(key)}"', start, end)
        member = JsonMember(key, start, end, None, None, obj)
        obj.members.append(member)
        by_key = obj._by_key
        previous = by_key.get(key)
        if previous is not None:
            self.duplicate(obj, previous, member)
        by_key[key] = member
        frame.member = member
        frame.state = _OBJ_COLON
        frame.quiet = not closed

    def duplicate(self, obj: JsonObject, previous: JsonMember, member: JsonMember) -> None:
        """Record ``member`` as a duplicate of the first member of ``obj`` with the same key."""
        first = self.first_of.setdefault((id(obj), member.key), previous)
        self.duplicates.append((first, member))

    def value(self, frame: _Frame, category: int, start: int, end: int, closed: bool) -> None:
        """Create the value that starts with this token and attach it to ``frame``'s container."""
        parent = frame.node
        node: JsonNode
        if category in (_C_OPEN_OBJ, _C_OPEN_ARR):
            if len(self.stack) > MAX_DEPTH:
                self.skip_deep(frame, start)
                return
            if category == _C_OPEN_OBJ:
                obj = JsonObject("object", start, end, None, parent, False)
                self.attach(frame, obj)
                self.stack.append(_Frame(obj, _OBJ_KEY_FIRST, len(self.stack), frame.up_array))
            else:
                arr = JsonArray("array", start, end, None, parent, False)
                self.attach(frame, arr)
                self.stack.append(_Frame(arr, _ARR_FIRST, frame.up_object, len(self.stack)))
            frame.quiet = False
            return
        if category == _C_STRING:
            value = self.decode(start + 1, end - 1 if closed else end, '"')
            node = JsonNode("string", start, end, value, parent, closed)
            if not closed:
                self.error("Unclosed string: add a closing '\"'", start, end)
        elif category == _C_NUM:
            node = self.number(start, end, parent)
        elif category == _C_WORD:
            node = self.word(start, end, parent)
        else:  # single-quoted
            value = self.decode(start + 1, end - 1 if closed else end, "'")
            node = JsonNode("string", start, end, value, parent, closed)
            self.error("Strings need double quotes, not single quotes", start, end)
        self.attach(frame, node)
        frame.quiet = not closed

    def attach(self, frame: _Frame, node: JsonNode) -> None:
        owner = frame.node
        if owner is None:
            self.root = node
            frame.state = _ROOT_AFTER
        elif isinstance(owner, JsonObject):
            member = frame.member
            if member is not None and frame.state == _OBJ_VALUE:
                member.value = node
                node.member = member
            frame.member = None
            frame.state = _OBJ_AFTER
        else:
            assert isinstance(owner, JsonArray)
            node.index = len(owner.items)
            owner.items.append(node)
            frame.state = _ARR_AFTER

    def close(self, closer: int) -> None:
        frame = self.stack.pop()
        node = frame.node
        assert node is not None
        node.end = closer + 1
        node.closed = True

    def abandon(self, frame: _Frame) -> None:
        """Report what ``frame`` still waits for, and that it is never closed."""
        node = frame.node
        assert node is not None
        if frame.state == _OBJ_COLON and not frame.quiet:
            self.missing_colon_and_value(frame.member)
        elif frame.state == _OBJ_VALUE:
            self.missing_value(frame)
        opener, closer = ("{", "}") if node.kind == "object" else ("[", "]")
        self.error(f"'{opener}' is never closed: add '{closer}'", node.start, node.start + 1)
        node.end = max(node.start + 1, self.last_end)
        node.closed = False

    def mismatch(self, category: int, start: int, end: int) -> bool:
        """A closer that does not match the innermost container: abandon the containers above the one it
        matches and return True (the caller handles the closer again), or report a stray closer."""
        stack = self.stack
        top = stack[-1]
        index = top.up_object if category == _C_CLOSE_OBJ else top.up_array
        if index == 0:
            opener = "{" if category == _C_CLOSE_OBJ else "["
            self.error(f"Unexpected '{self.text[start]}': there is no open '{opener}' to close", start, end)
            return False
        while len(stack) - 1 > index:
            self.abandon(stack.pop())
        return True

    def finish(self, eof: int) -> None:
        self.finishing = True
        stack = self.stack
        # Outermost first, so that when errors are capped the outer, more useful ones are kept.
        for frame in stack[1:]:
            self.abandon(frame)
        del stack[1:]
        if self.root is None:
            if not self.text.strip(" \t\r\n"):
                self.errors.append(JsonSyntaxError("The file is empty: add a JSON value such as {}", 0, len(self.text)))
            else:
                self.error("Expected a JSON value such as {}", eof, eof)

    def skip_deep(self, frame: _Frame, start: int) -> None:
        """Skip a container nested deeper than MAX_DEPTH; it becomes one invalid node."""
        text = self.text
        depth = 0
        pos = start
        end = start + 1
        while True:
            m = _TOKEN.match(text, pos)
            if m is None or m.lastindex == _T_EOF:
                break
            pos = end = m.end()
            if m.lastindex == _T_PUNCT:
                char = text[pos - 1]
                if char in "{[":
                    depth += 1
                elif char in "}]":
                    depth -= 1
                    if depth == 0:
                        break
        self.error(f"Nesting is deeper than {MAX_DEPTH} levels: this value is skipped", start, start + 1)
        self.attach(frame, JsonNode("invalid", start, end, None, frame.node))
        self.last_end = end
        self.resume = end

    # ---- scalars

    def decode(self, start: int, end: int, quote: str) -> str:
        """Decode the body of a string literal at ``text[start:end]``, reporting bad escapes and controls."""
        text = self.text
        body = text[start:end]
        if _NEEDS_DECODING.search(body) is None:
            return body
        control = _CONTROL.search(body)
        if control is not None:
            char = control.group()
            escape = _CONTROL_ESCAPES.get(char, f"\\u{ord(char):04x}")
            self.error(
                f"Control character {_char_name(char)} in a string: write it as {escape}",
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
            pair, unit, bad_u, simple = m.group(1, 2, 3, 4)
            if pair is not None:
                high = int(pair[1:5], 16)
                low = int(pair[7:11], 16)
                parts.append(chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)))
            elif unit is not None:
                parts.append(chr(int(unit[1:], 16)))
            elif bad_u is not None:
                self.error(
                    "Invalid \\u escape: write four hexadecimal digits after \\u",
                    start + m.start(),
                    start + m.end(),
                )
                parts.append("\\u")
            elif simple is not None:
                decoded = _SIMPLE_ESCAPES.get(simple)
                if decoded is None and quote == "'" and simple == "'":
                    decoded = "'"
                if decoded is None:
                    self.error(
                        f"Invalid escape '\\{_show(simple)}': write '\\\\' for a backslash",
                        start + m.start(),
                        start + m.end(),
                    )
                    decoded = "\\" + simple
                parts.append(decoded)
            else:  # a backslash at the end of an unclosed string
                parts.append("\\")
        parts.append(body[last:])
        return "".join(parts)

    def number(self, start: int, end: int, parent: JsonNode | None) -> JsonNode:
        source = self.text[start:end]
        if _STRICT_NUMBER.fullmatch(source) is not None:
            if "." in source or "e" in source or "E" in source:
                return JsonNode("number", start, end, float(source), parent)
            try:
                return JsonNode("number", start, end, int(source), parent)
            except ValueError:  # more digits than int() converts by default
                return JsonNode("number", start, end, float(source), parent)
        digits = source.lstrip("+-")
        if source.startswith("+"):
            message = f"Numbers cannot start with '+': write {_show(source[1:])}"
        elif digits[:2] in ("0x", "0X"):
            message = "Hexadecimal numbers are not allowed in JSON: write the decimal value"
        elif len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
            fixed = digits.lstrip("0") or "0"
            if fixed.startswith("."):
                fixed = "0" + fixed
            sign = source[: len(source) - len(digits)]
            message = f"Leading zeros are not allowed in JSON numbers: write {_show(sign + fixed)}"
        elif digits.startswith("."):
            message = f"A number needs a digit before '.': write 0{_show(digits)}"
        elif re.search(r"\.(?![0-9])", digits):
            message = "A number needs a digit after '.'"
        else:
            message = f"Invalid number '{_show(source)}'"
        self.error(message, start, end)
        value: int | float | None = None
        try:
            value = int(source, 16) if digits[:2] in ("0x", "0X") else int(source)
        except ValueError:
            try:
                value = float(source)
            except ValueError:
                value = None
        if value is None:
            return JsonNode("invalid", start, end, None, parent)
        return JsonNode("number", start, end, value, parent)

    def word(self, start: int, end: int, parent: JsonNode | None) -> JsonNode:
        word = self.text[start:end]
        if word == "true":
            return JsonNode("boolean", start, end, True, parent)
        if word == "false":
            return JsonNode("boolean", start, end, False, parent)
        if word == "null":
            return JsonNode("null", start, end, None, parent)
        lower = word.lower()
        if lower in ("true", "false"):
            self.error(f"'{word}' is not valid JSON: write {lower}", start, end)
            return JsonNode("boolean", start, end, lower == "true", parent)
        if lower in ("null", "none", "nil", "undefined"):
            self.error(f"'{word}' is not valid JSON: write null", start, end)
            return JsonNode("null", start, end, None, parent)
        bare = word.lstrip("+-")
        if bare in ("NaN", "Infinity"):
            self.error(f"{word} is not allowed in JSON: use a number or null", start, end)
            return JsonNode("number", start, end, float(word), parent)
        self.error(f"Unexpected '{_show(word)}': text values need double quotes: write \"{_show(word)}\"", start, end)
        return JsonNode("invalid", start, end, None, parent)


def parse_json(text: str) -> JsonDocument:
    """Parse ``text`` (BOM already stripped) into a position-keeping tree. Never raises."""
    parser = _Parser(text)
    parser.run()
    errors = sorted(parser.errors[:MAX_ERRORS], key=lambda error: (error.start, error.end))
    errors.extend(parser.errors[MAX_ERRORS:])  # the "too many errors" note stays last
    return JsonDocument(text, LineIndex(text), parser.root, errors, parser.duplicates)
