"""SkillSpec v0 steering: load a ``skill.spec.yml``, decide, test, render, enforce.

Modules:

- :mod:`~ruleweave.steering.model`: the document (frozen pydantic models);
- :mod:`~ruleweave.steering.loader`: YAML with line marks, every problem listed;
- :mod:`~ruleweave.steering.validation`: identifiers, duplicates, references;
- :mod:`~ruleweave.steering.facts`: phrase matching and task-fact heuristics;
- :mod:`~ruleweave.steering.evaluate`: the rule algebra → :class:`Decision`;
- :mod:`~ruleweave.steering.scenarios`: the document's scenario tests;
- :mod:`~ruleweave.steering.render`: the ``<steering>`` prompt block;
- :mod:`~ruleweave.steering.enforce`: refusing forbidden tool calls.
"""

from __future__ import annotations

from ruleweave.steering.decision import (
    DECISION_JSON_KEYS,
    ChoiceView,
    Decision,
    ElicitRequest,
    RuleReason,
    TraceEvent,
)
from ruleweave.steering.enforce import (
    DEFAULT_TOOL_MAP,
    SHELL_TOOLS,
    Refusal,
    ToolPattern,
    check_tool,
)
from ruleweave.steering.errors import SpecIssue, SpecReadError, SpecValidationError
from ruleweave.steering.evaluate import ExtensionPredicate, decide, default_route_order
from ruleweave.steering.facts import DEFAULT_HEURISTICS, Heuristic, KeywordHeuristic, says
from ruleweave.steering.loader import check_spec, load_spec, parse_spec
from ruleweave.steering.model import (
    STANDARD_PREDICATES,
    Elicitation,
    ExecutionPlan,
    Phase,
    Route,
    Rule,
    ScenarioTest,
    SkillSpec,
)
from ruleweave.steering.render import render_steering
from ruleweave.steering.scenarios import TestReport, TestResult, run_tests

__all__ = [
    "DECISION_JSON_KEYS",
    "DEFAULT_HEURISTICS",
    "DEFAULT_TOOL_MAP",
    "SHELL_TOOLS",
    "STANDARD_PREDICATES",
    "ChoiceView",
    "Decision",
    "ElicitRequest",
    "Elicitation",
    "ExecutionPlan",
    "ExtensionPredicate",
    "Heuristic",
    "KeywordHeuristic",
    "Phase",
    "Refusal",
    "Route",
    "Rule",
    "RuleReason",
    "ScenarioTest",
    "SkillSpec",
    "SpecIssue",
    "SpecReadError",
    "SpecValidationError",
    "TestReport",
    "TestResult",
    "ToolPattern",
    "TraceEvent",
    "check_spec",
    "check_tool",
    "decide",
    "default_route_order",
    "load_spec",
    "parse_spec",
    "render_steering",
    "run_tests",
    "says",
]
