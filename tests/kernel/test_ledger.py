"""Notice keys and ledger records (``ruleweave._kernel.ledger``)."""

from __future__ import annotations

import json
import random

import pytest

from ruleweave._kernel import ledger
from ruleweave._kernel.surrogates import escape_surrogates
from ruleweave.store import MemoryStore


def test_records_read_back() -> None:
    """A record reads back as the five fields it was made of, non-ASCII text kept as is."""
    text = ledger.record("rule", "naïve", "/p/.cursor/rules/r.mdc", "src/é.py", "**/*.py")
    assert "é" in text
    assert ledger.read_record(text) == ("rule", "naïve", "/p/.cursor/rules/r.mdc", "src/é.py", "**/*.py")
    listing = ledger.record("listing", "docs/", "/p/docs/.cursor/rules", "docs/a.md", None)
    assert ledger.read_record(listing) == ("listing", "docs/", "/p/docs/.cursor/rules", "docs/a.md", None)


def test_records_are_the_json_text_of_their_fields() -> None:
    """A record is exactly ``json.dumps`` of its five fields (what stores written by earlier releases
    hold), surrogates escaped: quotes, backslashes, control and non-ASCII characters, lone surrogates."""
    rng = random.Random(30)
    alphabet = ["a", "/", '"', "\\", "\n", "\x00", "\x1f", "\x7f", "é", "日", "\ud800", "\udcff", "😀"]
    for _ in range(20_000):
        fields: list[str | None] = ["".join(rng.choices(alphabet, k=rng.randrange(8))) for _ in range(5)]
        if rng.random() < 0.3:
            fields[4] = None
        kind, name, path, trigger, glob = fields
        assert kind is not None and name is not None and path is not None and trigger is not None
        expected = escape_surrogates(json.dumps(fields, ensure_ascii=False))
        assert ledger.record(kind, name, path, trigger, glob) == expected


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "5", "null", '["a", "b", "c", "d", "e", "f"]'])
def test_what_is_not_a_record_reads_as_none(text: str) -> None:
    """Text another writer left in the ledger is no record."""
    assert ledger.read_record(text) is None


def test_every_notice_key_is_released_with_the_notice_prefix() -> None:
    """Rule, instruction-file and listing keys all fall under NOTICE_PREFIX; a kept reminder does not."""
    store = MemoryStore()
    keys = [
        ledger.rule_key("/p/r.mdc", "a"),
        ledger.rule_key("/p/r.mdc", "b"),
        ledger.instructions_key("/p/sub/AGENTS.md"),
        ledger.listing_key("/p/sub/.cursor/rules"),
    ]
    assert len(set(keys)) == 4
    assert store.claim_many("s", keys) == [True] * 4
    store.put("s", ledger.reminder_key("call-1"), "kept")
    store.release("s", ledger.NOTICE_PREFIX)
    assert store.claim_many("s", keys) == [True] * 4
    assert store.get("s", ledger.reminder_key("call-1")) == "kept"
