"""A host's hook answer, warm (from its snapshot) or cold (``HostHooks`` over the rules loaded now).

``ruleweave hook <agent>`` (``ruleweave.hosts._command``) calls these for every
host that declares no ``answer_warm``/``answer_cold`` of its own. This module is
on the hook's fast path: standard library only, no ``typing``; the rule
machinery is imported inside the functions that need it.
"""

from __future__ import annotations

import os

from ruleweave.hosts import MISS

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ruleweave.config import RuleweaveConfig
    from ruleweave.hosts import Answer, Host
    from ruleweave.hosts._core.hooks import HostHooks
    from ruleweave.hosts._hook_log import HookLog
    from ruleweave.hosts._options import HookOptions


def answer_warm(agent: Host, payload: Mapping[str, Any], options: HookOptions) -> object:
    """The answer from the host's snapshot (``snapshot.answer``), or ``MISS``."""
    from ruleweave.hosts._core import snapshot

    found = snapshot.answer(agent, payload, options)
    return MISS if found is snapshot.MISS else found


def answer_cold(
    agent: Host,
    payload: Mapping[str, Any],
    options: HookOptions,
    log: HookLog,
    state: str,
    write_snapshot: bool,
    templates: Mapping[str, str] | None = None,
) -> Answer:
    """The answer of ``HostHooks`` over the rules loaded now (and the snapshot written, if asked).

    Nothing (and no snapshot) in a project the user told the agent not to trust: the agent loads
    none of its instruction files there, and the hooks give none of its rules either.
    """

    def load() -> HostHooks | None:
        # Inside the snapshot's recording: the files the trust decision reads become its dependencies,
        # so a project distrusted after a snapshot was written misses the warm path.
        if agent.distrusted is not None and agent.distrusted(event_config(agent, payload, options)):
            log.write("hook_skipped", hook_event=agent.read_event(payload).name or "",
                      reason=f"{agent.title} does not trust this project")
            return None
        return load_hooks(agent, payload, options, log, templates)

    if write_snapshot:
        from ruleweave.hosts._core.snapshot_build import answer_and_snapshot

        return answer_and_snapshot(agent, payload, options, log, state, load)
    hooks = load()
    return None if hooks is None else hooks.handle(payload)


def load_hooks(
    agent: Host,
    payload: Mapping[str, Any],
    options: HookOptions,
    log: HookLog,
    templates: Mapping[str, str] | None = None,
) -> HostHooks:
    """``HostHooks`` over the rule set loaded now for the event's directory.

    Args:
        agent: The host.
        payload: The hook input (its ``cwd`` names the project unless ``--cwd`` does).
        options: The hook's options.
        log: The hook log.
        templates: How a cut rule is read in full here (default: the host's ``read_rule_templates``).
    """
    from ruleweave._kernel.delivery import MARKS
    from ruleweave._kernel.state import state_directory
    from ruleweave.hosts._core.hooks import HostHooks
    from ruleweave.hosts._core.native import hook_config
    from ruleweave.ruleset import RuleSet

    config = event_config(agent, payload, options)
    leave_out = not options.include_native
    ruleset = RuleSet.load(hook_config(config, agent, leave_out_native=leave_out, templates=templates))
    # Sessions whose queue holds pieces are marked in the state directory: the warm path then misses.
    marks = os.path.join(state_directory(os.environ, os.path.expanduser("~")), MARKS)
    return HostHooks(ruleset, host=agent, leave_out_native=leave_out, log=log, queue_marks=marks)


def event_config(agent: Host, payload: Mapping[str, Any], options: HookOptions) -> RuleweaveConfig:
    """The configuration for the event's directory (its ``cwd``, unless ``--cwd`` names one)."""
    from ruleweave.config import RuleweaveConfig

    cwd = options.cwd or agent.read_event(payload).cwd
    return RuleweaveConfig(
        cwd=cwd if isinstance(cwd, str) and cwd else os.getcwd(),
        project_root=options.root,
        event_log=options.event_log,
        store=options.store,
    )
