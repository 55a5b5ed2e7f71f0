"""The schema-driven structural checks (``clarvis_lsp.rules.structure``): the annotations that drive them are
well-formed, their findings reach ``--check``, and checking SKILL.md files never loads jsonschema."""

from __future__ import annotations

import string
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.knowledge import schemas
from clarvis_lsp.rules.catalogue import RULES, load_all
from clarvis_lsp.rules.structure import ERROR_ANNOTATION, NONBLANK

load_all()

# The variables a message template may use: the structural module's own and those the families compute.
TEMPLATE_VARIABLES = {
    "key": "name",
    "kind": "a number",
    "text": "3",
    "label": 'entry "quality"',  # marketplace entries
    "directory": "quality",  # plugin.json
    "example_name": '"quality"',
    "add_name": 'add "name": "quality"',
    "policies": '"off", "on" or "review"',
    "timeout_default": "30000",
    "capability": "memory",
    "platform": "win32",
    "events": "pre_tool_use, post_tool_use",  # hooks
    "timeout_min": "1",
    "timeout_max": "60000",
    "on_failure_values": '"pass" or "deny"',
    "field": "memory",  # settings
}
FAMILY_OF_SCHEMA = {
    "marketplace": "marketplace",
    "plugin": "plugin",
    "settings": "settings",
    "hooks": "hooks",
    "hook": "hooks",
    "mcp-server": "mcp",
}


def annotated(schema: Any, where: str = "#") -> Iterator[tuple[str, Mapping[str, Any], Mapping[str, Any]]]:
    """Every ``x-clarvis-errors`` entry of a schema, with where it is and the subschema holding it."""
    if isinstance(schema, Mapping):
        for annotation in schema.get(ERROR_ANNOTATION, ()):
            yield where, schema, annotation
        for key, value in schema.items():
            if key != ERROR_ANNOTATION:
                yield from annotated(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from annotated(value, f"{where}/{index}")


ANNOTATIONS = [(name, *found) for name in schemas.schema_names() for found in annotated(schemas.load(name))]
IDS = [
    f"{name}{where[1:]}:{annotation['keyword']}:{annotation.get('when', '')}"
    for name, where, _, annotation in ANNOTATIONS
]


def test_the_json_kinds_are_annotated() -> None:
    assert {name for name, *_ in ANNOTATIONS} >= {"marketplace", "plugin", "hook", "settings", "mcp-server"}


@pytest.mark.parametrize(("name", "where", "schema", "annotation"), ANNOTATIONS, ids=IDS)
def test_every_annotation_names_a_declared_code_a_keyword_beside_it_and_a_complete_template(
    name: str, where: str, schema: Mapping[str, Any], annotation: Mapping[str, Any]
) -> None:
    assert set(annotation) <= {"keyword", "code", "message", "severity", "when", "at"}, where
    assert annotation.get("at", "opening") in ("opening", "key"), where
    assert annotation["code"] in RULES, where
    family = FAMILY_OF_SCHEMA.get(name)
    if family is not None:
        assert annotation["code"].split("/")[0] == family, where
    keyword = annotation["keyword"]
    if keyword == "required":
        assert where.split("/")[-2] == "properties", f"{where}: required is annotated on the missing property"
    elif keyword == "additionalProperties":
        assert schema.get("additionalProperties") is False, where
    else:
        assert keyword in schema, f"{where}: {keyword} is not next to its annotation"
    if keyword == NONBLANK:
        assert schema[NONBLANK] is True, where
    message = string.Template(annotation["message"]).substitute(TEMPLATE_VARIABLES)
    assert message.endswith((".", "?")) and "$" not in message, where
    if "when" in annotation:
        assert annotation["when"] in ("object", "array", "string", "number", "boolean", "null", "invalid"), where
    if "severity" in annotation:
        assert annotation["severity"] in ("error", "warning", "information", "hint"), where


def test_keywords_of_one_subschema_are_annotated_once_per_value_kind() -> None:
    seen: set[tuple[str, int, str, str]] = set()
    for name, where, schema, annotation in ANNOTATIONS:
        key = (name, id(schema), annotation["keyword"], annotation.get("when", ""))
        assert key not in seen, f"{name}{where[1:]}: {annotation['keyword']} is annotated twice"
        seen.add(key)


def run_check(directory: Path, *extra: str, code: str = "") -> subprocess.CompletedProcess[str]:
    """``clarvis-lsp --check .`` in ``directory``, in a fresh interpreter; ``code`` runs after it, in the same
    process."""
    script = (
        "import sys\nfrom clarvis_lsp.cli import main\n"
        f"status = main(['--check', '.', '--no-user', *{list(extra)!r}])\n{code}\nsys.exit(status)\n"
    )
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=directory, check=False)


