"""Name collisions among what Clarvis runs under separate names (SPEC §2.1, "Collisions"): MCP servers and agents.

Clarvis keys a server by its effective name (``<server>`` from settings, ``<plugin>:<server>`` from an active
plugin) and names its tools ``<name>.<tool>``; it keys an agent by ``<agent>`` or ``<plugin>:<agent>``. Two
entries collide when a person (or the model, or a hook's ``match.tool``) cannot tell them apart, or when one
server is started twice:

- ``SAME_NAME``: the very same effective name from two places (a settings server literally named ``p:s`` and the
  server ``s`` of the active plugin ``p``); a workspace entry of a personal entry's name is *not* one, it replaces
  that entry (``mcp/overrides-personal``, ``agent/overrides``) and the personal entry is no longer effective;
- ``SPELLING``: names that differ only in case or in ``-``/``_`` (``github``, ``GitHub``, ``git_hub``, ``git-hub``);
- ``NAMESPACE`` (servers only): one name lies in the other's tool namespace, so ``a.b.x`` could be the tool
  ``b.x`` of server ``a`` or the tool ``x`` of server ``a.b``; compared with the spelling folded the same way;
- ``LAUNCH`` (servers only): one ``command`` + ``args`` (stdio) or one ``url`` (http, sse) under two names, which
  starts the same server twice and lists its tools twice.

This module only decides; it never reads a file and knows no protocol. Both the ``--check`` rules
(``clarvis_lsp.rules.name_collision``) and the effective configuration (``clarvis_lsp.effective.servers`` and
``agents``) build their parties with the builders here and ask ``collisions``, so the linter and ``--effective``
cannot disagree about which names meet. Grouping is by dictionary, never pair by pair, and each collision keeps at
most ``MAX_OTHERS`` other parties: a file with thousands of look-alike names costs linear time, not quadratic.
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Literal

from clarvis_lsp.discovery import AgentInfo
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge.mcp import DEFAULT_TRANSPORT, TRANSPORTS

Origin = Literal["personal", "workspace", "plugin"]
Kind = Literal["same name", "spelling", "namespace", "launch"]
SAME_NAME: Kind = "same name"
SPELLING: Kind = "spelling"
NAMESPACE: Kind = "namespace"
LAUNCH: Kind = "launch"
KINDS: tuple[Kind, ...] = (SAME_NAME, SPELLING, NAMESPACE, LAUNCH)

MAX_OTHERS = 20
"""The other parties one collision lists (and points at); the rest are only counted in ``Collision.more``."""

TOOL_SEPARATOR = "."


@dataclass(frozen=True)
class Party:
    """One effective entry that can collide: where its name is written and, for a server, what it starts."""

    name: str  # the effective name: "github", "lint:rules", "review:critic"
    origin: Origin
    plugin: str | None  # the plugin contributing it (origin "plugin")
    path: Path
    range: Range  # the server-name key in its file; the start of an agent file
    key: str  # the name as written: the server key, the agent file's stem
    launch: tuple[str, ...] | None = None  # ("stdio", command, *args) or ("url", url); None when it cannot be told

    @property
    def reaches(self) -> str | None:
        """What the entry starts, as a person types it: the command line (quoted as a shell would need), or the
        URL."""
        if self.launch is None:
            return None
        return shlex.join(self.launch[1:]) if self.launch[0] == "stdio" else self.launch[1]


@dataclass(frozen=True)
class Collision:
    """``party`` meets ``others`` in one way (``kind``); ``more`` others are left out of ``others``."""

    party: Party
    kind: Kind
    others: tuple[Party, ...]
    more: int = 0


def fold(name: str) -> str:
    """The name as two spellings that look alike compare: case folded, ``-`` and ``_`` left out (``GitHub``,
    ``git_hub`` and ``git-hub`` are all ``github``)."""
    return name.casefold().replace("-", "").replace("_", "")


def collisions(parties: Sequence[Party], *, tools: bool) -> list[Collision]:
    """Every collision of every party, in the order of ``parties`` and then of ``KINDS``. ``tools``: the names
    have tool namespaces and launches (MCP servers), which agents have not.

    Each party reads its groups only up to ``MAX_OTHERS`` members and counts the rest from the groups' sizes, so
    thousands of look-alike names (or one command under thousands of names) cost linear time."""
    by_fold: dict[str, list[int]] = {}
    by_name: dict[str, list[int]] = {}
    inside: dict[str, list[int]] = {}  # a folded name -> the parties whose folded name lies in its namespace
    by_launch: dict[tuple[str, ...], list[int]] = {}
    folded = [fold(party.name) for party in parties]
    for index, party in enumerate(parties):
        by_fold.setdefault(folded[index], []).append(index)
        by_name.setdefault(party.name, []).append(index)
        if tools:
            for prefix in _namespaces_of(folded[index]):
                inside.setdefault(prefix, []).append(index)
            if party.launch is not None:
                by_launch.setdefault(party.launch, []).append(index)
    found: list[Collision] = []
    for index, party in enumerate(parties):
        group, named = by_fold[folded[index]], by_name[party.name]
        # A name repeats only across a few files (settings and a plugin), so skipping those in a group is cheap.
        meets: dict[Kind, tuple[Iterable[int], int]] = {
            SAME_NAME: ((other for other in named if other != index), len(named) - 1),
            SPELLING: ((other for other in group if parties[other].name != party.name), len(group) - len(named)),
        }
        if tools:
            outer = [by_fold.get(prefix, []) for prefix in _namespaces_of(folded[index])]
            within = inside.get(folded[index], [])
            meets[NAMESPACE] = (_chain(*outer, within), sum(map(len, outer)) + len(within))
            same_launch = by_launch.get(party.launch, []) if party.launch is not None else []
            meets[LAUNCH] = ((other for other in same_launch if other != index), max(len(same_launch) - 1, 0))
        for kind in KINDS:
            if kind in meets and meets[kind][1] > 0:
                candidates, total = meets[kind]
                others = tuple(parties[other] for other in islice(candidates, MAX_OTHERS))
                found.append(Collision(party, kind, others, total - len(others)))
    return found


NAMESPACE_DEPTH = 16
NAMESPACE_LENGTH = 256
"""How many ``.`` of a name, within how many leading characters, are tried as the end of another server's name:
real names hold a dot or two, and the bound keeps a name made of thousands of dots from costing its length
squared."""


def _namespaces_of(folded: str) -> list[str]:
    """The names whose tool namespace ``folded`` lies in: each prefix before a ``.`` (``a.b.c``: ``a``, ``a.b``)."""
    ends = [at for at, char in enumerate(folded[:NAMESPACE_LENGTH]) if char == TOOL_SEPARATOR and at > 0]
    return [folded[:at] for at in ends[:NAMESPACE_DEPTH]]


def _chain(*groups: Iterable[int]) -> Iterable[int]:
    for group in groups:
        yield from group


def pending(collision: Collision, untrusted: Collection[Party]) -> bool:
    """Whether ``collision`` (found over the trusted configuration) takes effect only once the workspace is
    trusted: one of its parties is held back before then (a workspace server or agent, a plugin only the
    workspace enables)."""
    return collision.party not in untrusted or any(other not in untrusted for other in collision.others)


@dataclass(frozen=True)
class Meeting:
    """One other party a party collides with, seen from that party (what ``--effective`` lists per entry)."""

    kind: Kind
    other: Party
    once_trusted: bool  # only in the configuration once trusted, not in the current one


def meetings(
    current: Sequence[Party], once_trusted: Sequence[Party] | None, *, tools: bool
) -> dict[Party, list[Meeting]]:
    """Per party, whom it collides with among ``current``, then whom it would collide with among
    ``once_trusted`` (the parties in effect once the workspace is trusted; None when it is already)."""
    found: dict[Party, list[Meeting]] = {}
    seen: set[tuple[Party, Kind, Party]] = set()
    states = [(current, False)] + ([(once_trusted, True)] if once_trusted is not None else [])
    for parties, later in states:
        for collision in collisions(parties, tools=tools):
            for other in collision.others:
                if (collision.party, collision.kind, other) not in seen:
                    seen.add((collision.party, collision.kind, other))
                    found.setdefault(collision.party, []).append(Meeting(collision.kind, other, later))
    return found


# -- MCP servers ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServerFile:
    """A file that declares ``mcpServers``: a settings file, or an active plugin's manifest."""

    origin: Origin
    path: Path
    document: JsonDocument
    plugin: str | None = None


