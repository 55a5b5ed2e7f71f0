"""Shared machinery of the rule families: collecting findings and suggesting the name that was meant."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from clarvis_lsp.findings import Diagnostic, Fix, Position, Range, Related, Severity
from clarvis_lsp.rules.catalogue import RULES
from clarvis_lsp.rules.internal import RULE_FAILED

Document = TypeVar("Document")
Context = TypeVar("Context")


class Findings:
    """Collects the diagnostics of one file; each rule adds to it independently, so none masks another."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.items: list[Diagnostic] = []

    def add(
        self,
        code: str,
        range_: Range,
        message: str,
        *,
        severity: Severity | None = None,
        related: Iterable[Related] = (),
        fixes: Iterable[Fix] = (),
        data: dict[str, object] | None = None,
    ) -> None:
        declared = RULES[code]  # a KeyError here means a rule reported a code it never declared
        self.items.append(
            Diagnostic(
                path=self.path,
                range=range_,
                severity=severity if severity is not None else declared.severity,
                code=code,
                message=message,
                related=tuple(related),
                fixes=tuple(fixes),
                data=data or {},
            )
        )


@dataclass(frozen=True)
class RuleStep(Generic[Document, Context]):
    """One entry of a rule table (``clarvis_lsp.rules.runner``): its name (named by ``internal/rule-failed``), the
    codes it may report (it is skipped when none is enabled), and the check itself."""

    name: str
    codes: tuple[str, ...]
    check: Callable[[Document, Context, Findings], None]
    needs_frontmatter: bool = False  # SKILL.md: run only when the frontmatter parsed as a mapping


def _normalise(name: str) -> str:
    """Fold case and separators, so `userInvocable`, `user_invocable` and `User-Invocable` compare equal."""
    return re.sub(r"[-_\s.]", "", name).lower()


def closest(word: str, candidates: Sequence[str], *, cutoff: float = 0.75) -> str | None:
    """The candidate a near miss most likely meant, or None.

    Separator and case variants win outright (`PreToolUse` → `pre_tool_use`); otherwise difflib's ratio on
    the normalised forms decides, so `user-invokable` → `user-invocable` and `enabledPlugin` → `enabledPlugins`.
    """
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


def run_isolated(name: str, check: Callable[[Findings], object], findings: Findings) -> None:
    """Run one rule into ``findings``; on an exception, what it added so far is taken back and
    ``internal/rule-failed`` reported instead."""
    added_from = len(findings.items)
    try:
        check(findings)
    except Exception as error:  # a rule's bug must not take the file's other findings with it
        del findings.items[added_from:]
        report_failure(name, error, findings)


def report_failure(name: str, error: Exception, findings: Findings) -> None:
    import logging  # imported here: a rule that fails is a bug, and --check need not load logging otherwise
    import traceback

    logging.getLogger(__name__).error("rule %s failed on %s:\n%s", name, findings.path, traceback.format_exc())
    start = Position(0, 0)
    findings.add(
        RULE_FAILED.code,
        Range(start, start),
        f"The {name} rule failed on this file ({type(error).__name__}: {error}); its findings are missing, "
        "the other rules' stand. Please report this as a bug with the file.",
        data={"rule": name},
    )


def run_each(findings: Findings, checks: Iterable[tuple[str, Callable[[Findings], object]]]) -> None:
    """Run a family's checks one after the other, each isolated (``run_isolated``): a family runs as one step of
    the runner, and without this one raising check took every other code of the family with it (SPEC §4: one
    failing rule never hides another)."""
    for name, check in checks:
        run_isolated(name, check, findings)
