"""The headless run (``--check``, ``--effective``): everything that exists only to make one run over a snapshot of
the tree fast.

A run is planned (``plan``: workspaces, engines, files), discovered (``run.discover``: a large root spread over
forked processes by ``spread``, SKILL.md files checked where they are read by ``ahead``, directory listings shared
by ``listings``) and checked (``run.check_paths``, per-file work spread by ``processes``), with the collector
paused while it allocates (``clarvis_lsp.memory``). The process then leaves without tearing its objects down
(``cli``). A run takes a request (``plan.CheckRequest``, ``effective.EffectiveRequest``): only ``cli`` reads the
command line.

May import: ``workspace/``, ``discovery/``, ``rules/``, ``documents/``, ``knowledge/``, ``output/``, the
configuration, ``memory``. Never imported by ``discovery/``, ``workspace/``, ``rules/`` or ``documents/``: the
library and the language server work without it, and it imports nothing of the server.
"""
