"""Hostile inputs through both front doors (SPEC §9): ``--check`` as a subprocess and the server over stdio, each
finishing within a loose time and memory bound with diagnostics, never an exception. The exact numbers come from
``python benchmarks/hostile.py``."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_inputs import BUILDERS, Hostile, Measured, run_check, run_server

SECONDS = 120  # loose: the machine is shared; benchmarks/hostile.py has the real numbers
PEAK_MB = 1500


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile")
    (path / "home").mkdir()
    return path


def findings(measured: Measured) -> dict[str, Any]:
    assert measured.returncode in (0, 1), measured.stderr[-3000:]
    assert "Traceback" not in measured.stderr
    report: dict[str, Any] = json.loads(measured.stdout)
    assert not [item for item in report["diagnostics"] if item["code"] == "internal/rule-failed"], "a rule raised"
    return report


def codes_of(report: dict[str, Any], path: Path) -> list[str]:
    return [item["code"] for item in report["diagnostics"] if os.path.abspath(item["path"]) == str(path)]


def bounded(measured: Measured) -> None:
    assert measured.seconds < SECONDS
    assert measured.peak_rss_mb < PEAK_MB


# Which finding each file of an input must get in --check (None: any outcome but an exception).
EXPECTED: dict[str, tuple[str, ...] | None] = {
    "random-bytes": ("file/encoding",),
    "invalid-utf8": ("file/encoding",),
    "skill-10mb": None,
    "yaml-bomb": None,
    "deep-json": None,
    "marketplace-50k": None,
    "symlinks-followed": ("discovery/unreadable",),
    "symlinks-ignored": ("discovery/symlink-ignored",),
    "fifo-dev-zero": ("discovery/unreadable",),
    "root-is-file": None,
    "deleted-mid-check": None,
    "hostile-patterns": None,
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_check_survives(base: Path, name: str) -> None:
    hostile = BUILDERS[name](base)
    measured = run_check(hostile, base / "home")
    report = findings(measured)  # no rule raised: a 100,000-deep document once broke the schema check
    bounded(measured)
    assert report["files_checked"] >= 1
    expected = EXPECTED[name]
    if expected is not None:
        for path in hostile.files:
            assert set(expected) <= set(codes_of(report, path)), path
    if name == "yaml-bomb":  # not expanded: the check used far less memory than a billion list items would
        assert measured.peak_rss_mb < 400
    if name == "marketplace-50k":
        assert any(item["code"] == "marketplace/duplicate-entry" for item in report["diagnostics"])


def test_a_10mb_skill_with_250000_links_finishes_with_bounded_findings(base: Path) -> None:
    hostile = BUILDERS["skill-10mb-links"](base)
    measured = run_check(hostile, base / "home")
    report = findings(measured)
    bounded(measured)
    # Bounded by the link checker's cap, not by the 250,000 links: a report a person can read.
    assert 1 <= len(codes_of(report, hostile.files[0])) <= 1000


@pytest.mark.parametrize("name", [*(name for name in EXPECTED if name != "deleted-mid-check"), "skill-10mb-links"])
def test_server_survives(base: Path, name: str) -> None:
    hostile = BUILDERS[name](_mkdir(base / "server"))
    measured = run_server(hostile)
    bounded(measured)
    assert measured.returncode == 0
    expected_ids = {10 + index for index in range(2 * len(hostile.files))}
    assert expected_ids <= set(measured.answers), "a request went unanswered"
    errors = {msg_id: answer["error"] for msg_id, answer in measured.answers.items() if "error" in answer}
    assert errors == {}
    for index in range(len(hostile.files)):
        assert measured.answers[10 + 2 * index]["result"]["kind"] == "full"


def _mkdir(path: Path) -> Path:
    path.mkdir(exist_ok=True)
    return path


def test_files_deleted_while_the_server_scans(base: Path) -> None:
    hostile = BUILDERS["deleted-mid-check"](_mkdir(base / "server-deleted"))
    assert hostile.during is not None
    hostile.during()  # the server starts on a tree that is half gone; --check above deletes while it runs
    measured = run_server(hostile)
    assert measured.returncode == 0 and all("error" not in answer for answer in measured.answers.values())


# -- an unreadable directory, as a user who really cannot read it --------------------------------------------------

USER = "clarvis-hostile"


@pytest.fixture(scope="module")
def unprivileged() -> Iterator[tuple[tuple[str, ...], str, Path]]:
    """A prefix that runs a command as an unprivileged user, a Python it can execute, and a directory it can
    traverse. Root reads every directory, so the test needs another user; the interpreter is copied because its
    installation may sit under a directory only root may enter."""
    if os.geteuid() != 0:
        pytest.skip("creating a user needs root; as a normal user, chmod 000 already works: see test_discovery_*")
    if shutil.which("useradd") is None or shutil.which("setpriv") is None:
        pytest.skip("useradd or setpriv is not installed")
    try:
        pwd.getpwnam(USER)
    except KeyError:
        os.system(f"useradd --system --no-create-home --shell /usr/sbin/nologin {USER} >/dev/null 2>&1")
    account = pwd.getpwnam(USER)
    shared = Path(tempfile.mkdtemp(prefix="clarvis-hostile-"))
    shared.chmod(0o755)
    python = _copy_interpreter(shared / "python")
    site = next(path for path in sys.path if path.endswith("site-packages") and sys.prefix in path)
    repo = Path(__file__).resolve().parents[2]
    prefix = (
        "setpriv",
        f"--reuid={account.pw_uid}",
        f"--regid={account.pw_gid}",
        "--clear-groups",
        "env",
        f"LD_LIBRARY_PATH={python.parent.parent / 'lib'}",
        f"CLARVIS_SITE_DIR={site}",
        f"PYTHONPATH={repo}",
        "PYTHONDONTWRITEBYTECODE=1",
    )
    yield prefix, str(python), shared
    shutil.rmtree(shared, ignore_errors=True)


def _copy_interpreter(target: Path) -> Path:
    """The running interpreter's executable, shared library and standard library (without its tests and packages)."""
    base = Path(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    skipped = shutil.ignore_patterns(
        "test", "site-packages", "idlelib", "tkinter", "turtledemo", "ensurepip", "config-*"
    )
    shutil.copytree(base / "lib" / version, target / "lib" / version, ignore=skipped)
    (target / "bin").mkdir()
    shutil.copy2(os.path.realpath(sys.executable), target / "bin" / version)
    for library in (base / "lib").glob("libpython*.so*"):
        shutil.copy2(library, target / "lib" / library.name)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() or path.parent.name == "bin" else 0o644)
    return target / "bin" / version


