"""``build_map``: scan, lint and the prompt budget joined per rule, per directory and per agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.errors import ConfigError
from ruleweave.lint import lint
from ruleweave.lint.report import render_json
from ruleweave.rulemap import build_map
from ruleweave.rulemap.data import EXCERPT_BYTES
from ruleweave.rulemap.inventory import inventory
from ruleweave.rulemap.reach import LOADS, WHY
from tests.rulemap.conftest import every_format_config
from tests.rulemap.monorepo import HOSTILE_BODY, HOSTILE_NAME


def rule_named(data: dict[str, Any], name: str, kind: str = "rule") -> dict[str, Any]:
    """The one rule record called ``name`` of ``kind``."""
    [found] = [r for r in data["rules"] if r["name"] == name and r["kind"] == kind]
    record: dict[str, Any] = found
    return record


def node_path(data: dict[str, Any], node: int) -> str:
    """The directory a tree node shows."""
    path: str = data["tree"][node]["path"]
    return path


@pytest.fixture(scope="module")
def every_format() -> dict[str, Any]:
    """The map of ``examples/every-format-repo`` with every agent that reads something there."""
    return build_map(every_format_config())


def test_the_map_is_scan_and_lint_joined(every_format: dict[str, Any]) -> None:
    """Each winning rule carries scan's record unchanged; findings, summary and agent views are lint's."""
    config = every_format_config()
    scanned = inventory(RuleSet.load(config))
    winners = [r for r in every_format["rules"] if r["kind"] == "rule"]
    assert len(winners) == len(scanned["rules"])
    for record, scan in zip(winners, scanned["rules"], strict=True):
        assert {key: record[key] for key in scan} == scan
    assert every_format["instructions"] == scanned["instructions"]
    linted = render_json(lint(config, [a["agent"] for a in every_format["agents"]]))
    findings = [{k: v for k, v in f.items() if k != "node"} for f in every_format["findings"]]
    assert findings == linted["findings"] and every_format["summary"] == linted["summary"]
    views = [{k: v for k, v in a.items() if k != "instructions"} for a in every_format["agents"]]
    assert views == linted["agents"]


def test_default_agents_are_ruleweave_then_those_reading_something_here(every_format: dict[str, Any]) -> None:
    """ruleweave comes first; an agent whose files and formats are all absent is left out."""
    agents = [a["agent"] for a in every_format["agents"]]
    assert agents[0] == "ruleweave" and {"claude", "codex", "cursor", "copilot", "gemini"} <= set(agents)


def test_a_rule_names_its_coverage_and_who_loads_it(every_format: dict[str, Any]) -> None:
    """Claude's api-errors rule covers api/ and api/tests/ through its glob; Claude and ruleweave load it
    by path, Codex reads no rule files."""
    rule = rule_named(every_format, "api-errors")
    assert rule["file"] == ".claude/rules/api-errors.md" and rule["format"] == "Claude Code"
    assert rule["bytes"] == len(rule["excerpt"].encode()) and rule["files"] == 4
    assert [(node_path(every_format, n), rule["globs"][g], files) for n, g, files in rule["covers"]] == [
        ("api", "api/**/*.py", 2), ("api/tests", "api/**/*.py", 2),
    ]
    agents = rule["agents"]
    assert agents["claude"] == {"loads": "by path"} and agents["ruleweave"] == {"loads": "by path"}
    assert agents["codex"]["loads"] is None and agents["codex"]["why"] == "format"
    assert "reads no rule files" in agents["codex"]["note"]
    assert agents["cursor"]["note"] == "Cursor does not read Claude Code rules"


def test_an_excluded_rule_says_why(every_format: dict[str, Any]) -> None:
    """Cursor skips a .md file in .cursor/rules (lint's reason); ruleweave loads it at session start."""
    rule = rule_named(every_format, "old-notes")
    assert rule["agents"]["cursor"] == {
        "loads": None, "why": "excluded", "note": "Cursor reads only .mdc files in .cursor/rules",
    }
    assert rule["agents"]["ruleweave"] == {"loads": "session start"}
    [finding] = [every_format["findings"][i] for i in rule["findings"]]
    assert finding["code"] == "unreachable" and node_path(every_format, finding["node"]) == ".cursor/rules"


def test_always_on_rules_load_at_session_start_for_their_agent(every_format: dict[str, Any]) -> None:
    """The legacy .cursorrules is always on for Cursor; Kiro's steering file with inclusion: always too."""
    assert rule_named(every_format, "cursorrules")["agents"]["cursor"] == {"loads": "session start"}
    assert rule_named(every_format, "tech")["agents"]["kiro"] == {"loads": "session start"}
    assert rule_named(every_format, "incident-response")["agents"]["windsurf"] == {"loads": "by description"}


def test_instruction_files_per_agent(every_format: dict[str, Any]) -> None:
    """Codex takes api/AGENTS.override.md in api/ instead of api/AGENTS.md; Claude takes AGENTS.md; the
    map places each nested file on its directory for the agents that read it there."""
    files = {f["path"]: f for f in every_format["instruction_files"]}
    override, plain = files["api/AGENTS.override.md"]["agents"], files["api/AGENTS.md"]["agents"]
    assert override["codex"] == {"loads": "in its directory"} and plain["codex"]["why"] == "first only"
    assert "api/AGENTS.override.md comes first" in plain["codex"]["note"]
    assert plain["claude"] == {"loads": "in its directory"} and override["claude"]["why"] == "format"
    assert files["CLAUDE.md"]["agents"]["ruleweave"]["why"] == "duplicate"
    assert files["AGENTS.md"]["agents"]["codex"] == {"loads": "session start"}
    views = {a["agent"]: a for a in every_format["agents"]}
    api = every_format["tree"].index(next(n for n in every_format["tree"] if n["path"] == "api"))
    assert views["codex"]["instructions"] == [[api, "api/AGENTS.override.md"]]


def test_the_tree_counts_files_per_directory(every_format: dict[str, Any]) -> None:
    """Nodes are in pre-order, each names its parent; files listed directly in each add up to the listing."""
    tree = every_format["tree"]
    assert tree[0] == {"path": "", "parent": None, "files": tree[0]["files"]}
    assert sum(n["files"] for n in tree) == every_format["project"]["files"]
    for i, node in enumerate(tree[1:], 1):
        parent = tree[node["parent"]]["path"]
        assert node["parent"] < i and (node["path"].rpartition("/")[0] == parent)
    web = next(n for n in tree if n["path"] == "web/src")
    assert web["files"] == len(list((every_format_config().root / "web" / "src").iterdir()))


def test_the_prompt_budget_is_prompts_report(every_format: dict[str, Any]) -> None:
    """The session-start budget is what ``ruleweave prompt --json`` reports."""
    parts = RuleSet.load(every_format_config()).prompt_parts()
    assert every_format["budget"]["prompt"] == parts.budget.as_json()
    assert every_format["budget"]["notice"] == {"limit": 8192, "over": [], "more": 0}


def test_chosen_agents_come_in_the_order_asked() -> None:
    """--agent codex claude: those two views, in that order; an unknown agent is a ConfigError."""
    data = build_map(every_format_config(), ["codex", "claude"])
    assert [a["agent"] for a in data["agents"]] == ["codex", "claude"]
    assert set(data["rules"][0]["agents"]) == {"codex", "claude"}
    with pytest.raises(ConfigError, match="Unknown agent 'vim'"):
        build_map(every_format_config(), ["vim"])


@pytest.fixture(scope="module")
def mono(monorepo: Path) -> dict[str, Any]:
    """The map of the generated monorepo."""
    return build_map(RuleweaveConfig(cwd=monorepo))


def test_a_monorepo_map_leaves_ignored_trees_out(mono: dict[str, Any]) -> None:
    """node_modules/ is ignored by .gitignore: no node holds it, and the file count is git's."""
    assert not [n for n in mono["tree"] if n["path"].startswith("node_modules")]
    assert sum(n["files"] for n in mono["tree"]) == mono["project"]["files"]
    assert mono["project"]["listing"] == "git"


def test_nested_rules_apply_in_their_directory(mono: dict[str, Any]) -> None:
    """A package's nested Cursor folder: its always-on rule loads in its directory, its scoped rules cover
    only that package."""
    local = rule_named(mono, "packages/pkg000:local", "nested")
    assert node_path(mono, local["node"]) == "packages/pkg000"
    assert local["agents"]["cursor"]["loads"] == "in its directory"
    assert local["agents"]["ruleweave"]["loads"] == "in its directory"
    nested = [r for r in mono["rules"] if r["kind"] == "nested" and r["covers"]]
    assert nested
    for rule in nested:
        inside = [node_path(mono, n) for n, _, _ in rule["covers"]]
        assert all(p == rule["directory"] or p.startswith(rule["directory"] + "/") for p in inside)


def test_lint_findings_are_placed_on_the_tree(mono: dict[str, Any]) -> None:
    """Dead rules sit on their rule folder, the drifted CLAUDE.md on the root, Windsurf's cut on the rule."""
    by_code: dict[str, list[dict[str, Any]]] = {}
    for finding in mono["findings"]:
        by_code.setdefault(finding["code"], []).append(finding)
    dead = by_code["dead-rule"]
    assert dead and all(node_path(mono, f["node"]) == f["path"].rpartition("/")[0] for f in dead)
    assert any(f["path"] == "CLAUDE.md" and f["node"] == 0 for f in by_code["drift"])
    huge = rule_named(mono, "huge")
    assert huge["agents"]["windsurf"]["loads"] == "session start"
    assert "12,000 characters per file" in huge["agents"]["windsurf"]["cut"]


def test_the_notice_budget_names_what_a_touch_overflows(mono: dict[str, Any]) -> None:
    """Four 2 KB Python style rules fire on one .py file: over notice_max_bytes, each cut to a fair share."""
    notice = mono["budget"]["notice"]
    assert notice["over"]
    worst = notice["over"][0]
    assert worst["path"].endswith(".py") and worst["bytes"] > notice["limit"]
    names = {mono["rules"][r["rule"]]["name"] for r in worst["rules"]}
    assert {f"py-style-{k}" for k in range(4)} <= names
    kept = [r["kept"] if r["kept"] is not None else r["bytes"] for r in worst["rules"]]
    assert sum(kept) <= notice["limit"] and any(r["kept"] is not None for r in worst["rules"])


def test_rule_text_is_carried_whole_or_bounded(mono: dict[str, Any]) -> None:
    """The hostile rule's body is carried as it is (the page escapes it); a long body is cut and says so."""
    hostile = rule_named(mono, HOSTILE_NAME)
    assert hostile["excerpt"] == HOSTILE_BODY
    huge = rule_named(mono, "huge")
    assert len(huge["excerpt"].encode()) == EXCERPT_BYTES
    assert huge["excerpt_cut"] == huge["bytes"] - EXCERPT_BYTES


def test_every_answer_uses_the_documented_words(every_format: dict[str, Any], mono: dict[str, Any]) -> None:
    """Each agent's answer is one of LOADS, or no load with one of WHY and a sentence saying why."""
    for data in (every_format, mono):
        answers = [a for r in data["rules"] for a in r["agents"].values()]
        answers += [a for f in data["instruction_files"] for a in f["agents"].values()]
        for answer in answers:
            if answer["loads"] is None:
                assert answer["why"] in WHY and answer["note"]
            else:
                assert answer["loads"] in LOADS and "why" not in answer


def test_a_fallback_name_from_codexs_project_config_is_codexs_instruction_file(
    tmp_path: Path, isolated_home: Path
) -> None:
    """The project's ``.codex/config.toml`` names TEAM.md: the map shows Codex loading it at session start
    where no AGENTS.md is, and passing it over (first only) beside one."""
    root = tmp_path / "repo"
    tree = {".git/HEAD": "", ".codex/config.toml": 'project_doc_fallback_filenames = ["TEAM.md"]\n',
            "TEAM.md": "Team.\n", "pkg/AGENTS.md": "Package.\n", "pkg/TEAM.md": "Package team.\n"}
    for rel, text in tree.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    files = {f["path"]: f["agents"] for f in build_map(RuleweaveConfig(cwd=root))["instruction_files"]}
    assert files["TEAM.md"]["codex"] == {"loads": "session start"}
    assert files["pkg/TEAM.md"]["codex"]["why"] == "first only"
    assert files["pkg/AGENTS.md"]["codex"] == {"loads": "in its directory"}
