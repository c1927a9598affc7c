"""A SkillSpec's import graph costs time linear in its imports and edges, and may read its whole project.

Issue #29 item 1: a valid 2 KB spec of layers of two imports, each requiring
both imports of the next layer, has 2^layers paths; following each from scratch
took 6.7 s at 20 layers in ``system_prompt()`` and the SessionStart hook, and a
chain of thousands of imports overflowed Python's stack. Issue #28 item 12: the
reference's ``conformance/valid/imports.skill.spec.yml`` (modiqo/skillspec)
imports ``../../README.md``, so the default import root is the project root,
and a path leaving the project stays refused.
"""

from __future__ import annotations

import time
from pathlib import Path

from ruleweave.cli import main
from ruleweave.steering import inspect_spec, load_spec
from ruleweave.steering.imports import MAX_IMPORT_DEPTH
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import context_of, event
from tests.security.helpers import HANG, load, returns_within, run_hook

HEAD = """\
schema: skillspec/v0
id: layered
title: Layered
description: Layers of imports.
routes:
  - id: local
    label: Local
rules:
  - id: go
    when: {user_says_any: [deploy]}
    prefer: local
"""


IMPORT = "imports:\n  p: {{path: {path}, role: policy, load: always}}\n"


def layered(layers: int) -> str:
    """Layers of two imports, each requiring both imports of the next layer (2^layers paths)."""
    lines = ["imports:"]
    for layer in range(layers):
        needs = f", requires: {{imports: [a{layer + 1}, b{layer + 1}]}}" if layer + 1 < layers else ""
        lines += [f"  {side}{layer}: {{path: n.md, role: policy, load: always{needs}}}" for side in "ab"]
    return HEAD + "\n".join(lines) + "\n"


def chain(length: int) -> str:
    """One chain of ``length`` imports, each requiring the next."""
    lines = ["imports:"]
    for index in range(length):
        needs = f", requires: {{imports: [c{index + 1}]}}" if index + 1 < length else ""
        lines.append(f"  c{index}: {{path: n.md, role: policy, load: always{needs}}}")
    return HEAD + "\n".join(lines) + "\n"


def spec_project(write_tree: WriteTree, text: str) -> Path:
    """A project whose ``.ruleweave/skill.spec.yml`` is ``text``, with the file its imports read."""
    return write_tree({".ruleweave/skill.spec.yml": text, ".ruleweave/n.md": "# Policy\n\nAsk first.\n"})


def test_a_layered_spec_validates_at_once(write_tree: WriteTree) -> None:
    """32 layers (2^32 paths, about 3 KB) validate in well under a second per walk, not in hours."""
    text = layered(32)
    root = spec_project(write_tree, text)
    folder = root / ".ruleweave"
    start = time.perf_counter()
    report = returns_within(HANG, lambda: inspect_spec(text, file="skill.spec.yml", folder=folder))
    assert report.spec is not None, report.issues
    assert report.imports is not None and len(report.imports.always()) == 64
    assert time.perf_counter() - start < 5.0


def test_system_prompt_with_a_layered_spec(write_tree: WriteTree) -> None:
    """``system_prompt()`` loads the layered spec and answers; the steering works."""
    root = spec_project(write_tree, layered(32))
    session = load(root).session("s")
    returns_within(HANG, session.system_prompt)
    assert session.ruleset.steering.spec is not None
    decision = session.steer("please deploy")
    assert decision is not None and decision.route == "local"


def test_the_session_start_hook_with_a_layered_spec(write_tree: WriteTree, tmp_path: Path) -> None:
    """The SessionStart hook answers with the project's rules (the spec does not stall it)."""
    root = spec_project(write_tree, layered(32))
    write_tree({".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe brief.\n"})
    start = event(root, "SessionStart", source="startup")
    code, out, _ = returns_within(HANG, lambda: run_hook(start, tmp_path / "state"))
    assert code == 0 and "Be brief." in context_of(out)


def test_a_long_chain_is_refused_without_overflowing(write_tree: WriteTree) -> None:
    """5,000 imports in one chain are one clear problem each past the depth limit, not a RecursionError."""
    text = chain(5000)
    root = spec_project(write_tree, text)
    report = returns_within(HANG, lambda: inspect_spec(text, file="s.yml", folder=root / ".ruleweave"))
    assert report.spec is None
    assert any(f"more than {MAX_IMPORT_DEPTH} imports" in issue.reason for issue in report.issues)


# modiqo/skillspec conformance/valid/imports.skill.spec.yml, verbatim.
REFERENCE_FIXTURE = """\
schema: skillspec/v0
id: conformance.imports
title: Imports Fixture
description: Valid import graph fixture.
routes:
  - id: local
    label: Local
imports:
  shared_policy:
    path: ../../README.md
    role: policy
    load: always
  task_reference:
    path: ../../spec/imports.md
    role: reference
    used_by:
      - kind: route
        id: local
recipes:
  task:
    steps:
      - load_import: task_reference
tests:
  - name: route assertion
    input: local task
    expect:
      route: local
"""


def checkout(write_tree: WriteTree) -> Path:
    """The reference's layout: README.md and spec/imports.md at the root, the fixture two folders down."""
    return write_tree({
        "README.md": "# SkillSpec\n",
        "spec/imports.md": "# Imports\n",
        "conformance/valid/imports.skill.spec.yml": REFERENCE_FIXTURE,
    })


def test_the_reference_fixture_validates_inside_a_checkout(write_tree: WriteTree) -> None:
    """Imports reaching the checkout's root are read: the project root is the default import root."""
    root = checkout(write_tree)
    fixture = root / "conformance/valid/imports.skill.spec.yml"
    assert main(["spec", "validate", str(fixture)]) == 0
    assert load_spec(fixture).imports["shared_policy"].path == "../../README.md"


def test_the_reference_fixture_from_a_rule_set(write_tree: WriteTree) -> None:
    """A project's own SkillSpec may import a file elsewhere in the project."""
    root = write_tree({
        "docs/policy.md": "# Policy\n",
        ".ruleweave/skill.spec.yml": HEAD + IMPORT.format(path="../docs/policy.md"),
    })
    steering = load(root).steering
    assert steering.spec is not None, steering.warnings


def test_leaving_the_project_stays_refused(write_tree: WriteTree) -> None:
    """An import above the checkout's root is refused, by the CLI and by a rule set."""
    root = checkout(write_tree)
    (root.parent / "outside.md").write_text("# Secret\n", encoding="utf-8")
    fixture = root / "conformance/valid/imports.skill.spec.yml"
    fixture.write_text(REFERENCE_FIXTURE.replace("../../README.md", "../../../outside.md"), encoding="utf-8")
    assert main(["spec", "validate", str(fixture)]) == 1
    write_tree({".ruleweave/skill.spec.yml": HEAD + IMPORT.format(path="../../outside.md")})
    steering = load(root).steering
    assert steering.spec is None
    assert any("leaves the import root" in warning.message for warning in steering.warnings)
