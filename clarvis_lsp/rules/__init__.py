"""The rules: one module per rule family (``skill``, ``settings``, ``hooks``…), each declaring its codes in the
catalogue (``catalogue``) and reporting them through ``Findings`` (``base``); the family table (``families``) says
which module declares which codes, and the runner (``runner``) which rules each file kind runs, each isolated.
``RuleSelection`` (``selection``) decides which codes are reported and at what severity.

Rules read parsed documents (``documents/``) and what discovery found (``discovery/``); nothing here imports the
server, the CLI or the project configuration modules.
"""
