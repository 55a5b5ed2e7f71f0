"""Which codes are reported, and at what severity: the project configuration's ``[rules]`` (a severity per code or
``family/*``, or ``off``) together with ``--select``/``--ignore`` (codes or families).

One ``RuleSelection`` answers both questions the front ends ask. ``enabled`` is asked before a rule runs (a rule
none of whose codes is enabled is skipped, so a code switched off costs nothing) for every rule of every file, so
each code's answer is kept once computed. ``apply`` is the filter every finding passes on its way out: the codes
left out are dropped and the configured severities applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from clarvis_lsp.findings import Diagnostic, Severity


class ConfiguredSeverities(Protocol):
    """What a selection reads of the project configuration (``ProjectConfig``): the severity set for a code, None
    for ``off``. A protocol, so that ``rules/`` does not import the configuration modules (which import the
    catalogue to validate ``[rules]``)."""

    def severity_for(self, code: str, default: Severity) -> Severity | None: ...


@dataclass(frozen=True)
class RuleSelection:
    """The configured severities (``config``: the project configuration, None for none) plus the CLI's
    ``--select``/``--ignore`` patterns: a code (``skill/unknown-field``) or a family (``skill``, ``skill/``,
    ``skill/*``). With ``select`` empty every code is selected."""

    config: ConfiguredSeverities | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    _enabled: dict[str, bool] = field(default_factory=dict, init=False, repr=False, compare=False)

    def configured(self, config: ConfiguredSeverities) -> RuleSelection:
        """The same ``--select``/``--ignore`` under ``config``'s severities (itself when it already is)."""
        return self if config is self.config else replace(self, config=config)

    def enabled(self, code: str) -> bool:
        """Whether ``code`` is reported at all: kept by ``--select``/``--ignore`` and not ``off`` in configuration.
        A dictionary lookup after the first question about a code."""
        answer = self._enabled.get(code)
        if answer is None:
            answer = self._enabled[code] = self._decide(code)
        return answer

    def _decide(self, code: str) -> bool:
        if self.select and not any(code_matches(code, pattern) for pattern in self.select):
            return False
        if any(code_matches(code, pattern) for pattern in self.ignore):
            return False
        # ``off`` is the one setting that does not depend on the default: any severity stands for "on" here.
        return self.config is None or self.config.severity_for(code, Severity.ERROR) is not None

    def severity(self, code: str, default: Severity) -> Severity | None:
        """The severity ``code`` is reported at when its rule says ``default``; None when it is not reported."""
        if not self.enabled(code):
            return None
        return default if self.config is None else self.config.severity_for(code, default)

    def apply(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """``diagnostics`` without the codes left out, each at its configured severity."""
        kept: list[Diagnostic] = []
        for diagnostic in diagnostics:
            severity = self.severity(diagnostic.code, diagnostic.severity)
            if severity is None:
                continue
            if severity != diagnostic.severity:
                diagnostic = replace(diagnostic, severity=severity)
            kept.append(diagnostic)
        return kept


def code_matches(code: str, pattern: str) -> bool:
    """``skill/unknown-field`` matches itself, ``skill``, ``skill/`` and ``skill/*``."""
    pattern = pattern.strip()
    if pattern == code:
        return True
    family = pattern.rstrip("*").rstrip("/")
    return "/" not in family and code.split("/", 1)[0] == family
