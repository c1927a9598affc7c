"""Rules as monorepos hold them: identity by path, nested rule folders on first touch, ignored trees.

Each agent documents folders below the root as scoped to their directory:
Cursor — "Nested rules … automatically attached when files in their
directory are referenced" (https://docs.cursor.com/context/rules); Claude
Code — `.claude/rules` in subdirectories load on demand when Claude reads
files there (https://docs.anthropic.com/en/docs/claude-code/memory);
Windsurf — `.windsurf/rules` in subdirectories
(https://docs.windsurf.com/windsurf/cascade/memories); Copilot CLI reads
`.github/instructions` nested on the way to a file
(https://docs.github.com/en/copilot/how-tos/configure-custom-instructions).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleNotFound, RuleSet, RuleweaveConfig
from ruleweave.cli import main
from tests.conftest import WriteTree


def load(root: Path, cwd: str = "", **options: Any) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=root / cwd, project_root=root, **options))


def names(injection: object) -> list[str]:
    items = getattr(injection, "items", ())
    return [item.name for item in items]


SIX_GENERALS = {
    f".cursor/rules/{folder}general.mdc": f"---\nglobs: '{glob}'\n---\nGeneral for {folder or 'root'}."
    for folder, glob in (
        ("", "*.md"), ("agents/", "agents/**/*.py"), ("cli/", "cli/**/*.go"),
        ("web/", "web/**/*.tsx"), ("docs/", "docs/**/*.rst"), ("infra/", "infra/**/*.tf"),
    )
}


def test_six_general_rules_are_six_rules_each_on_its_globs(write_tree: WriteTree) -> None:
    """Six ``general.mdc`` in subfolders give six rules, none shadowed, each firing on its globs."""
    ruleset = load(write_tree(SIX_GENERALS))
    found = {r.name: r for r in ruleset.rules}
    assert sorted(found) == ["agents/general", "cli/general", "docs/general", "general",
                             "infra/general", "web/general"]
    assert ruleset.discovery.shadowed == ()
    session = ruleset.session("s")
    for path, rule in (("agents/a/x.py", "agents/general"), ("cli/main.go", "cli/general"),
                       ("web/app/page.tsx", "web/general"), ("infra/db.tf", "infra/general")):
        assert names(session.after_tool_call("read", {"path": path})) == [rule], path
    assert session.resolve("rule://cli/general").content == "General for cli/."


def test_frontend_and_backend_testing_both_fire(write_tree: WriteTree) -> None:
    """``frontend/testing`` and ``backend/testing`` are two rules; the backend globs fire too."""
    root = write_tree({
        ".cursor/rules/frontend/testing.mdc": "---\nglobs: 'web/**/*.test.ts'\n---\nVitest.",
        ".cursor/rules/backend/testing.mdc": "---\nglobs: 'api/**/test_*.py'\n---\npytest.",
    })
    session = load(root).session("s")
    assert names(session.after_tool_call("read", {"path": "api/tests/test_x.py"})) == ["backend/testing"]
    assert names(session.after_tool_call("read", {"path": "web/a.test.ts"})) == ["frontend/testing"]


MONOREPO = {
    ".cursor/rules/root.mdc": "---\nglobs: '**/*.md'\n---\nDocs style.",
    "apps/web/.cursor/rules/web-app.mdc": "---\nglobs: '**/*.tsx'\n---\nUse server components.",
    "apps/web/.cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nThe web app is Remix.",
    "apps/web/.cursor/rules/deploy.mdc": "---\ndescription: How the web app deploys\n---\nfly deploy.",
    "apps/web/app/root.tsx": "export {}",
    "packages/api/.claude/rules/py.md": "---\npaths: ['**/*.py']\n---\nAPI Python: FastAPI.",
    "packages/api/.windsurf/rules/svc.md": "---\ntrigger: always_on\n---\nAPI service notes.",
    "packages/web/src/app.py": "x",
    "packages/cli/.github/instructions/go.instructions.md": "---\napplyTo: '**/*.go'\n---\nGo CLI.",
}


def test_nested_folder_fires_from_the_root(write_tree: WriteTree) -> None:
    """From the root, touching ``apps/web/app/root.tsx`` brings apps/web's rules, once."""
    session = load(write_tree(MONOREPO)).session("s")
    first = session.after_tool_call("read", {"path": "apps/web/app/root.tsx"})
    assert names(first) == ["apps/web:always", "apps/web", "apps/web:web-app"]
    assert first is not None
    assert "The web app is Remix." in first.text and "Use server components." in first.text
    assert "rule://apps/web:deploy: How the web app deploys" in first.text
    assert session.after_tool_call("read", {"path": "apps/web/app/other.tsx"}) is None
    assert session.resolve("rule://apps/web:deploy").content == "fly deploy."


