"""The rule link an editor shows beside a diagnostic (``codeDescription``) opens the rule's page in docs/rules/."""

from __future__ import annotations

from pathlib import Path

from lsp_support import ClarvisClient, diagnostics_for, open_document, write_file

from clarvis_lsp.rules.catalogue import DOCS_BASE_URL

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


async def test_code_description_links_to_the_generated_page(client: ClarvisClient, workspace: Path) -> None:
    path = write_file(workspace, ".clarvis/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: d\nfoo: 1\n---\n")
    open_document(client, path)
    found = await diagnostics_for(client, path, until=lambda codes: "skill/unknown-field" in codes)
    finding = next(item for item in found if item.code == "skill/unknown-field")
    assert finding.code_description is not None
    href = finding.code_description.href
    assert href == DOCS_BASE_URL + "skill-unknown-field.md"
    page = (DOCS / href.removeprefix(DOCS_BASE_URL)).read_text(encoding="utf-8")
    assert page.startswith("# skill/unknown-field (warning, skill)\n")
