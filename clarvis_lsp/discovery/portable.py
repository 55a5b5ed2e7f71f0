"""A directory's scan in the form that travels between processes, and the record rebuilt from it on arrival.

A process that reads part of a root for another sends what it read back through a pipe: a headless run's forked
children (``batch.spread``), the language server's helper process (``server.scan_helper``). A directory that holds
just a skill travels as plain strings and small integers (``SentSkill``), which unpickle many times faster than
the records and paths they stand for; the receiving process builds the record again with its own reader
(``rebuilt``) and parses the document only if something asks for it (``UnparsedSkill``). The rare directory with a
problem travels as its ``DirScan``, its documents as text (``portable``).

Nothing here starts or talks to a process: the callers do, and pickle what these functions give them.
"""

from __future__ import annotations

import os
from dataclasses import replace

from clarvis_lsp.discovery.io import DirectoryReader
from clarvis_lsp.discovery.scan import read_again, skill_info
from clarvis_lsp.discovery.skill_config import SkillRoot
from clarvis_lsp.discovery.skills import DirScan
from clarvis_lsp.documents.skill import SkillDocument, UnparsedSkill
from clarvis_lsp.documents.skill_identity import NamePlace
from clarvis_lsp.knowledge.layout import SKILL_FILE

SentSkill = tuple[str, str, "str | bytes | None", tuple[str, ...], "NamePlace | None"]
"""A directory that holds just a skill, as it travels: name, description, SKILL.md's content (its bytes when they
decode cleanly, or its repaired text; None when the receiver reads it again if it is ever asked for), the
resources, and where the name is written (``SkillInfo.name_at``)."""


def sent_form(scan: DirScan, *, text_stays: bool) -> DirScan | SentSkill:
    """What goes back for a directory read on another's behalf. ``text_stays``: the SKILL.md's content is not sent
    (the sender checked it already, or the receiver keeps no copy of a skill's text anyway): the receiver reads it
    again when asked. A record that already reads its text again sends none either."""
    skill = scan.skill
    if skill is None or scan.malformed is not None or scan.warnings:
        return portable(scan)
    content: str | bytes | None = None
    parsed = skill.parsed
    if not text_stays:
        kept = parsed.content if isinstance(parsed, UnparsedSkill) else parsed.text
        content = None if callable(kept) else kept
    return (skill.name, skill.description, content, skill.resource_paths, skill.name_at)


def portable(scan: DirScan) -> DirScan:
    """``scan`` with its documents replaced by their text (``UnparsedSkill``), as it is sent between processes. A
    record left with a way to read its text again (a function, which does not pickle) goes with its text too: read
    now, for the rare directory with a problem."""
    skill = scan.skill
    if skill is not None and (isinstance(skill.parsed, SkillDocument) or callable(skill.parsed.content)):
        skill = replace(skill, parsed=UnparsedSkill(skill.parsed.path, skill.parsed.text))
    malformed = scan.malformed
    if malformed is not None and isinstance(malformed.parsed, SkillDocument):
        malformed = replace(malformed, parsed=UnparsedSkill(malformed.parsed.path, malformed.parsed.text))
    return DirScan(scan.dir_name, skill, malformed, scan.warnings)


def rebuilt(
    received: DirScan | SentSkill,
    root: SkillRoot,
    root_index: int,
    dir_path: str,
    reader: DirectoryReader,
    follow_symlinks: bool,
) -> DirScan:
    """The directory's scan from what arrived for it: the record built as discovery builds it here, with this
    process's ``reader`` (its paths, and how a text not sent is read again)."""
    if isinstance(received, DirScan):
        return received
    name, description, content, resources, name_at = received
    path = reader.path(os.path.join(dir_path, SKILL_FILE))
    parsed = UnparsedSkill(path, content if content is not None else read_again(reader, str(path), follow_symlinks))
    skill = skill_info(root, root_index, path, name, description, parsed, resources, name_at)
    return DirScan(os.path.basename(dir_path), skill=skill)
