"""``clarvis-lsp`` whose hover raises, as a real bug in one feature would: that request must get an error answer and
every other feature must keep working. Run it as the server command (``python raising_hover_server.py --stdio``)."""

from __future__ import annotations

from typing import Any

import clarvis_lsp.editor.hover as hover_module
from clarvis_lsp.cli import main


def raising_hover(*args: Any, **kwargs: Any) -> Any:
    return [][1]


hover_module.hover = raising_hover  # before the server's features import it

if __name__ == "__main__":
    raise SystemExit(main())
