"""Shared machinery of the rule families: collecting findings, and the steps rule tables are made of."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from clarvis_lsp.findings import Diagnostic, Fix, Position, Range, Related, Severity
from clarvis_lsp.rules.catalogue import RULES
from clarvis_lsp.rules.internal import RULE_FAILED

# The name suggestions, imported from here by many rule modules.
from clarvis_lsp.rules.suggest import closest as closest
from clarvis_lsp.rules.suggest import did_you_mean as did_you_mean
from clarvis_lsp.rules.suggest import one_of as one_of

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
