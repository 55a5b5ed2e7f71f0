"""What Clarvis is, as data: events, fields, limits, the on-disk layout and which files are Clarvis's
(``files``, the source of ``editors/file-patterns.json``), read from the shipped JSON Schemas.

One fact, one place: the schemas in ``schemas/`` say which hook events exist, which MCP fields a transport allows,
which SKILL.md keys Clarvis reads; rules, completion, hover and tests import those facts from here instead of
keeping their own lists. The bottom room: it imports the standard library only (plain ``json.load``; ``regex``
and ``re2`` where a schema's pattern is matched), never another room of the package, pygls, lsprotocol or
jsonschema, and each submodule reads only its own schemas, once, when first imported.
"""
