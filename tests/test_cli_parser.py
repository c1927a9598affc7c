"""``ruleweave <command>`` parses with a parser holding that command alone (``build_parser(only=...)``).

Agents without a ``rule://`` reader run ``ruleweave read`` through their shell, so its start-up is
paid at every read: importing every other subcommand's module (lint, map, audit, …) doubled it.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

import pytest

from ruleweave.cli import COMMANDS, build_parser, main


def help_text(parser_for: str | None, command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser(parser_for).parse_args([command, "--help"])
    return out.getvalue()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_alone_parses_as_the_whole_parser_does(command: str) -> None:
    """Each subcommand's help (its usage, options and actions) is the same from either parser."""
    assert help_text(command, command) == help_text(None, command)


def test_anything_else_meets_the_whole_parser(capsys: pytest.CaptureFixture[str]) -> None:
    """A typo or ``--help`` is answered by the parser listing every subcommand."""
    assert main(["nope"]) == 2
    assert "invalid choice: 'nope' (choose from 'scan', 'lint'" in capsys.readouterr().err
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    assert all(f"\n    {command} " in listed for command in COMMANDS)


def test_a_command_imports_no_other_commands_module() -> None:
    """``ruleweave read --help`` in a fresh interpreter leaves the other subcommands unimported."""
    code = (
        "import sys\n"
        "from ruleweave.cli import main\n"
        "main(['read', '--help'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('ruleweave.cli.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stdout.strip().splitlines()[-1]
    assert "'ruleweave.cli.read'" in loaded
    assert not any(f"'ruleweave.cli.{other}'" in loaded for other in COMMANDS if other != "read")