def test_an_unreadable_directory_as_an_unprivileged_user(unprivileged: tuple[tuple[str, ...], str, Path]) -> None:
    prefix, python, shared = unprivileged
    ws = shared / "ws"
    for name in ("open", "locked"):
        skill = ws / f".clarvis/skills/{name}/SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(f"---\nname: {name}\ndescription: d\n---\n", encoding="utf-8")
    plugin = ws / ".clarvis/plugins/p/plugin.json"
    plugin.parent.mkdir(parents=True)
    plugin.write_text('{"name": "p"}', encoding="utf-8")
    unreadable_settings = ws / ".clarvis/settings.json"
    unreadable_settings.write_text("{}", encoding="utf-8")
    for path in [shared, *shared.rglob("*")]:
        if "python" not in path.parts:
            path.chmod(0o755 if path.is_dir() else 0o644)
    (ws / ".clarvis/skills/locked").chmod(0o000)
    (ws / ".clarvis/plugins").chmod(0o000)
    unreadable_settings.chmod(0o000)
    home = shared / "home"
    home.mkdir()
    home.chmod(0o755)
    measured = run_check(Hostile("unreadable", ws, []), home, prefix=prefix, python=python)
    report = findings(measured)
    bounded(measured)
    unreadable = {
        os.path.abspath(item["path"]) for item in report["diagnostics"] if item["code"] == "discovery/unreadable"
    }
    assert str(ws / ".clarvis/skills/locked") in unreadable
    assert str(unreadable_settings) in unreadable
    assert str(ws / ".clarvis/plugins") in unreadable
    assert codes_of(report, ws / ".clarvis/skills/open/SKILL.md") == []  # the readable skill is checked as ever
