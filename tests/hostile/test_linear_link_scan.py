"""No line of a SKILL.md can make the link scan hang (issue 21, break 10; SPEC §9: nothing a repository holds can
make a check grow worse than linearly).

Every regular expression of ``rules/skill_links.py``, ``rules/skill_link_scan.py`` and ``rules/skill_link_lines.py``
is timed on its worst input (the input that made it, or would make it, backtrack most) at a length n and at 8n, and
so is the whole scan on the bodies that were slow. A linear cost grows about 8×, a quadratic one 64×, a cubic one
512×: the bound of 20× tells them apart with room for a loaded machine. CPU time of this process, the best of
several rounds, each round long enough to time.

The test also holds the rewritten patterns to the ones they replaced, on short strings where the old ones are
fast: the same matches, the same spans, the same destinations. And one check through the door: a SKILL.md whose
body is one 40 KB line ending in ``]:`` (2.5 KB took ``--check`` 64 s; this one would take hours).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import hypothesis
import pytest
from hypothesis import strategies

from clarvis_lsp.documents.skill import SkillDocument, parse_skill
from clarvis_lsp.rules import skill_link_lines, skill_link_scan, skill_links
from clarvis_lsp.rules.base import Findings

N = 256
GROWTH = 8
RATIO = 20  # linear: 8×; quadratic: 64×; cubic: 512×
ROUND_SECONDS = 0.01
ROUNDS = 3

Use = Callable[[re.Pattern[str], str], object]


def _search(pattern: re.Pattern[str], text: str) -> object:
    return pattern.search(text)


def _match(pattern: re.Pattern[str], text: str) -> object:
    return pattern.match(text)


def _all(pattern: re.Pattern[str], text: str) -> object:
    return [found.span() for found in pattern.finditer(text)]


def _fullmatch(pattern: re.Pattern[str], text: str) -> object:
    return pattern.fullmatch(text)


def _sub(pattern: re.Pattern[str], text: str) -> object:
    return pattern.sub(" ", text)


# For each pattern: how the scan uses it, and its worst inputs as functions of n.
WORST: dict[str, tuple[Use, list[Callable[[int], str]]]] = {
    "_SCHEME": (_match, [lambda n: "a" * n]),
    "_LIST_ITEM_START": (_match, [lambda n: "1" * n, lambda n: "- " + " " * n]),
    "_PARAGRAPH_OPENING": (_match, [lambda n: "*" * n, lambda n: "`" * n, lambda n: "*_" * n + "``x"]),
    "_EMPTY_ORDERED_ITEM": (_match, [lambda n: "1" * n, lambda n: "1." + " \t" * n + "x"]),
    "_THEMATIC_BREAK": (_fullmatch, [lambda n: "*" * n + "x", lambda n: "- " * n + "x", lambda n: "_ \t" * n + "a"]),
    "_BACKTICKS": (_all, [lambda n: "`" * n, lambda n: "a`" * n]),
    "_ESCAPED": (_sub, [lambda n: "\\" * n]),
    "_BACKSLASH_ESCAPE": (_sub, [lambda n: "\\" * n]),
    "_DEFINITION": (
        _all,
        [
            lambda n: "[a]:" + " " * n + "\n\n",  # was quadratic: the spaces around an optional line break
            lambda n: "[a]:" + " " * n + "\n" + " " * n + "(",
            lambda n: "> " * n + "x",
            lambda n: "1. " * n + "x",
            lambda n: "[" + "a" * n,
            lambda n: "[a]: " + "a(" * n,
            lambda n: "[a]\n" * n,
        ],
    ),
    "_LINK_TAIL": (
        _match,
        [
            lambda n: " " * n + "x",  # was quadratic: an empty destination and three gaps sharing the spaces
            lambda n: " " * n + '"' + "a" * n,
            lambda n: "a" + " " * n + "x",
            lambda n: "a" * n + " " * n + "x",
            lambda n: "(a" * n,
            lambda n: 'a"' * n + " x",
            lambda n: "a" + " " * n + '"' + " " * n,
        ],
    ),
    "_SIMPLE_TAIL": (_match, [lambda n: "a" * n + " "]),
    "_LINE_BREAK": (_all, [lambda n: "\r\n" * n]),
    "_NOT_A_LINE_BREAK": (_sub, [lambda n: "a" * n]),
    "_MARKDOWN_LINE": (_all, [lambda n: "a" * n, lambda n: "\r" * n]),
    "_FENCE_LINE": (_match, [lambda n: "`" * n]),
    "_LONE_CR": (_search, [lambda n: "\r\n" * n]),
    "_ODD_DESTINATION_START": (_search, [lambda n: "]:" + " " * n, lambda n: "]: \n" * n]),
    "_PLACEHOLDER_SEGMENT": (_match, [lambda n: "${" + "a" * n, lambda n: "{{" + "a" * n + "}"]),
    "_PLACEHOLDER": (_search, [lambda n: "{" + "a" * n, lambda n: "{a" * n]),
    "_HTML_START": (_search, [lambda n: "<" * n]),
    "_HTML_BLOCK_OPENING": (_match, [lambda n: "</" + "details" * n, lambda n: "<" + "summary" + " " * n]),
    "_PLAIN_DEFINITION_LINE": (
        _match,
        [lambda n: "[" + "a" * n, lambda n: "[a]:" + " " * n, lambda n: "[a]: " + "b" * n + " "],
    ),
    "_BLANK_LINE": (_search, [lambda n: "\n" + " " * n + "x", lambda n: "\n \t" * n]),
    "_INDENTED_FENCE": (_search, [lambda n: "\n  " * n, lambda n: "\n   ``" * n]),
    "_FENCE_INSIDE_A_LINE": (_search, [lambda n: "a" * n, lambda n: "``a" * n]),
    "_CONTAINER_INDENT": (_search, [lambda n: "> " * n, lambda n: "1. " * n, lambda n: "- " * n + "x"]),
    "_CODE_INDENT_AT_START": (_match, [lambda n: " " * n]),
    "_CODE_INDENT_AFTER_BREAK": (_search, [lambda n: "\n" + " " * n, lambda n: "\n    " * n]),
    "_TITLE_ON_NEXT_LINE": (_search, [lambda n: "]:" * n, lambda n: "]:" + "a" * n]),  # the first was quadratic
    "_DEFINITION_IN_PARAGRAPH": (
        _search,
        [
            lambda n: "a" * n + "]:",  # was cubic: 1,000 characters took 1.5 s
            lambda n: "a" + " " * n + "]:",
            lambda n: "a\n[" * n,
            lambda n: "a\n[" + "a" * n,
        ],
    ),
    "_LABEL_ACROSS_LINES": (_search, [lambda n: "[" + "a\n" * n, lambda n: "[\n" * n, lambda n: "[" + "\n" * n + "]"]),
    "_BRACKET": (_all, [lambda n: "[" * n]),
    "_FENCE_TEXT": (_match, [lambda n: "`" * n, lambda n: "```" + "a" * n]),
}

# Whole bodies, through the scan a check runs (both readings: the fast scan and the block parse).
BODIES: dict[str, Callable[[int], str]] = {
    "one line ending in ]:": lambda n: "a" * n + "]:",
    "a run of ](": lambda n: "](" * n,  # each `](` used to walk back 4,096 characters for its `[`
    "one [ and a run of ](": lambda n: "[" + "](" * n,
    "nested brackets": lambda n: "[" * n + "](a)" * n,
    "link text of spaces": lambda n: "[" + " " * n + "](" + " " * n + "x",
    "definitions": lambda n: "[a]: b.md\n" * n,
    "links": lambda n: "[a](b.md) " * n,
    "code spans": lambda n: "[a](b.md) `c` " * n,
    "fences": lambda n: "```\n[a](b.md)\n" * n,
    "fence markers inside lines": lambda n: "a ``` ~~~ [a](b.md)\n" * n,
    "comment blocks": lambda n: "\n<!-- [a](b.md) -->\n[c](d.md)\n" * n,
    "details blocks": lambda n: "\n<details>\n[a](b.md)\n\n[c](d.md)\n" * n,
    "an open comment, then HTML starts": lambda n: "\n<!--\n" + "\n<details>\n" * n,
    "indented lines after text": lambda n: "- a [b](c.md)\n    - d\n" * n,
    "indented lines after blank lines": lambda n: "\n    " * n + "a",
    "a long nested list": lambda n: "- a [b](c.md)\n" + "    - d\n" * n,
    "nested lists after blank lines": lambda n: "- a [b](c.md)\n\n    - d\n" * n,
    "links wrapped onto the next line": lambda n: "see the [setup\nguide](setup.md) and " * n,
    "a long line, then a wrapped link": lambda n: "a" * n + " [b\nc](d.md)",
    "many blank lines, then an indented line": lambda n: "- a [b](c.md)\n" + "\n" * n + "    d",
    "an indented line after a long one": lambda n: "**" + "a" * n + "\n    b [c](d.md)",
    "a block of definitions after a paragraph": lambda n: "a\n" + "[a]: b.md\n" * n,
    "ordered items after nested bullets": lambda n: "[a](b.md)\n" + "3. a\n\n    - c\n" * n,
    "list markers indented less and less": lambda n: (
        "- a [b](c.md)\n" + "".join(" " * (4 + n - k) + "- d\n" for k in range(n))
    ),
    "fence lines with markers after them": lambda n: "``` ~~~ ```\n[a](b.md)\n" * n,
    "a block of definitions": lambda n: "\n" + "[a]: b.md\n" * n + "[x][a]",
    "HTML starts after blank lines": lambda n: "\n" * n + "<b>" * n,
}


def _cost(run: Callable[[], object], repeat: int) -> float:
    """The CPU time of one ``run``, from ``repeat`` calls."""
    started = time.process_time()
    for _ in range(repeat):
        run()
    return (time.process_time() - started) / repeat


def _repeat_for(run: Callable[[], object]) -> int:
    """How many calls of ``run`` make a round long enough to time."""
    repeat = 1
    while _cost(run, repeat) * repeat < ROUND_SECONDS:
        repeat *= 4
    return repeat


def _growth(small: Callable[[], object], large: Callable[[], object]) -> float:
    """How many times the CPU time of ``small`` one call of ``large`` takes: the best small round against the
    large rounds, stopping at the first under ``RATIO`` (a loaded moment only ever makes a round slower)."""
    repeat = _repeat_for(small)
    small_cost = min(_cost(small, repeat) for _ in range(ROUNDS))
    ratio = float("inf")
    for _ in range(ROUNDS):
        ratio = min(ratio, _cost(large, max(1, repeat // GROWTH)) / max(small_cost, 1e-7))
        if ratio < RATIO:
            break
    return ratio


MODULES = (skill_links, skill_link_scan, skill_link_lines)


def _pattern(name: str) -> re.Pattern[str]:
    for module in MODULES:
        found = vars(module).get(name)
        if isinstance(found, re.Pattern):
            return found
    raise KeyError(name)


def test_every_pattern_of_the_link_scan_has_its_worst_inputs_here() -> None:
    patterns = {name for module in MODULES for name, value in vars(module).items() if isinstance(value, re.Pattern)}
    assert patterns == set(WORST)


@pytest.mark.parametrize(
    ("name", "index"), [(name, index) for name, (_, inputs) in WORST.items() for index in range(len(inputs))]
)
def test_each_pattern_is_linear_on_its_worst_input(name: str, index: int) -> None:
    use, inputs = WORST[name]
    pattern = _pattern(name)
    small, large = inputs[index](N), inputs[index](N * GROWTH)
    ratio = _growth(lambda: use(pattern, small), lambda: use(pattern, large))
    assert ratio < RATIO, f"{name} on input {index}: {ratio:.0f}× the time for {GROWTH}× the text"


@pytest.mark.parametrize("name", list(BODIES))
@pytest.mark.parametrize("fast", [True, False])
def test_the_whole_scan_is_linear_on_hostile_bodies(name: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(skill_links, "FAST_PATH", fast)
    small, large = BODIES[name](N), BODIES[name](N * GROWTH)
    ratio = _growth(lambda: skill_links._written_destinations(small), lambda: skill_links._written_destinations(large))
    assert ratio < RATIO, f"{name}: {ratio:.0f}× the time for {GROWTH}× the text"


# Bodies whose every destination may be fine, so that the rule's look-up reads all of them before any scan.
RULE_BODIES: dict[str, Callable[[int], str]] = {
    # Bodies whose length grows with n (one of the scan's grows with its square: its lines indent further and
    # further, which the look-up reads once, as it reads any text).
    **{name: body for name, body in BODIES.items() if name != "list markers indented less and less"},
    "a long line of ]:": lambda n: "a" + "]:" * n,
    "a long line of ]: after a definition": lambda n: "[a]: b.md " + "]:" * n,
    "lines of ]:": lambda n: "]:\n" * n,
    "a long line of ](": lambda n: "[a" + "](b.md)" * n,
    "a destination as long as the body": lambda n: "[a](" + "b" * n + ")",
    "many definitions on one line": lambda n: "[a]: b.md [c]: d.md " * n,
}


@pytest.mark.parametrize("name", list(RULE_BODIES))
def test_the_rule_is_linear_on_hostile_bodies(name: str) -> None:
    """The whole rule, its look-up first (every relative destination is there, so nothing stops it early). At
    sixteen times the patterns' sizes: a search in C that runs back over a whole line at each of its ``]:`` is
    quadratic, and too fast to show it on shorter lines."""
    path = Path("/ws/.clarvis/skills/x/SKILL.md")
    small, large = (
        parse_skill(path, "---\nname: x\n---\n" + RULE_BODIES[name](size)) for size in (16 * N, 16 * N * GROWTH)
    )

    def check(document: SkillDocument) -> None:
        skill_links.check_links(document, Findings(path), lexists=lambda _path: True)

    ratio = _growth(lambda: check(small), lambda: check(large))
    assert ratio < RATIO, f"{name}: {ratio:.0f}× the time for {GROWTH}× the text"


def test_a_skill_whose_body_is_one_long_line_is_checked(tmp_path: Path) -> None:
    skill = tmp_path / ".clarvis" / "skills" / "long" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    line = "See [the guide](gone.md) " + "word " * 8000 + "]:"
    skill.write_text(f"---\nname: long\ndescription: One long line.\n---\n{line}\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user", "--format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,  # a hang guard, not a measurement: linear, this takes a fraction of a second
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert [item["message"][:22] for item in report["diagnostics"] if item["code"] == "skill/broken-link"] == [
        'Link "gone.md" points '
    ]


# The patterns as they were before they were made linear: the new ones must read every text the same way.
_FORMER_GAP = r"[ \t]*(?:\r?\n[ \t]*)?"
FORMER = {
    "_DEFINITION": re.compile(
        skill_links._CONTAINER_MARKERS + r"\[(?![ \t]*\])(?:[^\[\]\\\n]|\\.){1,999}\]:[ \t]*\n?[ \t]*"
        r"(<[^<>\n]*>|(?:[^\s()]|\((?:[^\s()]|\([^\s()]*\))*\))+)",
        re.MULTILINE,
    ),
    "_LINK_TAIL": re.compile(
        _FORMER_GAP
        + r"(?P<destination><[^<>\r\n]*>|(?:[^\s()]|\((?:[^\s()]|\([^\s()]*\))*\))*)"
        + r"(?:"
        + _FORMER_GAP
        + r"(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?"
        + _FORMER_GAP
        + r"\)"
    ),
    "_TITLE_ON_NEXT_LINE": re.compile(r"\]:[^\r\n]*\r?\n[ \t]*[\"'(]"),
    # With CommonMark's white space of a blank line (a space, a tab) in place of ``\S``'s, as the rewrite now has it.
    "_DEFINITION_IN_PARAGRAPH": re.compile(r"[^\r\n]*[^ \t\r\n][^\r\n]*\r?\n[ \t>]*\[[^\]\r\n]+\]:"),
}
_PIECES = [*"[]:() \t\n\r\"'<>-*+1.\\a`!", "\u2028", "\x0b", "\xa0", "]:", "](", "\r\n", "> ", "- ", "    "]


@hypothesis.settings(max_examples=1500, deadline=None)
@hypothesis.given(strategies.lists(strategies.sampled_from(_PIECES), max_size=16).map("".join))
def test_the_linear_patterns_read_every_text_as_the_former_ones(text: str) -> None:
    definitions = skill_links._DEFINITION.finditer(text)
    former_definitions = FORMER["_DEFINITION"].finditer(text)
    assert [(m.span(), m.span(1)) for m in definitions] == [(m.span(), m.span(1)) for m in former_definitions]
    tail, former_tail = skill_links._LINK_TAIL.match(text), FORMER["_LINK_TAIL"].match(text)
    assert (tail and (tail.span(), tail.span("destination"))) == (
        former_tail and (former_tail.span(), former_tail.span("destination"))
    )
    for name in ("_TITLE_ON_NEXT_LINE", "_DEFINITION_IN_PARAGRAPH"):
        assert (getattr(skill_links, name).search(text) is None) == (FORMER[name].search(text) is None), name


def _walk_back(text: str, close: int) -> int | None:
    """The ``[`` that the ``]`` at ``close`` closes, found as the scan once found it: walking back, counting."""
    depth = 0
    for index in range(close - 1, -1, -1):
        if text[index] == "]":
            depth += 1
        elif text[index] == "[":
            if depth == 0:
                return index
            depth -= 1
    return None


@hypothesis.settings(max_examples=1500, deadline=None)
@hypothesis.given(strategies.text(alphabet="[]a", max_size=30))
def test_brackets_pair_as_a_walk_back_pairs_them(text: str) -> None:
    pairs = skill_links._bracket_pairs(text)
    for close, char in enumerate(text):
        if char == "]":
            assert pairs.get(close) == _walk_back(text, close)
