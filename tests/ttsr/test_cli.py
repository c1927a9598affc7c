"""``ruleweave ttsr check``: a recorded stream through the watcher, and ``scan``'s TTSR columns."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave.cli import main
from tests.conftest import WriteTree
from tests.ttsr.helpers import rule

REPO = {
    ".ruleweave/rules/no-todo.md": '---\ncondition: "(?i)\\bTODO\\b"\nscope: "text","thinking"\n'
                                   "---\nNo TODO notes.\n",
    ".ruleweave/rules/no-force.md": rule("Careful.", condition="'push --force'",
                                         scope="tool:bash", interruptMode="never"),
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI; return the exit code, stdout and stderr."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_file_reports_where_a_rule_fires(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """A text file is cut into deltas; the hit names the line, the rule and the action."""
    root = write_tree({**REPO, "stream.txt": "First line.\nLeave a to" + "do here.\n"})
    code, out, _ = run(capsys, "ttsr", "check", "--cwd", str(root), str(root / "stream.txt"),
                       "--chunk", "5")
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith("line 2:") and first.endswith("INTERRUPT")
    assert "no-todo (.ruleweave/rules/no-todo.md): regex '(?i)\\\\bTODO\\\\b'" in out
    assert "7 deltas, 1 hits firing 1 rules, 2 streamed rules watched" in out


def test_jsonl_stream_with_tools_and_turns_as_json(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON lines carry sources, tools, call ids and turn starts; ``--json`` lists every hit."""
    lines: list[dict[str, Any]] = [
        {"source": "thinking", "delta": "add a TO"},
        {"event": "turn_start"},
        {"source": "thinking", "delta": "DO? no"},
        {"source": "tool", "tool": "bash", "call_id": "c1", "delta": '{"command": "git push --fo',
         "args": {"command": "git push --fo"}},
        {"source": "tool", "tool": "bash", "call_id": "c1", "delta": 'rce"}',
         "args": {"command": "git push --force"}},
    ]
    root = write_tree({**REPO, "rec.jsonl": "\n".join(json.dumps(x) for x in lines) + "\n"})
    code, out, _ = run(capsys, "ttsr", "check", "--cwd", str(root), str(root / "rec.jsonl"),
                       "--json", "--show-text")
    assert code == 1
    data = json.loads(out)
    assert data["deltas"] == 4
    [hit] = data["hits"]
    # the match starts in the delta on line 4 (it ends on line 5)
    assert (hit["line"], hit["source"], hit["tool"], hit["call_id"]) == (4, "tool", "bash", "c1")
    assert hit["interrupt"] is False
    assert [r["name"] for r in hit["rules"]] == ["no-force"]
    assert hit["text"].startswith("[ruleweave] What you just wrote")
    scopes = {r["name"]: (r["scope"], r["interrupt_mode"]) for r in data["rules"]}
    assert scopes["no-todo"] == (["text", "thinking"], "always")
    assert scopes["no-force"] == (["tool:bash"], "never")
    assert "shell-rm-rf" not in scopes  # built-in rules are opt-in
    assert any("backspace" in w["message"] for w in data["warnings"])


def test_a_quiet_stream_exits_zero(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing fired: exit 0 and a summary line."""
    root = write_tree({**REPO, "quiet.txt": "All done, nothing left.\n"})
    code, out, _ = run(capsys, "ttsr", "check", "--cwd", str(root), str(root / "quiet.txt"))
    assert code == 0
    assert out.startswith("2 deltas, 0 hits firing 0 rules, 2 streamed rules watched")


def test_bad_input_exits_two(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A missing file, a bad JSON line or a bad chunk size is a usage error."""
    root = write_tree({**REPO, "bad.jsonl": '{"delta": "x"}\nnot json\n'})
    assert run(capsys, "ttsr", "check", "--cwd", str(root), str(tmp_path / "none.txt"))[0] == 2
    code, _, err = run(capsys, "ttsr", "check", "--cwd", str(root), str(root / "bad.jsonl"))
    assert code == 2
    assert "line 2 is not JSON" in err
    assert run(capsys, "ttsr", "check", "--cwd", str(root), str(root / "bad.jsonl"),
               "--chunk", "0")[0] == 2


@pytest.mark.parametrize("chunk", [1, 3, 7, 20, 500])
def test_a_hit_reports_where_the_match_starts_whatever_the_chunking(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str], chunk: int
) -> None:
    """The line:column of a hit is where the match starts in the file, for every --chunk."""
    root = write_tree({**REPO, "stream.txt": "First line.\nSecond line.\nThird: leave a TODO here.\n"})
    code, out, _ = run(capsys, "ttsr", "check", "--cwd", str(root), str(root / "stream.txt"),
                       "--chunk", str(chunk), "--json")
    assert code == 1
    [hit] = json.loads(out)["hits"]
    assert (hit["line"], hit["column"]) == (3, 16)
    assert (hit["rules"][0]["line"], hit["rules"][0]["column"]) == (3, 16)


def test_scan_shows_scope_and_mode_of_ttsr_rules(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scan --json`` adds ``scope`` and ``interrupt_mode`` to TTSR rules only; the table too."""
    root = write_tree({**REPO, ".cursor/rules/ts.mdc": "---\nglobs: '*.ts'\n---\nTS."})
    code, out, _ = run(capsys, "scan", "--cwd", str(root), "--json")
    assert code == 0
    rules = {r["name"]: r for r in json.loads(out)["rules"]}
    assert rules["no-force"]["scope"] == ["tool:bash"]
    assert rules["no-force"]["interrupt_mode"] == "never"
    assert "scope" not in rules["ts"]
    code, out, _ = run(capsys, "scan", "--cwd", str(root))
    row = next(line for line in out.splitlines() if line.startswith("  no-todo "))
    assert "text, thinking / always" in row


def test_store_url_keeps_repeat_state_across_processes(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """With --store sqlite:///… a once-per-session rule fires once per session across CLI runs."""
    root = write_tree({**REPO, "stream.txt": "Leave a TODO here.\n"})
    url = f"sqlite:///{tmp_path / 'state.db'}"
    common = ["ttsr", "check", "--cwd", str(root), "--store", url, str(root / "stream.txt")]
    assert run(capsys, *common, "--session", "s1")[0] == 1
    assert run(capsys, *common, "--session", "s1")[0] == 0
    assert run(capsys, *common, "--session", "s2")[0] == 1


def test_bad_store_url_exits_two_in_one_sentence(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown scheme or an unreachable server is exit 2 with one sentence on stderr."""
    root = write_tree({**REPO, "stream.txt": "x\n"})
    for url in ("bogus://x", "redis://127.0.0.1:1/0"):
        code, _, err = run(capsys, "ttsr", "check", "--cwd", str(root), "--store", url,
                           str(root / "stream.txt"))
        assert code == 2
        assert err.startswith("ruleweave: ") and err.count("\n") == 1
