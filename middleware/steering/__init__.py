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

from typing import TYPE_CHECKING

from ruleweave.lazy import lazy_exports

if TYPE_CHECKING:
    from ruleweave.errors import SpecIssue, SpecReadError, SpecValidationError
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
    from ruleweave.steering.evaluate import ExtensionPredicate, decide, default_route_order
    from ruleweave.steering.facts import DEFAULT_HEURISTICS, Heuristic, KeywordHeuristic, says
    from ruleweave.steering.loader import check_spec, load_spec, parse_spec
    from ruleweave.steering.model import (
        STANDARD_PREDICATES,
        Elicitation,
        ExecutionPlan,
        Phase,
        Route,
        ScenarioTest,
        SkillSpec,
        SpecRule,
    )
    from ruleweave.steering.render import render_steering
    from ruleweave.steering.scenarios import TestReport, TestResult, run_tests

# Submodules load on first use: a session without a SkillSpec never pays for them.
_EXPORTS: dict[str, str] = {
    "ChoiceView": "ruleweave.steering.decision",
    "DECISION_JSON_KEYS": "ruleweave.steering.decision",
    "DEFAULT_HEURISTICS": "ruleweave.steering.facts",
    "DEFAULT_TOOL_MAP": "ruleweave.steering.enforce",
    "Decision": "ruleweave.steering.decision",
    "ElicitRequest": "ruleweave.steering.decision",
    "Elicitation": "ruleweave.steering.model",
    "ExecutionPlan": "ruleweave.steering.model",
    "ExtensionPredicate": "ruleweave.steering.evaluate",
    "Heuristic": "ruleweave.steering.facts",
    "KeywordHeuristic": "ruleweave.steering.facts",
    "Phase": "ruleweave.steering.model",
    "Refusal": "ruleweave.steering.enforce",
    "Route": "ruleweave.steering.model",
    "SpecRule": "ruleweave.steering.model",
    "RuleReason": "ruleweave.steering.decision",
    "SHELL_TOOLS": "ruleweave.steering.enforce",
    "STANDARD_PREDICATES": "ruleweave.steering.model",
    "ScenarioTest": "ruleweave.steering.model",
    "SkillSpec": "ruleweave.steering.model",
    "SpecIssue": "ruleweave.errors",
    "SpecReadError": "ruleweave.errors",
    "SpecValidationError": "ruleweave.errors",
    "TestReport": "ruleweave.steering.scenarios",
    "TestResult": "ruleweave.steering.scenarios",
    "ToolPattern": "ruleweave.steering.enforce",
    "TraceEvent": "ruleweave.steering.decision",
    "check_spec": "ruleweave.steering.loader",
    "check_tool": "ruleweave.steering.enforce",
    "decide": "ruleweave.steering.evaluate",
    "default_route_order": "ruleweave.steering.evaluate",
    "load_spec": "ruleweave.steering.loader",
    "parse_spec": "ruleweave.steering.loader",
    "render_steering": "ruleweave.steering.render",
    "run_tests": "ruleweave.steering.scenarios",
    "says": "ruleweave.steering.facts",
}

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
    "RuleReason",
    "ScenarioTest",
    "SkillSpec",
    "SpecIssue",
    "SpecReadError",
    "SpecRule",
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

__getattr__ = lazy_exports(__name__, _EXPORTS)
