"""The ``clarvis-lsp`` command: the language server by default, ``--check`` / ``--list`` / ``--explain`` headless.

The headless paths never import pygls: pre-commit runs ``--check`` on every commit and start-up time is most of
its cost. Only serving imports ``clarvis_lsp.server``. Each mode imports what it needs when it runs (the checker,
the rule catalogue, the output formats), so ``--version`` and ``--help`` load only ``argparse``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, NoReturn

from clarvis_lsp import __version__

if TYPE_CHECKING:
    from pathlib import Path

    from clarvis_lsp.batch.run import CheckReport, CheckRequest


class Transport(NamedTuple):
    """How the server talks to its client: ``stdio``, ``socket``/``pipe`` (connect to a listening client), or
    ``tcp``/``ws`` (listen for one). A named tuple, not a dataclass: ``--version`` and ``--help`` do not load
    ``dataclasses`` (and ``inspect`` with it)."""

    kind: Literal["stdio", "socket", "pipe", "tcp", "ws"]
    host: str = "127.0.0.1"
    port: int = 0
    pipe: str = ""


EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
FORMATS = ("text", "json", "sarif", "github")


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, told the terminal's width as ``shutil.get_terminal_size`` finds it (``COLUMNS``,
    else the terminal on standard output, else 80) without importing ``shutil``: argparse builds a formatter for
    every ``add_argument``, and ``shutil``, with the ``bz2`` and ``lzma`` it imports, was 3 ms of every check's
    start-up, which is most of what a pre-commit hook pays."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_terminal_columns() - 2)


def _terminal_columns() -> int:
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stdout = sys.__stdout__
    try:
        return (os.get_terminal_size(stdout.fileno()).columns if stdout is not None else 0) or 80
    except (ValueError, OSError):  # standard output closed, or not a terminal
        return 80


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clarvis-lsp",
        formatter_class=_HelpFormatter,
        description="Language server and linter for Clarvis SKILL.md, settings.json, plugin.json and "
        "marketplace.json. With no arguments it serves LSP over stdio.",
    )
    modes = parser.add_argument_group("modes")
    modes.add_argument("--check", action="store_true", help="check every recognised file under PATH (default .)")
    modes.add_argument("--list", action="store_true", help="print the effective skills and the copies they shadow")
    modes.add_argument(
        "--effective", action="store_true", help="print what Clarvis will load and run in each workspace, and why"
    )
    modes.add_argument("--why", metavar="NAME", help="why a skill, agent, plugin, hook or MCP server is (not) active")
    modes.add_argument("--explain", metavar="CODE", help="print a rule's documentation")
    modes.add_argument("--list-rules", action="store_true", help="print the rule catalogue as a Markdown table")
    modes.add_argument("--version", action="version", version=f"clarvis-lsp {__version__}")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")

    check = parser.add_argument_group("check options")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    check.add_argument("--preset", choices=("clarvis", "xcsh"), help="skill root preset (default: clarvis)")
    check.add_argument(
        "--root",
        action="append",
        metavar="PATH[:scope[:source]]",
        help="a skill root, in ascending precedence; repeatable; replaces the preset",
    )
    check.add_argument("--workspace", metavar="DIR", help="the workspace directory (must exist)")
    check.add_argument("--home", metavar="DIR", help="the home directory for ~ and personal roots")
    check.add_argument("--no-user", action="store_true", help="ignore personal roots and settings (reproducible CI)")
    check.add_argument("--strict", action="store_true", help="within-root duplicates are errors")
    check.add_argument(
        "--trusted",
        action="store_true",
        help="treat the workspace as approved with /workspace-trust: the workspace's enabledPlugins contribute skills "
        "(--effective, --why, --list, --check), and --check shows no trust notices",
    )
    check.add_argument(
        "--platform",
        metavar="NAME",
        help="--effective, --why: whose capability-executable overrides apply (linux, darwin, win32; default: this "
        "machine's)",
    )
    check.add_argument("--no-follow-symlinks", action="store_true", help="ignore symlinked skills and resources")
    check.add_argument("--select", action="append", default=[], metavar="CODE", help="only these codes/families")
    check.add_argument("--ignore", action="append", default=[], metavar="CODE", help="skip these codes/families")
    check.add_argument(
        "--fail-on",
        choices=("error", "warning", "information"),
        default="error",
        help="lowest severity that makes the exit status 1 (default: error)",
    )
    check.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        help="processes that read and check files (default: one per core when a root or tree is large; 1: this one)",
    )
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place, then report what is left")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff, change nothing")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix/--diff, also apply unsafe fixes")

    serve = parser.add_argument_group("server options (the transport flags language clients pass)")
    serve.add_argument("--stdio", action="store_true", help="serve over stdio (the default; clients pass it)")
    serve.add_argument(
        "--socket", type=int, metavar="PORT", help="connect to a client listening on 127.0.0.1:PORT (client socket)"
    )
    serve.add_argument("--pipe", metavar="NAME", help="connect to a client listening on the named pipe NAME")
    serve.add_argument("--node-ipc", action="store_true", help=argparse.SUPPRESS)
    serve.add_argument("--clientProcessId", metavar="PID", help=argparse.SUPPRESS)
    serve.add_argument("--tcp", action="store_true", help="serve over TCP instead of stdio")
    serve.add_argument("--ws", action="store_true", help="serve over WebSocket instead of stdio")
    serve.add_argument("--host", default="127.0.0.1", help="host for --tcp/--ws (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=2087, help="port for --tcp/--ws (default 2087)")
    return parser


def _positive(text: str) -> int:
    """``--jobs``: a whole number of processes, at least 1 (argparse reports the error and exits with status 2)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more, not {text!r}")
    return int(text)


