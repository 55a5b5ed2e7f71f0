"""How the work of each regular expression and scanner a repository's file reaches grows with its input: the worst
input of every case in tests/hostile/test_linear_time.py, at a calibrated ``n`` and at ``8 * n`` (least CPU time of
three runs). Linear work grows about 8 times; the test fails a case above 20. Run from the repository root:

    python benchmarks/linear_time.py                 # every case
    python benchmarks/linear_time.py semver-pattern  # some
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hostile"))
from linear_time import growth
from test_linear_time import CASES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", choices=[[], *CASES], metavar="CASE", help=", ".join(CASES))
    args = parser.parse_args()
    for name in args.cases or list(CASES):
        work, build, start = CASES[name]
        print(f"{name:32} {growth(work, build, start)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