def server_map(document: JsonDocument) -> JsonObject | None:
    """A document's ``mcpServers`` object, when it has one."""
    root = document.root
    servers = root.value_of("mcpServers") if isinstance(root, JsonObject) else None
    return servers if isinstance(servers, JsonObject) else None


def launch_of(server: JsonNode | None) -> tuple[str, ...] | None:
    """What a server object starts: ``("stdio", command, *args)`` or ``("url", url)``; None when its type, command,
    args or url cannot be read (the ``mcp/*`` rules report those), so a broken entry never collides by accident."""
    if not isinstance(server, JsonObject):
        return None
    kind = server.value_of("type")
    transport = kind.value if kind is not None else DEFAULT_TRANSPORT
    if transport not in TRANSPORTS:
        return None
    if transport == DEFAULT_TRANSPORT:
        command = server.value_of("command")
        if command is None or not isinstance(command.value, str) or not command.value.strip():
            return None
        args = server.value_of("args")
        if args is None:
            return ("stdio", command.value)
        if not isinstance(args, JsonArray) or not all(isinstance(item.value, str) for item in args.items):
            return None
        return ("stdio", command.value, *(str(item.value) for item in args.items))
    url = server.value_of("url")
    if url is None or not isinstance(url.value, str) or not url.value.strip():
        return None
    return ("url", url.value.strip())


