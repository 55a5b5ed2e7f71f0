"""Frontmatter is YAML 1.2 (SPEC §3.1), as Clarvis reads it: a table of the YAML 1.1/1.2 differences, checked
through ``--check`` and the parser's values."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clarvis_lsp.documents.skill import parse_skill

CHECK = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user"]

# (plain scalar, YAML 1.1 (PyYAML's default) reading, YAML 1.2 core reading)
DIFFERENCES: list[tuple[str, Any, Any]] = [
    ("yes", True, "yes"),
    ("no", False, "no"),
    ("on", True, "on"),
    ("off", False, "off"),
    ("y", "y", "y"),
    ("n", "n", "n"),
    ("Yes", True, "Yes"),
    ("0o17", "0o17", 15),
    ("017", 15, 17),
    ("1_000", 1000, "1_000"),
    ("0x1F", 31, 31),
    ("=", "error", "="),
    ("<<", "error", "<<"),
    ("2024-01-02", "date", "2024-01-02"),
    ("true", True, True),
    ("False", False, False),
    ("~", None, None),
    ("null", None, None),
    (".inf", float("inf"), float("inf")),
    ("-1.5e3", "-1.5e3", -1500.0),
    ("1.5e+3", 1500.0, 1500.0),
    ("1:30", 90, "1:30"),
]


@pytest.mark.parametrize(("plain", "yaml11", "yaml12"), DIFFERENCES)
def test_scalars_read_as_yaml_1_2(plain: str, yaml11: Any, yaml12: Any) -> None:
    import yaml

    try:
        old = yaml.safe_load(f"x: {plain}")["x"]
    except yaml.YAMLError:
        old = "error"  # "=" and "<<" are special in YAML 1.1: PyYAML's safe loader refuses them alone
    assert (type(old).__name__ == yaml11) if yaml11 == "date" else old == yaml11  # the table is right about 1.1
    document = parse_skill(Path("/s/x/SKILL.md"), f"---\nname: x\ndescription: d\nfield: {plain}\n---\n")
    assert document.fields()["field"] == yaml12


def _check(tmp_path: Path, frontmatter: str) -> list[dict[str, Any]]:
    skill = tmp_path / "ws/.clarvis/skills/no/SKILL.md"
    skill.parent.mkdir(parents=True, exist_ok=True)
    skill.write_text(f"---\n{frontmatter}---\n", encoding="utf-8")
    (tmp_path / "home").mkdir(exist_ok=True)
    done = subprocess.run(
        [*CHECK, str(tmp_path / "ws"), "--home", str(tmp_path / "home"), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found: list[dict[str, Any]] = json.loads(done.stdout)["diagnostics"]
    return found


def test_name_no_is_a_valid_name(tmp_path: Path) -> None:
    assert _check(tmp_path, "name: no\ndescription: Says no.\n") == []


def test_user_invocable_yes_is_a_string_with_a_fix_to_true(tmp_path: Path) -> None:
    [finding] = _check(tmp_path, "name: no\ndescription: d\nuser-invocable: yes\n")
    assert finding["code"] == "skill/invalid-field-type" and "not a string" in finding["message"]
    assert (finding["line"], finding["column"], finding["end_column"]) == (4, 17, 20)
    skill = tmp_path / "ws/.clarvis/skills/no/SKILL.md"
    subprocess.run(
        [*CHECK, "--fix", str(tmp_path / "ws"), "--home", str(tmp_path / "home")],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert skill.read_text(encoding="utf-8") == "---\nname: no\ndescription: d\nuser-invocable: true\n---\n"


def test_the_loaders_resolver_answers_as_pyyamls_own() -> None:
    """``Yaml12Loader.resolve`` is a faster copy of PyYAML's ``BaseResolver.resolve`` for this loader: the same tag
    for every scalar (plain or quoted), sequence and mapping, on the table above and on random scalars."""
    import random

    import yaml

    from clarvis_lsp.documents.skill import Yaml12Loader

    loader = Yaml12Loader("")
    pyyaml_resolve: Callable[..., str] = yaml.resolver.BaseResolver.resolve
    rng = random.Random(12)
    alphabet = "0123456789+-.eE_oxXabfnNtTulrsyY~:# \t"
    values = [text for text, _old, _new in DIFFERENCES] + ["", "~", "null", ".inf", "-.5", "1e3", "0o", "0x"]
    values += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(20_000)]
    for value in values:
        for implicit in ((True, False), (False, True), (False, False)):
            expected = pyyaml_resolve(loader, yaml.ScalarNode, value, implicit)
            assert loader.resolve(yaml.ScalarNode, value, implicit) == expected, (value, implicit)
    for kind in (yaml.SequenceNode, yaml.MappingNode):
        assert loader.resolve(kind, None, (False, False)) == pyyaml_resolve(loader, kind, None, (False, False))
