"""``RuleSelection``: which codes are reported and at what severity, from ``[rules]`` and ``--select``/``--ignore``.

The front ends' behaviour (``--select``, ``--ignore``, ``[rules]``) is tested through ``--check`` in
``test_rules_discovery.py`` and ``test_config.py``; these pin the selection's own answers and that an engine's
selection always follows its configuration.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clarvis_lsp.config.project import config_from_mapping
from clarvis_lsp.findings import Diagnostic, Range, Related, Severity
from clarvis_lsp.rules.selection import RuleSelection
from clarvis_lsp.workspace.engine import WorkspaceEngine

CONFIG = config_from_mapping({"rules": {"hooks/*": "off", "hooks/unknown-event": "hint", "skill/unknown-field": "off"}})


@pytest.mark.parametrize(
    ("select", "ignore", "code", "enabled"),
    [
        ((), (), "skill/missing-name", True),
        (("skill",), (), "skill/missing-name", True),
        (("skill/",), (), "skill/missing-name", True),
        (("skill/*",), (), "skill/missing-name", True),
        (("skill/missing-name",), (), "skill/missing-name", True),
        (("skill/missing-name",), (), "skill/invalid-name", False),
        (("skills",), (), "skill/missing-name", False),
        (("discovery",), (), "skill/missing-name", False),
        ((), ("skill",), "skill/missing-name", False),
        ((), (" skill/missing-name ",), "skill/missing-name", False),
        (("skill",), ("skill/missing-name",), "skill/missing-name", False),
        (("skill",), ("skill/missing-name",), "skill/invalid-name", True),
    ],
)
def test_select_and_ignore(select: tuple[str, ...], ignore: tuple[str, ...], code: str, enabled: bool) -> None:
    selection = RuleSelection(select=select, ignore=ignore)
    assert selection.enabled(code) is enabled
    assert selection.enabled(code) is enabled  # the kept answer is the same
    assert selection.severity(code, Severity.WARNING) == (Severity.WARNING if enabled else None)


def test_configured_severities_and_off() -> None:
    selection = RuleSelection(CONFIG)
    assert not selection.enabled("hooks/too-many")  # hooks/* off
    assert selection.enabled("hooks/unknown-event")  # the code's own setting beats the family's
    assert selection.severity("hooks/unknown-event", Severity.ERROR) is Severity.HINT
    assert not selection.enabled("skill/unknown-field")
    assert selection.severity("skill/missing-name", Severity.ERROR) is Severity.ERROR
    assert not RuleSelection(CONFIG, select=("hooks/too-many",)).enabled("hooks/too-many")  # off wins over --select


def test_apply_drops_what_is_not_reported_and_applies_severities() -> None:
    path = Path("/ws/.clarvis/settings.json")
    where = Range.point(1, 2)
    related = (Related(path, where, "first"),)

    def finding(code: str) -> Diagnostic:
        return Diagnostic(path, where, Severity.ERROR, code, f"{code} here", related, data={"rule": code})

    found = RuleSelection(CONFIG, ignore=("settings/unknown-field",)).apply(
        [finding("hooks/too-many"), finding("hooks/unknown-event"), finding("settings/unknown-field"), finding("mcp")]
    )
    assert [(item.code, item.severity) for item in found] == [
        ("hooks/unknown-event", Severity.HINT),
        ("mcp", Severity.ERROR),
    ]
    assert found[0].related == related and found[0].data == {"rule": "hooks/unknown-event"}
    assert found[1].message == "mcp here"


def test_an_engine_selects_under_its_own_configuration(tmp_path: Path) -> None:
    """The engine joins ``--select``/``--ignore`` to its configuration when it is built, so an engine built with
    another configuration (the server does on a settings change) never answers with the old one's severities."""
    given = RuleSelection(ignore=("skill/missing-name",))
    engine = WorkspaceEngine(directory=tmp_path, config=CONFIG, home=tmp_path, rules=given)
    assert engine.rules.config is CONFIG and engine.rules.ignore == ("skill/missing-name",)
    assert not engine.rules.enabled("hooks/too-many") and not engine.rules.enabled("skill/missing-name")
    assert engine.detached().rules.config is CONFIG
    other = config_from_mapping({"rules": {"skill/missing-name": "warning"}})
    rebuilt = WorkspaceEngine(directory=tmp_path, config=other, home=tmp_path, rules=engine.rules)
    assert rebuilt.rules.config is other and rebuilt.rules.enabled("hooks/too-many")
    assert not rebuilt.rules.enabled("skill/missing-name")  # --ignore still holds
