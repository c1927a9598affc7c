"""``ruleweave spec validate|test|decide|imports``: SkillSpec documents from the shell.

Every action reads the file, resolves its imports (inside its folder, or
under ``--import-root DIR``) and checks the files it names. ``decide`` prints
the decision in the reference implementation's JSON shape (``--json``);
``decide`` and ``test`` write the reference's trace files under
``--trace-dir DIR``, and ``decide`` refuses to run untraced when the spec
sets ``trace.required``.

Exit codes: 0 valid / all tests pass; 1 invalid document, a failing test or
an unresolved import; 2 bad arguments, an unreadable file, or a required
trace without ``--trace-dir``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, add_json, print_json, read_input
from ruleweave.errors import ConfigError
from ruleweave.steering import Decision, decide, render_steering, run_tests
from ruleweave.steering.loader import SpecReport, inspect_spec
from ruleweave.steering.model import TASK_FACTS
from ruleweave.steering.quick import read_facts, remember
from ruleweave.steering.trace import require_trace, write_trace


def register(subparsers: Any) -> None:
    """Add the ``spec`` subcommand and its ``validate``, ``test``, ``decide`` and ``imports`` actions."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "spec", help="validate, test and evaluate SkillSpec (skill.spec.yml) documents"
    )
    actions = parser.add_subparsers(dest="spec_command", required=True, metavar="ACTION")

    validate = actions.add_parser("validate", help="check a SkillSpec; list every problem")
    _common(validate)
    validate.set_defaults(func=run_validate)

    test = actions.add_parser("test", help="run the SkillSpec's scenario tests")
    _common(test)
    _trace_dir(test, "write each scenario's decision trace under DIR (one run folder per test)")
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
    _trace_dir(decide_, "write the decision trace under DIR (events/, trace.jsonl, summary.json)")
    decide_.set_defaults(func=run_decide)

    imports = actions.add_parser("imports", help="show the resolved import graph and its load order")
    _common(imports)
    imports.set_defaults(func=run_imports)


def _trace_dir(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument("--trace-dir", metavar="DIR", help=help_text)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the skill.spec.yml to read")
    parser.add_argument(
        "--import-root",
        metavar="DIR",
        help="the folder imports may read from (default: the project root above the spec, else its folder)",
    )
    add_cwd(parser)
    add_json(parser)


def _load(args: argparse.Namespace) -> tuple[SpecReport, str]:
    report, shown, _ = _load_text(args)
    return report, shown


def _load_text(args: argparse.Namespace) -> tuple[SpecReport, str, str]:
    path = Path(args.file)
    if not path.is_absolute():
        path = Path(args.cwd) / path
    root = args.import_root
    if root is not None and not Path(root).is_absolute():
        root = str(Path(args.cwd) / root)
    shown = args.file
    text = read_input(str(path))
    return inspect_spec(text, file=shown, folder=path.parent, import_root=root), shown, text


def _print_issues(report: SpecReport) -> None:
    for issue in report.issues:
        print(issue, file=sys.stderr)


def run_validate(args: argparse.Namespace) -> int:
    """``spec validate FILE``: 0 when valid, 1 with every problem listed."""
    report, shown = _load(args)
    spec = report.spec
    if args.json:
        print_json(
            {
                "valid": spec is not None,
                "errors": [issue.to_json() for issue in report.issues],
                "extensions": [use.to_json() for use in report.extensions],
            }
        )
        return 0 if spec is not None else 1
    if spec is None:
        for issue in report.issues:
            print(issue)
        count = len(report.issues)
        print(f"{shown}: invalid ({count} problem{'s' if count != 1 else ''}).")
        return 1
    for use in report.extensions:
        print(
            f"{use.file}:{use.line}: note: rule {use.rule!r} uses the ruleweave extension predicate "
            f"{use.predicate!r} (decided by the caller; the reference implementation rejects x- keys)."
        )
    print(
        f"{shown}: valid {spec.schema_} document {spec.id!r} "
        f"({len(spec.routes)} routes, {len(spec.rules)} rules, "
        f"{len(spec.elicitations)} elicitations, {len(spec.tests)} tests)."
    )
    return 0


def run_test(args: argparse.Namespace) -> int:
    """``spec test FILE``: 0 when every scenario passes, 1 on a failure or an invalid spec."""
    loaded, shown = _load(args)
    spec = loaded.spec
    if spec is None:
        _print_issues(loaded)
        if args.json:
            print_json({"tests": [], "passed": 0, "failed": 0})
        return 1
    report = run_tests(spec)
    if args.trace_dir is not None:
        for result in report.results:
            _write_trace(args.trace_dir, result.decision, loaded)
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
    facts, problem = read_facts(args.fact)
    if problem is not None:
        raise UsageError(problem)
    report, _, text = _load_text(args)
    spec = report.spec
    if spec is None:
        _print_issues(report)
        return 1
    try:
        require_trace(spec, args.trace_dir)
        decision = decide(spec, args.input, facts)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc
    if args.trace_dir is not None:
        _write_trace(args.trace_dir, decision, report)
    if args.json:
        print_json(decision.to_json())
    else:
        print(_text(decision))
    if args.trace_dir is None:
        remember(spec, text)  # the next decision on this spec takes the warm path (steering.quick)
    return 0


def run_imports(args: argparse.Namespace) -> int:
    """``spec imports FILE``: the resolved import graph; 1 when the spec or an import is broken."""
    report, shown = _load(args)
    graph = report.imports
    if report.spec is None or graph is None:
        if args.json:
            print_json({"ok": False, "spec": shown, "imports": [], "load_order": [],
                        "errors": [issue.to_json() for issue in report.issues]})
        else:
            _print_issues(report)
        return 1
    if args.json:
        print_json(graph.to_json())
        return 0
    if not graph.imports:
        print(f"{shown}: no imports.")
        return 0
    print(f"{shown}: {len(graph.imports)} imports, root {graph.root}")
    for name in graph.load_order:
        item = graph.get(name)
        if item is None:
            continue
        extra = f" section {item.section!r}" if item.section else ""
        needs = f" (after {', '.join(item.requires)})" if item.requires else ""
        print(f"  {name}: {item.role}, {item.load}, {item.resolved_path}{extra}{needs}")
    print(f"load order: {' -> '.join(graph.load_order)}")
    return 0


def _write_trace(directory: str, decision: Decision, report: SpecReport) -> None:
    assert report.spec is not None
    try:
        written = write_trace(decision, report.spec, directory, imports=report.imports)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc
    print(f"trace: wrote {written.event_count} event(s) to {written.run_dir}", file=sys.stderr)
    print(f"trace: jsonl {written.trace_jsonl}", file=sys.stderr)
    print(f"trace: summary {written.summary_json}", file=sys.stderr)


def _text(decision: Decision) -> str:
    block = render_steering(decision)
    if block:
        return block
    return "No route and no matching rule: the SkillSpec does not steer this input."
