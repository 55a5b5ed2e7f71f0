"""Path helpers (seed, "Path helpers"): ``expand_home``, ``resolve_against``, ``resolve_workspace_dir``."""

from __future__ import annotations

import os

import pytest

from clarvis_lsp.discovery import expand_home, resolve_against, resolve_workspace_dir


def test_resolve_against_seed_example() -> None:
    # The seed's own example, verbatim.
    assert resolve_against("/srv/project", "./.clarvis/skills", "/home/me") == "/srv/project/.clarvis/skills"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("~", "/home/me"),
        ("~/", "/home/me/"),
        ("~/.clarvis/skills", "/home/me/.clarvis/skills"),
        ("~other/skills", "~other/skills"),  # ~user is left alone
        ("~~/x", "~~/x"),
        ("a/~/b", "a/~/b"),  # only a leading tilde
        ("/abs/~/x", "/abs/~/x"),
        ("relative", "relative"),
        ("", ""),
    ],
)
def test_expand_home_swaps_only_a_leading_tilde(path: str, expected: str) -> None:
    assert expand_home(path, "/home/me") == expected


def test_resolve_against_expands_tilde_then_keeps_absolute() -> None:
    assert resolve_against("/srv/project", "~/.agents/skills", "/home/me") == "/home/me/.agents/skills"
    assert resolve_against("/srv/project", "/opt/skills", "/home/me") == "/opt/skills"


def test_resolve_against_joins_relative_onto_base_and_normalises() -> None:
    assert resolve_against("/srv/project", "skills", "/home/me") == "/srv/project/skills"
    assert resolve_against("/srv/project", "../shared/./skills/", "/home/me") == "/srv/shared/skills"
    assert resolve_against("/srv/project", "/opt//x/../skills", "/home/me") == "/opt/skills"
    # ~user is not expanded, so it is a relative path like any other.
    assert resolve_against("/srv/project", "~bob/skills", "/home/me") == "/srv/project/~bob/skills"


def test_resolve_workspace_dir() -> None:
    # cwd when workspace is undefined, else workspace resolved against cwd with ~ expansion.
    assert resolve_workspace_dir(None, "/srv/project", "/home/me") == "/srv/project"
    assert resolve_workspace_dir("sub", "/srv/project", "/home/me") == "/srv/project/sub"
    assert resolve_workspace_dir("~/code", "/srv/project", "/home/me") == "/home/me/code"
    assert resolve_workspace_dir("/abs", "/srv/project", "/home/me") == "/abs"


def test_resolve_workspace_dir_is_absolute_even_for_a_relative_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "getcwd", lambda: "/process/cwd")
    assert resolve_workspace_dir(None, "rel", "/home/me") == "/process/cwd/rel"


def test_path_helpers_never_touch_the_filesystem(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("filesystem access")

    for name in ("stat", "lstat", "scandir", "listdir", "readlink", "access"):
        monkeypatch.setattr(os, name, forbidden)
    # None of these paths exist; the answers are pure spelling.
    assert expand_home("~/x", "/nowhere/home") == "/nowhere/home/x"
    assert resolve_against("/no/such/base", "./a/../b", "/nowhere/home") == "/no/such/base/b"
    assert resolve_workspace_dir("ws", "/no/such/cwd", "/nowhere/home") == "/no/such/cwd/ws"