def _codes(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(code.strip() for value in values for code in value.split(",") if code.strip())


def run() -> NoReturn:
    """The console script and ``python -m clarvis_lsp``: ``main``, leaving a check's memory to the operating
    system at exit (``main(exit_when_done=True)``)."""
    raise SystemExit(main(exit_when_done=True))


def main(argv: Sequence[str] | None = None, *, exit_when_done: bool = False) -> int:
    """The command line. ``exit_when_done``: a check ends the process itself once its output is written (the
    console script), without freeing what it built object by object, which took a twentieth of a large check's
    time; callers that go on (tests, tools calling ``main``) get the exit status back instead."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.explain:
        return _explain(args.explain)
    if args.list_rules:
        print(rules_table(), end="")
        return EXIT_OK
    if args.effective or args.why is not None:
        return _run_effective(args)
    if args.check or args.list or args.fix or args.diff:
        return _run_check(args, exit_when_done)
    if args.paths:
        parser.error("paths are only accepted with --check, --list or --effective")
    transport = _transport(args)
    if transport is None:
        return EXIT_USAGE
    from clarvis_lsp.server import serve  # imported here: the headless paths never load pygls

    return serve(transport.kind, host=transport.host, port=transport.port, pipe=transport.pipe)


def _transport(args: argparse.Namespace) -> Transport | None:
    """The transport the flags ask for, or None (after a one-line message) for one this server cannot serve.

    vscode-languageclient appends ``--stdio``, ``--socket=N`` or ``--pipe=NAME`` to the command of an
    executable server; ``--node-ipc`` needs Node's IPC channel, which a Python process cannot open."""
    if args.node_ipc:
        print(
            "clarvis-lsp: --node-ipc is a Node.js channel; start the server with --stdio, --socket=PORT or "
            "--pipe=NAME instead",
            file=sys.stderr,
        )
        return None
    chosen = [
        name
        for name, wanted in (
            ("--stdio", args.stdio),
            ("--socket", args.socket is not None),
            ("--pipe", args.pipe is not None),
            ("--tcp", args.tcp),
            ("--ws", args.ws),
        )
        if wanted
    ]
    if len(chosen) > 1:
        print(f"clarvis-lsp: choose one transport, not {' and '.join(chosen)}", file=sys.stderr)
        return None
    if args.socket is not None:
        return Transport("socket", host="127.0.0.1", port=args.socket)
    if args.pipe is not None:
        return Transport("pipe", pipe=args.pipe)
    if args.tcp:
        return Transport("tcp", host=args.host, port=args.port)
    if args.ws:
        return Transport("ws", host=args.host, port=args.port)
    return Transport("stdio")


def rules_table() -> str:
    """The catalogue as the Markdown table README.md embeds (a test keeps the two equal)."""
    from clarvis_lsp.rules.catalogue import all_rules

    rows = ["| code | severity | when |", "| --- | --- | --- |"]
    rows += [f"| `{rule.code}` | {rule.severity.label} | {rule.summary} |" for rule in all_rules()]
    return "\n".join(rows) + "\n"


def _explain(code: str) -> int:
    """One rule's documentation, or a family's codes (``--explain skill``)."""
    from clarvis_lsp.rules.catalogue import explain_family, rules_matching, unknown_pattern_message

    found = rules_matching(code)
    if found is None:
        print(f"clarvis-lsp: {unknown_pattern_message(code, '--explain')}", file=sys.stderr)
        return EXIT_USAGE
    if len(found) == 1 and found[0].code == code.strip():
        print(found[0].explain(), end="")
    else:
        print(explain_family(found[0].family, found), end="")
    return EXIT_OK


def _unknown_patterns(args: argparse.Namespace) -> str | None:
    """The usage error for the first ``--select``/``--ignore`` word that names no code or family, if any: a
    mistyped gate must fail, not pass forever with "No findings"."""
    if not (args.select or args.ignore):
        return None  # the catalogue is loaded only when asked about
    from clarvis_lsp.rules.catalogue import rules_matching, unknown_pattern_message

    for option, values in (("--select", args.select), ("--ignore", args.ignore)):
        for pattern in _codes(values):
            if rules_matching(pattern) is None:
                return unknown_pattern_message(pattern, option)
    return None


def _overrides(args: argparse.Namespace, *, strict: bool = False) -> dict[str, object]:
    """The project options the command line's flags set (``--preset``, ``--no-user``, ``--no-follow-symlinks``),
    and ``--strict`` where the run honours it (``strict``: a check does; ``--effective`` does not)."""
    overrides: dict[str, object] = {}
    if args.preset:
        overrides["preset"] = args.preset
    if args.no_user:
        overrides["includeUser"] = False
    if strict and args.strict:
        overrides["strict"] = True
    if args.no_follow_symlinks:
        overrides["followSymlinks"] = False
    return overrides


def _home(args: argparse.Namespace) -> Path:
    """``--home``, absolute, else the user's home directory."""
    from pathlib import Path

    return Path(os.path.abspath(os.path.expanduser(args.home))) if args.home else Path.home()


def _workspace_refused(workspace: str | None) -> bool:
    """Whether ``--workspace`` names no directory, after saying so (the messages of ``resolve_config``): refused
    before any file is walked."""
    if not workspace or os.path.isdir(workspace):
        return False
    kind = "is not a directory" if os.path.exists(workspace) else "does not exist"
    print(f"clarvis-lsp: Workspace {kind}: {os.path.abspath(workspace)}", file=sys.stderr)
    return True


def _run_effective(args: argparse.Namespace) -> int:
    """``--effective`` or ``--why NAME``, as a request (``batch.effective``), or the usage status after the message
    when it cannot be answered."""
    from pathlib import Path

    from clarvis_lsp.batch.effective import EffectiveRequest, run_effective
    from clarvis_lsp.batch.plan import explicit_roots

    if args.format not in ("text", "json"):
        print(f"clarvis-lsp: --effective and --why print text or json, not {args.format}", file=sys.stderr)
        return EXIT_USAGE
    if _workspace_refused(args.workspace):
        return EXIT_USAGE
    try:
        roots = explicit_roots(args.root)
    except ValueError as error:  # a --root value that names no directory: refused like a bad workspace
        return _refused(error)
    request = EffectiveRequest(
        paths=args.paths,
        cwd=Path(os.getcwd()),
        home=_home(args),
        overrides=_overrides(args),
        explicit_roots=roots,
        workspace=Path(args.workspace) if args.workspace else None,
        jobs=args.jobs,
        trusted=args.trusted,
        platform=args.platform,
        why=args.why,
        output_format=args.format,
    )
    return run_effective(request)


def _first_check(args: argparse.Namespace) -> tuple[CheckReport, CheckRequest] | int:
    """The check the command line asks for and the request that made it, or the usage status after the message
    when the request cannot be checked."""
    from pathlib import Path

    from clarvis_lsp.batch.plan import explicit_roots
    from clarvis_lsp.batch.run import CheckRequest, UsageError, check_paths
    from clarvis_lsp.discovery import StartupError
    from clarvis_lsp.rules.catalogue import TRUST_NOTICES

    overrides = _overrides(args, strict=True)
    try:
        roots = explicit_roots(args.root)
    except ValueError as error:
        return _refused(error)
    home = _home(args)
    request = CheckRequest(
        paths=args.paths,
        cwd=Path(os.getcwd()),
        home=home,
        overrides=overrides,
        explicit_roots=roots,
        workspace=Path(args.workspace) if args.workspace else None,
        select=_codes(args.select),
        ignore=_codes(args.ignore) + (TRUST_NOTICES if args.trusted else ()),
        jobs=args.jobs,
        trusted=args.trusted,
    )
    unknown = _unknown_patterns(args)
    if unknown is not None:
        print(f"clarvis-lsp: {unknown}", file=sys.stderr)
        return EXIT_USAGE
    if _workspace_refused(args.workspace):
        return EXIT_USAGE
    try:
        return check_paths(request), request
    except (StartupError, UsageError) as error:
        return _refused(error)


def _run_check(args: argparse.Namespace, exit_when_done: bool = False) -> int:
    from clarvis_lsp.memory import bulk_allocation

    # A check is one scan, then the process exits. The collector is paused from here to the end of the scan, the
    # checker's modules included: importing them allocates as much as a few hundred skills do, and the collections
    # that triggered cost about 3 ms of every check (benchmarks/HISTORY.md).
    with bulk_allocation():
        checked = _first_check(args)
    if isinstance(checked, int):
        return checked
    report, request = checked

    from clarvis_lsp.batch.run import UsageError
    from clarvis_lsp.discovery import StartupError
    from clarvis_lsp.findings import Severity

    try:
        if args.list:
            print(_format_list(report), end="")
            return EXIT_USAGE if report.config_failed else EXIT_OK
        if args.fix:
            report = _fix_until_stable(report, request, unsafe=args.unsafe_fixes)
        elif args.diff:
            _print_diff(report, request, unsafe=args.unsafe_fixes)
    except (StartupError, UsageError) as error:
        return _refused(error)
    _print_result(report, args.format)
    for load in report.config_loads:
        if load.status == "error":
            print(f"clarvis-lsp: {load.message}", file=sys.stderr)
    if report.config_failed:
        status = EXIT_USAGE
    else:
        threshold = Severity.parse(args.fail_on)
        failing = any(diagnostic.severity <= threshold for diagnostic in report.result.diagnostics)
        status = EXIT_FINDINGS if failing else EXIT_OK
    if exit_when_done:
        _exit_now(status)  # the report is still alive here: nothing is freed on the way out
    return status


def _refused(error: Exception) -> int:
    """A configuration or a request that cannot be checked: one line on standard error, the usage status."""
    print(f"clarvis-lsp: {error}", file=sys.stderr)
    return EXIT_USAGE


def _exit_now(status: int) -> NoReturn:
    """End the process with ``status`` once the output is flushed, skipping the interpreter's teardown: a check
    holds every document it read, and nothing else is pending (no thread, no open file, no atexit work)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: Python's own exit fails the same way, with status 120
            os._exit(120)
    os._exit(status)


def _print_result(report: CheckReport, output_format: str) -> None:
    from clarvis_lsp.output import format_github, format_json, format_sarif, format_text
    from clarvis_lsp.rules.catalogue import all_rules

    result = report.result
    if output_format == "json":
        text = format_json(result, __version__)
    elif output_format == "sarif":
        text = format_sarif(result, __version__, all_rules())
    elif output_format == "github":
        text = format_github(result)
    else:
        text = format_text(result)
    sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")


FIX_PASSES = 10
"""How often --fix re-checks and fixes again: fixes whose edits overlap (removing two neighbouring array items)
wait for the next pass, and a fix can uncover another finding. Bounded, so two fixes that undo each other stop."""


def _fix_until_stable(report: CheckReport, request: CheckRequest, *, unsafe: bool) -> CheckReport:
    """Apply the fixes, check again and repeat until nothing is left to fix; one line per file on stderr, and one
    for each file whose fixes were not written, saying why (a symlink, outside the paths checked, unwritable)."""
    from clarvis_lsp.batch.run import check_paths
    from clarvis_lsp.fixes import plan_fixes, write_refusal  # only --fix/--diff need it

    checked = list(request.paths or ["."])
    fixed: dict[str, int] = {}
    refused: dict[Path, tuple[str, int]] = {}
    for _ in range(FIX_PASSES):
        planned = [fix for fix in plan_fixes(report.result.diagnostics, unsafe=unsafe) if fix.path not in refused]
        written = 0
        for file_fix in planned:
            why = write_refusal(file_fix.path, checked, str(request.cwd))
            if why is None:
                try:
                    file_fix.write()
                except OSError as error:
                    why = f"it could not be written ({error.strerror or type(error).__name__})"
            if why is not None:
                refused[file_fix.path] = (why, len(file_fix.applied))
                continue
            written += 1
            display = report.result.display_path(file_fix.path)
            fixed[display] = fixed.get(display, 0) + len(file_fix.applied)
        if not written:
            break
        report = check_paths(request)
    for display, count in sorted(fixed.items()):
        print(f"Fixed {count} {_findings(count)} in {display}", file=sys.stderr)
    for path, (why, count) in sorted(refused.items()):
        print(f"Not fixed: {count} {_findings(count)} in {report.result.display_path(path)}: {why}", file=sys.stderr)
    return report


def _findings(count: int) -> str:
    return "finding" if count == 1 else "findings"


def _print_diff(report: CheckReport, request: CheckRequest, *, unsafe: bool) -> None:
    """--diff: what one pass of --fix would change, as a unified diff (nothing is written); a file --fix would
    not write is left out of the diff and named on stderr, as --fix names it."""
    from clarvis_lsp.fixes import plan_fixes, write_refusal

    checked = list(request.paths or ["."])
    for file_fix in plan_fixes(report.result.diagnostics, unsafe=unsafe):
        display = report.result.display_path(file_fix.path)
        why = write_refusal(file_fix.path, checked, str(request.cwd))
        if why is not None:
            count = len(file_fix.applied)
            print(f"Not fixed: {count} {_findings(count)} in {display}: {why}", file=sys.stderr)
            continue
        sys.stdout.write(file_fix.diff(display))


def _format_list(report: CheckReport) -> str:
    from clarvis_lsp.listing import discovered_skills, format_listing

    workspaces = [discovered_skills(engine.directory, engine.discovered) for engine in report.engines]
    # The roots a project file set (no --root replaced them): marked, as they may name any directory.
    from_project_file: dict[Path, tuple[Path, int]] = {}
    for engine in report.engines:
        for load in report.config_loads:
            configured = load.config.roots
            if (
                load.status == "ok"
                and load.path is not None
                and load.path.parent == engine.directory
                and configured is not None
                and engine.explicit_roots is None
                and engine.config.roots == configured
            ):
                from_project_file[engine.directory] = (load.path, len(configured))
    return format_listing(workspaces, report.result.display_path, from_project_file)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