def server_parties(file: ServerFile, *, skip: Collection[str] = ()) -> list[Party]:
    """The servers of one file, each once (the last member of a repeated key, as ``JSON.parse`` keeps), leaving out
    the keys in ``skip`` (personal servers a trusted workspace server of the same name replaces)."""
    servers = server_map(file.document)
    if servers is None:
        return []
    parties = []
    for member in servers.members:
        if servers.get(member.key) is not member or member.key in skip:
            continue
        name = f"{file.plugin}:{member.key}" if file.plugin is not None else member.key
        where = file.document.key_range(member)
        parties.append(Party(name, file.origin, file.plugin, file.path, where, member.key, launch_of(member.value)))
    return parties


def effective_servers(
    personal: ServerFile | None, workspace: ServerFile | None, plugins: Sequence[ServerFile], *, trusted: bool
) -> list[Party]:
    """The MCP servers in effect: the personal ones (less those a trusted workspace server replaces), the
    workspace's once trusted, and the servers of ``plugins`` (the caller passes the active plugins' manifests)."""
    in_force = workspace if trusted else None
    servers = server_map(in_force.document) if in_force is not None else None
    replaced = set(servers.keys()) if servers is not None else set()
    parties = server_parties(personal, skip=replaced) if personal is not None else []
    if in_force is not None:
        parties += server_parties(in_force)
    for plugin in plugins:
        parties += server_parties(plugin)
    return parties


# -- agents --------------------------------------------------------------------------------------------------


def effective_agents(agents: Mapping[str, AgentInfo], active: Collection[str], *, trusted: bool) -> list[Party]:
    """The agents in effect: the personal ones (less those a trusted workspace agent overrides), the workspace's
    once trusted, and the agents of the ``active`` plugins. An agent's range is its file's start (the caller knows
    the text)."""
    start = Range.point(0, 0)
    parties: list[Party] = []
    for name in sorted(agents):
        agent = agents[name]
        if agent.plugin is not None:
            if agent.plugin in active:
                parties.append(Party(name, "plugin", agent.plugin, agent.path, start, agent.path.stem))
        elif agent.scope == "user":
            parties.append(Party(name, "personal", None, agent.path, start, agent.path.stem))
        elif trusted:
            parties.append(Party(name, "workspace", None, agent.path, start, agent.path.stem))
        elif agent.overrides is not None:
            personal = agent.overrides
            parties.append(Party(name, "personal", None, personal.path, start, personal.path.stem))
    return parties