def test_a_tree_of_skills_is_checked_without_loading_jsonschema(tmp_path: Path) -> None:
    skill = tmp_path / ".clarvis" / "skills" / "lint" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: lint\ndescription: Lints the code.\n---\nBody.\n", encoding="utf-8")
    result = run_check(tmp_path, code="print('jsonschema loaded' if 'jsonschema' in sys.modules else 'no jsonschema')")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "no jsonschema"


def test_structural_errors_of_a_marketplace_reach_check_output(tmp_path: Path) -> None:
    (tmp_path / "marketplace.json").write_text(
        '{"name": "acme", "plugins": [{"name": 3}, "x", {"name": "ok", "source": "./ok", "extra": 1}],\n'
        ' "displayName": 1}\n',
        encoding="utf-8",
    )
    result = run_check(tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[:-1] == [
        'marketplace.json:1:30: warning[marketplace/entry-omitted] Plugin entry 1 has no "source": Clarvis omits '
        'it. Add "source" with a Git URL, an SSH origin or a relative path.',
        'marketplace.json:1:39: warning[marketplace/entry-omitted] The "name" of plugin entry 1 is a number, not a '
        'string: Clarvis omits the entry. Set "name" to its plugin name.',
        'marketplace.json:1:43: warning[marketplace/entry-omitted] Plugin entry 2 must be an object with "name" and '
        '"source", not a string: Clarvis omits it.',
        'marketplace.json:1:73: information[marketplace/relative-source] The relative source "./ok" of plugin entry '
        '"ok" is shown in /extensions/market but cannot be installed from the TUI: publish the plugin in a Git '
        "repository and use its URL to make it installable.",
        'marketplace.json:1:81: warning[marketplace/unknown-field] Unknown field "extra" in plugin entry "ok": '
        "Clarvis ignores it. Known fields: name, source, path, description, displayName, homepage, category.",
        'marketplace.json:2:17: error[marketplace/invalid-value] "displayName" of the marketplace must be a string, '
        "not a number.",
    ]


def test_a_kind_specific_message_comes_before_the_general_one_it_refines() -> None:
    """The first entry that applies wins: a ``when`` entry after the general one would never be used."""
    general: set[tuple[str, int, str]] = set()
    for name, where, schema, annotation in ANNOTATIONS:
        key = (name, id(schema), annotation["keyword"])
        if "when" in annotation:
            assert key not in general, f"{name}{where[1:]}: the {annotation['when']} message is unreachable"
        else:
            general.add(key)


def test_a_100000_deep_document_gets_its_type_error_not_a_failed_rule(tmp_path: Path) -> None:
    """jsonschema recurses (its messages repr the value): the validated value keeps only the depth a schema can
    describe, so a hostile nesting is an ordinary type error."""
    depth = 100_000
    plugin = tmp_path / ".clarvis" / "plugins" / "deep" / "plugin.json"
    plugin.parent.mkdir(parents=True)
    plugin.write_text("[" * depth + "]" * depth, encoding="utf-8")
    (tmp_path / "marketplace.json").write_text('{"a":' * depth + "1" + "}" * depth, encoding="utf-8")
    result = run_check(tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert "internal/rule-failed" not in result.stdout
    assert (
        ".clarvis/plugins/deep/plugin.json:1:1: error[plugin/invalid-value] plugin.json must be a JSON object such "
        'as {"name": "deep"}, not an array.' in lines
    )
    assert any(line.startswith("marketplace.json:1:2: warning[marketplace/unknown-field]") for line in lines)


def test_a_field_the_transport_forbids_is_reported_as_forbidden_not_as_a_wrong_type(tmp_path: Path) -> None:
    settings = tmp_path / ".clarvis" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"mcpServers": {"db": {"command": "db", "url": 3, "args": "serve"}}}\n', encoding="utf-8")
    result = run_check(tmp_path)
    mcp = [line for line in result.stdout.splitlines() if "[mcp/" in line]
    assert mcp == [
        '.clarvis/settings.json:1:41: error[mcp/field-not-allowed] "url" is only for the http and sse transports; a '
        'stdio server uses "command" (a server without "type" is stdio): remove it, or change the server\'s type.',
        '.clarvis/settings.json:1:59: error[mcp/invalid-value] "args" must be an array of strings such as ["serve"], '
        "not a string.",
    ]
