"""Points 9 (terminals) and 12: the CLI prints no control characters and reads no unbounded input."""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

import pytest

from ruleweave.cli import main
from ruleweave.cli.common import MAX_INPUT_BYTES
from tests.conftest import WriteTree
from tests.security.helpers import HANG, fifo, returns_within, unblock_fifo

HIDDEN = "\x1b]0;pwned\x07\x1b[2J\u202egnp.exe\u200b"
YAML_HIDDEN = r"\e]0;pwned\a\e[2J\u202Egnp.exe\u200B"


def _raw_controls(text: str) -> set[str]:
    return {f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in ("Cc", "Cf") and c not in "\n\t"}


def test_scan_and_prompt_print_hidden_characters_escaped(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cloned repository cannot retitle, clear or reorder the terminal through ``scan`` or ``prompt``."""
    root = write_tree(
        {
            f".cursor/rules/n{HIDDEN}.mdc": (
                f'---\ndescription: "d{YAML_HIDDEN}"\nglobs: "*.ts"\n---\nB{HIDDEN}'
            ),
            f".cursor/rules/g{HIDDEN}.mdc": f"---\nalwaysApply: true\n---\nGeneric {HIDDEN} body.",
        }
    )
    (root / "AGENTS.md").write_text(f"Instructions {HIDDEN}", encoding="utf-8")
    for command in (["scan"], ["prompt"], ["explain", "a.ts"], ["read", f"rule://g{HIDDEN}"]):
        assert main([*command, "--cwd", str(root)]) == 0, command
        captured = capsys.readouterr()
        assert not _raw_controls(captured.out + captured.err), command
        assert "\\u001b" in captured.out, command


def test_json_output_escapes_hidden_characters_and_keeps_their_value(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scan --json`` carries the hidden characters as JSON escapes: same data, harmless bytes."""
    root = write_tree({f".cursor/rules/n{HIDDEN}.mdc": f'---\ndescription: "d{YAML_HIDDEN}"\n---\nBody.'})
    assert main(["scan", "--json", "--cwd", str(root)]) == 0
    out = capsys.readouterr().out
    assert not _raw_controls(out)
    [rule] = json.loads(out)["rules"]
    assert rule["name"] == f"n{HIDDEN}" and rule["description"] == f"d{HIDDEN}"


def _exits_2(args: list[str], capsys: pytest.CaptureFixture[str], unblock: Path | None = None) -> str:
    capsys.readouterr()
    code = returns_within(HANG, lambda: main(args), unblock=unblock_fifo(unblock) if unblock else None)
    assert code == 2, args
    err = capsys.readouterr().err
    assert err.startswith("ruleweave: ") and err.count("\n") == 1, err
    return err


COMMANDS = (
    ["replay", "{}"],
    ["ttsr", "check", "--source", "text", "{}"],
    ["prompt", "--custom-prompt", "{}"],
    ["spec", "validate", "{}"],
)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:-1]))
def test_file_arguments_that_are_fifos_or_devices_exit_2(
    write_tree: WriteTree, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO or /dev/zero named on the command line is refused at once with one sentence."""
    root = write_tree({"README.md": "x"})
    with fifo(root / "pipe") as pipe:
        args = [part.replace("{}", str(pipe)) for part in command]
        if command[0] != "replay":
            args += ["--cwd", str(root)]
        assert "FIFO" in _exits_2(args, capsys, unblock=pipe)
    args = [part.replace("{}", "/dev/zero") for part in command]
    assert "device" in _exits_2(args + (["--cwd", str(root)] if command[0] != "replay" else []), capsys)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:-1]))
def test_file_arguments_larger_than_the_cap_exit_2(
    write_tree: WriteTree, tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A 2 GiB file named on the command line is refused by its size, never read into memory."""
    root = write_tree({"README.md": "x"})
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as out:
        out.write(b"text ")
        out.truncate(2 * 1024**3)  # sparse: costs no disk
    assert huge.stat().st_size > MAX_INPUT_BYTES
    args = [part.replace("{}", str(huge)) for part in command]
    if command[0] != "replay":
        args += ["--cwd", str(root)]
    assert "larger than" in _exits_2(args, capsys)
    os.unlink(huge)
