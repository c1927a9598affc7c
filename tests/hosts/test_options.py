"""One declaration per command: the hook's light parser and argparse read ``HOOK_OPTIONS`` alike."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from ruleweave.cli import build_parser, main
from ruleweave.errors import HookUsageError, RuleweaveError
from ruleweave.hosts import HOSTS
from ruleweave.hosts._options import HOOK_OPTIONS, INSTALL_OPTIONS, HookOptions, Option, parse

AGENT = HOSTS[0]


def light(argv: list[str]) -> dict[str, Any]:
    """The hook process's reading of ``argv``: every option's value."""
    options = HookOptions(**parse(argv, HOOK_OPTIONS, f"hook {AGENT}"))
    return {option.dest: getattr(options, option.dest) for option in HOOK_OPTIONS}


def argparsed(argv: list[str], command: str = "hook") -> argparse.Namespace:
    """argparse's reading of ``ruleweave <command> <agent> argv`` (``SystemExit`` on a usage error)."""
    return build_parser().parse_args([command, AGENT, *argv])


def heavy(argv: list[str]) -> dict[str, Any]:
    """argparse's reading of ``argv`` after ``hook <agent>``: every option's value."""
    namespace = argparsed(argv)
    return {option.dest: getattr(namespace, option.dest) for option in HOOK_OPTIONS}


def accepted(option: Option) -> list[list[str]]:
    """Spellings of ``option`` that both readers must take."""
    if not option.takes_value:
        return [[option.flag], [option.flag, option.flag]]
    return [
        [option.flag, "/srv/p"],
        [f"{option.flag}=/srv/p"],
        [f"{option.flag}="],
        [f"{option.flag}=a=b"],
        [option.flag, ""],
        [option.flag, "-"],
        [option.flag, "-1"],
        [option.flag, "-2.5"],
        [option.flag, "-x y"],
        [f"{option.flag}=--x"],
        [option.flag, "/a", option.flag, "/b"],
    ]


def refused(option: Option) -> list[list[str]]:
    """Spellings of ``option`` that both readers must refuse."""
    out = [[option.flag[:-1]], [option.flag.upper()], [option.flag.lstrip("-")]]
    if option.takes_value:
        out += [[option.flag], [option.flag, "--root"], [option.flag, "-x"], [option.flag, "--"]]
    else:
        out += [[f"{option.flag}=yes"], [f"{option.flag}="]]
    return out


@pytest.mark.parametrize("option", HOOK_OPTIONS, ids=lambda o: o.flag)
def test_both_readers_take_each_option_alike(option: Option) -> None:
    """Every spelling of every declared hook option gives the same values through both readers."""
    assert light([]) == heavy([]) == {o.dest: o.default for o in HOOK_OPTIONS}
    for argv in accepted(option):
        got = light(argv)
        assert got == heavy(argv), argv
        assert got[option.dest] != option.default or option.takes_value, argv


@pytest.mark.parametrize("option", HOOK_OPTIONS, ids=lambda o: o.flag)
def test_both_readers_refuse_the_same_spellings(option: Option, capsys: pytest.CaptureFixture[str]) -> None:
    """An abbreviation, a flag given a value or an option without its value is refused by both readers."""
    for argv in refused(option):
        with pytest.raises(HookUsageError):
            light(argv)
        with pytest.raises(SystemExit) as exited:
            heavy(argv)
        assert exited.value.code == 2, argv
    capsys.readouterr()


@pytest.mark.parametrize(
    "argv",
    [["--bogus"], ["extra"], ["--cwd", "/p", "extra"], ["-x"], ["--", "--cwd", "/p"], ["--cwd", "/p", "--"],
     ["--", "--"]],
)
def test_unknown_arguments_are_refused_by_both(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Anything that is no declared option is refused by both readers."""
    with pytest.raises(HookUsageError, match="unknown option"):
        light(argv)
    with pytest.raises(SystemExit):
        heavy(argv)
    capsys.readouterr()


def test_a_lone_double_dash_is_taken_by_both() -> None:
    """argparse reads a lone ``--`` after the agent as the end of the options: so does the hook."""
    assert light(["--"]) == heavy(["--"]) == light([])


def test_all_options_at_once_in_either_order() -> None:
    """Every option given together reads the same, in declared and in reverse order."""
    argv: list[list[str]] = [[o.flag, "/v"] if o.takes_value else [o.flag] for o in HOOK_OPTIONS]
    for order in (argv, argv[::-1]):
        flat = [item for pair in order for item in pair]
        assert light(flat) == heavy(flat)
        assert all(light(flat)[option.dest] != option.default for option in HOOK_OPTIONS)


def test_the_parser_declares_nothing_else() -> None:
    """The hook parser's options are exactly the declared ones (and --help)."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    hook = subparsers.choices["hook"]
    flags = {flag for action in hook._actions for flag in action.option_strings}
    assert flags == {o.flag for o in HOOK_OPTIONS} | {"-h", "--help"}
    agent = next(a for a in hook._actions if a.dest == "agent")
    assert tuple(agent.choices or ()) == HOSTS


def test_hook_options_know_only_declared_names() -> None:
    """HookOptions takes each declared option and refuses any other name."""
    assert set(HookOptions.__slots__) == {o.dest for o in HOOK_OPTIONS}
    assert HookOptions(store="memory://").store == "memory://"
    with pytest.raises(TypeError, match="not a hook option: colour"):
        HookOptions(colour="red")


def test_a_usage_error_is_a_ruleweave_error() -> None:
    """The light parser's error is in the one error tree, with ValueError kept."""
    with pytest.raises(RuleweaveError) as raised:
        light(["--nope"])
    assert isinstance(raised.value, ValueError)
    assert f"usage: ruleweave hook {AGENT} [--cwd DIR]" in str(raised.value)


@pytest.mark.parametrize(
    "argv",
    [[], ["--project"], ["--local"], ["--user"], ["--dry-run", "--uninstall", "--absolute"],
     ["--user", "--user"]],
)
def test_install_options_read_alike(argv: list[str], tmp_path: Path) -> None:
    """The install options' declaration reads the same through both readers."""
    namespace = argparsed([*argv, "--cwd", str(tmp_path)], "install")
    values = {o.dest: o.default for o in INSTALL_OPTIONS} | parse(argv, INSTALL_OPTIONS, "install")
    assert values == {o.dest: getattr(namespace, o.dest) for o in INSTALL_OPTIONS}


def test_install_scopes_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    """Two scopes at once are refused by both readers."""
    for argv in (["--project", "--user"], ["--user", "--local"]):
        with pytest.raises(HookUsageError, match="not allowed with"):
            parse(argv, INSTALL_OPTIONS, "install")
        with pytest.raises(SystemExit):
            argparsed(argv, "install")
    assert "not allowed with" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["hook", "install"])
def test_help_lists_every_declared_option_and_agent(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``ruleweave hook claude-code --help`` (and install's) prints each option's help and each agent."""
    assert main([command, AGENT, "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps the help lines
    for option in HOOK_OPTIONS if command == "hook" else INSTALL_OPTIONS:
        assert option.flag in shown and " ".join(option.help.split()) in shown, option
    for name in HOSTS:
        assert f"{name}:" in shown or f"{name} --" in shown
