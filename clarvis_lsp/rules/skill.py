"""The ``skill/*`` rules: one SKILL.md on its own (frontmatter, fields, body links).

Each rule reads the parsed document independently, so a broken field never hides another finding. Rules that
need the frontmatter as a mapping stay quiet when it is not one: ``skill/no-frontmatter`` or
``skill/invalid-yaml`` already says why, at the place the parser stopped. The keys, their types, the ``tools``
alias and the name's pattern and length come from ``clarvis_lsp.knowledge.skill`` (the schema).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from clarvis_lsp.documents.skill import FrontmatterEntry, SkillDocument
from clarvis_lsp.findings import Fix, Position, Range, Related, Severity, TextEdit
from clarvis_lsp.knowledge import skill as facts
from clarvis_lsp.rules.base import Findings, RuleStep, closest, did_you_mean
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.skill_agent import OwnerOf, agent_scalar, own_plugin_agent
from clarvis_lsp.rules.skill_links import BROKEN_LINK, ROOT_RELATIVE_LINK, check_links

DESCRIPTION_STUB = "TODO: say what this skill does and when to use it"

NO_FRONTMATTER = rule(
    "skill/no-frontmatter",
    Severity.ERROR,
    "SKILL.md does not start with a `---` frontmatter block, or the block is never closed.",
    why="Clarvis reads a skill's name and description from the YAML frontmatter; without it the skill is "
    "skipped at discovery and never offered.",
    example="# My skill\nDoes things.",
    fix="Start the file with a `---` line, the `name:` and `description:` fields, and a closing `---` line.",
    file_kind="skill",
)
INVALID_YAML = rule(
    "skill/invalid-yaml",
    Severity.ERROR,
    "The frontmatter is not valid YAML, or not a mapping of fields.",
    why="A frontmatter that does not parse makes Clarvis skip the skill; the error is reported where the "
    "YAML parser stopped.",
    example="---\nname: [demo\ndescription: x\n---",
    fix="Correct the YAML at the reported place; the frontmatter must be `key: value` lines.",
    file_kind="skill",
)
DUPLICATE_KEY = rule(
    "skill/duplicate-key",
    Severity.ERROR,
    "A frontmatter key appears twice.",
    why="YAML loaders silently keep the last value, so the first one looks effective but is not.",
    example="---\nname: a\ndescription: x\nname: b\n---",
    fix="Keep one of the two keys.",
    file_kind="skill",
)
MISSING_NAME = rule(
    "skill/missing-name",
    Severity.ERROR,
    "The frontmatter has no `name`, or it is empty.",
    why="A skill's identity is its frontmatter name, not its directory; without one it is skipped.",
    example="---\ndescription: Formats SQL\n---",
    fix="Add `name:` with the skill's directory name.",
    file_kind="skill",
)
INVALID_NAME = rule(
    "skill/invalid-name",
    Severity.ERROR,
    f"`name` is not a string of letters, digits, `.`, `_` and `-`, or is longer than {facts.NAME_MAX_LENGTH} "
    "characters.",
    why="Clarvis turns the name into a slash command and a registry key; other characters are rejected. Letters "
    "and digits are those of any script (`démo`, `技能`); spaces, `/`, `:` and other punctuation are not.",
    example="---\nname: my skill!\ndescription: x\n---",
    fix="Use only letters, digits, `.`, `_` and `-` (for example `my-skill`).",
    file_kind="skill",
)
NAME_DIRECTORY_MISMATCH = rule(
    "skill/name-directory-mismatch",
    Severity.WARNING,
    "`name` differs from the skill's directory name.",
    why="The name is the identity; a different directory name makes the skill hard to find and makes "
    "shadowing between roots surprising.",
    example="skills/sql-format/SKILL.md with `name: format-sql`",
    fix="Set `name` to the directory name, or rename the directory.",
    file_kind="skill",
)
MISSING_DESCRIPTION = rule(
    "skill/missing-description",
    Severity.ERROR,
    "The frontmatter has no `description`, or it is empty or blank.",
    why="The description is what the agent reads to decide when to use the skill; without it the skill is skipped.",
    example="---\nname: sql-format\n---",
    fix="Add `description:` with a short sentence saying what the skill does and when to use it.",
    file_kind="skill",
)
UNKNOWN_FIELD = rule(
    "skill/unknown-field",
    Severity.WARNING,
    "A frontmatter key that Clarvis does not know.",
    why="Unknown keys are ignored silently at run time, so a misspelled `user-invokable` never takes effect.",
    example="---\nname: a\ndescription: x\nuser-invokable: false\n---",
    fix="Correct the spelling (the message suggests the closest known key) or remove the field.",
    file_kind="skill",
)
INVALID_FIELD_TYPE = rule(
    "skill/invalid-field-type",
    Severity.ERROR,
    "A known frontmatter field has the wrong type.",
    why='Clarvis expects each field\'s type: `user-invocable: "yes"` is a string, not a boolean, and an '
    "unquoted `version: 1.0` is the float 1.0 (so `1.10` would become `1.1`).",
    example='---\nname: a\ndescription: x\nuser-invocable: "yes"\nversion: 1.0\n---',
    fix="Write booleans as true/false, versions as quoted strings, and hints/tools as a string or a list of strings.",
    file_kind="skill",
)
TOOLS_ALIAS_CONFLICT = rule(
    "skill/tools-alias-conflict",
    Severity.WARNING,
    "Both `allowed-tools` and its alias `tools` are present.",
    why="`tools` is an alias of `allowed-tools`; with both, one silently replaces the other.",
    example="---\nname: a\ndescription: x\nallowed-tools: [Read]\ntools: [Write]\n---",
    fix="Keep one of the two fields.",
    file_kind="skill",
)
UNKNOWN_AGENT = rule(
    "skill/unknown-agent",
    Severity.WARNING,
    "`agent` names no discovered agent (`<name>` or `<plugin>:<name>`).",
    why="Slash invocation hands the skill to that agent; an unknown agent means the invocation fails.",
    example="---\nname: a\ndescription: x\nagent: reviewr\n---",
    fix="Use the name of an agent in `.clarvis/agents/`, `~/.clarvis/agents/` or `<plugin>:<agent>`. A skill of "
    "a plugin names the plugin's own agents `<plugin>:<agent>` too: for a bare name of one of them the safe quick "
    "fix writes the qualified name.",
    file_kind="skill",
)


@dataclass(frozen=True)
class SkillContext:
    """What the workspace knows that a single SKILL.md cannot: the agents it may name, and what the scan listed."""

    agents: Mapping[str, object] | None = None  # qualified agent names; None when agents were not discovered
    lexists: Callable[[str], bool] = os.path.lexists
    """Whether a path exists (a broken symlink does): a ``--check`` answers from the listings it made."""
    plugin_owner: OwnerOf | None = None
    """The plugin a file belongs to (``discovery.owner``), asked only about a bare agent name that is unknown."""
    workspace: str | None = None  # the workspace directory, where a root-relative link may name a file


def check_skill(document: SkillDocument, context: SkillContext, findings: Findings) -> None:
    """Run every ``skill/*`` rule on one parsed SKILL.md, unguarded (the engine runs ``RULE_STEPS`` through the
    rule runner instead, each step isolated from the others)."""
    for step in RULE_STEPS:
        if document.frontmatter_ok or not step.needs_frontmatter:
            step.check(document, context, findings)


def _newline(document: SkillDocument) -> str:
    return "\r\n" if "\r\n" in document.text else "\n"


def _insert_after_open(document: SkillDocument, text: str) -> TextEdit | None:
    """An edit inserting a line just after the opening fence; None for a flow mapping (``{…}``), where a block
    line before it would not parse."""
    if document.flow_mapping:
        return None
    line = document.open_line + 1
    return TextEdit(document.path, Range.point(line, 0), _indent(document) + text + _newline(document))


def _indent(document: SkillDocument) -> str:
    """The indentation of the top-level keys (a new key must match it, or the YAML no longer parses)."""
    if not document.entries:
        return ""
    return " " * document.entries[0].key_range.start.character


def _remove_entry(document: SkillDocument, entry: FrontmatterEntry) -> TextEdit | None:
    """An edit removing the entry's lines; None where that would break the YAML or lose more than the entry: in a
    flow mapping (its line holds every entry) and when another entry uses an anchor the entry defines."""
    if document.flow_mapping or _anchor_used_elsewhere(document, entry):
        return None
    first, after = entry.line_span
    return TextEdit(document.path, Range(Position(first, 0), Position(after, 0)), "")


def _anchor_used_elsewhere(document: SkillDocument, entry: FrontmatterEntry) -> bool:
    """Whether a node written inside ``entry`` (an ``&anchor``) is also reached from another entry (``*anchor``):
    the composer hands both the same node object, so identity tells, without reading the text again."""
    if "&" not in document.text[: document.body_offset]:
        return False  # no anchor in the frontmatter (the common case): no node walk
    start = entry.key_range.end
    end = entry.value_range.end
    defined = {id(node) for node in _nodes(entry.node) if start <= entry.range_of(node).start < end}
    if not defined:
        return False
    return any(id(node) in defined for other in document.entries if other is not entry for node in _nodes(other.node))


def _nodes(root: yaml.Node) -> list[yaml.Node]:
    """Every node under ``root`` once, however often aliases repeat it (an alias bomb stays linear)."""
    seen: set[int] = set()
    stack = [root]
    found: list[yaml.Node] = []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        found.append(node)
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
    return found


def _set_value(document: SkillDocument, entry: FrontmatterEntry, text: str) -> TextEdit:
    """An edit replacing an entry's value; an empty value gets the space YAML needs after the colon."""
    if entry.value_range.start == entry.value_range.end:
        # An empty value sits just after the colon: replace the blanks that follow it (``name:   ``) with one
        # space and the value, keeping a comment apart from the value (``name: x # note``).
        start = entry.value_range.start
        rest = document.lines.line_text(start.line)[start.character :]
        after = rest.lstrip(" \t")
        end = Position(start.line, start.character + len(rest) - len(after))
        suffix = " " if after.startswith("#") else ""
        return TextEdit(document.path, Range(start, end), " " + text + suffix)
    return TextEdit(document.path, entry.value_range, text)


def _yaml_scalar(text: str) -> str:
    """``text`` as a YAML scalar that reads back as the same string (quoted only when needed)."""
    try:
        if facts.NAME_PATTERN.match(text) and yaml.safe_load(text) == text:
            return text
    except yaml.YAMLError:
        pass
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "a list", "an integer"."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _check_structure(document: SkillDocument, findings: Findings) -> None:
    if not document.has_frontmatter:
        first = document.first_line_range()
        if first.end.character == 0 and document.lines.line_count == 1:
            message = "SKILL.md is empty: start it with a `---` frontmatter block holding `name` and `description`."
        else:
            message = (
                "SKILL.md must start with a `---` frontmatter block holding `name` and `description`; "
                "without it Clarvis skips the skill."
            )
        directory = document.path.parent.name
        stub = (
            f"---{_newline(document)}name: {_yaml_scalar(directory)}{_newline(document)}"
            f"description: {_yaml_scalar(DESCRIPTION_STUB)}{_newline(document)}---{_newline(document)}"
        )
        fix = Fix(
            "Add a frontmatter block with name and description",
            (TextEdit(document.path, Range.point(0, 0), stub),),
            safe=False,
        )
        findings.add(NO_FRONTMATTER.code, first, message, fixes=[fix])
        return
    if not document.frontmatter_closed:
        findings.add(
            NO_FRONTMATTER.code,
            document.first_line_range(),
            "The frontmatter opened here is never closed: add a `---` line after its last field.",
        )
        return
    if document.yaml_problem is not None:
        findings.add(
            INVALID_YAML.code,
            document.yaml_problem.range,
            f"Invalid YAML in the frontmatter: {document.yaml_problem.message}. Clarvis skips this skill "
            "until it parses.",
        )
    elif document.not_a_mapping is not None:
        findings.add(
            INVALID_YAML.code,
            document.not_a_mapping,
            "The frontmatter must be a mapping of `key: value` fields, not a list or a single value.",
        )


def _check_duplicate_keys(document: SkillDocument, findings: Findings) -> None:
    first_seen: dict[str, FrontmatterEntry] = {}
    for entry in document.entries:
        earlier = first_seen.get(entry.key)
        if earlier is None:
            first_seen[entry.key] = entry
            continue
        findings.add(
            DUPLICATE_KEY.code,
            entry.key_range,
            f'"{entry.key}" appears twice (first on line {earlier.key_range.start.line + 1}); YAML keeps only '
            "this last value. Remove one of them.",
            related=[Related(document.path, earlier.key_range, f'first "{entry.key}"')],
        )


def _check_name(document: SkillDocument, findings: Findings) -> None:
    entry = document.entry("name")
    directory = document.path.parent.name
    directory_is_valid = bool(facts.NAME_PATTERN.match(directory)) and len(directory) <= facts.NAME_MAX_LENGTH
    if entry is None or (entry.is_scalar and entry.value in (None, "")):
        fixes = []
        edit = (
            _insert_after_open(document, f"name: {_yaml_scalar(directory)}")
            if entry is None
            else _set_value(document, entry, _yaml_scalar(directory))
        )
        if directory_is_valid and edit is not None:
            fixes.append(Fix(f'Set name to the directory name "{directory}"', (edit,)))
        findings.add(
            MISSING_NAME.code,
            entry.key_range if entry is not None else document.first_line_range(),
            "The skill has no name: add `name:` (usually the directory name); without it Clarvis skips the skill.",
            fixes=fixes,
        )
        return
    value = entry.value
    if not entry.is_scalar or not isinstance(value, str):
        findings.add(
            INVALID_NAME.code,
            entry.value_range,
            f"`name` must be a string, not {_a(entry.yaml_type)}: quote it or use letters, digits, `.`, `_` and `-`.",
        )
        return
    if not facts.NAME_PATTERN.match(value):
        bad = sorted({char for char in value if not facts.NAME_PATTERN.match(char)})
        shown = ", ".join(repr(char) for char in bad[:5])
        findings.add(
            INVALID_NAME.code,
            entry.value_range,
            f'Invalid skill name "{value}": {shown} not allowed; use only letters, digits, `.`, `_` and `-`.',
        )
    elif len(value) > facts.NAME_MAX_LENGTH:
        findings.add(
            INVALID_NAME.code,
            entry.value_range,
            f"The skill name is {len(value)} characters long; the limit is {facts.NAME_MAX_LENGTH}.",
        )
    if value != directory and directory:
        fixes = []
        if directory_is_valid:
            fixes.append(
                Fix(
                    f'Set name to the directory name "{directory}"',
                    (TextEdit(document.path, entry.value_range, _yaml_scalar(directory)),),
                    safe=False,  # a rename changes the skill's identity and its precedence
                )
            )
        findings.add(
            NAME_DIRECTORY_MISMATCH.code,
            entry.value_range,
            f'The name "{value}" differs from its directory "{directory}": rename one so they match.',
            fixes=fixes,
        )


def _check_description(document: SkillDocument, findings: Findings) -> None:
    entry = document.entry("description")
    if entry is None:
        anchor = document.entry("name")
        edit = (
            TextEdit(
                document.path,
                Range.point(anchor.line_span[1], 0),
                f"{_indent(document)}description: {_yaml_scalar(DESCRIPTION_STUB)}{_newline(document)}",
            )
            if anchor is not None and not document.flow_mapping
            else _insert_after_open(document, f"description: {_yaml_scalar(DESCRIPTION_STUB)}")
        )
        findings.add(
            MISSING_DESCRIPTION.code,
            anchor.key_range if anchor is not None else document.first_line_range(),
            "The skill has no description: add `description:` saying what it does and when to use it; "
            "without it Clarvis skips the skill.",
            fixes=[Fix("Add a description stub", (edit,), safe=False)] if edit is not None else [],
        )
        return
    value = entry.value
    if entry.is_scalar and (value is None or (isinstance(value, str) and not value.strip())):
        findings.add(
            MISSING_DESCRIPTION.code,
            Range(entry.key_range.start, entry.value_range.end),
            "The description is empty: say what the skill does and when to use it.",
            fixes=[
                Fix(
                    "Add a description stub",
                    (_set_value(document, entry, _yaml_scalar(DESCRIPTION_STUB)),),
                    safe=False,
                )
            ],
        )


def _check_unknown_fields(document: SkillDocument, findings: Findings) -> None:
    present = {entry.key for entry in document.entries}
    for entry in document.entries:
        if entry.key in facts.FIELD:
            continue
        suggestion = closest(entry.key, facts.FIELDS)
        fits = suggestion is not None and _fits(facts.FIELD[suggestion].types, entry.node)
        fixes = []
        rename = TextEdit(document.path, entry.key_range, suggestion or "")
        if suggestion is not None and suggestion not in present and fits:
            fixes.append(Fix(f'Rename "{entry.key}" to "{suggestion}"', (rename,)))
        elif (
            suggestion is not None
            and suggestion not in present
            and facts.FIELD[suggestion].types == ("boolean",)
            and (meant := _boolean_word(entry)) is not None
        ):  # `user-invokable: yes`: both mistakes at once
            fixes.append(
                Fix(
                    f'Rename "{entry.key}" to "{suggestion}" and write the boolean {meant}',
                    (rename, TextEdit(document.path, entry.value_range, meant)),
                )
            )
        if (removal := _remove_entry(document, entry)) is not None:
            fixes.append(Fix(f'Remove the field "{entry.key}"', (removal,), safe=False))
        message = f'Unknown frontmatter field "{entry.key}": Clarvis ignores it.'
        if suggestion is not None:
            message += f' Did you mean "{suggestion}"?'
            if not fits:
                wanted = " or ".join(_TYPE_NOUNS.get(kind, kind) for kind in facts.FIELD[suggestion].types)
                message += f" It takes {wanted}, not {_a(entry.yaml_type)}."
        else:
            message += " Known fields: " + ", ".join(facts.FIELDS) + "."
        findings.add(UNKNOWN_FIELD.code, entry.key_range, message, fixes=fixes)


def _source(document: SkillDocument, where: Range) -> str:
    """The text of the file inside ``where``, as written."""
    return document.lines.text[document.lines.offset(where.start) : document.lines.offset(where.end)]


_TYPE_NOUNS = {"string": "a string", "array": "a list of strings", "boolean": "a boolean"}


def _fits(types: tuple[str, ...], node: yaml.Node) -> bool:
    """Whether ``node`` is a valid value for a field of these schema types: a rename to a near-miss key that would
    leave a wrongly typed value is not offered as a fix (``agents: [x]`` is not ``agent: [x]``)."""
    if not types:
        return True
    if "string" in types and (_is_string(node) or (isinstance(node, yaml.ScalarNode) and node.value == "")):
        return True
    if "array" in types and _is_string_list(node):
        return True
    return "boolean" in types and isinstance(node, yaml.ScalarNode) and node.tag.endswith(":bool")


def _is_string_list(node: yaml.Node) -> bool:
    return isinstance(node, yaml.SequenceNode) and all(
        isinstance(item, yaml.ScalarNode) and item.tag.endswith(":str") for item in node.value
    )


def _is_string(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str")


def _check_field_types(document: SkillDocument, findings: Findings) -> None:
    """Each known field against the type the schema gives it; ``name`` is ``skill/invalid-name``'s, and ``version``
    has a check of its own (an unquoted ``1.0`` is a float)."""
    last = {entry.key: entry for entry in document.entries}  # the entry a loader keeps: the last of each key
    for field in facts.FIELD.values():
        key = field.name
        entry = last.get(key)
        if entry is None or key == "name":
            continue
        if key == "version":
            _check_version(document, entry, findings)
        elif field.types == ("boolean",):
            _check_boolean(document, key, entry, findings)
        elif field.types == ("string",):
            if (entry.is_scalar and entry.value is None) or _is_string(entry.node):
                continue
            findings.add(
                INVALID_FIELD_TYPE.code,
                entry.value_range,
                f"`{key}` must be a string, not {_a(entry.yaml_type)}.",
            )
        elif field.types == ("string", "array"):
            if _is_string(entry.node) or _is_string_list(entry.node):
                continue
            if isinstance(entry.node, yaml.SequenceNode) and _check_mapping_items(document, key, entry, findings):
                continue
            findings.add(
                INVALID_FIELD_TYPE.code,
                entry.value_range,
                f"`{key}` must be a string or a list of strings, not {_a(entry.yaml_type)}.",
            )


def _check_mapping_items(document: SkillDocument, key: str, entry: FrontmatterEntry, findings: Findings) -> bool:
    """A list item written ``optional: date`` is a mapping, not the string the user meant: YAML reads ``: `` as a
    key and its value. Say so on that item, and offer to quote the whole value as one string. False when the
    list is wrong some other way (the generic message then applies)."""
    sequence = entry.node
    assert isinstance(sequence, yaml.SequenceNode)
    items = sequence.value
    mappings = [item for item in items if isinstance(item, yaml.MappingNode)]
    if not mappings or not all(_is_string(item) or isinstance(item, yaml.MappingNode) for item in items):
        return False
    source = _source(document, entry.value_range)
    fixes = []
    if sequence.flow_style and "\n" not in source and '"' not in source and "\\" not in source:
        fixes.append(
            Fix(
                f"Quote the whole {key} as one string",
                (TextEdit(document.path, entry.value_range, f'"{source}"'),),
                safe=False,  # a list becomes a string: the user may have meant several items
            )
        )
    for item in mappings:
        where = entry.range_of(item)
        if item.value:  # a block mapping ends where the next item starts: end at its last value instead
            where = Range(where.start, entry.range_of(item.value[-1][1]).end)
        written = _source(document, where)
        findings.add(
            INVALID_FIELD_TYPE.code,
            where,
            f"`{key}` must be a string or a list of strings, but the item `{written}` is a mapping: YAML reads "
            f'`: ` as a key and its value. Quote the item ("{written}")' + (f" or the whole {key}." if fixes else "."),
            fixes=fixes,
        )
    return True


def _check_version(document: SkillDocument, entry: FrontmatterEntry, findings: Findings) -> None:
    if _is_string(entry.node):
        return
    if entry.is_scalar and entry.yaml_type in ("float", "integer"):
        written = document.text[
            document.lines.offset(entry.value_range.start) : document.lines.offset(entry.value_range.end)
        ]
        fixes = []
        if not written.startswith("*"):  # quoting an alias (`version: *v`) would make the string "*v"
            fixes.append(
                Fix(
                    f'Quote the version as "{written}"',
                    (TextEdit(document.path, entry.value_range, f'"{written}"'),),
                )
            )
        findings.add(
            INVALID_FIELD_TYPE.code,
            entry.value_range,
            f"`version: {written}` is a YAML {entry.yaml_type} ({entry.value!r}), not the text you wrote: "
            + (f'quote it as "{written}".' if fixes else "quote the value where its anchor is defined."),
            severity=Severity.WARNING,
            fixes=fixes,
        )
        return
    findings.add(INVALID_FIELD_TYPE.code, entry.value_range, f"`version` must be a string, not {_a(entry.yaml_type)}.")


_BOOLEAN_WORDS = {
    "true": "true",
    "false": "false",
    "yes": "true",
    "no": "false",
    "on": "true",
    "off": "false",
}


def _boolean_word(entry: FrontmatterEntry) -> str | None:
    """``true``/``false`` when the value is a string that means one (``yes``, ``'on'``), else None."""
    if entry.is_scalar and isinstance(entry.value, str):
        return _BOOLEAN_WORDS.get(entry.value.strip().lower())
    return None


def _check_boolean(document: SkillDocument, key: str, entry: FrontmatterEntry, findings: Findings) -> None:
    if entry.is_scalar and isinstance(entry.value, bool):
        return
    fixes = []
    if (meant := _boolean_word(entry)) is not None:
        fixes.append(Fix(f"Write the boolean {meant}", (TextEdit(document.path, entry.value_range, meant),)))
    findings.add(
        INVALID_FIELD_TYPE.code,
        entry.value_range,
        f"`{key}` must be a boolean (true or false), not {_a(entry.yaml_type)}.",
        fixes=fixes,
    )


def _check_tools_alias(document: SkillDocument, findings: Findings) -> None:
    for alias_key, target_key in facts.ALIASES.items():
        target = document.entry(target_key)
        alias = document.entry(alias_key)
        if target is None or alias is None:
            continue
        findings.add(
            TOOLS_ALIAS_CONFLICT.code,
            alias.key_range,
            f"`{alias_key}` is an alias of `{target_key}`, and both are set: keep one of them.",
            related=[Related(document.path, target.key_range, f"`{target_key}` is set here")],
        )


def _check_agent(document: SkillDocument, context: SkillContext, findings: Findings) -> None:
    entry = document.entry("agent")
    if context.agents is None or entry is None or not _is_string(entry.node):
        return
    name = str(entry.value).strip()
    if not name:
        return
    agent = context.agents.get(name)
    if agent is not None:
        # A plugin's agent exists only while the plugin is enabled (SPEC §3.5: installed *and* enabled).
        plugin = getattr(agent, "plugin", None)
        if getattr(agent, "enabled", True) or plugin is None:
            return
        findings.add(
            UNKNOWN_AGENT.code,
            entry.value_range,
            f'The agent "{name}" comes from the plugin "{plugin}", which is not in `enabledPlugins`: enable '
            "the plugin in .clarvis/settings.json, or name another agent.",
            related=_agent_related(agent, f'the agent "{name}" of the plugin "{plugin}" (not enabled)'),
        )
        return
    if _plugin_agent(document, entry, name, context, findings):
        return
    known = sorted(key for key, value in context.agents.items() if getattr(value, "enabled", True))
    message = f'No agent named "{name}" was found in .clarvis/agents/, ~/.clarvis/agents/ or the plugins.'
    suggestion = closest(name, known)
    message += did_you_mean(name, known) or (
        " Known agents: " + ", ".join(known[:10]) + "." if known else " Add the agent file or remove `agent`."
    )
    related = _agent_related(context.agents[suggestion], f'the agent "{suggestion}"') if suggestion else []
    findings.add(UNKNOWN_AGENT.code, entry.value_range, message, related=related)


def _plugin_agent(
    document: SkillDocument, entry: FrontmatterEntry, name: str, context: SkillContext, findings: Findings
) -> bool:
    """A bare name of an agent of the skill's own plugin (``skill_agent``), reported with the safe fix that writes
    the qualified name: that agent exists and is the skill's plugin's, so the rename guesses nothing."""
    found = own_plugin_agent(document.path, name, context.agents, context.plugin_owner, context.lexists)
    if found is None:
        return False
    qualified, path = found
    findings.add(
        UNKNOWN_AGENT.code,
        entry.value_range,
        f'No agent is named "{name}": the agents of a plugin are named after it, so this plugin\'s agent '
        f'"{name}" is "{qualified}". Write `agent: {qualified}`.',
        related=[Related(path, Range.point(0, 0), f'the agent "{qualified}"')],
        fixes=[Fix(f'Change the agent to "{qualified}"', (_set_value(document, entry, agent_scalar(qualified)),))],
    )
    return True


def _agent_related(agent: object, message: str) -> list[Related]:
    """The agent's file as a related location (cross-file findings point at the other file)."""
    path = getattr(agent, "path", None)
    return [Related(path, Range.point(0, 0), message)] if isinstance(path, Path) else []


def _without_context(
    check: Callable[[SkillDocument, Findings], None],
) -> Callable[[SkillDocument, SkillContext, Findings], None]:
    return lambda document, _context, findings: check(document, findings)


# The order the rules run in; the structure and link rules also run on a file whose frontmatter did not parse.
RULE_STEPS: tuple[RuleStep[SkillDocument, SkillContext], ...] = (
    RuleStep("skill/structure", (NO_FRONTMATTER.code, INVALID_YAML.code), _without_context(_check_structure)),
    RuleStep("skill/duplicate-key", (DUPLICATE_KEY.code,), _without_context(_check_duplicate_keys), True),
    RuleStep(
        "skill/name",
        (MISSING_NAME.code, INVALID_NAME.code, NAME_DIRECTORY_MISMATCH.code),
        _without_context(_check_name),
        True,
    ),
    RuleStep("skill/description", (MISSING_DESCRIPTION.code,), _without_context(_check_description), True),
    RuleStep("skill/unknown-field", (UNKNOWN_FIELD.code,), _without_context(_check_unknown_fields), True),
    RuleStep("skill/field-types", (INVALID_FIELD_TYPE.code,), _without_context(_check_field_types), True),
    RuleStep("skill/tools-alias", (TOOLS_ALIAS_CONFLICT.code,), _without_context(_check_tools_alias), True),
    RuleStep(
        "skill/agent",
        (UNKNOWN_AGENT.code,),
        lambda document, context, found: _check_agent(document, context, found),
        True,
    ),
    RuleStep(
        "skill/links",
        (BROKEN_LINK.code, ROOT_RELATIVE_LINK.code),
        lambda document, context, found: check_links(document, found, context.lexists, context.workspace),
    ),
)
