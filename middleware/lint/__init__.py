"""``ruleweave lint``: what each agent really sees of a repository's rules, and what is wrong with them.

Checks, each a module: dead globs (``dead_globs``), agents' limits and
ruleweave's budgets (``limits``), duplicates and drift (``drift``), rules
nothing reaches (``reachability``); the per-agent view (``agent_view``). What
lint knows about each agent is one table (``agents``). ``lint(config)``
runs them all over one load of the project (``sources``).
"""

from __future__ import annotations

from ruleweave.lint.agent_view import AgentView
from ruleweave.lint.agents import AGENT_IDS, AGENTS, Agent
from ruleweave.lint.findings import CODES, Finding
from ruleweave.lint.run import LintReport, lint

__all__ = ["AGENTS", "AGENT_IDS", "CODES", "Agent", "AgentView", "Finding", "LintReport", "lint"]
