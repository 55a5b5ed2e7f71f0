"""Time and peak memory of ``clarvis-lsp --check`` and of the server on every hostile input of tests/hostile/.

Each input is built in a scratch directory, then checked by ``--check`` (a subprocess, JSON output) and served by
the language server (a subprocess over stdio, asked for the diagnostics and a hover of every hostile file). Peak
memory is each program's own ``VmHWM``. Run from the repository root:

    python benchmarks/hostile.py            # every input
    python benchmarks/hostile.py yaml-bomb deep-json
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hostile"))
from hostile_inputs import BUILDERS, Measured, run_check, run_server


def _findings(measured: Measured) -> str:
    try:
        return str(len(json.loads(measured.stdout)["diagnostics"]))
    except (ValueError, KeyError):
        return "no report"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="*", help=f"inputs to measure (default: all): {', '.join(BUILDERS)}")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed")
    args = parser.parse_args()
    names = args.inputs or list(BUILDERS)
    unknown = [name for name in names if name not in BUILDERS]
    if unknown:
        parser.error(f"unknown input {unknown[0]!r}")
    base = Path(tempfile.mkdtemp(prefix="clarvis-hostile-bench-"))
    home = base / "home"
    home.mkdir()
    print(f"{'input':<22} {'check s':>8} {'check MB':>9} {'exit':>4} {'findings':>9} {'server s':>9} {'server MB':>10}")
    try:
        for name in names:
            for side in ("check", "server"):
                (base / side).mkdir(exist_ok=True)
            checked = run_check(BUILDERS[name](base / "check"), home, timeout=args.timeout)
            served_input = BUILDERS[name](base / "server")
            if served_input.during is not None:  # the server starts on the tree half deleted
                served_input.during()
            served = run_server(served_input, timeout=args.timeout)
            answered = "" if served.returncode == 0 else f" (exit {served.returncode})"
            print(
                f"{name:<22} {checked.seconds:>8.2f} {checked.peak_rss_mb:>9.0f} {checked.returncode:>4} "
                f"{_findings(checked):>9} {served.seconds:>9.2f} {served.peak_rss_mb:>10.0f}{answered}",
                flush=True,
            )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
