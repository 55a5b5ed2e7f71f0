"""What Clarvis is, as data: events, fields, limits and the on-disk layout, read from the shipped JSON Schemas.

One fact, one place: the schemas in ``schemas/`` say which hook events exist, which MCP fields a transport allows,
which SKILL.md keys Clarvis reads; rules, completion, hover and tests import those facts from here instead of
keeping their own lists. Protocol-free and validator-free (plain ``json.load``, never pygls, lsprotocol or
jsonschema), and each submodule reads only its own schemas, once, when first imported.
"""
