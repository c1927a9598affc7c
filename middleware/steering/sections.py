"""Typed models of the SkillSpec sections around the steering core.

``activation``, ``entry``, ``states``, ``trace``, ``dependencies``,
``imports``, ``resources``, ``code``, ``artifacts``, ``recipes``,
``commands``, ``snippets`` and ``proof`` follow the reference grammar: every
object is strict (an unknown field is an error) and every enumerated value
is checked. ruleweave evaluates none of them except ``trace`` (which events a
trace records, and whether one is required) and ``imports`` (resolved by
:mod:`ruleweave.steering.imports`); the others are validated and kept.
Free-form surfaces (command ``success_when``, artifact ``schema``) take any
value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import Field, StrictBool, model_validator

from ruleweave.steering.fields import Count, Ids, SafetyClass, StrictModel, Text, UseKind

TraceEventKind = Literal[
    "input_received",
    "spec_loaded",
    "rule_evaluated",
    "rule_matched",
    "route_selected",
    "route_order_set",
    "forbid_added",
    "allow_added",
    "elicitation_requested",
    "after_success_scheduled",
    "outcome_recorded",
]
"""One of :data:`TRACE_EVENT_KINDS`."""

TRACE_EVENT_KINDS: tuple[str, ...] = get_args(TraceEventKind)
"""The v0 decision-trace event kinds, in their canonical order (the ``Literal``'s, so the two agree)."""


class ToolBoundary(StrictModel):
    """A phase-scoped tool permission contract (kept, not enforced)."""

    default: Literal["deny", "allow"] | None = None
    allow: Ids = ()
    forbid: Ids = ()
    permission_required_for: Ids = ()


class Activation(StrictModel):
    """When a harness should load the skill (advisory)."""

    summary: Text
    keywords: Ids = ()
    priority: Text | None = None


class Entry(StrictModel):
    """The first user-facing question or setup posture."""

    prompt: Text
    decision_required: StrictBool = False
    supersedes_skills: Ids = ()
    forbid_before_decision: Ids = ()
    tool_boundary: ToolBoundary | None = None


class State(StrictModel):
    """A named lifecycle position (``do`` is ``do_`` here)."""

    do_: Ids = Field(default=(), alias="do")
    say: Text | None = None
    ask: Text | None = None
    next: Text | None = None
    yes: Text | None = None
    no: Text | None = None


class TraceConfig(StrictModel):
    """Which decision events to persist, and whether a trace is required.

    Attributes:
        mode: Always ``event_log`` in v0.
        required: A decision must be traced (``spec decide`` needs ``--trace-dir``).
        record: The event kinds to write; empty means all of them.
    """

    mode: Literal["event_log"]
    required: StrictBool = False
    record: tuple[TraceEventKind, ...] = ()


class DependencyCheck(StrictModel):
    """How a harness can tell a dependency is present."""

    command: Text | None = None
    path: Text | None = None
    env: Text | None = None


class DependencyPermission(StrictModel):
    """Whether using a dependency needs approval."""

    required: StrictBool = False
    reason: Text | None = None
    safety: SafetyClass | None = None


class ProvisionOption(StrictModel):
    """One way to install or connect a dependency."""

    id: Text
    label: Text
    description: Text | None = None
    command: Text | None = None
    safety: SafetyClass | None = None


class DependencyProvision(StrictModel):
    """Install or connection options, chosen through an elicitation."""

    elicit: Text | None = None
    options: tuple[ProvisionOption, ...] = ()


class Dependency(StrictModel):
    """A tool, file, variable, service, adapter, browser or package a skill needs."""

    kind: Literal["cli", "package", "file", "env", "service", "adapter", "browser"]
    description: Text | None = None
    command: Text | None = None
    path: Text | None = None
    env: Text | None = None
    check: DependencyCheck | None = None
    permission: DependencyPermission | None = None
    provision: DependencyProvision | None = None


class UseRef(StrictModel):
    """An entry of ``used_by``: the kind of thing and its id."""

    kind: UseKind
    id: Text


class ImportRequires(StrictModel):
    """Imports that must load first."""

    imports: Ids = ()


class Import(StrictModel):
    """Markdown or text a harness loads deliberately during a run.

    Attributes:
        path: Relative to the spec's folder.
        role: ``policy``, ``reference``, ``procedure``, ``example`` or ``skill``.
        description: What it holds.
        section: One heading of a Markdown file (and its children).
        load: ``always`` (before any task action) or ``on_demand``.
        requires: Imports loaded before this one.
        used_by: What uses it.
        load_when: Conditions, as prose.
    """

    path: Text
    role: Literal["policy", "reference", "procedure", "example", "skill"]
    description: Text | None = None
    section: Text | None = None
    load: Literal["always", "on_demand"] = "on_demand"
    requires: ImportRequires = Field(default_factory=ImportRequires)
    used_by: tuple[UseRef, ...] = ()
    load_when: Ids = ()


class Resource(StrictModel):
    """Provenance or supporting material kept with the skill."""

    path: Text
    role: Literal["source_material", "reference", "required_procedure", "example", "script", "asset"]
    description: Text | None = None
    used_by: tuple[UseRef, ...] = ()
    load_when: Ids = ()


class CodeSource(StrictModel):
    """Where a code block's text is: ``inline``, or a ``file`` (with its provenance)."""

    inline: Text | None = None
    file: Text | None = None
    from_resource: Text | None = None
    fence_index: Count | None = None
    heading: Text | None = None
    sha256: Text | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> CodeSource:
        extra = (self.from_resource, self.fence_index, self.heading, self.sha256)
        if self.inline is not None and (self.file is not None or any(v is not None for v in extra)):
            raise ValueError("an inline source has only 'inline'")
        if self.inline is None and self.file is None:
            raise ValueError("a source needs 'inline' or 'file'")
        return self


class CodeProvenance(StrictModel):
    """Where a code block came from."""

    resource: Text | None = None
    import_: Text | None = Field(default=None, alias="import")
    fence_index: Count | None = None
    heading: Text | None = None
    line_start: Count | None = None
    line_end: Count | None = None


class CodeRequires(StrictModel):
    """What a code block needs."""

    dependencies: Ids = ()
    imports: Ids = ()
    resources: Ids = ()
    artifacts: Ids = ()


class CodeSafety(StrictModel):
    """What running a code block may do."""

    mutates_input: StrictBool = False
    writes_files: StrictBool = False
    network: StrictBool = False
    notes: Ids = ()


class CodeBlock(StrictModel):
    """Executable knowledge preserved from a skill."""

    language: Text
    kind: Literal[
        "example", "runnable_script", "probe", "transform", "validator", "troubleshooting", "reference"
    ]
    source: CodeSource
    provenance: CodeProvenance | None = None
    purpose: Text | None = None
    requires: CodeRequires = Field(default_factory=CodeRequires)
    inputs: Ids = ()
    outputs: Ids = ()
    safety: CodeSafety = Field(default_factory=CodeSafety)
    use_when: Ids = ()


class ExecutableRef(StrictModel):
    """A command, code block or recipe that produces or consumes an artifact."""

    kind: Literal["command", "code", "recipe"]
    id: Text


class Artifact(StrictModel):
    """A file or data product named by the skill."""

    kind: Literal["file", "directory", "json", "text", "image", "pdf", "transcript", "report"]
    description: Text | None = None
    path: Text | None = None
    schema_: Any = Field(default=None, alias="schema")
    produced_by: tuple[ExecutableRef, ...] = ()
    consumed_by: tuple[ExecutableRef, ...] = ()


class RecipeRequires(StrictModel):
    """What a recipe needs."""

    imports: Ids = ()
    resources: Ids = ()
    dependencies: Ids = ()
    artifacts: Ids = ()


class RecipeBranch(StrictModel):
    """``if`` a condition, ``then`` one action, ``otherwise`` another."""

    if_: Text = Field(alias="if")
    then: Text
    otherwise: Text | None = None


RECIPE_STEP_KINDS: tuple[str, ...] = (
    "load_import",
    "load_resource",
    "run_command",
    "run_code",
    "produce_artifact",
    "consume_artifact",
    "ask",
    "branch",
    "note",
)
"""The keys a recipe step may have (exactly one of them)."""


class RecipeStep(StrictModel):
    """One step of a recipe: exactly one of :data:`RECIPE_STEP_KINDS`."""

    load_import: Text | None = None
    load_resource: Text | None = None
    run_command: Text | None = None
    run_code: Text | None = None
    produce_artifact: Text | None = None
    consume_artifact: Text | None = None
    ask: Text | None = None
    branch: RecipeBranch | None = None
    note: Text | None = None

    @model_validator(mode="before")
    @classmethod
    def _exactly_one(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and len(data) != 1:
            kinds = ", ".join(RECIPE_STEP_KINDS)
            raise ValueError(f"a recipe step has exactly one of {kinds}")
        return data


class Recipe(StrictModel):
    """A structured procedure (validated, not executed)."""

    description: Text | None = None
    ordered: StrictBool = False
    requires: RecipeRequires = Field(default_factory=RecipeRequires)
    steps: tuple[RecipeStep, ...] = ()


class CommandRequires(StrictModel):
    """What a command needs."""

    dependencies: Ids = ()
    resources: Ids = ()
    files: Ids = ()
    env: Ids = ()
    auth: Ids = ()


class CommandTemplate(StrictModel):
    """A command line template (an instruction, not a permission)."""

    description: Text | None = None
    template: Text
    safety: SafetyClass | None = None
    requires: CommandRequires = Field(default_factory=CommandRequires)
    parse: Mapping[str, Text] = Field(default_factory=dict)
    success_when: Mapping[str, Any] = Field(default_factory=dict)


class Snippet(StrictModel):
    """Prose that stays prose."""

    text: Text


class Proof(StrictModel):
    """What the policy is meant to improve."""

    metrics: Ids = ()
