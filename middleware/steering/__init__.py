"""SkillSpec v0 steering: load a ``skill.spec.yml``, decide, test, render, enforce.

Modules:

- :mod:`~ruleweave.steering.model` and :mod:`~ruleweave.steering.sections`:
  the document (frozen pydantic models of the whole reference grammar);
- :mod:`~ruleweave.steering.yamldoc`: YAML read the reference's way, with lines;
- :mod:`~ruleweave.steering.loader`: every problem listed, with its line
  (a :class:`~ruleweave.steering.issue.SpecIssue` each);
- :mod:`~ruleweave.steering.validation` and :mod:`~ruleweave.steering.crossrefs`:
  identifiers, duplicates, references, orphans, cycles;
- :mod:`~ruleweave.steering.imports` and :mod:`~ruleweave.steering.sidecars`:
  the files a spec names (imports, resources, code), bounded and contained;
- :mod:`~ruleweave.steering.facts`: phrase matching and task-fact heuristics;
- :mod:`~ruleweave.steering.evaluate`: the rule algebra → :class:`Decision`;
- :mod:`~ruleweave.steering.scenarios`: the document's scenario tests;
- :mod:`~ruleweave.steering.render`: the ``<steering>`` prompt block;
- :mod:`~ruleweave.steering.enforce`: refusing forbidden tool calls;
- :mod:`~ruleweave.steering.trace`: decision traces on disk (the reference's layout).
"""

from __future__ import annotations

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: ``spec decide``'s warm path (steering.quick) imports this package
if TYPE_CHECKING:
    from ruleweave.errors import SpecReadError, SpecValidationError
    from ruleweave.steering.decision import (
        DECISION_JSON_KEYS,
        ChoiceView,
        Decision,
        ElicitRequest,
        RouteSelection,
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
    from ruleweave.steering.imports import ImportGraph, ResolvedImport, resolve_imports
    from ruleweave.steering.issue import SpecIssue
    from ruleweave.steering.loader import SpecReport, check_spec, inspect_spec, load_spec, parse_spec
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
    from ruleweave.steering.trace import TraceWriteResult, require_trace, write_trace

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
    "ImportGraph": "ruleweave.steering.imports",
    "ResolvedImport": "ruleweave.steering.imports",
    "RouteSelection": "ruleweave.steering.decision",
    "SpecReport": "ruleweave.steering.loader",
    "TraceWriteResult": "ruleweave.steering.trace",
    "inspect_spec": "ruleweave.steering.loader",
    "require_trace": "ruleweave.steering.trace",
    "resolve_imports": "ruleweave.steering.imports",
    "write_trace": "ruleweave.steering.trace",
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
    "SpecIssue": "ruleweave.steering.issue",
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
    "ImportGraph",
    "KeywordHeuristic",
    "Phase",
    "Refusal",
    "ResolvedImport",
    "Route",
    "RouteSelection",
    "RuleReason",
    "ScenarioTest",
    "SkillSpec",
    "SpecIssue",
    "SpecReadError",
    "SpecReport",
    "SpecRule",
    "SpecValidationError",
    "TestReport",
    "TestResult",
    "ToolPattern",
    "TraceEvent",
    "TraceWriteResult",
    "check_spec",
    "check_tool",
    "decide",
    "default_route_order",
    "inspect_spec",
    "load_spec",
    "parse_spec",
    "render_steering",
    "require_trace",
    "resolve_imports",
    "run_tests",
    "says",
    "write_trace",
]

__getattr__ = lazy_exports(__name__, _EXPORTS)