def test_globs_are_relative_to_their_folder(write_tree: WriteTree) -> None:
    """packages/api's ``**/*.py`` fires for packages/api files only, not for packages/web."""
    session = load(write_tree(MONOREPO)).session("s")
    web = session.after_tool_call("read", {"path": "packages/web/src/app.py"})
    assert "packages/api:py" not in names(web)
    api = session.after_tool_call("read", {"path": "packages/api/main.py"})
    assert names(api) == ["packages/api:svc", "packages/api:py"]
    assert names(session.after_tool_call("read", {"path": "packages/cli/cmd/root.go"})) == ["packages/cli:go"]


def test_cwd_in_one_package(write_tree: WriteTree) -> None:
    """With cwd in packages/api its folders load at start (rebased); apps/web's still on touch."""
    ruleset = load(write_tree(MONOREPO), cwd="packages/api")
    assert {r.name: r.globs for r in ruleset.rules if r.base} == {
        "packages/api:py": ("packages/api/**/*.py",), "packages/api:svc": ()
    }
    assert "API service notes." in ruleset.session("p").system_prompt()
    session = ruleset.session("s")
    assert names(session.after_tool_call("read", {"path": "../web/src/app.py"})) == []
    assert names(session.after_tool_call("read", {"path": "main.py"})) == ["packages/api:py"]
    web = session.after_tool_call("read", {"path": "../../apps/web/app/root.tsx"})
    assert "apps/web:web-app" in names(web)


def test_loading_does_not_read_nested_folders(write_tree: WriteTree) -> None:
    """A broken nested rule warns only once a tool call reaches its folder (cost follows the walk)."""
    root = write_tree({**MONOREPO, "apps/web/.cursor/rules/bad.mdc": "---\nglobs: [unclosed\n---\nX."})
    ruleset = load(root)
    assert not any("bad.mdc" in w.path for w in ruleset.warnings)
    ruleset.session("s").after_tool_call("read", {"path": "apps/web/x.tsx"})
    assert any("bad.mdc" in w.path for w in ruleset.touch_warnings)


def test_nested_notices_round_trip_through_the_ledger(write_tree: WriteTree) -> None:
    """notices_for re-renders a nested folder's notices (rules and listing) from the ledger."""
    session = load(write_tree(MONOREPO)).session("s")
    first = session.after_tool_call("read", {"path": "apps/web/app/root.tsx"}, call_id="c1")
    again = session.notices_for("c1")
    assert first is not None and again is not None and again.text == first.text
    assert session.forget_calls(["c1"])
    assert session.after_tool_call("read", {"path": "apps/web/app/root.tsx"}) is not None


def test_ignored_trees_are_not_the_projects_voice(write_tree: WriteTree) -> None:
    """A ``.venv`` wheel's AGENTS.md and a gitignored ``vendor/`` with rules inject nothing."""
    root = write_tree({
        ".gitignore": "/vendor/\n.venv/\n*.log\n!keep/\n",
        ".venv/lib/python3.12/site-packages/somepkg/AGENTS.md": "Wheel instructions.",
        "vendor/lib/.cursor/rules/vendored.mdc": "---\nglobs: '**/*'\n---\nVendored rule.",
        "vendor/lib/AGENTS.md": "Vendored agents.",
        "src/AGENTS.md": "Src agents.",
    })
    session = load(root).session("s")
    for path in (".venv/lib/python3.12/site-packages/somepkg/mod.py", "vendor/lib/a.js"):
        assert session.after_tool_call("read", {"path": path}) is None, path
    assert names(session.after_tool_call("read", {"path": "src/x.py"})) == ["src/AGENTS.md"]


def test_dependency_folders_are_ignored_without_a_gitignore(write_tree: WriteTree) -> None:
    """With no .gitignore, node_modules and .venv are still not read; ignored_dirs adds names."""
    root = write_tree({
        "node_modules/pkg/AGENTS.md": "Package instructions.",
        "third_party/x/AGENTS.md": "Third party.",
        "lib/AGENTS.md": "Lib.",
    })
    session = load(root, ignored_dirs=("third_party",)).session("s")
    assert session.after_tool_call("read", {"path": "node_modules/pkg/index.js"}) is None
    assert session.after_tool_call("read", {"path": "third_party/x/a.c"}) is None
    assert names(session.after_tool_call("read", {"path": "lib/a.py"})) == ["lib/AGENTS.md"]


