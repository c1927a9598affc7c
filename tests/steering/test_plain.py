"""The grammar's table (steering.shapes) and the check without pydantic (steering.plain) against the models.

``spec decide``'s first call trusts :func:`plain_spec` in place of ``SkillSpec.model_validate``.
It may decline anything, but whatever it accepts the models must accept, with the same
dump (``model_dump(by_alias=True)``: values, types, key order). Checked on every document
of the conformance cases and examples, and on thousands of mutations of them.
"""

from __future__ import annotations

import copy
import math
import random
import textwrap
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from ruleweave.steering import shapes, tabulate
from ruleweave.steering.model import SkillSpec
from ruleweave.steering.plain import plain_spec
from ruleweave.steering.yamldoc import YamlFloat, YamlInt, read_yaml
from tests.steering.test_conformance import A_TEST, HEAD, INVALID, VALID
from tests.steering.test_quick import EXTENDED

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"


def _documents() -> dict[str, Any]:
    texts = {f"valid: {name}": HEAD + textwrap.dedent(body) + A_TEST for name, body in VALID.items()}
    texts |= {f"invalid: {name}": HEAD + textwrap.dedent(body) for name, (body, _) in INVALID.items()}
    texts |= {path.name: path.read_text(encoding="utf-8") for path in sorted(EXAMPLES.glob("*.yml"))}
    texts["extended"] = EXTENDED
    return {name: read_yaml(text, name).data for name, text in texts.items()}


DOCUMENTS = _documents()


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same types all the way down, dict keys in the same order (plans are printed)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _models(data: Any) -> dict[str, Any] | None:
    try:
        return SkillSpec.model_validate(data).model_dump(by_alias=True)
    except ValidationError:
        return None


def _vouch(data: Any) -> bool:
    """plain_spec's answer, checked against the models': True when it vouched for the document."""
    plain = plain_spec(copy.deepcopy(data))
    if plain is None:
        return False
    dumped = _models(data)
    assert dumped is not None, "plain_spec accepted what the models reject"
    assert _same(plain, dumped), "plain_spec's form differs from the models' dump"
    return True


def test_the_table_is_what_the_models_say() -> None:
    """shapes.py is generated: after a model changes, ``python -m ruleweave.steering.tabulate``
    writes it again."""
    assert Path(shapes.__file__).resolve().read_text(encoding="utf-8") == tabulate.source()


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_every_case_and_example_is_vouched_for_only_as_the_models_read_it(name: str) -> None:
    """Valid documents are taken (but for a code block's source, a validator the table leaves
    to the models); invalid ones never are, unless their problem is a cross-reference."""
    data = DOCUMENTS[name]
    vouched = _vouch(data)
    if name.startswith("valid: ") or not name.startswith("invalid: "):
        assert vouched or "code" in data, name
    elif _models(data) is None:
        assert not vouched


POOL: tuple[Any, ...] = (
    None, True, False, "", "text", "local", "ordered", "event_log", "0x10", 7, 1.5,
    YamlInt(16, "0x10"), YamlInt(-1, "-1"), YamlInt(2**64, str(2**64)), YamlInt(2**32, "4294967296"),
    YamlFloat(1.5, "1.50"), YamlFloat(math.nan, ".nan"), [], ["a"], [1], [{}], [None], [["a"]],
    {}, {"k": "v"}, {"x-k": 1}, {"id": "a"}, {"id": "a", "label": "A"}, {"extensions": {}},
    {"load_import": "a"}, {"load_import": "a", "note": "b"}, {"inline": "x"}, {"file": "a.sh"},
)
NUMBERS = ("rank", "max_choices", "fence_index", "line_start", "line_end")  # the bounded integers
EDGES = (
    *(YamlInt(n, str(n)) for n in (-(2**63) - 1, -(2**63), -1, 0, 2**32 - 1, 2**32, 2**63 - 1, 2**63)),
    True, YamlFloat(1.0, "1.0"), "1",
)
RENAMES = {"schema": "schema_", "do": "do_", "import": "import_", "user_says_any": "x-user_says_any"}


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _places(item, (*path, index))
    return found


def _mutant(data: Any, chance: random.Random) -> Any:
    mutant = copy.deepcopy(data)
    for _ in range(chance.choice((1, 1, 2))):
        path = chance.choice(_places(mutant))
        parent = mutant
        for step in path[:-1]:
            parent = parent[step]
        target = parent[path[-1]] if path else mutant
        move = chance.randrange(7)
        if move == 6 and path and path[-1] in NUMBERS:
            parent[path[-1]] = chance.choice(EDGES)
        elif move == 0 and path:
            parent[path[-1]] = copy.deepcopy(chance.choice(POOL))
        elif move == 1 and path and isinstance(parent, dict):
            del parent[path[-1]]
        elif move == 2 and isinstance(target, dict):
            target[chance.choice(("zz", "x-q", "extensions", "<<"))] = copy.deepcopy(chance.choice(POOL))
        elif move == 3 and isinstance(target, list):
            target.append(copy.deepcopy(chance.choice(target or POOL)))
        elif move == 4 and path and isinstance(parent, dict) and path[-1] in RENAMES:
            parent[RENAMES[path[-1]]] = parent.pop(path[-1])
        elif move == 5 and isinstance(target, dict) and target:
            key = chance.choice(list(target))
            target[key] = copy.deepcopy(chance.choice(POOL))
    return mutant


def test_mutated_documents_are_vouched_for_only_as_the_models_read_them() -> None:
    """5,000 mutations (a value of another type, a number at its bounds, a key dropped, renamed
    or unknown, an x- key, a list grown): whatever plain_spec takes, the models take with the
    same dump; and it takes most of what the models take, or the first call would rarely be fast."""
    chance = random.Random(30)
    seeds = [data for name, data in DOCUMENTS.items() if not name.startswith("invalid: ")]
    vouched = accepted = 0
    for _ in range(5000):
        mutant = _mutant(chance.choice(seeds), chance)
        vouched += _vouch(mutant)
        accepted += _models(mutant) is not None
    assert vouched >= 0.75 * accepted, (vouched, accepted)
    assert accepted >= 1000, accepted


@pytest.mark.parametrize("edge", EDGES, ids=repr)
def test_numbers_at_and_past_their_bounds_are_vouched_for_only_as_the_models_read_them(edge: Any) -> None:
    """A rank is an i64 and max_choices a u32, strict: no bool, float or text in their place."""
    for where in ("rank", "max_choices"):
        data = copy.deepcopy(DOCUMENTS["extended"])
        if where == "rank":
            data["routes"][0]["rank"] = edge
        else:
            data["elicitations"]["mode"]["max_choices"] = edge
        _vouch(data)
