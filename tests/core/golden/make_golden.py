"""Record the findings of the structural corpus into ``structural.json``, the "before" of the differential test.

Run it on the code *before* a JSON rule family changes how it finds its errors (``python
tests/core/golden/make_golden.py``), review the diff of ``structural.json``, and commit it with the change; the
differential test (``tests/core/test_structural_differential.py``) then proves the findings stayed identical.

When a deliberate change of a message or a fix lands later, record again with the old structural code and the new
change: export the current tree (``git archive HEAD | tar -x -C /tmp/before``), put back there the rule modules
as they were before the schema-driven checks, and run ``PYTHONPATH=/tmp/before python
/tmp/before/tests/core/golden/make_golden.py``; only the deliberately changed findings may differ from the record.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/core, as pytest puts it

from structural_corpus import GOLDEN, findings_of, make_workspace, samples


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        base = Path(directory).resolve()
        make_workspace(base)
        recorded = {sample.key: findings_of(sample, base) for sample in samples()}
    # One document a line, so a review (and a diff) reads document by document.
    lines = [
        f"{json.dumps(key)}: {json.dumps(found, sort_keys=True, separators=(',', ':'))}"
        for key, found in sorted(recorded.items())
    ]
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"{len(recorded)} documents, {sum(map(len, recorded.values()))} findings -> {GOLDEN}")


if __name__ == "__main__":
    main()
