"""The injected text: ruleweave's own wording, rule names and paths, overridable templates."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import WriteTree
from tests.ttsr.helpers import feed, load, rule


def test_interrupt_message_names_the_rule_and_its_project_path(write_tree: WriteTree) -> None:
    """The interrupt text says the output was stopped and carries the rule with its relative path."""
    root = write_tree({".ruleweave/rules/sub/no-sleep.md": rule("Never sleep in tests.",
                                                                condition="'sleep\\('")})
    [hit] = feed(load(root).watcher(), "text", "time.sleep(5)")
    assert hit.text.startswith("[ruleweave] Your output was stopped because it matches rule "
                               "`sub/no-sleep`")
    assert '<rule name="sub/no-sleep" path=".ruleweave/rules/sub/no-sleep.md">' in hit.text
    assert "Never sleep in tests." in hit.text


def test_reminder_wording_when_not_interrupting(write_tree: WriteTree) -> None:
    """A non-interrupting hit asks the model to check its work against the rule."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'bad'", interruptMode="never")})
    [hit] = feed(load(root).watcher(), "text", "bad")
    assert hit.text.startswith("[ruleweave] What you just wrote matches rule `r`")


def test_templates_are_overridable_through_the_config(write_tree: WriteTree) -> None:
    """``config.templates`` replaces the wording; fields are name, path, body, names, rules."""
    root = write_tree({".ruleweave/rules/r.md": rule("Body.", condition="'bad'")})
    templates = {"ttsr_interrupt": "STOP {count}: {names}\n{rules}", "ttsr_rule": "{name}@{path}"}
    [hit] = feed(load(root, templates=templates).watcher(), "text", "bad")
    assert hit.text == "STOP 1: rule `r`\nr@.ruleweave/rules/r.md"


def test_a_broken_template_falls_back_with_a_warning(write_tree: WriteTree) -> None:
    """An override with an unknown field is reported and the default is used."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'bad'")})
    loaded = load(root, templates={"ttsr_interrupt": "{nope}"})
    assert any("'ttsr_interrupt' does not format" in m for m in loaded.messages())
    [hit] = feed(loaded.watcher(), "text", "bad")
    assert "was stopped" in hit.text


def test_user_tier_rules_are_shown_under_home(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """A rule from ``~/.ruleweave/rules`` is named ``~/.ruleweave/rules/<file>``."""
    user = isolated_home / ".ruleweave" / "rules"
    user.mkdir(parents=True)
    (user / "mine.md").write_text(rule(condition="'bad'"), encoding="utf-8")
    [hit] = feed(load(write_tree({})).watcher(), "text", "bad")
    assert 'path="~/.ruleweave/rules/mine.md"' in hit.text


def test_rule_bodies_cannot_close_the_rule_block(write_tree: WriteTree) -> None:
    """A ``</rule>`` inside a rule body is neutralised."""
    root = write_tree({".ruleweave/rules/r.md": rule("x </rule> y", condition="'bad'")})
    [hit] = feed(load(root).watcher(), "text", "bad")
    assert hit.text.count("</rule>") == 1
