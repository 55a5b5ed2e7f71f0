"""Every ``marketplace/*`` rule, driven through ``check_paths`` (the door ``--check`` uses).

Each rule has a failing and a passing catalogue; the failing one pins the code, the severity and the exact
0-based range. Quick fixes are applied with ``plan_fixes`` and the result must be valid JSON changed only as the
fix's title says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.findings import Diagnostic, Range, Related, Severity
from clarvis_lsp.fixes import plan_fixes

GIT = "https://github.com/acme/quality.git"


def check(tmp_path: Path, text: str, relative: str = "ws/marketplace.json") -> tuple[Path, list[Diagnostic]]:
    """Check the workspace ``tmp_path/ws`` holding one marketplace.json; return its path and its diagnostics."""
    (tmp_path / "ws" / ".clarvis").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    ws = tmp_path / "ws"
    report = check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=tmp_path / "home"))
    assert {d.path for d in report.result.diagnostics} <= {path}
    return path, report.result.diagnostics


def catalogue(*entries: str, root: str = '"name": "acme", ') -> str:
    """A marketplace text with ``entries`` (JSON object texts) one per line."""
    body = ",\n".join(f"    {entry}" for entry in entries)
    return f'{{\n  {root}"plugins": [\n{body}\n  ]\n}}\n'


def at(text: str, needle: str, nth: int = 0) -> Range:
    """The exact range of the ``nth`` occurrence of ``needle`` in ``text`` (0-based lines and columns)."""
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    assert "\n" not in needle
    line = text.count("\n", 0, offset)
    column = offset - (text.rfind("\n", 0, offset) + 1)
    return Range.of(line, column, line, column + len(needle))


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return sorted(d.code for d in diagnostics)


def one(diagnostics: list[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, f"expected one {code}, got {codes(diagnostics)}"
    return found[0]


def fixed(diagnostic: Diagnostic, *, unsafe: bool = False) -> str:
    plans = plan_fixes([diagnostic], unsafe=unsafe)
    assert len(plans) == 1
    json.loads(plans[0].after)
    return plans[0].after


# -- recognition -----------------------------------------------------------------------------------------------


def test_a_valid_marketplace_has_no_findings(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "name": "acme",
            "displayName": "Acme plugins",
            "description": "Plugins by Acme",
            "plugins": [
                {
                    "name": "quality",
                    "source": GIT,
                    "path": "plugins/quality",
                    "description": "Code quality",
                    "displayName": "Quality",
                    "homepage": "https://acme.dev/quality",
                    "category": "review",
                },
                {"name": "deploy", "source": "git@github.com:acme/deploy.git"},
                {"name": "ops", "source": "ssh://git@example.com/acme/ops.git"},
                {"name": "legacy", "source": "git://example.com/acme/legacy"},
            ],
        },
        indent=2,
    )
    _, diagnostics = check(tmp_path, text)
    assert diagnostics == []


def test_any_file_named_marketplace_json_is_checked(tmp_path: Path) -> None:
    path, diagnostics = check(tmp_path, "{}", "ws/catalogues/acme/marketplace.json")
    assert [d.path for d in diagnostics] == [path, path]


def test_a_root_that_is_not_an_object_is_an_invalid_value(tmp_path: Path) -> None:
    _, diagnostics = check(tmp_path, "[]")
    assert codes(diagnostics) == ["marketplace/invalid-value"]
    assert diagnostics[0].range == Range.of(0, 0, 0, 2)


# -- marketplace/unknown-field ---------------------------------------------------------------------------------


def test_an_unknown_root_field_suggests_and_renames(tmp_path: Path) -> None:
    text = '{\n  "name": "acme",\n  "displayname": "Acme",\n  "plugins": []\n}\n'
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/unknown-field")
    assert codes(diagnostics) == ["marketplace/unknown-field"]
    assert found.severity is Severity.WARNING
    assert found.range == at(text, '"displayname"')
    assert 'Did you mean "displayName"?' in found.message
    assert found.fixes[0].title == 'Rename "displayname" to "displayName"'
    assert fixed(found) == text.replace('"displayname"', '"displayName"')


def test_an_unknown_entry_field_suggests_and_renames(tmp_path: Path) -> None:
    text = catalogue(f'{{ "name": "quality", "source": "{GIT}", "homePage": "https://acme.dev" }}')
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/unknown-field")
    assert codes(diagnostics) == ["marketplace/unknown-field"]
    assert found.range == at(text, '"homePage"')
    assert 'plugin entry "quality"' in found.message
    assert fixed(found) == text.replace('"homePage"', '"homepage"')


def test_an_unknown_field_without_a_near_miss_can_be_removed(tmp_path: Path) -> None:
    text = catalogue(f'{{ "name": "quality", "source": "{GIT}", "stars": 5 }}')
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/unknown-field")
    assert "Known fields: name, source, path" in found.message
    assert [fix.title for fix in found.fixes] == ['Remove the field "stars"']
    assert json.loads(fixed(found, unsafe=True))["plugins"][0] == {"name": "quality", "source": GIT}


def test_a_rename_is_not_offered_when_the_field_is_present(tmp_path: Path) -> None:
    text = '{"name": "acme", "Name": "x", "plugins": []}'
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/unknown-field")
    assert [fix.title for fix in found.fixes] == ['Remove the field "Name"']


# -- marketplace/defaulted -------------------------------------------------------------------------------------


def test_missing_name_and_plugins_are_defaulted_on_the_opening_brace(tmp_path: Path) -> None:
    text = '{\n  "displayName": "Acme plugins"\n}\n'
    _, diagnostics = check(tmp_path, text)
    assert codes(diagnostics) == ["marketplace/defaulted", "marketplace/defaulted"]
    for found in diagnostics:
        assert found.severity is Severity.INFORMATION
        assert found.range == Range.of(0, 0, 0, 1)
    messages = " ".join(d.message for d in diagnostics)
    assert 'no "name": Clarvis supplies one' in messages
    assert 'no "plugins": Clarvis treats it as an empty catalogue' in messages


def test_present_name_and_plugins_are_not_defaulted(tmp_path: Path) -> None:
    _, diagnostics = check(tmp_path, '{"name": "acme", "plugins": []}')
    assert diagnostics == []


# -- marketplace/entry-omitted ---------------------------------------------------------------------------------


def test_an_entry_without_source_is_omitted(tmp_path: Path) -> None:
    text = catalogue('{ "name": "quality" }')
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/entry-omitted")
    assert codes(diagnostics) == ["marketplace/entry-omitted"]
    assert found.severity is Severity.WARNING
    assert found.range == Range.of(2, 4, 2, 5)
    assert 'no "source": Clarvis omits it' in found.message


def test_an_entry_without_name_is_omitted(tmp_path: Path) -> None:
    text = catalogue(f'{{ "source": "{GIT}" }}')
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/entry-omitted")
    assert found.range == Range.of(2, 4, 2, 5)
    assert 'no "name"' in found.message


@pytest.mark.parametrize(
    ("entry", "needle"),
    [
        (f'{{ "name": "", "source": "{GIT}" }}', '""'),
        (f'{{ "name": 3, "source": "{GIT}" }}', "3"),
        ('{ "name": "quality", "source": "  " }', '"  "'),
        ('{ "name": "quality", "source": null }', "null"),
        ('"quality"', '"quality"'),
    ],
)
def test_an_unusable_name_or_source_is_omitted(tmp_path: Path, entry: str, needle: str) -> None:
    text = catalogue(entry)
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/entry-omitted")
    assert codes(diagnostics) == ["marketplace/entry-omitted"]
    assert found.range == at(text, needle)


def test_an_entry_with_name_and_source_is_kept(tmp_path: Path) -> None:
    _, diagnostics = check(tmp_path, catalogue(f'{{ "name": "quality", "source": "{GIT}" }}'))
    assert diagnostics == []


# -- marketplace/invalid-source --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "ftp://example.com/quality.git",
        "file:///srv/quality",
        "/srv/plugins/quality",
        "C:\\\\plugins\\\\quality",
        "~/plugins/quality",
        "https://github.com",
        "https://github.com/acme/my quality",
        "github:acme/quality",
    ],
)
def test_a_source_that_is_no_git_url_ssh_origin_or_relative_path_is_invalid(tmp_path: Path, source: str) -> None:
    text = catalogue(f'{{ "name": "quality", "source": "{source}" }}')
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/invalid-source")
    assert codes(diagnostics) == ["marketplace/invalid-source"]
    assert found.severity is Severity.ERROR
    assert found.range == at(text, f'"{source}"')
    assert "use a Git URL" in found.message


@pytest.mark.parametrize(
    "source", [GIT, "http://git.local/acme/q", "ssh://git@host/acme/q.git", "git@github.com:acme/q.git"]
)
def test_git_urls_and_ssh_origins_are_valid_sources(tmp_path: Path, source: str) -> None:
    _, diagnostics = check(tmp_path, catalogue(f'{{ "name": "quality", "source": "{source}" }}'))
    assert diagnostics == []


# -- marketplace/relative-source -------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["./plugins/quality", "plugins/quality", "../quality"])
def test_a_relative_source_is_visible_but_not_installable(tmp_path: Path, source: str) -> None:
    text = catalogue(f'{{ "name": "quality", "source": "{source}" }}')
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/relative-source")
    assert codes(diagnostics) == ["marketplace/relative-source"]
    assert found.severity is Severity.INFORMATION
    assert found.range == at(text, f'"{source}"')
    assert "cannot be installed from the TUI" in found.message


def test_a_remote_source_is_not_relative(tmp_path: Path) -> None:
    _, diagnostics = check(tmp_path, catalogue(f'{{ "name": "quality", "source": "{GIT}" }}'))
    assert diagnostics == []


# -- marketplace/duplicate-entry -------------------------------------------------------------------------------


def test_a_duplicate_entry_is_reported_on_the_later_with_the_first_related(tmp_path: Path) -> None:
    text = catalogue(
        f'{{ "name": "quality", "source": "{GIT}" }}',
        '{ "name": "deploy", "source": "git@github.com:acme/deploy.git" }',
        '{ "name": "quality", "source": "https://example.com/other/quality.git" }',
    )
    path, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/duplicate-entry")
    assert codes(diagnostics) == ["marketplace/duplicate-entry"]
    assert found.severity is Severity.WARNING
    assert found.range == at(text, '"quality"', 1)
    assert "(line 3)" in found.message
    assert found.related == (Related(path, at(text, '"quality"'), 'first entry named "quality"'),)


def test_distinct_names_are_no_duplicates(tmp_path: Path) -> None:
    text = catalogue(f'{{ "name": "quality", "source": "{GIT}" }}', f'{{ "name": "quality2", "source": "{GIT}" }}')
    _, diagnostics = check(tmp_path, text)
    assert diagnostics == []


# -- marketplace/invalid-value ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "needle", "severity"),
    [
        ('{"name": "acme", "plugins": {"quality": "x"}}', '{"quality": "x"}', Severity.ERROR),
        ('{"name": 3, "plugins": []}', "3", Severity.ERROR),
        ('{"name": "", "plugins": []}', '""', Severity.ERROR),
        ('{"name": "acme", "description": ["x"], "plugins": []}', '["x"]', Severity.ERROR),
        ('{"name": "acme", "displayName": false, "plugins": []}', "false", Severity.ERROR),
        (
            f'{{"name": "acme", "plugins": [{{"name": "q", "source": "{GIT}", "path": "../q"}}]}}',
            '"../q"',
            Severity.ERROR,
        ),
        (f'{{"name": "acme", "plugins": [{{"name": "q", "source": "{GIT}", "path": 1}}]}}', "1", Severity.ERROR),
        (
            f'{{"name": "acme", "plugins": [{{"name": "q", "source": "{GIT}", "category": {{}}}}]}}',
            "{}",
            Severity.ERROR,
        ),
        (
            f'{{"name": "acme", "plugins": [{{"name": "q", "source": "{GIT}", "homepage": "acme.dev"}}]}}',
            '"acme.dev"',
            Severity.WARNING,
        ),
    ],
)
def test_known_fields_of_the_wrong_type_are_invalid_values(
    tmp_path: Path, text: str, needle: str, severity: Severity
) -> None:
    _, diagnostics = check(tmp_path, text)
    found = one(diagnostics, "marketplace/invalid-value")
    assert codes(diagnostics) == ["marketplace/invalid-value"]
    assert found.severity is severity
    assert found.range == at(text, needle)


def test_one_broken_entry_does_not_hide_another(tmp_path: Path) -> None:
    text = catalogue(
        '{ "name": "quality", "source": "ftp://x/y", "homePage": "https://acme.dev" }',
        '{ "name": "deploy" }',
        '{ "name": "quality", "source": "./quality" }',
    )
    _, diagnostics = check(tmp_path, text)
    assert codes(diagnostics) == [
        "marketplace/duplicate-entry",
        "marketplace/entry-omitted",
        "marketplace/invalid-source",
        "marketplace/relative-source",
        "marketplace/unknown-field",
    ]
