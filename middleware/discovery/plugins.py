"""plugins (priority 90): rule providers from other installed packages.

Each entry point in the group ``ruleweave.providers`` names either a
``Provider`` or a function ``load(ctx) -> list[Rule]``. Plugins are loaded
in entry-point name order; their rules keep the names the plugin gives and
are stamped with this provider's priority. A plugin that fails to import
or raises becomes a warning naming it.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.rules import Rule, SourceMeta

ID, PRIORITY = "plugins", 90
GROUP = "ruleweave.providers"


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load every plugin's rules."""
    rules: list[Rule] = []
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            target = point.load()
            loader = target.load if isinstance(target, Provider) else target
            loaded = loader(ctx)
            if not isinstance(loaded, list) or not all(isinstance(r, Rule) for r in loaded):
                raise TypeError("it did not return a list of Rule")
        except Exception as exc:
            ctx.warn(point.value, f"plugin {point.name!r} failed: {exc}")
            continue
        for rule in loaded:
            source = SourceMeta(
                provider=f"{ID}:{point.name}", priority=PRIORITY,
                level=rule.source.level, path=rule.source.path,
            )
            rules.append(rule.model_copy(update={"source": source}))
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "entry points in group ruleweave.providers")
