"""The rule catalogue: every code the engine can report, its default severity and its documentation.

Codes are public API (users switch them off or change their severity in configuration), so every code is listed in
the family table (``clarvis_lsp.rules.families``), and the module the table names declares its rule here once,
through ``rule(...)``, and reports only codes it declared. A family's codes are the table's answer, the same
whatever has been imported; a rule's severity and documentation need its module (``all_rules`` imports them all).
The documentation of a rule feeds ``clarvis-lsp --explain CODE``, SARIF's ``tool.driver.rules[].help`` and the
server's ``codeDescription``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from clarvis_lsp.findings import Severity
from clarvis_lsp.rules.families import FAMILIES
from clarvis_lsp.rules.suggest import did_you_mean

REPOSITORY_URL = "https://github.com/clarvis-lsp/clarvis-lsp"
DOCS_BASE_URL = REPOSITORY_URL + "/blob/main/docs/rules/"
"""Where each rule's page is: ``docs/rules/<family>-<name>.md`` in the repository, generated from this catalogue
(``python -m clarvis_lsp.rule_pages``; a test keeps the pages and the catalogue equal)."""


@dataclass(frozen=True)
class Rule:
    """A rule's identity and documentation."""

    code: str
    severity: Severity
    summary: str  # one line: when the rule fires
    why: str  # why it matters to the person writing the file
    example: str  # a failing example
    fix: str  # what to do about it
    file_kind: str  # skill, settings, plugin, hooks, marketplace, config, any

    @property
    def family(self) -> str:
        return self.code.split("/", 1)[0]

    @property
    def page_name(self) -> str:
        """The file name of the rule's page under ``docs/rules/``."""
        return self.code.replace("/", "-") + ".md"

    @property
    def url(self) -> str:
        """The rule's page, the ``codeDescription`` editors link to and SARIF's ``helpUri``."""
        return DOCS_BASE_URL + self.page_name

    def explain(self) -> str:
        """The full text of ``--explain``: what, why, a failing example, the fix."""
        example = "\n".join("    " + line for line in self.example.strip("\n").splitlines())
        return (
            f"{self.code} ({self.severity.label}, {self.file_kind})\n\n"
            f"{self.summary}\n\n"
            f"Why: {self.why}\n\n"
            f"Example:\n\n{example}\n\n"
            f"Fix: {self.fix}\n"
        )

    def markdown(self) -> str:
        """The same text as Markdown, for SARIF help and hover."""
        return (
            f"**{self.code}** ({self.severity.label})\n\n{self.summary}\n\n**Why.** {self.why}\n\n"
            f"**Example.**\n\n```\n{self.example.strip()}\n```\n\n**Fix.** {self.fix}\n"
        )


RULES: dict[str, Rule] = {}
"""The rules declared so far: a family's module adds its rules as it is imported (``all_rules`` imports them all)."""

MODULE_CODES: dict[str, tuple[str, ...]] = {}
"""The codes each rule module declares, from the family table (a module may declare codes of several families)."""
for _by_module in FAMILIES.values():
    for _module, _codes in _by_module.items():
        MODULE_CODES[_module] = (*MODULE_CODES.get(_module, ()), *_codes)
KNOWN_CODES = frozenset(code for codes in MODULE_CODES.values() for code in codes)


def family_codes(*families: str) -> tuple[str, ...]:
    """Every code of the given families (``settings`` → ``settings/unknown-field``, …), sorted: the family table's
    answer, so the same before and after any rule module is imported."""
    return tuple(sorted(code for family in families for codes in FAMILIES[family].values() for code in codes))


def module_codes(module: str) -> tuple[str, ...]:
    """The codes the rule module ``module`` (``clarvis_lsp.rules.mcp``) declares, from the family table."""
    return MODULE_CODES[module]


def load_all() -> None:
    """Import every rule module of the family table, so that each has declared its rules."""
    for module in MODULE_CODES:
        importlib.import_module(module)


def rule(
    code: str,
    severity: Severity,
    summary: str,
    *,
    why: str,
    example: str,
    fix: str,
    file_kind: str,
) -> Rule:
    """Declare a rule; a code may be declared once, and only when the family table lists it."""
    if code in RULES:
        raise ValueError(f"rule {code} declared twice")
    if code not in KNOWN_CODES:
        raise ValueError(f"rule {code} is not in the family table (clarvis_lsp/rules/families.py)")
    declared = Rule(code, severity, summary, why, example, fix, file_kind)
    RULES[code] = declared
    return declared


def all_rules() -> list[Rule]:
    """Every rule, importing the rule modules so that each has declared its rules."""
    load_all()
    return sorted(RULES.values(), key=lambda r: r.code)


def families() -> list[str]:
    """Every rule family (``skill``, ``hooks``, …), sorted: what ``--select skill`` and ``[rules]`` may name."""
    return sorted(FAMILIES)


def rules_matching(pattern: str) -> list[Rule] | None:
    """The rules a ``--select``/``--ignore``/``--explain`` word names: a code, or a family written ``skill``,
    ``skill/`` or ``skill/*`` (the forms the engine's matching accepts); None when it names no rule, so a
    mistyped CI gate (``--select skil``) is refused instead of silently matching nothing."""
    pattern = pattern.strip()
    known = all_rules()
    exact = [declared for declared in known if declared.code == pattern]
    if exact:
        return exact
    family = pattern.rstrip("*").rstrip("/")
    if "/" in family or not family:
        return None
    found = [declared for declared in known if declared.family == family]
    return found or None


def unknown_pattern_message(pattern: str, option: str) -> str:
    """The one-line usage error for a word that names no rule, with the closest code or family."""
    candidates = sorted(KNOWN_CODES) + families()
    return (
        f"unknown rule code or family {pattern.strip()!r} in {option}."
        f"{did_you_mean(pattern.strip(), candidates)} `clarvis-lsp --list-rules` lists them all."
    )


def explain_family(family: str, found: list[Rule]) -> str:
    """``--explain skill``: the family's codes, each with its severity and summary, and how to read one."""
    width = max(len(declared.code) for declared in found)
    lines = [f"{family}: {len(found)} rules", ""]
    lines += [f"  {each.code.ljust(width)}  {each.severity.label:<11}  {each.summary}" for each in found]
    lines += ["", f"`clarvis-lsp --explain {found[0].code}` prints one rule's documentation."]
    return "\n".join(lines) + "\n"


TRUST_NOTICES = ("settings/requires-trust", "agent/requires-trust")
"""The notices a trusted workspace does not need (``--trusted``, the editor setting ``clarvis.trustWorkspace``):
both front ends leave them out the same way."""