def test_a_repository_without_rules_gets_nothing(write_tree: WriteTree) -> None:
    """No rule files: an empty prompt contribution and no notices (built-in rules are opt-in)."""
    session = load(write_tree({"src/main.py": "print()", "install.sh": "curl x | sh"})).session("s")
    assert session.system_prompt() == ""
    assert session.after_tool_call("write", {"path": "src/main.py", "content": "def f(x=[]): ..."}) is None
    assert session.watch("text", "run curl https://x | sh to install") is None


def test_builtin_rules_by_name(write_tree: WriteTree) -> None:
    """``builtin_rules`` takes True or a list of names."""
    root = write_tree({"README.md": "x"})
    assert [r.name for r in load(root, builtin_rules=["shell-rm-rf"]).rules] == ["shell-rm-rf"]
    assert len(load(root, builtin_rules=True).rules) == 8


def test_unknown_nested_names_do_not_escape(write_tree: WriteTree) -> None:
    """rule:// with a directory prefix never reads outside the project or an ignored tree."""
    session = load(write_tree({**MONOREPO, ".gitignore": "apps/web/\n"})).session("s")
    for name in ("../../etc:passwd", "/etc:passwd", "apps/web:deploy", "nowhere:x", ":x"):
        with pytest.raises(RuleNotFound):
            session.resolve(f"rule://{name}")


def test_explain_and_scan_all_show_nested_folders(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """explain names a nested rule's folder and ignored trees; scan --all lists nested folders."""
    root = write_tree({**MONOREPO, ".gitignore": "build/\n"})
    assert main(["explain", "--cwd", str(root), "--json", "apps/web/app/root.tsx", "build/x/y.ts"]) == 0
    report = json.loads(capsys.readouterr().out)["paths"]
    web = {r["name"]: r for r in report[0]["rules"]}
    assert web["apps/web:web-app"]["folder"] == "apps/web/.cursor/rules"
    assert web["apps/web:web-app"]["glob"] == "apps/web/**/*.tsx"
    assert report[0]["listings"][0]["folder"] == "apps/web"
    assert report[1]["ignored"] == "build"
    assert main(["scan", "--cwd", str(root), "--json", "--all"]) == 0
    nested = json.loads(capsys.readouterr().out)["nested"]
    assert [n["directory"] for n in nested] == ["apps/web", "packages/api", "packages/cli"]
    web_rules = {r["name"] for r in nested[0]["rules"]}
    assert web_rules == {"apps/web:always", "apps/web:deploy", "apps/web:web-app"}


def test_a_link_out_of_the_project_is_refused_with_a_warning(write_tree: WriteTree, tmp_path: Path) -> None:
    """A directory linking outside is never read on touch, and the warning names the link."""
    outside = tmp_path / "outside"
    (outside / ".cursor/rules").mkdir(parents=True)
    (outside / "AGENTS.md").write_text("Outside instructions.", encoding="utf-8")
    rule = "---\nalwaysApply: true\n---\nOutside rule."
    (outside / ".cursor/rules/x.mdc").write_text(rule, encoding="utf-8")
    root = write_tree({"src/a.py": "x"})
    (root / "rootfs").symlink_to(outside, target_is_directory=True)
    ruleset = load(root)
    assert ruleset.session("s").after_tool_call("read", {"path": "rootfs/AGENTS.md"}) is None
    assert any(w.path == str(root / "rootfs") and "outside the project" in w.message
               for w in ruleset.touch_warnings)


def test_a_nested_continue_rule_is_gated_on_file_content_by_its_own_regex(write_tree: WriteTree) -> None:
    """A nested folder's Continue rule with ``regex`` attaches only to files whose content matches
    (https://docs.continue.dev/customize/deep-dives/rules), and a top-level rule of the same name
    lends it no gate of its own."""
    root = write_tree({
        ".git/HEAD": "ref: refs/heads/main\n",
        ".continue/rules/sql.md": "---\nname: sql\nglobs: '**/*.py'\nregex: 'INSERT'\n---\nROOT SQL rule.",
        "apps/web/.continue/rules/sql.md": "---\nname: sql\nglobs: '**/*.ts'\nregex: 'SELECT'\n---\n"
        "WEB SQL rule.",
        "apps/web/plain.ts": "export const x = 1;\n",
        "apps/web/query.ts": "const q = 'SELECT * FROM t';\n",
    })
    session = load(root).session("gated")
    plain = session.after_tool_call("read_file", {"path": str(root / "apps/web/plain.ts")}, call_id="c1")
    assert plain is None or "WEB SQL rule." not in plain.text
    query = session.after_tool_call("read_file", {"path": str(root / "apps/web/query.ts")}, call_id="c2")
    assert query is not None and "WEB SQL rule." in query.text
