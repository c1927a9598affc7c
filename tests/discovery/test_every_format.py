"""``ruleweave scan`` on ``examples/every-format-repo``: every format, each rule once, in its agent's bucket.

The repository carries each format ruleweave reads (issue #12), with that
format's real paths and frontmatter, and one text kept as ``AGENTS.md``,
``CLAUDE.md``, ``GEMINI.md`` and ``.github/copilot-instructions.md``. Each
format's documentation is quoted in its own ``test_formats_*`` /
``test_new_formats_*`` module; this one checks that they all hold together.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ruleweave import MemoryStore, RuleSession, RuleSet, RuleweaveConfig
from ruleweave.cli import main

REPO = Path(__file__).resolve().parents[2] / "examples" / "every-format-repo"

# (provider, rule name) -> the bucket its own agent would put it in.
EXPECTED: dict[tuple[str, str], str] = {
    ("native", "no-print"): "ttsr",  # condition + scope: a streamed rule
    ("agents", "accessibility"): "scoped",  # Antigravity trigger: glob
    ("agents", "release-checklist"): "manual",  # Antigravity trigger: manual, never advertised
    ("claude", "api-errors"): "scoped",  # Claude Code paths:
    ("cursor", "react"): "scoped",  # unquoted globs, alwaysApply: false
    ("cursor", "old-notes"): "generic",  # a .md file in .cursor/rules: read, with a note
    ("cursor", "cursorrules"): "generic",  # legacy .cursorrules at the root
    ("windsurf", "python-style"): "scoped",  # trigger: glob, a bare *.py matches anywhere
    ("windsurf", "incident-response"): "rulebook",  # .devin/rules, trigger: model_decision
    ("trae", "project_rules"): "generic",  # always on
    ("trae", "e2e"): "scoped",
    ("cline", "branches"): "generic",  # no paths: always on
    ("roo", "dependencies"): "generic",  # .roo/rules: always on
    ("roo", "rules-architect/diagrams"): "manual",  # a mode's folder, no mode configured
    ("kilocode", "lint"): "generic",  # .kilocode/rules: always on, as Roo's
    ("copilot", "sql"): "scoped",  # applyTo
    ("copilot", "copilot-instructions"): "instructions",  # same text as AGENTS.md: the blob has it
    ("continue", "css"): "scoped",
    ("continue", "feature-flags"): "scoped",  # regex, no globs: gates every file on its content
    ("kiro", "tech"): "generic",  # inclusion: always, with a #[[file:]] reference
    ("kiro", "api-tests"): "scoped",  # inclusion: fileMatch
    ("augment", "migrations"): "rulebook",  # type: agent_requested
    ("junie", "naming"): "generic",  # .junie/guidelines/: always on
    ("aiassistant", "logging"): "scoped",  # apply: by file patterns
    ("opencode", "docs/guides/api-versioning.md"): "generic",  # opencode.json instructions
    ("aider", "CONVENTIONS.md"): "generic",  # named by .aider.conf.yml read:
    ("openhands", "repo"): "generic",  # .openhands/microagents/repo.md: no triggers, always
    ("openhands", "docker"): "rulebook",  # triggers: a keyword microagent, listed by description
    ("qwen", "web-components"): "scoped",  # .qwen/rules, paths:
    ("qwen", "reviews"): "instructions",  # .qwen/rules without paths: Qwen's system prompt
}

# The instruction files of the root, in the blob's order: the shared text once, as AGENTS.md.
INSTRUCTIONS = [
    "AGENTS.md", "QWEN.md", ".qwen/QWEN.local.md", "WARP.md", "CRUSH.md", ".goosehints", ".rules",
    ".augment-guidelines", ".qwen/rules/reviews.md",  # a Qwen rule without paths joins the blob, last
]

# Info lines of scan, by file: what was read differently from a plain rule, and why.
NOTES = {
    ".cursor/rules": "current Cursor reads only .mdc files",
    ".github/instructions/review.instructions.md": "excludeAgent: coding-agent",
    ".gemini/styleguide.md": "code-review style guide",  # Gemini Code Assist: not prompt text
    "CLAUDE.md": "same text as AGENTS.md; included once, there",
    "GEMINI.md": "same text as AGENTS.md; included once, there",
    ".github/copilot-instructions.md": "same text as AGENTS.md; included once, there",
}

# Files of the fixture that are neither a rule nor a root instruction file, each with its reason.
NOT_RULES = {
    ".clinerules/workflows/release.md",  # a Cline workflow, not a rule
    ".github/instructions/review.instructions.md",  # excludeAgent: coding-agent
    "CLAUDE.md", "GEMINI.md",  # the same text as AGENTS.md
    "api/AGENTS.md", "api/AGENTS.override.md", "web/AGENT.md",  # nested: read on first touch
    "opencode.json",  # OpenCode's config: names the instruction files
    ".aider.conf.yml",  # Aider's config: names CONVENTIONS.md under read:
    ".gemini/styleguide.md",  # Gemini Code Assist's review style guide: no agent's prompt
}

SHARED_LINE = "Keep pull requests under 400 changed lines."


def scan(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``ruleweave scan --json`` on the fixture repository, as a user runs it."""
    code = main(["scan", "--json", "--strict", "--cwd", str(REPO), "--root", str(REPO)])
    out, _ = capsys.readouterr()
    assert code == 0  # --strict: no warnings
    data: dict[str, Any] = json.loads(out)
    return data


