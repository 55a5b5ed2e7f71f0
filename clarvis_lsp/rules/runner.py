"""The rule runner: an explicit table of the rules each file kind runs, each run on its own.

A rule is a function over a parsed document and its context that adds findings. The runner

- skips a rule none of whose codes is enabled (a code switched ``off`` in configuration, or left out by
  ``--select``/``--ignore``, costs nothing);
- runs each rule on its own, so an exception loses only that rule's findings: it becomes one
  ``internal/rule-failed`` finding on the file, is logged, and every other rule still reports (SPEC §4).

The tables are plain data read at call time: each family module lists its rules as steps (``RULE_STEPS``, each
with the codes it may report), and the tables here say which families each file kind runs, in which order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from clarvis_lsp.documents.skill import SkillDocument
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.rules import skill
from clarvis_lsp.rules.base import Findings, RuleStep, report_failure, run_isolated
from clarvis_lsp.rules.catalogue import family_codes

if TYPE_CHECKING:
    from clarvis_lsp.documents.jsondoc import JsonDocument
    from clarvis_lsp.rules.agent import AgentContext, AgentFile
    from clarvis_lsp.rules.context import JsonFileContext

Document = TypeVar("Document")
Context = TypeVar("Context")
Enabled = Callable[[str], bool]


SKILL_RULES: tuple[RuleStep[SkillDocument, skill.SkillContext], ...] = skill.RULE_STEPS


@functools.cache
def agent_rules() -> tuple[RuleStep[AgentFile, AgentContext], ...]:
    """The steps of an agent file. Built on first use, like ``json_rules``: a tree without agent files never
    imports the family (about 1 ms of every check's start-up)."""
    from clarvis_lsp.rules import agent

    return (
        RuleStep("agent/requires-trust", (agent.REQUIRES_TRUST.code,), agent.check_agent),
        RuleStep("agent/overrides", (agent.AGENT_OVERRIDES.code,), agent.check_agent_overrides),
    )


JSON_KINDS = frozenset({FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS, FileKind.MARKETPLACE})
"""The file kinds ``json_rules`` has steps for."""


@functools.cache
def json_syntax() -> RuleStep[JsonDocument, JsonFileContext]:
    """The JSON syntax step every JSON kind runs first (see ``json_rules``)."""
    from clarvis_lsp.rules import json

    return RuleStep(
        "json", family_codes("json"), lambda document, _context, findings: json.check_json_syntax(document, findings)
    )


@functools.cache
def json_rules() -> dict[FileKind, tuple[RuleStep[JsonDocument, JsonFileContext], ...]]:
    """The steps of each JSON kind: the syntax, then every rule of the file's family, each its own step. Built on
    first use: importing the JSON rule families (and the JSON document model and schemas they use) was a fifth of a
    check's start-up, spent even on a tree of SKILL.md files alone."""
    from clarvis_lsp.rules import hooks, marketplace, plugin, settings

    syntax = json_syntax()
    table: dict[FileKind, tuple[RuleStep[JsonDocument, JsonFileContext], ...]] = {
        FileKind.SETTINGS: (syntax, *settings.RULE_STEPS),
        FileKind.PLUGIN: (syntax, *plugin.RULE_STEPS),
        FileKind.HOOKS: (syntax, RuleStep("hooks", family_codes("hooks"), hooks.check_hooks_file)),
        FileKind.MARKETPLACE: (syntax, *marketplace.RULE_STEPS),
    }
    assert table.keys() == JSON_KINDS  # the kinds asked about before the families are imported
    return table


def run_rules(
    steps: Sequence[RuleStep[Document, Context]],
    document: Document,
    context: Context,
    findings: Findings,
    enabled: Enabled | None,
    *,
    frontmatter_ok: bool = True,
) -> None:
    """Run every step whose codes are enabled into ``findings``, each isolated from the others (``run_isolated``).
    ``enabled`` None: ``steps`` are already those with an enabled code (``enabled_steps``).

    The steps add to ``findings`` directly: a per-step collector and a bound call per step were a tenth of a
    SKILL.md's rule time."""
    items = findings.items
    for step in steps:
        if step.needs_frontmatter and not frontmatter_ok:
            continue
        if enabled is not None and not any(enabled(code) for code in step.codes):
            continue
        added_from = len(items)
        try:
            step.check(document, context, findings)
        except Exception as error:  # a rule's bug must not take the file's other findings with it
            del items[added_from:]
            report_failure(step.name, error, findings)


def enabled_steps(
    steps: Sequence[RuleStep[Document, Context]], enabled: Enabled
) -> tuple[RuleStep[Document, Context], ...]:
    """The steps of a table with at least one enabled code, in order: asked once per engine rather than for every
    step of every file (the options never change for an engine)."""
    return tuple(step for step in steps if any(enabled(code) for code in step.codes))


def collect_isolated(name: str, path: Path, produce: Callable[[], Iterable[Diagnostic]]) -> list[Diagnostic]:
    """A cross-file rule's findings, or ``internal/rule-failed`` on ``path`` when it raises."""
    findings = Findings(path)
    run_isolated(name, lambda own: own.items.extend(produce()), findings)
    return findings.items
