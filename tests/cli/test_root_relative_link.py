"""``skill/root-relative-link`` through ``clarvis-lsp --check``: a link that starts with ``/`` names a file from the
root of a site or repository, which an installed skill does not carry. The finding says what the destination is
relative to the skill directory where the file exists (in the skill, its plugin or the workspace), and the unsafe
fix writes it; ``//host/…`` is a URL, and code is not a link."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SKILL = ".clarvis/skills/adr"
FRONTMATTER = "---\nname: adr\ndescription: Writes architecture decision records from the team's template.\n---\n"


def write(base: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (base / "home").mkdir(exist_ok=True)
    return base


def run(base: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", *args, "--home", "home"], cwd=base, capture_output=True, text=True
    )


def findings(base: Path, *extra: str) -> list[dict[str, Any]]:
    result = run(base, "--check", ".", "--format", "json", *extra)
    assert result.returncode in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)["diagnostics"]
    return [item for item in found if item["code"].startswith("skill/")]


def spans(found: list[dict[str, Any]]) -> list[tuple[str, int, int, int]]:
    return [(item["code"], item["line"], item["column"], item["end_column"]) for item in found]


def test_each_root_relative_destination_is_reported_with_its_relative_form(tmp_path: Path) -> None:
    body = (
        "See [the ADR](/docs/adr/001.md#context) and [ours](/references/api.md).\n"
        "Not here: [gone](/nope.md). A URL: [site](//example.com/x). Code: `[x](/docs/adr/001.md)`.\n"
        "\n"
        "![logo](</docs/adr/logo 1.png>)\n"
    )
    base = write(
        tmp_path,
        {
            f"{SKILL}/SKILL.md": FRONTMATTER + body,
            f"{SKILL}/references/api.md": "API\n",
            "docs/adr/001.md": "ADR\n",
            "docs/adr/logo 1.png": "",
        },
    )
    found = findings(base)
    assert spans(found) == [
        ("skill/root-relative-link", 5, 15, 39),
        ("skill/root-relative-link", 5, 52, 70),
        ("skill/root-relative-link", 6, 18, 26),
        ("skill/root-relative-link", 8, 9, 31),
    ]
    adr, ours, gone, logo = (item["message"] for item in found)
    assert "relative to the skill directory it is ../../../docs/adr/001.md#context, which is outside the skill" in adr
    assert "the file is in the skill directory: write references/api.md." in ours
    assert "no file nope.md is in the skill directory or the workspace" in gone
    assert "<../../../docs/adr/logo 1.png>" in logo
    assert all(item["severity"] == "warning" for item in found)


def test_the_unsafe_fix_writes_the_relative_destination_and_nothing_else(tmp_path: Path) -> None:
    text = FRONTMATTER + "See [ours](/references/api.md), [gone](/nope.md).\n"
    base = write(tmp_path, {f"{SKILL}/SKILL.md": text, f"{SKILL}/references/api.md": "API\n"})
    run(base, "--check", ".", "--fix")  # unsafe: not applied by --fix
    assert (base / SKILL / "SKILL.md").read_text(encoding="utf-8") == text
    run(base, "--check", ".", "--fix", "--unsafe-fixes")
    fixed = (base / SKILL / "SKILL.md").read_text(encoding="utf-8")
    assert fixed == FRONTMATTER + "See [ours](references/api.md), [gone](/nope.md).\n"
    assert spans(findings(base)) == [("skill/root-relative-link", 5, 39, 47)]


def test_a_plugin_skill_is_pointed_at_its_plugin_file(tmp_path: Path) -> None:
    plugin = ".clarvis/plugins/guard"
    base = write(
        tmp_path,
        {
            ".clarvis/settings.json": '{"enabledPlugins": ["guard"]}\n',
            f"{plugin}/plugin.json": '{"name": "guard"}\n',
            f"{plugin}/docs/usage.md": "Usage\n",
            f"{plugin}/skills/adr/SKILL.md": FRONTMATTER + "Read [usage](/docs/usage.md).\n",
        },
    )
    [finding] = findings(base, "--trusted")
    assert finding["code"] == "skill/root-relative-link"
    assert finding["message"].endswith("the file is in the skill's plugin: write ../../docs/usage.md.")
    run(base, "--check", ".", "--trusted", "--fix", "--unsafe-fixes")
    assert findings(base, "--trusted") == []  # a plugin's skill may link to any file of its plugin


def test_a_reference_definition_is_reported_where_it_is_written(tmp_path: Path) -> None:
    body = "Read [the ADR][adr].\n\n[adr]: /docs/adr/001.md\n"
    base = write(tmp_path, {f"{SKILL}/SKILL.md": FRONTMATTER + body, "docs/adr/001.md": "ADR\n"})
    assert spans(findings(base)) == [("skill/root-relative-link", 7, 8, 24)]


def test_the_rule_can_be_switched_off_alone(tmp_path: Path) -> None:
    body = "See [gone](/nope.md) and [missing](missing.md).\n"
    base = write(tmp_path, {f"{SKILL}/SKILL.md": FRONTMATTER + body})
    found = findings(base, "--ignore", "skill/root-relative-link")
    assert [item["code"] for item in found] == ["skill/broken-link"]
