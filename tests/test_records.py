"""``RuleweaveConfig`` checks its options; ``validated`` checks a ``Rule`` built outside ruleweave.

Neither is a pydantic model nor a dataclass (a hook process must pay for
neither import), so the checking a model did is done here by hand: these
tests pin what is accepted, what it becomes, and the one sentence a bad value
gives.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ConfigError
from ruleweave.rules import Rule, SourceMeta, validated
from ruleweave.store.memory import MemoryStore


def _source(path: str = "/p/a.md") -> SourceMeta:
    return SourceMeta(provider="cursor", priority=40, level="project", path=path)


def test_config_takes_strings_and_lists_and_keeps_paths_tuples_and_sets(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    config = RuleweaveConfig(
        cwd=str(tmp_path / "src"), home=str(tmp_path), disabled_rules=["b", "a", "a"],
        ignored_dirs=["dist"], tool_aliases={"edit": ["patch_file"]}, builtin_rules=["x"],
        templates={"notice": "{body}"},
    )
    assert config.cwd == tmp_path / "src" and isinstance(config.cwd, Path)
    assert config.root == tmp_path  # found from the .git marker above cwd
    assert config.disabled_rules == frozenset({"a", "b"})
    assert config.ignored_dirs == ("dist",) and config.builtin_rules == ("x",)
    assert config.tool_aliases == {"edit": ("patch_file",)}
    assert config.claude_dir == tmp_path / ".claude" and config.native_home == tmp_path / ".ruleweave"
    with pytest.raises(AttributeError, match="immutable"):
        config.cwd = tmp_path


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_rule_bytes": 0}, "'max_rule_bytes': should be at least 1, not 0."),
        ({"max_rule_bytes": "8"}, "'max_rule_bytes': should be an integer, not '8'."),
        ({"max_rule_bytes": True}, "'max_rule_bytes': should be an integer, not True."),
        ({"ttsr_window": 1 << 21}, "'ttsr_window': should be between 16 and 1048576, not 2097152."),
        ({"symlinks": "always"}, "'symlinks': should be one of 'within', 'follow', 'ignore', not 'always'."),
        ({"ignored_dirs": "dist"}, "'ignored_dirs': should be a list of strings, not 'dist'."),
        ({"disabled_rules": [1]}, "'disabled_rules': should be a list of strings, not [1]."),
        ({"tool_aliases": {"edit": "x"}}, "'tool_aliases.edit': should be a list of strings, not 'x'."),
        ({"templates": {"n": 3}}, "'templates': should be a mapping of names to strings, not {'n': 3}."),
        ({"parent_instructions": "yes"}, "'parent_instructions': should be True or False, not 'yes'."),
        ({"event_log": 5}, "'event_log': should be a path, not 5."),
        ({"store": 5}, "'store': should be a SessionStore or a store URL, not 5."),
        ({"mode": 1}, "'mode': should be a string, not 1."),
    ],
)
def test_a_bad_option_is_one_sentence_naming_it(
    tmp_path: Path, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        RuleweaveConfig(cwd=tmp_path, **options)
    assert str(caught.value) == f"RuleweaveConfig option {message}"


def test_an_unknown_option_is_refused(tmp_path: Path) -> None:
    """A misspelt option is an error, not silently ignored."""
    with pytest.raises(TypeError, match="max_rule_byte"):
        RuleweaveConfig(cwd=tmp_path, max_rule_byte=5)  # type: ignore[call-arg]


def test_replace_checks_again_and_keeps_what_was_resolved(tmp_path: Path) -> None:
    config = RuleweaveConfig(cwd=tmp_path, project_root=tmp_path)
    store = MemoryStore()
    changed = config.replace(store=store, notice_max_bytes=100)
    assert changed.store is store and changed.notice_max_bytes == 100
    assert (changed.cwd, changed.root, changed.home) == (config.cwd, config.root, config.home)
    with pytest.raises(ConfigError, match="'notice_max_bytes'"):
        config.replace(notice_max_bytes=-1)
    with pytest.raises(TypeError, match="notice_max_byte"):
        config.replace(notice_max_byte=1)
    assert changed != config and config.replace() == config


def test_fingerprint_and_replayable_options_are_json_in_a_stable_order(tmp_path: Path) -> None:
    a = RuleweaveConfig(cwd=tmp_path, disabled_rules={"z", "b", "m"}, store=MemoryStore())
    b = RuleweaveConfig(cwd=tmp_path, disabled_rules=["m", "z", "b"])
    assert a.fingerprint() == b.fingerprint()  # the store is left out, sets are sorted
    options = a.replayable_options()
    assert options["disabled_rules"] == ["b", "m", "z"]
    assert not {"cwd", "project_root", "home", "store", "event_log"} & options.keys()
    assert json.loads(json.dumps(options)) == options
    assert RuleweaveConfig(cwd=tmp_path, **options).replayable_options() == options


def test_validated_takes_lists_as_tuples_and_names_the_field_of_a_wrong_kind() -> None:
    def rule(**fields: Any) -> Rule:
        return Rule(**{"name": "r", "path": "/p/a.md", "content": "x", "source": _source(), **fields})

    listed = validated(rule(globs=["*.py"], shadowed=[_source("/q.md")]))
    assert listed.globs == ("*.py",) and listed.shadowed == (_source("/q.md"),)
    assert validated(rule()) == rule()
    bad: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"globs": "*.py"}, TypeError, "Rule.globs must be a sequence of strings, not '*.py'"),
        ({"globs": [1]}, TypeError, "Rule.globs must be a sequence of strings, not [1]"),
        ({"always_apply": "yes"}, TypeError, "Rule.always_apply must be bool, not 'yes'"),
        ({"interrupt_mode": "sometimes"}, ValueError, "Rule.interrupt_mode must be one of"),
        ({"source": {"provider": "x"}}, TypeError, "Rule.source must be SourceMeta"),
        ({"name": 3}, TypeError, "Rule.name must be str, not 3"),
        ({"source": SourceMeta("x", 1, "team", "p")}, ValueError, "SourceMeta.level must be one of"),  # type: ignore[arg-type]
        ({"source": SourceMeta("x", True, "user", "p")}, TypeError, "SourceMeta.priority must be int"),
    ]
    for fields, kind, message in bad:
        with pytest.raises(kind) as caught:
            validated(rule(**fields))
        assert str(caught.value).startswith(message), fields


def test_loading_rules_never_imports_pydantic(tmp_path: Path) -> None:
    """What a hook process loads (config, discovery, the rule set) stays clear of pydantic."""
    (tmp_path / ".git").mkdir()
    rules = tmp_path / ".cursor" / "rules"
    rules.mkdir(parents=True)
    (rules / "py.mdc").write_text('---\nglobs: "**/*.py"\n---\nUse type hints.\n', encoding="utf-8")
    code = (
        "import sys\nfrom ruleweave import RuleSet, RuleweaveConfig\n"
        f"rs = RuleSet.load(RuleweaveConfig(cwd={str(tmp_path)!r}))\n"
        "assert [r.name for r in rs.buckets.scoped] == ['py'], rs.buckets.scoped\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    assert RuleSet.load(RuleweaveConfig(cwd=tmp_path)).buckets.scoped[0].globs == ("**/*.py",)
