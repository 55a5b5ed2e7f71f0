"""``--diff`` prints a patch that ``git apply`` and ``patch`` accept and that makes the file what ``--fix`` makes it:
a file with no final newline gets ``\\ No newline at end of file``, lines are cut at ``\\n`` only (never at U+2028,
U+0085 or a form feed), a BOM and CRLF line endings stay."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = [sys.executable, "-m", "clarvis_lsp", "--check", "--no-user"]
SKILL = ".clarvis/skills/alpha/SKILL.md"

TEXTS = {
    "no-final-newline": "---\nname: alpha\ndescription: d\nversion: 1.10\n---\nBody",
    "fence-is-the-last-line": "---\nname: alpha\ndescription: d\nversion: 1.10\n---",
    "unicode-line-separators": "---\nname: alpha\ndescription: d\nversion: 1.10\n---\nA\u2028B\x85C\x0cD\nEnd",
    "crlf-bom-no-final-newline": "\ufeff---\r\nname: alpha\r\ndescription: d\r\nversion: 1.10\r\n---\r\nBody",
    "final-newline": "---\nname: alpha\ndescription: d\nversion: 1.10\n---\nBody\n",
}


def _tree(root: Path, text: str) -> Path:
    path = root / SKILL
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def _run(cwd: Path, *arguments: str) -> bytes:
    """The output as bytes: reading it as text would turn the patch's CRLF into LF."""
    return subprocess.run([*CHECK, *arguments, "."], cwd=cwd, capture_output=True, check=False).stdout


@pytest.mark.parametrize("name", list(TEXTS))
def test_the_diff_applies_and_gives_what_fix_writes(tmp_path: Path, name: str) -> None:
    text = TEXTS[name]
    diffed = tmp_path / "diffed"
    fixed = tmp_path / "fixed"
    original = _tree(diffed, text)
    _tree(fixed, text)
    patch = _run(diffed, "--diff").decode("utf-8")
    assert patch.startswith(f"--- a/{SKILL}\n"), patch
    assert ("\\ No newline at end of file\n" in patch) == (not text.endswith("\n"))
    patch_file = tmp_path / "fix.patch"
    patch_file.write_bytes(patch.encode("utf-8"))

    checked = subprocess.run(
        ["git", "apply", "--check", "-v", str(patch_file)], cwd=diffed, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr + patch
    if shutil.which("patch"):
        dry = subprocess.run(
            ["patch", "--dry-run", "-p1", "-i", str(patch_file)], cwd=diffed, capture_output=True, text=True
        )
        assert dry.returncode == 0, dry.stdout + dry.stderr

    subprocess.run(["git", "apply", str(patch_file)], cwd=diffed, check=True, capture_output=True)
    _run(fixed, "--fix")
    assert original.read_bytes() == (fixed / SKILL).read_bytes()
    assert original.read_bytes() != text.encode("utf-8")
