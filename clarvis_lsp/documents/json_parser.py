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
  tokens are matched with one compiled regex (``json_tokens``), so a 1 MB file parses in a fraction of a second.

It never raises on any input. What it recovers from, each reported as a ``JsonSyntaxError`` at the place:
comments, trailing and missing commas, missing colons and values, unclosed strings (they stop at the end of
their line), unclosed or mismatched brackets, single-quoted strings, unquoted keys, invalid escapes, raw control
characters in strings, leading zeros / hex / ``NaN`` / ``Infinity``, wrong-case literals, stray characters,
content after the root value and an empty file. Everything that parsed around an error stays in the tree.

Two limits keep hostile input bounded: nesting deeper than ``MAX_DEPTH`` is skipped (one error), and after
``MAX_ERRORS`` errors the parse stops with a last "Too many syntax errors" error; the tree keeps what was parsed
up to there.

How to read it: ``_Parser.run`` matches one token at a time and hands it to the step for its kind
(``_STEPS``, indexed by ``json_tokens.T_*``). Each step takes the well-formed transitions of its token
itself (a key, a value, ``,``, ``:``, a bracket where the grammar expects it: nearly every token of a valid
file, so they are kept short) and passes anything else to ``recover``, which turns the token into a grammar
category (``json_tokens.C_*``) and lets the step for the container's state (``_RECOVERY``) report the
error and recover. Each step returns where the scan goes on. Keys come with their ':' (and, after a member,
with the ',' before them) as one token (see ``json_tokens``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from clarvis_lsp.documents.json_builder import (
    ARR_AFTER,
    ARR_FIRST,
    ARR_NEXT,
    MAX_DEPTH,
    MAX_ERRORS,
    OBJ_AFTER,
    OBJ_COLON,
    OBJ_KEY_FIRST,
    OBJ_KEY_NEXT,
    OBJ_VALUE,
    ROOT_AFTER,
    Frame,
    TreeBuilder,
)
from clarvis_lsp.documents.json_nodes import JsonArray, JsonNode, JsonObject
from clarvis_lsp.documents.json_tokens import (
    C_CLOSE_ARR,
    C_CLOSE_OBJ,
    C_COLON,
    C_COMMA,
    C_NUM,
    C_SQ,
    C_STRING,
    C_WORD,
    COLON_AHEAD,
    KEYLIKE,
    LITERALS,
    NEEDS_DECODING,
    PUNCT_CATEGORY,
    T_COMMA,
    T_COMMA_KEY,
    T_COMMENT,
    T_EOF,
    T_INT,
    T_JUNK,
    T_NUM,
    T_PUNCT,
    T_SPACE,
    T_SQ,
    T_SQ_OPEN,
    T_STR,
    T_STR_COLON,
    T_STR_OPEN,
    T_WORD,
    TOKEN,
    VALUE_START,
    char_name,
    decode_string,
    show,
)
from clarvis_lsp.documents.json_tree import JsonDocument
from clarvis_lsp.documents.text import LineIndex

__all__ = ["MAX_DEPTH", "MAX_ERRORS", "parse_json"]

_STOP = -1  # what a step returns when the parse is over


class _Parser(TreeBuilder):
    """The scan: one step per token, and the recovery from what the grammar did not expect."""

    # ---- the scan

    def run(self) -> None:
        """Match one token at a time and hand it to its step, which says where the scan goes on."""
        text = self.text
        match = TOKEN.match
        steps = _STEPS
        pos = 0
        while pos >= 0:
            m = match(text, pos)
            if m is None:  # cannot happen: the last alternative matches any character
                break
            pos = steps[m.lastindex](self, m)  # type: ignore[index]  # every alternative of TOKEN is a group

    def go_on(self, pos: int) -> int:
        """Where the scan goes on after a token that was not well-formed: ``pos``, unless a skipped region moved it
        or too many errors stopped the parse."""
        if self.resume >= 0:
            if self.resume > len(self.text):  # content after the root value was reported
                return _STOP
            pos = self.resume
            self.resume = -1
        if self.halted:
            self.finish(self.last_end)
            return _STOP
        return pos

    def recover(self, category: int, start: int, end: int, closed: bool) -> int:
        """A token the grammar did not expect here, or one that is not JSON: report and recover (``handle``)."""
        if self.handle(category, start, end, closed):
            return self.go_on(start)  # a mismatched closer closed inner containers: handle it again at the new top
        self.last_end = end
        return self.go_on(end)

    # ---- the steps, one per kind of token: the well-formed case here, anything else through ``recover``

    def punctuation(self, m: re.Match[str]) -> int:
        """``,``, a closer, ``:`` where the grammar expects them; an opening bracket in ``open_bracket``."""
        start = m.start(T_PUNCT)
        char = self.text[start]
        frame = self.top
        state = frame.state
        if char == ",":
            if state == OBJ_AFTER:
                frame.state = OBJ_KEY_NEXT
            elif state == ARR_AFTER:
                frame.state = ARR_NEXT
            else:
                return self.recover(C_COMMA, start, start + 1, True)
            frame.comma = start
        elif (char == "}" and state in (OBJ_AFTER, OBJ_KEY_FIRST)) or (char == "]" and state in (ARR_AFTER, ARR_FIRST)):
            container = frame.node
            assert container is not None
            container.end = start + 1
            container.closed = True
            stack = self.stack
            stack.pop()
            self.top = stack[-1]
        elif char == "{" or char == "[":
            return self.open_bracket(frame, char, start)
        elif char == ":" and state == OBJ_COLON:  # after a key that is not a plain string right before it
            member = frame.member
            if member is not None:
                member.colon = start
            frame.colon = start
            frame.state = OBJ_VALUE
        else:
            return self.recover(PUNCT_CATEGORY[char], start, start + 1, True)
        self.last_end = start + 1
        return start + 1

    def next_member(self, m: re.Match[str]) -> int:
        """``, "key":`` (one token): after a member's value, the comma, the next member's key and its colon; anywhere
        else the comma alone (the key is scanned again as the next token)."""
        comma = m.start(T_COMMA)
        frame = self.top
        if frame.state != OBJ_AFTER:
            if frame.state != ARR_AFTER:
                return self.recover(C_COMMA, comma, comma + 1, True)
            frame.state = ARR_NEXT
            frame.comma = comma
            self.last_end = comma + 1
            return comma + 1
        frame.comma = comma
        start, end = m.span(T_COMMA_KEY)
        member = self.add_member(frame, self.text[start + 1 : end - 1], start, end)
        colon = end  # the ':' follows the quote
        member.colon = colon
        frame.colon = colon
        frame.state = OBJ_VALUE
        self.last_end = colon + 1
        return colon + 1

    def open_bracket(self, frame: Frame, char: str, start: int) -> int:
        """``{`` or ``[`` where a value goes: a new container on the stack."""
        state = frame.state
        stack = self.stack
        if (state in (ARR_NEXT, ARR_FIRST) or (state == OBJ_VALUE and frame.member is not None)) and len(
            stack
        ) <= MAX_DEPTH:
            end = start + 1
            child: JsonObject | JsonArray
            if char == "{":
                child = JsonObject("object", start, end, None, frame.node, False)
                self.attach_fast(frame, child)
                self.top = Frame(child, OBJ_KEY_FIRST, len(stack), frame.up_array)
            else:
                child = JsonArray("array", start, end, None, frame.node, False)
                self.attach_fast(frame, child)
                self.top = Frame(child, ARR_FIRST, frame.up_object, len(stack))
            stack.append(self.top)
            self.last_end = end
            return end
        return self.recover(PUNCT_CATEGORY[char], start, start + 1, True)

    def string(self, m: re.Match[str]) -> int:
        """A closed double-quoted string (with the ':' after it, for ``T_STR_COLON``): a key where a key goes, a value
        where a value goes and no ':' follows (else it is the next key of a member whose value was never typed).
        Anywhere but at a key the string is taken alone and the scan goes on at its end, so that a ':' after it
        is a token of its own."""
        start = m.start(T_STR_OPEN)
        end = m.end(T_STR)
        text = self.text
        frame = self.top
        state = frame.state
        if state in (OBJ_KEY_NEXT, OBJ_KEY_FIRST):
            if NEEDS_DECODING.search(text, start + 1, end - 1) is not None:
                return self.decoded_string(frame, start, end)
            member = self.add_member(frame, text[start + 1 : end - 1], start, end)
            colon = m.start(T_STR_COLON)
            if colon >= 0:
                member.colon = colon
                frame.colon = colon
                frame.state = OBJ_VALUE
                end = colon + 1
        elif state in (ARR_NEXT, ARR_FIRST) or (
            state == OBJ_VALUE
            and frame.member is not None
            and (text[end : end + 1] in (",", "}") or COLON_AHEAD.match(text, end) is None)
        ):
            if NEEDS_DECODING.search(text, start + 1, end - 1) is not None:
                return self.decoded_string(frame, start, end)
            self.attach_fast(frame, JsonNode("string", start, end, text[start + 1 : end - 1], frame.node))
        else:
            return self.recover(C_STRING, start, end, True)
        self.last_end = end
        return end

    def decoded_string(self, frame: Frame, start: int, end: int) -> int:
        """``string`` for a well-placed key or value with escapes or control characters to decode (and report)."""
        content = decode_string(self.text, start + 1, end - 1, '"', self.error)
        if frame.state in (OBJ_VALUE, ARR_NEXT, ARR_FIRST):
            self.attach_fast(frame, JsonNode("string", start, end, content, frame.node))
        else:
            self.add_member(frame, content, start, end)
        self.last_end = end
        return self.go_on(end)  # a decoding error may have been the one too many

    def number(self, m: re.Match[str]) -> int:
        """A valid JSON integer or number where a value goes."""
        kind = m.lastindex or T_INT
        start, end = m.span(kind)
        frame = self.top
        state = frame.state
        if (state in (ARR_NEXT, ARR_FIRST) or (state == OBJ_VALUE and frame.member is not None)) and end - start < 4000:
            source = self.text[start:end]
            value = int(source) if kind == T_INT else float(source)
            self.attach_fast(frame, JsonNode("number", start, end, value, frame.node))
            self.last_end = end
            return end
        return self.recover(C_NUM, start, end, True)

    def word(self, m: re.Match[str]) -> int:
        """``true``, ``false`` or ``null`` where a value goes; any other bare word is an error."""
        start, end = m.span(T_WORD)
        text = self.text
        frame = self.top
        state = frame.state
        literal = LITERALS.get(text[start:end])
        if literal is not None and (
            state in (ARR_NEXT, ARR_FIRST)
            or (state == OBJ_VALUE and frame.member is not None and COLON_AHEAD.match(text, end) is None)
        ):
            self.attach_fast(frame, JsonNode(literal[0], start, end, literal[1], frame.node))
            self.last_end = end
            return end
        return self.recover(C_WORD, start, end, True)

    def unclosed_string(self, m: re.Match[str]) -> int:
        start, end = m.span(T_STR_OPEN)
        return self.recover(C_STRING, start, end, False)

    def malformed_number(self, m: re.Match[str]) -> int:
        start, end = m.span(T_NUM)
        return self.recover(C_NUM, start, end, True)

    def single_quoted(self, m: re.Match[str]) -> int:
        start = m.start(T_SQ_OPEN)
        return self.recover(C_SQ, start, m.end(), m.lastindex == T_SQ)

    def comment(self, m: re.Match[str]) -> int:
        start, end = m.span(T_COMMENT)
        if self.text.startswith("/*", start) and (end - start < 4 or not self.text.startswith("*/", end - 2)):
            self.error("Unclosed comment: add '*/' (and remove the comment: JSON has none)", start, end)
        else:
            self.error("Comments are not allowed in JSON: remove the comment", start, end)
        return self.go_on(end)

    def odd_space(self, m: re.Match[str]) -> int:
        start, end = m.span(T_SPACE)
        self.error(
            f"Unexpected whitespace character {char_name(self.text[start])}: "
            "JSON allows only spaces, tabs and line breaks",
            start,
            end,
        )
        return self.go_on(end)

    def end_of_file(self, m: re.Match[str]) -> int:
        self.finish(m.start(T_EOF))
        return _STOP

    def junk(self, m: re.Match[str]) -> int:
        start, end = m.span(T_JUNK)
        if self.top.state == ROOT_AFTER:
            self.error("Unexpected content after the end of the JSON value: remove it", start, end)
            return _STOP
        text = self.text
        if end - start == 1:
            what = f"character {char_name(text[start])}"
        else:
            what = f"characters '{show(text[start:end], 20)}'"
        self.error(f"Unexpected {what}", start, end)
        return self.go_on(end)

    # ---- recovery, one step per state: report what is wrong with the token and go on as the user meant

    def handle(self, category: int, start: int, end: int, closed: bool) -> bool:
        """Handle one token; return True when it must be handled again (after popping frames)."""
        frame = self.top
        quiet = frame.quiet
        frame.quiet = False
        return _RECOVERY[frame.state](self, frame, category, start, end, closed, quiet)

    def at_root(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        if category in VALUE_START:
            self.value(frame, category, start, end, closed)
        else:
            self.error(f"Unexpected {self.describe(category, start, end)}: expected a JSON value", start, end)
        return False

    def after_root(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        self.error(
            f"Unexpected {self.describe(category, start, end)} after the end of the JSON value: remove it", start, end
        )
        self.resume = len(self.text) + 1
        return False

    def after_member(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        """After a member's value: ',' or '}' expected."""
        if category == C_COMMA:
            frame.state = OBJ_KEY_NEXT
            frame.comma = start
        elif category == C_CLOSE_OBJ:
            self.close(start)
        elif category in (C_STRING, C_SQ, C_WORD):
            if not quiet:
                self.error("Missing ',' between members: add ',' before this key", start, end)
            self.start_member(frame, category, start, end, closed)
        elif category == C_COLON:
            self.error("Unexpected ':': expected ',' or '}'", start, end)
        elif category == C_CLOSE_ARR:
            return self.mismatch(category, start, end)
        else:
            self.error(
                f"Unexpected {self.describe(category, start, end)}: expected ',' or '}}' after a value", start, end
            )
            frame.state = OBJ_VALUE
            frame.member = None
            self.value(frame, category, start, end, closed)
        return False

    def expect_key(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        """After '{' or a member's ',': a property name (or '}') expected."""
        state = frame.state
        if category in KEYLIKE:
            self.start_member(frame, category, start, end, closed)
        elif category == C_CLOSE_OBJ:
            if state == OBJ_KEY_NEXT:
                self.error("Trailing comma: remove the ',' before '}'", frame.comma, frame.comma + 1)
            self.close(start)
        elif category == C_COMMA:
            if state == OBJ_KEY_FIRST:
                self.error("Unexpected ',': expected a property name or '}'", start, end)
            else:
                self.error("Extra ',': remove it", start, end)
                frame.comma = start
        elif category == C_COLON:
            self.error("Expected a property name before ':'", start, end)
            frame.member = None
            frame.colon = start
            frame.state = OBJ_VALUE
        elif category == C_CLOSE_ARR:
            return self.mismatch(category, start, end)
        else:  # '{' or '['
            self.error(f"Expected a property name in double quotes before '{self.text[start]}'", start, end)
            frame.member = None
            frame.state = OBJ_VALUE
            self.value(frame, category, start, end, closed)
        return False

    def expect_colon(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        """After a key: ':' expected."""
        member = frame.member
        if category == C_COLON:
            if member is not None:
                member.colon = start
            frame.colon = start
            frame.state = OBJ_VALUE
            return False
        if category in (C_COMMA, C_CLOSE_OBJ, C_CLOSE_ARR) or (
            category in KEYLIKE and category != C_NUM and self.colon_follows(end)
        ):
            # A ',', a closer, or (`"a"` then a new `"b": ...` on the next line) the next key: the value of the
            # member was never typed.
            if not quiet:
                self.missing_colon_and_value(member)
            return self.member_ended(frame, category, start, end, closed)
        if not quiet and member is not None:
            self.error(f"Missing ':' after the key \"{show(member.key)}\"", member.key_start, member.key_end)
        frame.state = OBJ_VALUE
        self.value(frame, category, start, end, closed)
        return False

    def expect_value(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        """After ':': a value expected."""
        if category == C_COLON:
            self.error("Extra ':': remove it", start, end)
            return False
        if category in VALUE_START and not (
            frame.member is not None and category in (C_STRING, C_SQ, C_WORD) and self.colon_follows(end)
        ):
            self.value(frame, category, start, end, closed)
            return False
        # A ',', a closer, or (`"a": ` then `"b": 1` on the next line) the next key: the value was never typed.
        self.missing_value(frame)
        return self.member_ended(frame, category, start, end, closed)

    def member_ended(self, frame: Frame, category: int, start: int, end: int, closed: bool) -> bool:
        """A member ends before its value (its missing parts already reported): go on with the token that ended it,
        a ',', a closer or the next key."""
        if category == C_COMMA:
            frame.member = None
            frame.state = OBJ_KEY_NEXT
            frame.comma = start
        elif category == C_CLOSE_OBJ:
            self.close(start)
        elif category == C_CLOSE_ARR:
            frame.state = OBJ_AFTER
            return self.mismatch(category, start, end)
        else:
            self.start_member(frame, category, start, end, closed)
        return False

    def after_item(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        """After an array item: ',' or ']' expected."""
        if category == C_COMMA:
            frame.state = ARR_NEXT
            frame.comma = start
        elif category == C_CLOSE_ARR:
            self.close(start)
        elif category in VALUE_START:
            if not quiet:
                self.error("Missing ',' between items: add ',' before this value", start, end)
            self.value(frame, category, start, end, closed)
        elif category == C_COLON:
            self.error("Unexpected ':': an array holds values, not \"key\": value pairs", start, end)
        else:  # '}'
            return self.mismatch(category, start, end)
        return False

    def expect_item(self, frame: Frame, category: int, start: int, end: int, closed: bool, quiet: bool) -> bool:
        """After '[' or an item's ',': a value (or ']') expected."""
        state = frame.state
        if category in VALUE_START:
            self.value(frame, category, start, end, closed)
        elif category == C_CLOSE_ARR:
            if state == ARR_NEXT:
                self.error("Trailing comma: remove the ',' before ']'", frame.comma, frame.comma + 1)
            self.close(start)
        elif category == C_COMMA:
            if state == ARR_FIRST:
                self.error("Unexpected ',': expected a value or ']'", start, end)
            else:
                self.error("Extra ',': remove it", start, end)
                frame.comma = start
        elif category == C_COLON:
            self.error("Unexpected ':': an array holds values, not \"key\": value pairs", start, end)
        else:  # '}'
            return self.mismatch(category, start, end)
        return False


# The step for each kind of token, by ``Match.lastindex`` (json_tokens.T_*).
_STEPS: tuple[Callable[[_Parser, re.Match[str]], int], ...] = (
    _Parser.junk,  # unused: every alternative of TOKEN is a group
    _Parser.junk,  # unused: T_COMMA and T_COMMA_KEY end no token
    _Parser.junk,
    _Parser.next_member,
    _Parser.punctuation,
    _Parser.unclosed_string,
    _Parser.string,
    _Parser.string,
    _Parser.number,
    _Parser.number,
    _Parser.malformed_number,
    _Parser.word,
    _Parser.single_quoted,
    _Parser.single_quoted,
    _Parser.comment,
    _Parser.odd_space,
    _Parser.end_of_file,
    _Parser.junk,
)

# The recovery for each parser state (the _ROOT_* / _OBJ_* / _ARR_* numbers).
_RECOVERY: tuple[Callable[[_Parser, Frame, int, int, int, bool, bool], bool], ...] = (
    _Parser.at_root,
    _Parser.after_root,
    _Parser.expect_key,
    _Parser.expect_key,
    _Parser.expect_colon,
    _Parser.expect_value,
    _Parser.after_member,
    _Parser.expect_item,
    _Parser.expect_item,
    _Parser.after_item,
)


_RECENT: dict[int, tuple[str, JsonDocument]] = {}
"""The last few texts parsed, by identity: one edit of a settings.json is read by its own rules, the hooks run limit
and the name collisions, each given the same buffer string, and parsed once for all of them. Keyed by ``id`` with
the text kept beside it, so a reused id never answers for another string; documents are never modified. Only
texts up to ``RECENT_MAX_CHARS`` are kept: a large marketplace's tree is not held after its check."""
RECENT_TEXTS = 8
RECENT_MAX_CHARS = 256 * 1024


def parse_json(text: str) -> JsonDocument:
    """Parse ``text`` (BOM already stripped) into a position-keeping tree. Never raises."""
    cached = _RECENT.get(id(text))
    if cached is not None and cached[0] is text:
        return cached[1]
    parser = _Parser(text)
    parser.run()
    errors = sorted(parser.errors[:MAX_ERRORS], key=lambda error: (error.start, error.end))
    errors.extend(parser.errors[MAX_ERRORS:])  # the "too many errors" note stays last
    document = JsonDocument(text, LineIndex(text), parser.root, errors, parser.duplicates)
    if len(text) > RECENT_MAX_CHARS:
        return document
    _RECENT[id(text)] = (text, document)
    while len(_RECENT) > RECENT_TEXTS:
        try:
            _RECENT.pop(next(iter(_RECENT)), None)
        except (StopIteration, RuntimeError):  # another thread (a first scan) changed it meanwhile
            break
    return document
