"""Path helpers that never touch the filesystem (seed: ``expandHome``, ``resolveAgainst``, ``resolveWorkspaceDir``).

They work on strings, like the seed, because they are about spelling, not about files: the same rules must give
the same answer on a machine where the paths do not exist (tests, a CI runner resolving a colleague's config).
"""

from __future__ import annotations

import os


def expand_home(p: str, home: str) -> str:
    """Swap a leading ``~`` or ``~/`` for ``home``; anything else, ``~user`` included, is returned unchanged.

    ``~user`` is left alone on purpose: resolving it would need the password database, and the seed only
    promises the current user's home.
    """
    if p == "~":
        return home
    if p.startswith("~/") or (os.sep != "/" and p.startswith("~" + os.sep)):
        return os.path.join(home, p[2:])
    return p


def resolve_against(base: str, p: str, home: str) -> str:
    """Expand ``~``; an absolute result is kept, a relative one is joined onto ``base``; then normalised.

    This is exactly the rule ``resolve_config`` applies to each root path. Normalising (``os.path.normpath``)
    removes ``.`` and ``..`` lexically, as Node's ``path.resolve`` does, so two spellings of one root compare
    equal without asking the filesystem.
    """
    expanded = expand_home(p, home)
    if os.path.isabs(expanded):
        return os.path.normpath(expanded)
    return os.path.normpath(os.path.join(base, expanded))


def resolve_workspace_dir(workspace: str | None, cwd: str, home: str) -> str:
    """The absolute ``<ws>``: ``cwd`` when ``workspace`` is None, else ``workspace`` resolved against ``cwd``.

    A relative ``cwd`` is made absolute against the process's working directory (a string operation, like
    Node's ``path.resolve``), so the result is always absolute.
    """
    base = os.path.abspath(cwd)
    if workspace is None:
        return base
    return resolve_against(base, workspace, home)
