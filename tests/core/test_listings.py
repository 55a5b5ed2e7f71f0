"""A check's shared listings answer whether a path exists as ``os.path.lexists`` does (issue: speed): a link's
target is looked up in its directory's listing when the check made one, and asked of the file system otherwise."""

from __future__ import annotations

import os
from pathlib import Path

from clarvis_lsp.batch.listings import Listings


def test_a_listed_directory_answers_as_the_file_system_does(tmp_path: Path) -> None:
    references = tmp_path / "references"
    references.mkdir()
    (references / "guide.md").write_text("x", encoding="utf-8")
    (references / "dangling").symlink_to(tmp_path / "nowhere")
    listings = Listings()
    listings.list_sorted(str(references))
    (references / "added-after.md").write_text("x", encoding="utf-8")  # not in the listing: the disk is asked
    for name in ("guide.md", "dangling", "added-after.md", "missing.md", "Guide.md", "a", "zzz"):
        path = str(references / name)
        assert listings.lexists(path) == os.path.lexists(path), name


def test_an_unlisted_directory_is_asked_of_the_file_system(tmp_path: Path) -> None:
    (tmp_path / "file.md").write_text("x", encoding="utf-8")
    listings = Listings()
    assert listings.lexists(str(tmp_path / "file.md"))
    assert not listings.lexists(str(tmp_path / "other.md"))
    assert not listings.lexists(str(tmp_path / "no-directory" / "file.md"))
