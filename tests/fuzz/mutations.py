"""Hypothesis strategies: arbitrary text, and structured mutations of valid documents (keys dropped, renamed,
retyped, duplicated; truncation; astral characters, lone surrogates, U+0085, U+2028, CRLF, BOM, NUL)."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

# Characters that trip line splitting, decoding and position conversion.
AWKWARD = ["😀", "\U0001d11e", "\ud800", "\udfff", "\x85", "\u2028", "\u2029", "\r\n", "\r", "\ufeff", "\x00", "\t"]
awkward_text = st.lists(st.one_of(st.sampled_from(AWKWARD), st.characters()), max_size=40).map("".join)
any_text = st.one_of(st.text(max_size=300), awkward_text)

json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12,
)
yaml_values = st.sampled_from(
    [
        "yes",
        "1.0",
        "~",
        "[a, b]",
        "{}",
        "{a: 1}",
        '"quoted"',
        "&anchor value",
        "*anchor",
        "!!python/object/apply:os.system ['touch pwned']",
        "!!binary aGVsbG8=",
        "|\n  block",
        "0o17",
        "1_000",
        "",
        "- item",
        ": :",
        "'unterminated",
    ]
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a container member in a JSON value."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((*prefix, key))
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append((*prefix, index))
            found.extend(_paths(item, (*prefix, index)))
    return found


def _parent(root: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        root = root[part]
    return root


@st.composite
def mutated_json(draw: st.DrawFn, text: str) -> str:
    """A JSON document with members dropped, renamed, retyped or duplicated, then possibly reformatted."""
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(data)
        if not paths:
            data = draw(json_value)
            continue
        path = draw(st.sampled_from(paths))
        parent = _parent(data, path)
        key = path[-1]
        operation = draw(st.sampled_from(["drop", "rename", "retype", "duplicate"]))
        if operation == "drop":
            del parent[key]
        elif operation == "retype":
            parent[key] = draw(json_value)
        elif isinstance(parent, dict) and operation == "rename":
            new = draw(st.sampled_from([key.upper(), key[:-1], key + "s", key.replace("_", "-"), ""]))
            parent[new] = parent.pop(key)
        elif isinstance(parent, list):
            parent.insert(int(key), parent[int(key)])
    indent = draw(st.sampled_from([None, 2, "\t"]))
    out = json.dumps(data, indent=indent, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):  # a duplicated key, which json.dumps cannot write
        match = re.search(r'"(?:[^"\\]|\\.)*"\s*:\s*("(?:[^"\\]|\\.)*"|[-\w.]+)', out)
        if match and out.lstrip().startswith("{"):
            brace = out.index("{")
            out = (
                out[: brace + 1] + match.group(0) + ("," if out[brace + 1 :].strip() != "}" else "") + out[brace + 1 :]
            )
    return out


@st.composite
def mutated_frontmatter(draw: st.DrawFn, text: str) -> str:
    """A SKILL.md or agent file with frontmatter lines dropped, renamed, retyped or duplicated."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        operation = draw(st.sampled_from(["drop", "rename", "retype", "duplicate", "indent"]))
        key, colon, _value = line.partition(":")
        if operation == "drop":
            del lines[index]
        elif operation == "duplicate":
            lines.insert(index, line)
        elif operation == "indent":
            lines[index] = draw(st.sampled_from(["  ", "\t", "- "])) + line
        elif colon and operation == "rename":
            lines[index] = (
                draw(st.sampled_from([key.upper(), key[:-1], key + "s", key.replace("-", "_")])) + ":" + _value
            )
        elif colon:
            lines[index] = f"{key}: {draw(yaml_values)}"
    return "\n".join(lines)


@st.composite
def spliced(draw: st.DrawFn, text: str) -> str:
    """``text`` truncated, with awkward characters inserted, or with its line breaks or BOM changed."""
    operation = draw(st.sampled_from(["truncate", "insert", "crlf", "cr", "bom", "nul"]))
    if operation == "truncate":
        return text[: draw(st.integers(0, len(text)))]
    if operation == "insert":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.sampled_from(AWKWARD) | awkward_text) + text[at:]
    if operation == "crlf":
        return text.replace("\n", "\r\n")
    if operation == "cr":
        return text.replace("\n", "\r")
    if operation == "bom":
        return "\ufeff" + text
    at = draw(st.integers(0, len(text)))
    return text[:at] + "\x00" + text[at:]
