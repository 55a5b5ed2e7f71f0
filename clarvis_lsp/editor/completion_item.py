"""One completion candidate, protocol-free: what every completion module returns and the server converts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from clarvis_lsp.findings import Range

CandidateKind = Literal["property", "value", "enum", "snippet", "reference"]

__all__ = ["CandidateKind", "CompletionCandidate"]


@dataclass(frozen=True)
class CompletionCandidate:
    """One completion item, protocol-free.

    ``replace_range`` is what accepting the item replaces (on the cursor's line, containing the cursor);
    ``insert_text`` is LSP snippet syntax when ``is_snippet``. ``filter_text`` is what the client matches the
    typed text against (it includes the opening quote when the range starts at one).
    """

    label: str
    kind: CandidateKind
    detail: str | None
    documentation_markdown: str | None
    insert_text: str
    is_snippet: bool
    replace_range: Range
    sort_text: str | None = None
    filter_text: str | None = None
    preselect: bool = False
