"""kilocode (priority 40): Kilo Code's rule folders (a Roo Code fork).

User tier ``~/.kilocode/rules/`` first, then ``.kilocode/rules/`` and
``.kilocode/rules-<mode>/`` in each directory of the root→cwd walk (not nested
folders: Kilo reads the workspace's own ``.kilocode``). Read as Roo reads its
folders (``discovery.roo``): every file, recursively, whatever its extension,
cache and system files aside; ``rules/`` always applied; a mode's folder
always applied when ``RuleweaveConfig.mode`` names that mode, else manual
(``rule://`` only). Kilo reads no ``rules-<mode>`` folder in the user tier.

Legacy single files at the project root: ``.kilocoderules`` when no
``rules/`` folder gave a file, ``.kilocoderules-<mode>`` when no
``rules-<mode>/`` folder did. Kilo falls back to ``.roo/rules``, ``.roorules``
and ``.clinerules`` after its own; those are read by the ``roo`` and ``cline``
providers (https://github.com/Kilo-Org/kilocode, ``src/core/prompts/sections/custom-instructions.ts``:
``loadRuleFiles``, ``loadEnabledRules``, ``addCustomInstructions``).

Follows: Kilo Code's loader, ``src/core/prompts/sections/custom-instructions.ts`` in
https://github.com/Kilo-Org/kilocode.
"""

from __future__ import annotations

from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.roo import load_home, load_legacy
from ruleweave.rules import Rule

ID, PRIORITY = "kilocode", 40
LEGACY = ".kilocoderules"


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Kilo Code rules, user tier first."""
    if ctx.nested:
        return []
    rules = load_home(
        ctx, under(ctx.config.user_home, ".kilocode"), "user", provider=ID, priority=PRIORITY, modes=False
    )
    for directory in ctx.walk:
        rules += load_home(ctx, under(directory, ".kilocode"), "project", provider=ID, priority=PRIORITY)
    rules += load_legacy(
        ctx, ctx.config.root, rules, provider=ID, priority=PRIORITY, generic=(LEGACY,), per_mode=(LEGACY,)
    )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load,
    "~/.kilocode/rules, .kilocode/rules/, .kilocode/rules-<mode>/, else .kilocoderules(-<mode>)",
    places=True,
)
