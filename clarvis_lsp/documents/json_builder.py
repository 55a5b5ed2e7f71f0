"""The tree the tolerant JSON parser builds: the stack of open containers, the nodes attached as tokens arrive,
the errors (capped at ``MAX_ERRORS``) and duplicate keys, and how unfinished containers are closed at the end.

``json_parser`` drives it token by token; what it expects next is each open container's ``Frame.state``.
"""

from __future__ import annotations

from clarvis_lsp.documents.json_nodes import JsonArray, JsonMember, JsonNode, JsonObject
from clarvis_lsp.documents.json_tokens import (
    C_CLOSE_OBJ,
    C_EOF,
    C_NUM,
    C_OPEN_ARR,
    C_OPEN_OBJ,
    C_SQ,
    C_STRING,
    C_WORD,
    COLON_AHEAD,
    T_EOF,
    T_PUNCT,
    TOKEN,
    decode_string,
    number_node,
    show,
    word_node,
)
from clarvis_lsp.documents.json_tree import JsonSyntaxError

__all__ = ["MAX_DEPTH", "MAX_ERRORS", "Frame", "TreeBuilder"]

MAX_DEPTH = 200_000
MAX_ERRORS = 1000

# Parser states: what the innermost container (or the top level) expects next.
ROOT_VALUE = 0
ROOT_AFTER = 1
OBJ_KEY_FIRST = 2  # after '{'
OBJ_KEY_NEXT = 3  # after ','
OBJ_COLON = 4  # after a key
OBJ_VALUE = 5  # after ':'
OBJ_AFTER = 6  # after a value
ARR_FIRST = 7  # after '['
ARR_NEXT = 8  # after ','
ARR_AFTER = 9  # after an item


class Frame:
    """An open container (or the top level, ``node`` None): what it expects next and what recovery needs."""

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


