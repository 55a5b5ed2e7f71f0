"""One workspace's state: the engine (``engine``) that holds a workspace's configuration, its discovery and the
editor's open buffers, and keeps them current as files change (incremental updates); ``findings`` assembles a
file's findings for both front ends; ``plugin_skills`` and ``marketplaces`` answer two questions several views ask.

May import the library rooms below it (``rules/``, ``config/``, ``discovery/``, ``documents/``, ``knowledge/``,
``findings``). Never imports a front end (``batch/``, ``server/``, the CLI), the editor features or the effective
model: those are built on the engine, and a headless run brings its own ways of reading and spreading work as
abstractions (``discovery.io``), not as options of the engine.
"""
