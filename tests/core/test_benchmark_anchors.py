"""``benchmarks/bench_check.py`` measures clarvis-lsp against its anchors: one that is missing stops it with an
error (a table without the agnix column read like a complete one), and tools are found beside the interpreter
that runs it, as ``pip install '.[benchmark]'`` installs them into a virtual environment that is not activated."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def installed_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_installed", BENCHMARKS / "installed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_missing_anchor_stops_the_benchmark_before_any_work(tmp_path: Path) -> None:
    if (Path(sys.executable).parent / "agnix").exists():
        pytest.skip("agnix is installed beside this interpreter")  # then the run would measure it
    env = {**os.environ, "PATH": str(tmp_path)}  # nothing on PATH: only what is beside the interpreter counts
    work = BENCHMARKS / ".work" / "one-root-7"
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_check.py"), "--skills", "7", "--repeat", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 1
    assert f"bench_check: cannot measure agnix (no executable beside {sys.executable} or on PATH)" in result.stderr
    assert "pip install '.[benchmark]', or leave them out with --without agnix skills-ref." in result.stderr
    assert "| skills |" not in result.stdout  # no table without the column
    assert not work.exists()  # stopped before writing the corpus


def test_tools_are_found_beside_the_interpreter_before_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    beside, elsewhere = tmp_path / "venv" / "bin", tmp_path / "elsewhere"
    for directory in (beside, elsewhere):
        directory.mkdir(parents=True)
        executable = directory / "agnix"
        executable.write_text("#!/bin/sh\n", encoding="utf-8")
        executable.chmod(0o755)
    installed = installed_module()
    monkeypatch.setattr(sys, "executable", str(beside / "python"))
    monkeypatch.setenv("PATH", str(elsewhere))
    assert installed.find_tool("agnix") == str(beside / "agnix")
    (beside / "agnix").unlink()
    assert installed.find_tool("agnix") == str(elsewhere / "agnix")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert installed.find_tool("agnix") is None
