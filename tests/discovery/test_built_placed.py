"""Rules are built once, already in the matcher's dialect and placed: the same rules as rewriting after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import DiscoveryContext, cursor, discover, roo, trae
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_markdown_rule
from ruleweave.rules import Bucket, Rule, SourceMeta
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run

_CURSOR_TREE = {
    ".cursor/rules/top.mdc": "---\nglobs: '*.py, ./setup.cfg'\n---\nTop rule.",
    "apps/web/.cursor/rules/ui/forms.mdc": "---\nglobs: '*.tsx, src/**/*.ts'\n---\nForms rule.",
    "apps/web/.cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nAlways rule.",
}


def _as_written(ctx: DiscoveryContext) -> list[Rule]:
    """Cursor's rules as a provider built outside ``rule_file`` would hand them over: unplaced."""
    rules: list[Rule] = []
    for directory in ctx.walk:
        for path in sorted((directory / ".cursor" / "rules").rglob("*.mdc")):
            name = path.relative_to(directory / ".cursor" / "rules").with_suffix("").as_posix()
            globs = {"top": ("*.py", "./setup.cfg"), "ui/forms": ("*.tsx", "src/**/*.ts")}.get(name, ())
            rules.append(Rule(
                name=name, path=str(path), content=path.read_text().split("---\n")[-1].strip(),
                globs=globs, always_apply=name == "always",
                source=SourceMeta(provider="cursor", priority=50, level="project", path=str(path)),
            ))
    return rules


def test_built_rules_equal_rules_rewritten_after_loading(write_tree: WriteTree) -> None:
    """Cursor's own loader and a loader whose rules are rewritten afterwards give the same rules."""
    root = write_tree(_CURSOR_TREE)
    built = run(root, cwd="apps/web", only=cursor.PROVIDER)
    after = run(root, cwd="apps/web", only=Provider("cursor", 50, _as_written))
    assert built.rules == after.rules
    forms = named(built)["apps/web:ui/forms"]
    assert forms.globs == ("apps/web/**/*.tsx", "apps/web/src/**/*.ts")
    assert forms.base == "apps/web"
    assert named(built)["top"].globs == ("**/*.py", "setup.cfg")
    assert buckets(built)["apps/web:always"] == Bucket.GENERIC


def test_a_foreign_loader_using_rule_file_is_placed_once(write_tree: WriteTree) -> None:
    """A provider that is not flagged ``places`` may still build through ``rule_file``: placed once."""
    root = write_tree({"apps/web/.cursor/rules/forms.mdc": "---\nglobs: '*.tsx'\n---\nForms rule."})

    def load(ctx: DiscoveryContext) -> list[Rule]:
        return load_dir(ctx, ctx.walk[-1] / ".cursor" / "rules", provider="acme", priority=80,
                        level="project", suffixes=(".mdc",))

    found = run(root, cwd="apps/web", only=Provider("acme", 80, load))
    assert [(r.name, r.globs, r.base) for r in found.rules] == [
        ("apps/web:forms", ("apps/web/**/*.tsx",), "apps/web")
    ]


def test_a_nested_folder_read_on_touch_is_placed_at_its_directory(write_tree: WriteTree) -> None:
    """``discover_directory`` places a folder's rules at that directory, as on the walk."""
    from ruleweave.discovery import discover_directory

    root = write_tree(_CURSOR_TREE)
    found = discover_directory(RuleweaveConfig(cwd=root, builtin_rules=False), root / "apps" / "web")
    assert sorted(rule.name for rule in found.rules) == ["apps/web:always", "apps/web:ui/forms"]
    assert named(found)["apps/web:ui/forms"].globs == ("apps/web/**/*.tsx", "apps/web/src/**/*.ts")


def test_roo_mode_folder_below_the_root_keeps_its_folder_inside_the_placement(write_tree: WriteTree) -> None:
    """A Roo mode rule in a walk directory is ``<dir>:rules-<mode>/<name>``."""
    root = write_tree({"pkg/.roo/rules-code/style.md": "Prefer small functions."})
    found = run(root, cwd="pkg", only=roo.PROVIDER, mode="code")
    assert list(named(found)) == ["pkg:rules-code/style"]
    assert buckets(found) == {"pkg:rules-code/style": Bucket.GENERIC}


def test_trae_project_rules_below_the_root_is_always_on(write_tree: WriteTree) -> None:
    """``project_rules.md`` in a walk directory's ``.trae/rules`` is always on, placed there."""
    root = write_tree({"pkg/.trae/rules/project_rules.md": "---\nalwaysApply: false\n---\nLint first."})
    found = run(root, cwd="pkg", only=trae.PROVIDER)
    assert buckets(found) == {"pkg:project_rules": Bucket.GENERIC}


def test_a_mapper_returning_a_shared_mapping_is_left_untouched(tmp_path: Path) -> None:
    """``load_markdown_rule`` completes a copy of what the mapper returns, never the mapper's object."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.md").write_text("---\ninterruptMode: sometimes\n---\nBody.", encoding="utf-8")
    shared: dict[str, Any] = {"interrupt_mode": "sometimes", "globs": ("*.py",)}
    ctx = DiscoveryContext(RuleweaveConfig(cwd=tmp_path, builtin_rules=False))
    ctx.places = True
    rule = load_markdown_rule(ctx, tmp_path / "a.md", provider="acme", priority=1, level="project",
                              mapper=lambda _: shared)
    assert rule is not None and rule.interrupt_mode is None and rule.globs == ("**/*.py",)
    assert shared == {"interrupt_mode": "sometimes", "globs": ("*.py",)}


def test_discover_leaves_the_context_unflagged(write_tree: WriteTree) -> None:
    """After discovery the context no longer places rules (a later caller gets them as written)."""
    root = write_tree(_CURSOR_TREE)
    ctx = DiscoveryContext(RuleweaveConfig(cwd=root, builtin_rules=False))
    discover(ctx.config, (cursor.PROVIDER,), ctx=ctx)
    assert ctx.places is False and ctx.provider is None
