"""``ruleweave map``: where the page goes, ``--json``, ``--agent``, exit codes, escaped terminal text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave import RuleweaveConfig
from ruleweave.cli import main
from ruleweave.rulemap import build_map
from tests.rulemap.conftest import EVERY_FORMAT

EXAMPLE = ["--cwd", str(EVERY_FORMAT), "--root", str(EVERY_FORMAT)]


def test_the_page_goes_to_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--out FILE writes the page there (making missing directories) and says what it holds, in one line."""
    out = tmp_path / "site" / "map.html"
    assert main(["map", *EXAMPLE, "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="map-data"' in page
    printed = capsys.readouterr().out
    assert printed.startswith(f"wrote {out} ({len(page.encode()):,} bytes): 47 of 47 directories, 30 rules, ")


def test_the_default_page_is_written_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --out the page is ruleweave-map.html in the current directory, replaced on a second run."""
    monkeypatch.chdir(tmp_path)
    assert main(["map", *EXAMPLE]) == 0
    first = (tmp_path / "ruleweave-map.html").read_text(encoding="utf-8")
    assert main(["map", *EXAMPLE, "--agent", "codex"]) == 0
    assert (tmp_path / "ruleweave-map.html").read_text(encoding="utf-8") != first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ruleweave-map.html"]
    capsys.readouterr()


def test_out_dash_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    """--out - writes the page to standard output and nothing else."""
    assert main(["map", *EXAMPLE, "--out", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and out.endswith("</html>\n")


def test_json_prints_the_data_and_writes_no_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json prints build_map's data; no page is written unless --out names one."""
    monkeypatch.chdir(tmp_path)
    assert main(["map", *EXAMPLE, "--json", "--agent", "Codex", "claude"]) == 0
    data = json.loads(capsys.readouterr().out)
    config = RuleweaveConfig(cwd=EVERY_FORMAT, project_root=EVERY_FORMAT)
    assert data == build_map(config, ["codex", "claude"])
    assert list(tmp_path.iterdir()) == []
    assert main(["map", *EXAMPLE, "--json", "--out", str(tmp_path / "m.html")]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["version"] == 1 and err.startswith("wrote ")
    assert (tmp_path / "m.html").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "vim"], "--agent vim is not an agent ruleweave knows; agents: claude, codex"),
        (["--out", "{tmp}"], "is a directory; name a file."),
        (["--out", "{tmp}/plain/map.html"], "cannot write {tmp}/plain/map.html"),
        (["--cwd", "{tmp}/nowhere"], "--cwd {tmp}/nowhere is not a directory."),
    ],
)
def test_bad_input_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """An unknown agent, an --out that is a directory or cannot be written, a missing --cwd: exit 2, one
    line on stderr."""
    (tmp_path / "plain").write_text("a file, not a directory\n", encoding="utf-8")
    filled = [a.format(tmp=tmp_path) for a in args]
    assert main(["map", *EXAMPLE, *filled]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("ruleweave: ") and message.format(tmp=tmp_path) in err
    assert err.count("\n") == 1


def test_terminal_text_is_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file name holding an escape sequence is printed with it spelled out, never sent to the terminal."""
    out = tmp_path / "map\x1b[2J.html"
    assert main(["map", *EXAMPLE, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "\x1b" not in printed and "map\\u001b[2J.html" in printed
    assert out.is_file()
