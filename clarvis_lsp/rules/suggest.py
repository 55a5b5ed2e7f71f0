"""Suggesting the name that was meant: a field, an event, a plugin, a rule code.

Its own module, below both the rule machinery (``base``) and the catalogue (``--select skil`` suggests ``skill``),
so that neither imports the other for it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence


def _normalise(name: str) -> str:
    """Fold case and separators, so `userInvocable`, `user_invocable` and `User-Invocable` compare equal."""
    return re.sub(r"[-_\s.]", "", name).lower()


def closest(word: str, candidates: Sequence[str], *, cutoff: float = 0.75) -> str | None:
    """The candidate a near miss most likely meant, or None.

    Separator and case variants win outright (`PreToolUse` → `pre_tool_use`); otherwise difflib's ratio on
    the normalised forms decides, so `user-invokable` → `user-invocable` and `enabledPlugin` → `enabledPlugins`.
    Answered once per word for a fixed tuple of candidates (a tree of skills repeats the same unknown fields).
    """
    if isinstance(candidates, tuple):
        return _closest_of_tuple(word, candidates, cutoff)
    return _closest(word, candidates, cutoff)


@functools.lru_cache(maxsize=4096)
def _closest_of_tuple(word: str, candidates: tuple[str, ...], cutoff: float) -> str | None:
    return _closest(word, candidates, cutoff)


def _closest(word: str, candidates: Sequence[str], cutoff: float) -> str | None:
    if not word:
        return None
    folded = _normalise(word)
    by_folded = {_normalise(candidate): candidate for candidate in candidates}
    if folded in by_folded and by_folded[folded] != word:
        return by_folded[folded]
    import difflib  # imported here: only a misspelling needs it

    matches = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=cutoff)
    if matches and by_folded[matches[0]] != word:
        return by_folded[matches[0]]
    return None


def one_of(words: Sequence[str], quote: str = "`") -> str:
    """Choices for a message, each quoted: ``one_of(("off", "on", "review"))`` is ```off`, `on` or `review```."""
    quoted = [f"{quote}{word}{quote}" for word in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def did_you_mean(word: str, candidates: Sequence[str]) -> str:
    """A message tail: ` Did you mean "x"?` or the empty string."""
    suggestion = closest(word, candidates)
    return f' Did you mean "{suggestion}"?' if suggestion else ""
