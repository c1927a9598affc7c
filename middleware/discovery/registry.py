"""The providers, in registration order (an explicit tuple, no import side effects)."""

from __future__ import annotations

from ruleweave.discovery import (
    agents,
    aiassistant,
    aider,
    augment,
    builtin,
    claude,
    cline,
    codeassist,
    continue_,
    copilot,
    cursor,
    junie,
    kilocode,
    kiro,
    native,
    opencode,
    openhands,
    plugins,
    qwen,
    roo,
    trae,
    windsurf,
)
from ruleweave.discovery.provider import Provider

PROVIDERS: tuple[Provider, ...] = (
    native.PROVIDER,
    plugins.PROVIDER,
    agents.PROVIDER,
    claude.PROVIDER,
    cursor.PROVIDER,
    windsurf.PROVIDER,
    trae.PROVIDER,
    cline.PROVIDER,
    roo.PROVIDER,
    kilocode.PROVIDER,
    copilot.PROVIDER,
    continue_.PROVIDER,
    kiro.PROVIDER,
    augment.PROVIDER,
    junie.PROVIDER,
    aiassistant.PROVIDER,
    opencode.PROVIDER,
    aider.PROVIDER,
    openhands.PROVIDER,
    codeassist.PROVIDER,
    qwen.PROVIDER,
    builtin.PROVIDER,
)
"""Every provider; equal priorities keep this order (cursor before windsurf before trae)."""


def ordered(providers: tuple[Provider, ...] = PROVIDERS) -> list[Provider]:
    """Providers by priority, highest first, ties in registration order."""
    return sorted(providers, key=lambda p: -p.priority)
