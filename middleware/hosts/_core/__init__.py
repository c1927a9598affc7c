"""The hook engine every host shares: the handlers (``hooks.HostHooks``), the answer's packing under the
host's limit (``delivery``), the warm start (``snapshot``, ``snapshot_build``), subagents and what each
host reads itself (``native``); ``answer`` wires them for ``ruleweave hook <agent>``, ``served`` for the
``hook`` tool of a running ``ruleweave mcp --host <agent>``.

On the hook's fast path: importing the package imports nothing.
"""
