"""``ruleweave spec validate|test|decide``: SkillSpec documents from the shell.

Exit codes: 0 valid / all tests pass; 1 invalid document or a failing test;
2 bad arguments or an unreadable file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, add_json, print_json, read_input
from ruleweave.errors import ConfigError
from ruleweave.steering import (
    Decision,
    SkillSpec,
    SpecIssue,
    check_spec,
    decide,
    render_steering,
    run_tests,
)
from ruleweave.steering.model import TASK_FACTS


def register(subparsers: Any) -> None:
    """Add the ``spec`` subcommand and its ``validate``, ``test`` and ``decide`` actions."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "spec", help="validate, test and evaluate SkillSpec (skill.spec.yml) documents"
    )
    actions = parser.add_subparsers(dest="spec_command", required=True, metavar="ACTION")

    validate = actions.add_parser("validate", help="check a SkillSpec; list every problem")
    _common(validate)
    validate.set_defaults(func=run_validate)

    test = actions.add_parser("test", help="run the SkillSpec's scenario tests")
    _common(test)
    test.set_defaults(func=run_test)

    decide_ = actions.add_parser("decide", help="show the decision for one user input")
    _common(decide_)
    decide_.add_argument("--input", required=True, metavar="TEXT", help="the user's text")
    decide_.add_argument(
        "--fact",
        action="append",
        default=[],
        metavar="NAME=true|false",
        help=f"a task fact the caller knows ({', '.join(TASK_FACTS)}, or an x- name); repeatable",
    )
    decide_.set_defaults(func=run_decide)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the skill.spec.yml to read")
    add_cwd(parser)
    add_json(parser)


def _load(args: argparse.Namespace) -> tuple[SkillSpec | None, tuple[SpecIssue, ...], str]:
    path = Path(args.file)
    if not path.is_absolute():
        path = Path(args.cwd) / path
    shown = args.file
    text = read_input(str(path))
    spec, issues = check_spec(text, file=shown)
    return spec, issues, shown


def _print_issues(issues: tuple[SpecIssue, ...]) -> None:
    for issue in issues:
        print(issue, file=sys.stderr)


def run_validate(args: argparse.Namespace) -> int:
    """``spec validate FILE``: 0 when valid, 1 with every problem listed."""
    spec, issues, shown = _load(args)
    if args.json:
        print_json({"valid": spec is not None, "errors": [issue.to_json() for issue in issues]})
        return 0 if spec is not None else 1
    if spec is None:
        for issue in issues:
            print(issue)
        print(f"{shown}: invalid ({len(issues)} problem{'s' if len(issues) != 1 else ''}).")
        return 1
    print(
        f"{shown}: valid {spec.schema_} document {spec.id!r} "
        f"({len(spec.routes)} routes, {len(spec.rules)} rules, "
        f"{len(spec.elicitations)} elicitations, {len(spec.tests)} tests)."
    )
    return 0


def run_test(args: argparse.Namespace) -> int:
    """``spec test FILE``: 0 when every scenario passes, 1 on a failure or an invalid spec."""
    spec, issues, shown = _load(args)
    if spec is None:
        _print_issues(issues)
        if args.json:
            print_json({"tests": [], "passed": 0, "failed": 0})
        return 1
    report = run_tests(spec)
    if args.json:
        print_json(report.to_json())
    else:
        for result in report.results:
            print(f"{'PASS' if result.passed else 'FAIL'} {result.name}")
            for failure in result.failures:
                print(f"    {failure}")
        print(f"{shown}: {report.passed} passed, {report.failed} failed.")
    return 1 if report.failed else 0


def run_decide(args: argparse.Namespace) -> int:
    """``spec decide FILE --input TEXT``: print the decision; 1 when the spec is invalid."""
    facts = _facts(args.fact)
    spec, issues, _ = _load(args)
    if spec is None:
        _print_issues(issues)
        return 1
    try:
        decision = decide(spec, args.input, facts)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc
    if args.json:
        print_json(decision.to_json())
    else:
        print(_text(decision))
    return 0


def _facts(items: list[str]) -> dict[str, bool]:
    facts: dict[str, bool] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip().lower()
        if not sep:
            value = "true"
        if value not in ("true", "false"):
            raise UsageError(f"--fact {item}: the value must be true or false.")
        if name not in TASK_FACTS and not name.startswith("x-"):
            raise UsageError(
                f"--fact {item}: unknown fact; use one of {', '.join(TASK_FACTS)} or an x- name."
            )
        facts[name] = value == "true"
    return facts


def _text(decision: Decision) -> str:
    block = render_steering(decision)
    if block:
        return block
    return "No route and no matching rule: the SkillSpec does not steer this input."
