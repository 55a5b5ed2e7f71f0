"""The files every editor configuration must send to clarvis-lsp, from the generated ``editors/file-patterns.json``.

Each editor's test asks its configuration about ``SAMPLES`` (a path of every pattern, at two depths, and the near
misses of each: a directory renamed or left out, another name or suffix, the usual other Markdown and JSON files)
and compares the answers with ``SAMPLES``' languages. A pattern added to ``clarvis_lsp/knowledge/files.py`` (and the
file regenerated) brings new samples that a configuration not covering it gets wrong; a configuration claiming
more than the patterns gets a near miss wrong.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any

from editor_support import EDITORS, RUN_TIMEOUT_S

ANY = "*"
DOCUMENT: dict[str, Any] = json.loads((EDITORS / "file-patterns.json").read_text(encoding="utf-8"))
PATTERNS: list[dict[str, Any]] = DOCUMENT["patterns"]
LANGUAGES = frozenset(str(pattern["language"]) for pattern in PATTERNS)
OTHER_FILES = (
    "/p/ws/README.md",
    "/p/ws/docs/agents.md",
    "/p/ws/agents/reviewer.md",
    "/p/ws/package.json",
    "/p/ws/tsconfig.json",
    "/p/ws/.vscode/settings.json",
)


def matches(pattern: dict[str, Any], path: str) -> bool:
    """The pattern's documented meaning: its name (``*.md``: any name with that suffix) in its directories
    (outermost first, ``*`` any one), at any depth."""
    parts = PurePosixPath(path).parts
    name, directories = str(pattern["name"]), [str(part) for part in pattern["directories"]]
    if name.startswith(ANY):
        suffix = name[len(ANY) :]
        if not (parts[-1].endswith(suffix) and len(parts[-1]) > len(suffix)):
            return False
    elif parts[-1] != name:
        return False
    if len(parts) - 2 < len(directories):  # the root "/" is no directory name
        return False
    sitting_in = parts[len(parts) - 1 - len(directories) : -1]
    return all(wanted in (ANY, actual) for wanted, actual in zip(directories, sitting_in, strict=True))


def language_of(path: str) -> str | None:
    """The language an editor gives ``path`` when it sends it to clarvis-lsp, None when it must not send it."""
    return next((str(pattern["language"]) for pattern in PATTERNS if matches(pattern, path)), None)


def _path(base: str, directories: list[str], name: str) -> str:
    return "/".join([base, *directories, name])


def _samples(pattern: dict[str, Any]) -> list[str]:
    directories = ["quality" if part == ANY else str(part) for part in pattern["directories"]]
    name = str(pattern["name"])
    file_name = "reviewer" + name[len(ANY) :] if name.startswith(ANY) else name
    paths = [_path("/p/ws", directories, file_name), _path("/home/me/src/a", directories, file_name)]
    for index, part in enumerate(pattern["directories"]):
        if part != ANY:
            paths.append(_path("/p/ws", [*directories[:index], "other", *directories[index + 1 :]], file_name))
    if directories:
        paths.append(_path("/p/ws", directories[:-1], file_name))
    stem, dot, suffix = file_name.rpartition(".")
    paths.append(_path("/p/ws", directories, f"{stem}.{suffix}x" if dot else f"{file_name}x"))
    paths.append(_path("/p/ws", directories, f"x{file_name}" if not name.startswith(ANY) else f"{stem}.txt"))
    return paths


SAMPLES: dict[str, str | None] = {
    path: language_of(path) for path in [*(path for pattern in PATTERNS for path in _samples(pattern)), *OTHER_FILES]
}
assert any(SAMPLES.values()) and not all(SAMPLES.values()), "the samples must hold both kinds of file"


def ask_editor(argv: list[str], scratch: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run an editor with a probe (``probes/patterns_probe.*``) over ``SAMPLES`` and read its answers: the probe
    reads the paths from ``$CLARVIS_SAMPLES`` and writes ``{path: answer}`` to ``$CLARVIS_OUT``."""
    samples, out = scratch / "samples.txt", scratch / "answers.json"
    samples.write_text("".join(f"{path}\n" for path in SAMPLES), encoding="utf-8")
    home = scratch / "home"
    home.mkdir(exist_ok=True)
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("VIM", "NVIM", "XDG_"))}
    environment.update(
        HOME=str(home), CLARVIS_EDITORS=str(EDITORS), CLARVIS_SAMPLES=str(samples), CLARVIS_OUT=str(out), **(env or {})
    )
    run = subprocess.run(
        argv, env=environment, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=RUN_TIMEOUT_S
    )
    assert out.exists(), f"{argv[0]} exited with {run.returncode} and wrote no answers\n{run.stderr}"
    answers: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in answers, answers
    assert set(answers) == set(SAMPLES), "the probe answered about other paths"
    return answers
