"""Sessions: ``RuleSession`` (the one object an adapter talks to), its notices, ``rule://`` and pools.

* ``RuleSession`` (``_session``) answers an agent loop's moments: the prompt,
  each tool call's notice, streamed deltas (``_streams``), steering
  (``_steering``), over the state and fail-open store calls of ``_core``;
* ``notices`` decides which scoped rules and nested instruction files a tool
  call calls for (``Injection``);
* ``touch`` reads which paths a tool call touched; ``tool_names`` maps
  agents' tool names onto one kind each;
* ``rule_uri`` resolves ``rule://<name>``; ``pool`` keeps sessions by id.

Names load on first access: importing ``ruleweave.session.touch`` costs no
more than that module.
"""

from __future__ import annotations

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: see ``ruleweave._lazy``
if TYPE_CHECKING:
    from ruleweave.session._session import RuleSession
    from ruleweave.session.notices import Injection, InjectionItem
    from ruleweave.session.pool import SessionPool
    from ruleweave.session.rule_uri import READ_RULE_TOOL, RuleDocument

__all__ = ["READ_RULE_TOOL", "Injection", "InjectionItem", "RuleDocument", "RuleSession", "SessionPool"]

__getattr__ = lazy_exports(
    __name__,
    {
        "READ_RULE_TOOL": "ruleweave.session.rule_uri",
        "Injection": "ruleweave.session.notices",
        "InjectionItem": "ruleweave.session.notices",
        "RuleDocument": "ruleweave.session.rule_uri",
        "RuleSession": "ruleweave.session._session",
        "SessionPool": "ruleweave.session.pool",
    },
)
