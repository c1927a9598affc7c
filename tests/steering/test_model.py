"""The SkillSpec models: strict, frozen, extensions and sections split out."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

import ruleweave.steering as steering
from ruleweave.steering import SkillSpec, SpecRule
from ruleweave.steering.model import Expectation, Predicate

HEAD = {"schema": "skillspec/v0", "id": "s", "title": "T", "description": "D"}


def test_models_are_frozen() -> None:
    """A loaded rule cannot be modified."""
    rule = SpecRule.model_validate({"id": "r", "when": {"user_says_any": ["x"]}})
    with pytest.raises(ValidationError):
        rule.prefer = "other"  # type: ignore[misc]


def test_unknown_rule_field_is_rejected_by_the_model() -> None:
    """The model itself forbids unknown fields."""
    with pytest.raises(ValidationError):
        SpecRule.model_validate({"id": "r", "preferr": "x"})


def test_x_predicates_are_split_into_extensions() -> None:
    """x- keys of a predicate land in extensions; other keys stay typed."""
    when = Predicate.model_validate({"user_says_any": ["a"], "x-open": True})
    assert when.user_says_any == ("a",)
    assert dict(when.extensions) == {"x-open": True}
    assert not when.is_empty()
    assert Predicate.model_validate({"user_says_any": []}).is_empty()


def test_every_section_is_typed_and_unknown_keys_are_refused() -> None:
    """The reference's sections are typed models; an unknown top-level key (even x-) is an error."""
    spec = SkillSpec.model_validate({**HEAD, "states": {"a": {}}, "metadata": {"x-notes": "n"}})
    assert spec.states["a"].next is None
    assert dict(spec.metadata) == {"x-notes": "n"}
    assert spec.schema_ == "skillspec/v0"
    with pytest.raises(ValidationError):
        SkillSpec.model_validate({**HEAD, "x-notes": "n"})


def test_action_ids_come_from_declared_sections() -> None:
    """after_success targets come from commands, recipes, code and closures; empty if none."""
    assert SkillSpec.model_validate(HEAD).action_ids() == frozenset()
    spec = SkillSpec.model_validate(
        {**HEAD, "commands": {"a": {"template": "make"}}, "closures": {"b": {}}}
    )
    assert spec.action_ids() == frozenset({"a", "b"})


def test_has_assertions() -> None:
    """An expectation is empty only when no key is asserted; an exact [] counts."""
    assert not Expectation().has_assertions()
    assert Expectation(forbid_exact=()).has_assertions()
    assert Expectation(route="r").has_assertions()


def test_public_names_exist() -> None:
    """Every name in ruleweave.steering.__all__ is importable and listed once."""
    assert len(set(steering.__all__)) == len(steering.__all__)
    for name in steering.__all__:
        assert hasattr(steering, name), name
