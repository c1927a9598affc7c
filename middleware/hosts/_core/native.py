"""What an agent loads itself, and the limit its hooks live under, applied to a configuration.

Every host declares the rules it reads without ruleweave (``Host.native_provider``,
``Host.native_files``, and ``Host.native_fallback`` where ``Host.native_check``
says the agent loads those too; or ``Host.native_names``, where the agent's own
settings name its files); a hook that injected them again would double them,
so ``hook_config`` leaves them out unless asked not to. Each rule's or file's
notice goes out alone if need be (``delivery``), so the notice budget is the
host's context limit, and only a notice that alone exceeds it is cut
(``fit_context``, on a line boundary, with a marker saying where the whole text is).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruleweave.config import RuleweaveConfig
    from ruleweave.hosts import Host

_CUT_MARKER = (
    "\n[ruleweave: {dropped} bytes left out to stay under {agent}'s {limit:,}-{what} hook limit{where}]"
)


def hook_config(
    config: RuleweaveConfig,
    agent: Host,
    *,
    leave_out_native: bool = True,
    templates: Mapping[str, str] | None = None,
) -> RuleweaveConfig:
    """``config`` for ``agent``'s hooks: notices within its limit, and without what it loads itself.

    The prompt contribution keeps the configured ``prompt_max_bytes``: a start context
    longer than one answer goes out in parts (``delivery.split_start``).

    Args:
        config: The caller's configuration.
        agent: The host.
        leave_out_native: Drop the host's native provider and the instruction files it reads itself.
        templates: Template defaults of this way of running the hooks (how a rule is read in
            full); the caller's own overrides win. Default: the host's ``read_rule_templates``.

    Returns:
        The derived configuration (``config`` itself when nothing changes).
    """
    update: dict[str, Any] = {}
    if config.notice_max_bytes != agent.context_limit:  # each notice goes out alone: the limit is the budget
        update["notice_max_bytes"] = agent.context_limit
    if leave_out_native:
        provider = agent.native_provider
        if provider is not None and provider not in config.disabled_providers:
            update["disabled_providers"] = config.disabled_providers | {provider}
        native = agent.native_files if agent.native_names is None else agent.native_names(config)
        if agent.native_fallback and agent.native_check is not None and agent.native_check(config):
            native = native | agent.native_fallback
        if agent.native_user is not None:
            import os

            user = tuple(dict.fromkeys((*config.native_user_files,
                                        *(os.path.normpath(path) for path in agent.native_user(config)))))
            if user != config.native_user_files:
                update["native_user_files"] = user
        if agent.native_walk_only:  # out of the start blob only: nested ones below the cwd still go out
            walk = tuple(dict.fromkeys((*config.native_walk_files, *sorted(native))))
            if walk != config.native_walk_files:
                update["native_walk_files"] = walk
            if agent.native_walk_budget is not None:
                update["native_walk_budget"] = agent.native_walk_budget(config)
        else:
            kept = tuple(name for name in config.instruction_files if name not in native)
            if kept != config.instruction_files:
                update["instruction_files"] = kept
            # Also where an agent's setting names them (``formats.plan`` adds those to the configured).
            everywhere = tuple(dict.fromkeys((*config.native_files, *sorted(native))))
            if everywhere != config.native_files:
                update["native_files"] = everywhere
    defaults = templates if templates is not None else agent.read_rule_templates
    missing = {name: text for name, text in (defaults or {}).items() if name not in config.templates}
    if missing:
        update["templates"] = {**config.templates, **missing}
    return config.replace(**update) if update else config


def fit_context(
    text: str, *, limit: int, agent: str, where: str | None = None, unit: str = "utf16"
) -> tuple[str, bool]:
    """``text`` cut on a line boundary to stay within ``limit`` units (UTF-16 code units, as JavaScript
    counts, or UTF-8 bytes).

    Args:
        text: The context.
        limit: The most units.
        agent: The agent's name, for the marker.
        where: Where the whole text is (``rule://name``, a path), for the marker.
        unit: ``utf16`` or ``utf8`` (``Host.context_unit``).

    Returns:
        The text, ending with a marker saying how many bytes were left out and where the whole
        text is when it was cut, and whether it was cut.
    """
    from ruleweave._kernel.delivery import UNITS, head_within

    length = UNITS[unit]
    if length(text) <= limit:
        return text, False
    size = len(text.encode("utf-8", "surrogatepass"))
    tail = "" if where is None else f"; whole text at {where}"
    what = "byte" if unit == "utf8" else "character"
    marker = _CUT_MARKER.format(dropped=size, agent=agent, limit=limit, what=what, where=tail)  # the widest
    head = head_within(text, limit - length(marker), unit)
    newline = head.rfind("\n")
    head = head[:newline] if newline > 0 else head
    dropped = size - len(head.encode("utf-8", "surrogatepass"))
    return head + _CUT_MARKER.format(dropped=dropped, agent=agent, limit=limit, what=what, where=tail), True
