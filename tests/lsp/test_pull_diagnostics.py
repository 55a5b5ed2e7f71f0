"""Pulled diagnostics kept right, through the protocol under both capability sets: every report has a
``resultId`` that changes when (and only when) its findings or its document's version change; a pull that sends
the id it holds gets an ``unchanged`` report (``textDocument/diagnostic`` with ``previousResultId``,
``workspace/diagnostic`` with ``previousResultIds``); and a document's pull carries, as ``relatedDocuments``, the
other open documents whose cross-file findings its edit changed (renaming the winning copy of a skill clears the
``discovery/shadowed`` finding of the other copy)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, items_of, open_document, write_file
from lsprotocol import types

WINNER = ".clarvis/skills/review/SKILL.md"
LOSER = ".agents/skills/review/SKILL.md"
OTHER = ".clarvis/skills/other/SKILL.md"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, WINNER, "---\nname: review\ndescription: Reviews.\n---\n")
    write_file(ws, LOSER, "---\nname: review\ndescription: Shared.\n---\n")
    write_file(ws, OTHER, "---\nname: other\ndescription: Other.\n---\n")
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


DocumentReport = types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport


async def pull(client: ClarvisClient, path: Path, previous: str | None = None) -> DocumentReport:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), previous_result_id=previous
        )
    )
    assert isinstance(
        report, (types.RelatedFullDocumentDiagnosticReport, types.RelatedUnchangedDocumentDiagnosticReport)
    )
    return report


def full_result_id(report: object) -> str:
    assert isinstance(
        report,
        (
            types.RelatedFullDocumentDiagnosticReport,
            types.FullDocumentDiagnosticReport,
            types.WorkspaceFullDocumentDiagnosticReport,
        ),
    ), report
    assert report.result_id, report
    return report.result_id


def codes(report: object) -> list[str]:
    return [str(item.code) for item in items_of(report)]


def change(client: ClarvisClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def test_a_document_pull_answers_unchanged_while_its_result_id_holds(
    client: ClarvisClient, workspace: Path
) -> None:
    loser = workspace / LOSER
    open_document(client, loser)
    first = await pull(client, loser)
    assert codes(first) == ["discovery/shadowed"]
    first_id = full_result_id(first)
    again = await pull(client, loser, previous=first_id)
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.kind == "unchanged" and again.result_id == first_id
    # A stale or unknown id gets the full report with the current id.
    assert full_result_id(await pull(client, loser, previous="not-an-id")) == first_id
    # An edit that changes the findings changes the id: the old one gets the full report.
    change(client, loser, "---\nname: review\ndescription: Shared.\nuser-invokable: x\n---\n", version=2)
    edited = await pull(client, loser, previous=first_id)
    assert sorted(codes(edited)) == ["discovery/shadowed", "skill/unknown-field"]
    edited_id = full_result_id(edited)
    assert edited_id != first_id
    assert isinstance(await pull(client, loser, previous=edited_id), types.RelatedUnchangedDocumentDiagnosticReport)


async def test_renaming_one_copy_returns_the_other_copys_report_as_a_related_document(
    client: ClarvisClient, workspace: Path
) -> None:
    winner, loser = workspace / WINNER, workspace / LOSER
    open_document(client, loser)
    open_document(client, winner)
    loser_report = await pull(client, loser)
    assert codes(loser_report) == ["discovery/shadowed"]
    winner_report = await pull(client, winner)
    assert codes(winner_report) == ["discovery/overrides"]
    # Nothing changed in another document since: no related documents, and unchanged once more.
    quiet = await pull(client, winner, previous=full_result_id(winner_report))
    assert isinstance(quiet, types.RelatedUnchangedDocumentDiagnosticReport)
    assert not quiet.related_documents
    # An edit of the winner that touches no other file's findings brings no related document either.
    change(client, winner, "---\nname: review\ndescription: Reviews more.\n---\n", version=2)
    described = await pull(client, winner, previous=full_result_id(winner_report))
    assert codes(described) == ["discovery/overrides"] and not described.related_documents

    change(client, winner, "---\nname: audit\ndescription: Reviews more.\n---\n", version=3)
    renamed = await pull(client, winner, previous=full_result_id(described))
    assert "discovery/overrides" not in codes(renamed)
    related = dict(renamed.related_documents or {})
    assert list(related) == [loser.as_uri()]  # the other copy, and only it
    loser_now = related[loser.as_uri()]
    assert isinstance(loser_now, types.FullDocumentDiagnosticReport)
    assert codes(loser_now) == []  # no longer shadowed
    assert loser_now.result_id and loser_now.result_id != full_result_id(loser_report)
    # The id received as a related document is the loser's current one, and it is not sent twice.
    direct = await pull(client, loser, previous=loser_now.result_id)
    assert isinstance(direct, types.RelatedUnchangedDocumentDiagnosticReport)
    assert direct.result_id == loser_now.result_id
    again = await pull(client, winner, previous=full_result_id(renamed))
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport) and not again.related_documents


async def test_a_workspace_pull_has_result_ids_and_answers_unchanged(client: ClarvisClient, workspace: Path) -> None:
    def by_uri(report: types.WorkspaceDiagnosticReport) -> dict[str, types.WorkspaceDocumentDiagnosticReport]:
        return {item.uri: item for item in report.items}

    first = by_uri(await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])))
    uris = {(workspace / relative).as_uri() for relative in (WINNER, LOSER, OTHER)}
    assert set(first) == uris
    ids = {uri: full_result_id(report) for uri, report in first.items()}  # every report has an id
    assert codes(first[(workspace / LOSER).as_uri()]) == ["discovery/shadowed"]

    previous = [types.PreviousResultId(uri=uri, value=value) for uri, value in ids.items()]
    second = by_uri(
        await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous))
    )
    assert set(second) == uris
    for uri, report in second.items():
        assert isinstance(report, types.WorkspaceUnchangedDocumentDiagnosticReport), report
        assert report.kind == "unchanged" and report.result_id == ids[uri]

    # Renaming the winner in the editor changes its report and the loser's (no longer shadowed); the third
    # skill's report stays unchanged. An open document's report carries its version.
    winner = workspace / WINNER
    open_document(client, winner, "---\nname: audit\ndescription: Reviews.\n---\n", version=4)
    third = by_uri(
        await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous))
    )
    loser_uri, other_uri = (workspace / LOSER).as_uri(), (workspace / OTHER).as_uri()
    assert full_result_id(third[loser_uri]) != ids[loser_uri] and codes(third[loser_uri]) == []
    assert full_result_id(third[winner.as_uri()]) != ids[winner.as_uri()]
    assert third[winner.as_uri()].version == 4
    assert isinstance(third[other_uri], types.WorkspaceUnchangedDocumentDiagnosticReport)
    assert third[other_uri].result_id == ids[other_uri]