def relative(path: str) -> str:
    """A scan path relative to the fixture repository."""
    return Path(path).resolve().relative_to(REPO).as_posix()


@pytest.fixture
def session() -> RuleSession:
    """A fresh session over the fixture repository, in memory."""
    config = RuleweaveConfig(cwd=REPO, project_root=REPO)
    return RuleSet.load(config).session("every-format", store=MemoryStore())


def test_scan_shows_each_rule_once_in_its_agents_bucket(capsys: pytest.CaptureFixture[str]) -> None:
    """Every format's rules appear exactly once, each with its provider and its own agent's bucket."""
    data = scan(capsys)
    got = Counter((r["provider"], r["name"]) for r in data["rules"])
    assert set(got) == set(EXPECTED) and max(got.values()) == 1
    assert {(r["provider"], r["name"]): r["bucket"] for r in data["rules"]} == EXPECTED
    assert max(Counter(relative(r["path"]) for r in data["rules"]).values()) == 1
    assert all(r["shadowed"] == [] for r in data["rules"])
    assert data["warnings"] == []


def test_scan_reads_each_agents_globs_in_its_own_dialect(capsys: pytest.CaptureFixture[str]) -> None:
    """Bare globs of "anywhere" agents gain ``**/``; unquoted Cursor globs are two; a regex gates."""
    rules = {r["name"]: r for r in scan(capsys)["rules"]}
    assert rules["python-style"]["globs"] == ["**/*.py"]  # Windsurf: *.py anywhere
    assert rules["logging"]["globs"] == ["**/*.py"]  # AI Assistant: *.py anywhere
    assert rules["react"]["globs"] == ["web/src/**/*.tsx", "web/src/**/*.ts"]
    assert rules["api-errors"]["globs"] == ["api/**/*.py"]
    assert rules["feature-flags"]["globs"] == ["**"]
    assert rules["no-print"]["scope"] == ["tool:write(api/**/*.py)", "tool:edit(api/**/*.py)"]
    assert rules["no-print"]["interrupt_mode"] == "tool-only"
    assert rules["incident-response"]["description"] == "What to do when production is down"


def test_scan_notes_say_what_was_read_differently(capsys: pytest.CaptureFixture[str]) -> None:
    """The info notes name the Cursor ``.md`` file, the excluded Copilot file and the shared copies."""
    data = scan(capsys)
    notes = {relative(n["path"]): n["message"] for n in data["info"]}
    assert set(notes) == set(NOTES)
    for path, words in NOTES.items():
        assert words in notes[path], path
    assert [i["path"] for i in data["instructions"]] == INSTRUCTIONS


def test_every_file_of_the_fixture_is_accounted_for(capsys: pytest.CaptureFixture[str]) -> None:
    """Each file of the fixture is a rule, a root instruction file, a listed exception or project code."""
    data = scan(capsys)
    read = {relative(r["path"]) for r in data["rules"]} | {str(i["path"]) for i in data["instructions"]}
    files = {p.relative_to(REPO).as_posix() for p in REPO.rglob("*") if p.is_file()}
    project = {f for f in files if f.startswith(("api/", "web/")) and f not in NOT_RULES}
    assert files - read - project == NOT_RULES | {"docs/architecture.md"}  # Kiro's #[[file:]] target
    assert read <= files


