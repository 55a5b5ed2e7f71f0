"""The link scan's fast paths read every text as the general code they stand in for (issue 26: each was kept
because it saves at least 5 % of a check of realistic skills).

- fence lines found from the markers (``_fence_lines``, ``_regions_between``) against the loop over every line
  (``_unfenced_regions``) and ``_FENCE_INSIDE_A_LINE``, on bodies without CR (the only ones they are used for);
- code spans of single backticks (``_single_backtick_spans_blanked``) against the general pairing of runs;
- the container-indentation precondition (``_may_indent_a_container``) never skips a body the pattern matches.
"""

from __future__ import annotations

import hypothesis
from hypothesis import strategies

from clarvis_lsp.rules import skill_links

_PIECES = ["```", "~~~", "````", "`", "``", "~", " ", "   ", "    ", "\t", "\n", "a", "python", "-", "*", "1.", ">"]
_BODIES = strategies.lists(strategies.sampled_from(_PIECES), max_size=40).map("".join)


@hypothesis.settings(max_examples=2000, deadline=None)
@hypothesis.given(_BODIES)
def test_fence_lines_give_the_regions_and_the_answer_of_the_line_loop(body: str) -> None:
    fences = skill_links._fence_lines(body)
    assert (fences is None) == (skill_links._FENCE_INSIDE_A_LINE.search(body) is not None)
    if fences is not None:
        assert list(skill_links._regions_between(body, fences)) == list(skill_links._unfenced_regions(body, True))


def _general_pairing(text: str) -> tuple[str, bool]:
    """``_masked_text`` with the single-backtick shortcut turned off: a text with a double backtick takes the
    general pairing, and its blanking is the same for the single runs around it."""
    masked, crosses = skill_links._masked_text(text + "``", comments=False)
    return masked[: len(text)], crosses


@hypothesis.settings(max_examples=2000, deadline=None)
@hypothesis.given(strategies.text(alphabet="`a \n\r[](", max_size=30))
def test_single_backtick_spans_are_paired_as_the_general_pairing_pairs_them(text: str) -> None:
    hypothesis.assume("``" not in text and not text.endswith("`"))
    assert skill_links._single_backtick_spans_blanked(text) == _general_pairing(text)


@hypothesis.settings(max_examples=2000, deadline=None)
@hypothesis.given(
    strategies.lists(strategies.sampled_from(["-", "*", "+", "1.", "2)", ">", " ", "\t", "\n", "a"]), max_size=30).map(
        "".join
    )
)
def test_the_container_precondition_holds_wherever_the_pattern_matches(body: str) -> None:
    if skill_links._CONTAINER_INDENT.search(body):
        assert skill_links._may_indent_a_container(body)
