"""One error tree: everything a caller can see derives from RuleweaveError, in one sentence."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import ruleweave
import ruleweave.adapters
import ruleweave.errors as errors
from ruleweave import ArgumentTypeError, ConfigError, RuleNotFound, RuleSet, RuleweaveConfig, RuleweaveError
from ruleweave.steering import SpecReadError, SpecValidationError
from tests.conftest import WriteTree


def test_every_error_class_is_in_the_tree() -> None:
    """Each exception class in ruleweave.errors derives from RuleweaveError."""
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass) if issubclass(c, BaseException)]
    assert len(classes) >= 10
    assert all(issubclass(c, RuleweaveError) for c in classes)
    assert issubclass(SpecValidationError, RuleweaveError) and issubclass(SpecReadError, RuleweaveError)


EXEMPT: dict[str, str] = {}
"""Exception classes allowed outside the tree or the ``…Error`` name, each with the reason. None today:
even the LangChain stream's control-flow interrupt can reach other middleware, so it is an error too."""


def _every_module() -> list[ModuleType]:
    """Every module of ruleweave and ruleweave.adapters, imported (the frameworks are installed for tests)."""
    names = {"ruleweave", "ruleweave.adapters"}
    for package in (ruleweave, ruleweave.adapters):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            names.add(info.name)
    return [importlib.import_module(name) for name in sorted(names) if not name.endswith(".__main__")]


def _exception_classes() -> list[type[BaseException]]:
    """Every exception class a module of ruleweave defines (aliases count once, under their class)."""
    found: dict[str, type[BaseException]] = {}
    for module in _every_module():
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


def test_every_exception_ruleweave_defines_is_a_ruleweave_error_named_error() -> None:
    """Each exception class in any module of ruleweave or its adapters derives from RuleweaveError and
    is named …Error, and the tree at the top of ruleweave.errors names it."""
    classes = _exception_classes()
    names = {cls.__name__ for cls in classes}
    assert {"HookUsageError", "SettingsError", "UsageError", "OptionError", "StreamInterruptError"} <= names
    strays = [
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in classes
        if cls.__name__ not in EXEMPT
        and not (issubclass(cls, RuleweaveError) and cls.__name__.endswith("Error"))
    ]
    assert strays == []
    tree = (errors.__doc__ or "").split("The tree::", 1)[1].split("\n\n", 2)[1]
    assert [cls.__name__ for cls in classes if not re.search(rf"\b{cls.__name__}\b", tree)] == []


def test_the_old_names_are_aliases_of_the_new() -> None:
    """``RuleNotFound`` (exported) and ``StreamInterrupt`` are the renamed classes themselves."""
    from ruleweave.adapters.langchain_stream import StreamInterrupt, StreamInterruptError

    assert ruleweave.RuleNotFound is ruleweave.RuleNotFoundError is errors.RuleNotFoundError
    assert StreamInterrupt is StreamInterruptError
    with pytest.raises(RuleNotFound):
        raise ruleweave.RuleNotFoundError("none", name="x", available=())


def test_the_errors_module_imports_no_typing() -> None:
    """The hook's fast path imports ruleweave.errors (HookUsageError) and must not pay for typing."""
    code = (
        "import sys, ruleweave.errors as e\n"
        "assert issubclass(e.HookUsageError, (e.RuleweaveError, ValueError))\n"
        "assert 'typing' not in sys.modules, 'typing'\n"
        "assert e.SpecIssue('f', 1, 'r').to_json() == {'file': 'f', 'line': 1, 'reason': 'r'}\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize(
    ("templates", "words"),
    [
        ({"notice": "[rule: {nam}]\n{body}"}, ["'notice'", "{nam}"]),
        ({"ttsr_rule": "{name} {oops}"}, ["'ttsr_rule'", "{oops}"]),
        ({"notcie": "x"}, ["Unknown template 'notcie'"]),
        ({"generic": "{rules"}, ["'generic'", "not a valid format string"]),
    ],
)
def test_bad_templates_fail_at_load(
    write_tree: WriteTree, templates: dict[str, str], words: list[str]
) -> None:
    """A template naming an unknown field is a ConfigError at load, naming template and field."""
    root = write_tree({".cursor/rules/ts.mdc": "---\nglobs: '*.ts'\n---\nStrict."})
    with pytest.raises(ConfigError) as caught:
        RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, templates=templates))
    message = str(caught.value)
    assert all(w in message for w in words), message
    assert message.count(". ") == 0 or message.endswith(".")


def test_good_templates_render(write_tree: WriteTree) -> None:
    """A template using its own fields loads and renders."""
    root = write_tree({".cursor/rules/ts.mdc": "---\nglobs: '*.ts'\n---\nStrict."})
    config = RuleweaveConfig(cwd=root, builtin_rules=False, templates={"notice": "<<{name}>> {body}"})
    found = RuleSet.load(config).session("s").after_tool_call("read", {"path": "a.ts"})
    assert found is not None and found.text == "<<ts>> Strict."


def test_bad_arguments_are_ruleweave_errors(tmp_path: Path) -> None:
    """watch() with an unknown source, resolve(None) and an empty session id raise our errors."""
    (tmp_path / ".git").mkdir()
    ruleset = RuleSet.load(RuleweaveConfig(cwd=tmp_path, builtin_rules=False))
    session = ruleset.session("s")
    with pytest.raises(ConfigError, match="text, thinking, tool"):
        session.watch("bogus", "x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        session.resolve(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        ruleset.session("")
    with pytest.raises(RuleNotFound):
        session.resolve("rule://nope")
    with pytest.raises(TypeError):  # still a TypeError for callers that catch those
        session.resolve(3)  # type: ignore[arg-type]


def test_a_bad_option_is_a_config_error_naming_it() -> None:
    """RuleweaveConfig turns a bad value into one ConfigError sentence naming the option."""
    with pytest.raises(ConfigError, match=r"'max_rule_bytes': should be at least 1, not 0\.$"):
        RuleweaveConfig(max_rule_bytes=0)
    with pytest.raises(ConfigError, match="'ttsr_retries'"):
        RuleweaveConfig(ttsr_retries=-1)


def test_each_streamed_rule_is_compiled_once_per_load(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading compiles every TTSR rule exactly once (buckets and the index share the result)."""
    from ruleweave.ttsr.compile import compile_rule as real

    calls: list[str] = []

    def counting(rule: Any, **kwargs: Any) -> Any:
        calls.append(rule.name)
        return real(rule, **kwargs)

    # Buckets and the index import the compiler when a rule needs it: patching its module reaches both.
    monkeypatch.setattr("ruleweave.ttsr.compile.compile_rule", counting)
    root = write_tree({
        ".ruleweave/rules/a.md": "---\ncondition: 'x+'\n---\nA.",
        ".ruleweave/rules/b.md": "---\ncondition: 'y+'\n---\nB.",
    })
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))
    assert sorted(calls) == ["a", "b"]
    assert [r.name for r in ruleset.ttsr.rules] == ["a", "b"]