def test_prompt_carries_the_shared_text_once_and_each_agents_file(session: RuleSession) -> None:
    """The text four agents share is in the prompt once; each always-on format's text is there too."""
    prompt = session.system_prompt()
    assert prompt.count(SHARED_LINE) == 1
    for text in (
        "make dev", "uv run", "read-only for agents", "British English", "standard library",  # files
        "small, pure functions", "imperative mood", "`<ticket>-<short-summary>`", "exact version",
        "snake_case", "deprecation notice", "Old notes",  # always-on rules
        "`make lint`", "`test_<unit>_<behaviour>`", "two services",  # Kilo, Aider, OpenHands repo.md
        "quote the file path",  # QWEN.md
        "the API owns the Postgres database",  # Kiro's #[[file:docs/architecture.md]]
    ):
        assert text in prompt, text
    for text in ("C4 container diagrams", "excludeAgent", "flag any endpoint", "make release", "bare 500"):
        assert text not in prompt, text  # manual, excluded, and a workflow
    domain = prompt.split("<domain-rules>", 1)[1].split("</domain-rules>", 1)[0]
    assert "- incident-response: What to do when production is down" in domain  # Devin's model_decision
    assert "- migrations: Writing database migrations" in domain  # Augment's agent_requested
    assert "- docker: OpenHands knowledge, for a message mentioning: docker, compose" in domain
    assert "release-checklist" not in prompt  # Antigravity's manual: never advertised


def test_touches_fire_each_agents_scoped_rules_and_nested_files(session: RuleSession) -> None:
    """Touching the project's files brings each scoped rule and nested instruction file once, by path."""

    def fired(path: str) -> set[str]:
        injection = session.after_tool_call("Read", {"file_path": str(REPO / path)})
        return set() if injection is None else {item.name for item in injection.items}

    assert {"api-errors", "python-style", "logging", "api/AGENTS.override.md"} <= fired("api/app.py")
    assert fired("api/tests/test_app.py") == {"api-tests"}  # the rest came with api/app.py
    assert fired("api/db/0001_parcels.sql") == {"sql"}
    assert {"accessibility", "react", "web/AGENT.md"} <= fired("web/src/App.tsx")
    assert fired("web/src/tokens.css") == {"css"}
    assert fired("web/src/flags.ts") == set()  # Continue's regex: no featureFlag( call here
    assert fired("web/src/labels.ts") == {"feature-flags"}
    assert fired("web/e2e/track.spec.ts") == {"e2e"}
    assert fired("api/app.py") == set()  # once per session


def test_nested_override_replaces_agents_md(session: RuleSession) -> None:
    """``api/AGENTS.override.md`` is read instead of ``api/AGENTS.md``, as Codex reads it."""
    injection = session.after_tool_call("Read", {"file_path": str(REPO / "api" / "app.py")})
    assert injection is not None
    assert "every new endpoint goes under `/v2/`" in injection.text
    assert "this copy is replaced" not in injection.text


def test_streamed_rule_refuses_a_print_in_the_api(session: RuleSession) -> None:
    """ruleweave's own streamed rule refuses a whole Write that puts ``print(`` in ``api/``."""
    args = {"file_path": str(REPO / "api" / "debug.py"), "content": "print('parcel', pid)\n"}
    refusal = session.before_tool_call("Write", args, call_id="w1")
    assert refusal is not None and "structlog" in refusal.message
    elsewhere = {"file_path": str(REPO / "web" / "debug.py"), "content": "print('x')\n"}
    assert session.before_tool_call("Write", elsewhere, call_id="w2") is None


def test_lint_finds_the_shared_copies_and_the_files_agents_skip(capsys: pytest.CaptureFixture[str]) -> None:
    """``ruleweave lint``: four copies are one duplicate, no glob is dead, the Cursor .md file is unreachable
    and the code-review-only Copilot file is an info line (Copilot code review reads it)."""
    code = main(["lint", "--json", "--cwd", str(REPO), "--root", str(REPO)])
    out, _ = capsys.readouterr()
    assert code == 0
    findings = json.loads(out)["findings"]
    assert not [f for f in findings if f["code"] in ("dead-glob", "dead-rule", "over-limit", "drift")]
    duplicates = [f for f in findings if f["code"] == "duplicate"]
    assert len(duplicates) == 1 and "the same text is kept in 4 files" in duplicates[0]["message"]
    unreachable = {f["path"] for f in findings if f["code"] == "unreachable" and f["severity"] == "warning"}
    assert unreachable == {".cursor/rules/old-notes.md"}
    [review] = [f for f in findings if f["path"] == ".github/instructions/review.instructions.md"]
    assert (review["code"], review["severity"]) == ("discovery", "info")