class TreeBuilder:
    """The parse's state apart from the scan: the tree, the errors, the stack of open containers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.root: JsonNode | None = None
        self.errors: list[JsonSyntaxError] = []
        self.duplicates: list[tuple[JsonMember, JsonMember]] = []
        self.first_of: dict[tuple[int, str], JsonMember] = {}  # (id(object), key) -> first member, once repeated
        self.top = Frame(None, ROOT_VALUE, 0, 0)  # the innermost container's frame: always stack[-1]
        self.stack: list[Frame] = [self.top]
        self.last_end = 0  # end of the last token consumed (comments excluded)
        self.halted = False  # too many errors: stop at the next token
        self.finishing = False
        self.resume = -1  # where the scan goes on after a skipped region; len(text) + 1 to stop

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
        if category == C_EOF:
            return "end of file"
        if category in (C_STRING, C_SQ):
            return f"string {show(self.text[start:end])}"
        if category == C_NUM:
            return f"number {show(self.text[start:end])}"
        return f"'{show(self.text[start:end])}'"

    def colon_follows(self, pos: int) -> bool:
        """Whether the next token (whitespace and closed comments skipped) is ':'."""
        return COLON_AHEAD.match(self.text, pos) is not None

    def missing_colon_and_value(self, member: JsonMember | None) -> None:
        if member is not None:
            self.error(
                f"Expected ':' and a value after the key \"{show(member.key)}\"", member.key_start, member.key_end
            )

    def missing_value(self, frame: Frame) -> None:
        self.error("Expected a value after ':'", frame.colon, frame.colon + 1)

    def add_member(self, frame: Frame, key: str, start: int, end: int) -> JsonMember:
        """A closed, double-quoted key: a new member of ``frame``'s object, waiting for its ':'."""
        obj = frame.node
        assert isinstance(obj, JsonObject)
        member = JsonMember(key, start, end, None, None, obj)
        obj.members.append(member)
        by_key = obj._by_key
        if key in by_key:
            self.duplicate(obj, by_key[key], member)
        by_key[key] = member
        frame.member = member
        frame.state = OBJ_COLON
        frame.quiet = False
        return member

    def attach_fast(self, frame: Frame, node: JsonNode) -> None:
        """``attach`` in the common cases: a value in an array, or after a member's ':'."""
        owner = frame.node
        if frame.state == OBJ_VALUE:
            member = frame.member
            assert member is not None
            member.value = node
            node.member = member
            frame.member = None
            frame.state = OBJ_AFTER
        else:
            assert isinstance(owner, JsonArray)
            items = owner.items
            node.index = len(items)
            items.append(node)
            frame.state = ARR_AFTER
        frame.quiet = False

    def start_member(self, frame: Frame, category: int, start: int, end: int, closed: bool) -> None:
        obj = frame.node
        assert isinstance(obj, JsonObject)
        text = self.text
        if category == C_STRING:
            key = decode_string(text, start + 1, end - 1 if closed else end, '"', self.error)
            if not closed:
                self.error("Unclosed string: add a closing '\"'", start, end)
        elif category == C_SQ:
            key = decode_string(text, start + 1, end - 1 if closed else end, "'", self.error)
            self.error("Property names need double quotes, not single quotes", start, end)
        else:
            key = text[start:end]
            if category == C_WORD:
                self.error(f'Unquoted property name: write "{show(key)}" in double quotes', start, end)
            else:
                self.error(f'Property names must be strings: write "{show(key)}"', start, end)
        member = JsonMember(key, start, end, None, None, obj)
        obj.members.append(member)
        by_key = obj._by_key
        previous = by_key.get(key)
        if previous is not None:
            self.duplicate(obj, previous, member)
        by_key[key] = member
        frame.member = member
        frame.state = OBJ_COLON
        frame.quiet = not closed

    def duplicate(self, obj: JsonObject, previous: JsonMember, member: JsonMember) -> None:
        """Record ``member`` as a duplicate of the first member of ``obj`` with the same key."""
        first = self.first_of.setdefault((id(obj), member.key), previous)
        self.duplicates.append((first, member))

    def value(self, frame: Frame, category: int, start: int, end: int, closed: bool) -> None:
        """Create the value that starts with this token and attach it to ``frame``'s container."""
        parent = frame.node
        node: JsonNode
        if category in (C_OPEN_OBJ, C_OPEN_ARR):
            self.open_container(frame, category, start, end)
            return
        if category == C_STRING:
            value = decode_string(self.text, start + 1, end - 1 if closed else end, '"', self.error)
            node = JsonNode("string", start, end, value, parent, closed)
            if not closed:
                self.error("Unclosed string: add a closing '\"'", start, end)
        elif category == C_NUM:
            node = number_node(self.text, start, end, parent, self.error)
        elif category == C_WORD:
            node = word_node(self.text, start, end, parent, self.error)
        else:  # single-quoted
            value = decode_string(self.text, start + 1, end - 1 if closed else end, "'", self.error)
            node = JsonNode("string", start, end, value, parent, closed)
            self.error("Strings need double quotes, not single quotes", start, end)
        self.attach(frame, node)
        frame.quiet = not closed

    def open_container(self, frame: Frame, category: int, start: int, end: int) -> None:
        """A '{' or '[' that starts a value where the grammar did not expect one (or too deep to keep)."""
        if len(self.stack) > MAX_DEPTH:
            self.skip_deep(frame, start)
            return
        if category == C_OPEN_OBJ:
            obj = JsonObject("object", start, end, None, frame.node, False)
            self.attach(frame, obj)
            self.top = Frame(obj, OBJ_KEY_FIRST, len(self.stack), frame.up_array)
        else:
            arr = JsonArray("array", start, end, None, frame.node, False)
            self.attach(frame, arr)
            self.top = Frame(arr, ARR_FIRST, frame.up_object, len(self.stack))
        self.stack.append(self.top)
        frame.quiet = False

    def attach(self, frame: Frame, node: JsonNode) -> None:
        owner = frame.node
        if owner is None:
            self.root = node
            frame.state = ROOT_AFTER
        elif isinstance(owner, JsonObject):
            member = frame.member
            if member is not None and frame.state == OBJ_VALUE:
                member.value = node
                node.member = member
            frame.member = None
            frame.state = OBJ_AFTER
        else:
            assert isinstance(owner, JsonArray)
            node.index = len(owner.items)
            owner.items.append(node)
            frame.state = ARR_AFTER

    def close(self, closer: int) -> None:
        frame = self.stack.pop()
        self.top = self.stack[-1]
        node = frame.node
        assert node is not None
        node.end = closer + 1
        node.closed = True

    def abandon(self, frame: Frame) -> None:
        """Report what ``frame`` still waits for, and that it is never closed."""
        node = frame.node
        assert node is not None
        if frame.state == OBJ_COLON and not frame.quiet:
            self.missing_colon_and_value(frame.member)
        elif frame.state == OBJ_VALUE:
            self.missing_value(frame)
        opener, closer = ("{", "}") if node.kind == "object" else ("[", "]")
        self.error(f"'{opener}' is never closed: add '{closer}'", node.start, node.start + 1)
        node.end = max(node.start + 1, self.last_end)
        node.closed = False

    def mismatch(self, category: int, start: int, end: int) -> bool:
        """A closer that does not match the innermost container: abandon the containers above the one it
        matches and return True (the caller handles the closer again), or report a stray closer."""
        stack = self.stack
        top = self.top
        index = top.up_object if category == C_CLOSE_OBJ else top.up_array
        if index == 0:
            opener = "{" if category == C_CLOSE_OBJ else "["
            self.error(f"Unexpected '{self.text[start]}': there is no open '{opener}' to close", start, end)
            return False
        while len(stack) - 1 > index:
            self.abandon(stack.pop())
        self.top = stack[-1]
        return True

    def finish(self, eof: int) -> None:
        self.finishing = True
        stack = self.stack
        # Outermost first, so that when errors are capped the outer, more useful ones are kept.
        for frame in stack[1:]:
            self.abandon(frame)
        del stack[1:]
        self.top = stack[0]
        if self.root is None:
            if not self.text.strip(" \t\r\n"):
                self.errors.append(JsonSyntaxError("The file is empty: add a JSON value such as {}", 0, len(self.text)))
            else:
                self.error("Expected a JSON value such as {}", eof, eof)

    def skip_deep(self, frame: Frame, start: int) -> None:
        """Skip a container nested deeper than MAX_DEPTH; it becomes one invalid node."""
        text = self.text
        depth = 0
        pos = start
        end = start + 1
        while True:
            m = TOKEN.match(text, pos)
            if m is None or m.lastindex == T_EOF:
                break
            pos = end = m.end()
            if m.lastindex == T_PUNCT:
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
