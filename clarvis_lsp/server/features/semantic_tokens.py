"""Semantic tokens over ``clarvis_lsp.editor.semantic_tokens``: full, range and full/delta.

The tokens are computed from the document as it is now (the open buffer, else the disk) and need no discovery, so
they are answered at once, during the first scan too. Positions and lengths are converted to the client's encoding
and written in LSP's relative form. A delta is the one edit between the common prefix and suffix of the last
answer for that document and the new one (``resultId`` names each answer); a client that sends an id the server no
longer holds gets the full tokens.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field

from lsprotocol import types

from clarvis_lsp.editor import semantic_tokens as editor_tokens
from clarvis_lsp.findings import Position
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import from_client_position, to_client_position
from clarvis_lsp.server.session import Snapshot

_TYPE_INDEX = {name: index for index, name in enumerate(editor_tokens.TOKEN_TYPES)}
_MODIFIER_BIT = {name: 1 << index for index, name in enumerate(editor_tokens.TOKEN_MODIFIERS)}
_MAX_REMEMBERED = 64  # documents whose last answer is kept for a delta


@dataclass
class _Answers:
    """The last answer sent for each document (uri → (resultId, data)), oldest first, and the id counter."""

    last: dict[str, tuple[str, list[int]]] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=itertools.count)


_ANSWERS: weakref.WeakKeyDictionary[ClarvisServer, _Answers] = weakref.WeakKeyDictionary()


def _answers(server: ClarvisServer) -> _Answers:
    answers = _ANSWERS.get(server)
    if answers is None:
        answers = _ANSWERS[server] = _Answers()
    return answers


def _data(server: ClarvisServer, snapshot: Snapshot, within: types.Range | None = None) -> list[int]:
    """The document's tokens in LSP's relative encoding (those on or across ``within`` alone, when given)."""
    encoding = server.encoding
    tokens = editor_tokens.semantic_tokens(snapshot.kind, snapshot.path, snapshot.text, snapshot.view.overlay)
    first_line, last_line = 0, snapshot.lines.line_count
    if within is not None:
        first_line = from_client_position(within.start, snapshot.lines, encoding).line
        last_line = from_client_position(within.end, snapshot.lines, encoding).line
    data: list[int] = []
    previous_line = previous_start = 0
    for token in tokens:
        if token.line < first_line or token.line > last_line:
            continue
        lines = snapshot.lines
        start = to_client_position(Position(token.line, token.start), lines, encoding).character
        length = to_client_position(Position(token.line, token.start + token.length), lines, encoding).character - start
        delta_line = token.line - previous_line
        delta_start = start - previous_start if delta_line == 0 else start
        modifiers = 0
        for name in token.modifiers:
            modifiers |= _MODIFIER_BIT[name]
        data += [delta_line, delta_start, length, _TYPE_INDEX[token.type], modifiers]
        previous_line, previous_start = token.line, start
    return data


def _remember(server: ClarvisServer, uri: str, data: list[int]) -> str:
    answers = _answers(server)
    result_id = str(next(answers.ids))
    answers.last.pop(uri, None)
    answers.last[uri] = (result_id, data)
    while len(answers.last) > _MAX_REMEMBERED:
        answers.last.pop(next(iter(answers.last)))
    return result_id


def semantic_tokens_full(server: ClarvisServer, params: types.SemanticTokensParams) -> types.SemanticTokens | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    data = _data(server, snapshot)
    return types.SemanticTokens(data=data, result_id=_remember(server, snapshot.uri, data))


def semantic_tokens_delta(
    server: ClarvisServer, params: types.SemanticTokensDeltaParams
) -> types.SemanticTokens | types.SemanticTokensDelta | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    data = _data(server, snapshot)
    previous = _answers(server).last.get(snapshot.uri)
    result_id = _remember(server, snapshot.uri, data)
    if previous is None or previous[0] != params.previous_result_id:
        return types.SemanticTokens(data=data, result_id=result_id)
    old = previous[1]
    prefix = 0
    while prefix < min(len(old), len(data)) and old[prefix] == data[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(data)) - prefix and old[-1 - suffix] == data[-1 - suffix]:
        suffix += 1
    if prefix == len(old) == len(data):
        return types.SemanticTokensDelta(edits=[], result_id=result_id)
    edit = types.SemanticTokensEdit(
        start=prefix, delete_count=len(old) - prefix - suffix, data=data[prefix : len(data) - suffix]
    )
    return types.SemanticTokensDelta(edits=[edit], result_id=result_id)


def semantic_tokens_range(
    server: ClarvisServer, params: types.SemanticTokensRangeParams
) -> types.SemanticTokens | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    return types.SemanticTokens(data=_data(server, snapshot, params.range))
