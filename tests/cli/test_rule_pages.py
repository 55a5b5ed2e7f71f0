"""``docs/rules/``: one page per code, the text of ``--explain``, and the links editors follow go there.

Regenerate with ``python -m clarvis_lsp.rule_pages docs/rules`` when a rule changes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from clarvis_lsp.rules.catalogue import DOCS_BASE_URL, all_rules

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"


def explain(code: str, cwd: Path = ROOT) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--explain", code], cwd=cwd, capture_output=True, text=True, check=True
    )
    return result.stdout


def test_every_code_has_a_page_with_the_explain_text_and_nothing_else_is_there(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from clarvis_lsp.cli import main

    rules = all_rules()
    assert sorted(path.name for path in DOCS.glob("*.md")) == sorted([rule.page_name for rule in rules] + ["README.md"])
    stale = []
    for rule in rules:
        assert main(["--explain", rule.code]) == 0
        if (DOCS / rule.page_name).read_text(encoding="utf-8") != "# " + capsys.readouterr().out:
            stale.append(rule.code)
    assert not stale, "regenerate docs/rules with `python -m clarvis_lsp.rule_pages docs/rules`"


def test_the_index_links_every_page() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\(([a-z0-9-]+\.md)\)", index)
    assert linked == [rule.page_name for rule in all_rules()]


def test_rule_links_point_at_the_pages() -> None:
    for rule in all_rules():
        assert rule.url.startswith(DOCS_BASE_URL)
        assert (DOCS / rule.url.removeprefix(DOCS_BASE_URL)).is_file(), rule.url


@pytest.mark.parametrize("code", ["settings/requires-trust", "agent/requires-trust"])
def test_the_trust_notices_say_how_to_turn_them_off_and_that_works(tmp_path: Path, code: str) -> None:
    text = explain(code)
    [line] = re.findall(r'`("[a-z]+/requires-trust" = "off")` under `\[rules\]` in `\.clarvis-lsp\.toml`', text)
    (tmp_path / ".clarvis" / "agents").mkdir(parents=True)
    (tmp_path / ".clarvis" / "settings.json").write_text('{"hooks": []}\n', encoding="utf-8")
    (tmp_path / ".clarvis" / "agents" / "reviewer.md").write_text("---\nname: reviewer\n---\nReview.\n")
    check = [sys.executable, "-m", "clarvis_lsp", "--check", ".", "--no-user", "--format", "json"]
    before = subprocess.run(check, cwd=tmp_path, capture_output=True, text=True).stdout
    assert f'"code": "{code}"' in before
    (tmp_path / ".clarvis-lsp.toml").write_text(f"[rules]\n{line}\n", encoding="utf-8")  # as the text says
    after = subprocess.run(check, cwd=tmp_path, capture_output=True, text=True)
    assert after.returncode == 0, after.stderr
    assert f'"code": "{code}"' not in after.stdout
