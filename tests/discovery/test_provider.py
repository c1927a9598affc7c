"""``Provider``: data plus one loader, built positionally by plugins and run by ``discover``."""

from __future__ import annotations

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import Provider, discover
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.rules import Rule, SourceMeta
from tests.conftest import WriteTree


def _load(ctx: DiscoveryContext) -> list[Rule]:
    source = SourceMeta(provider="acme", priority=70, level="project", path="memory")
    return [Rule(name="acme-style", path="memory", content="Acme style.", always_apply=True, source=source)]


def test_a_positional_provider_reads_its_fields_by_name_and_runs(write_tree: WriteTree) -> None:
    """``Provider(id, priority, load, summary)`` as plugins write it: defaults fill the rest; it runs."""
    provider = Provider("acme", 70, _load, "acme's rules")
    assert (provider.id, provider.priority, provider.load) == ("acme", 70, _load)
    assert provider.summary == "acme's rules"
    assert (provider.dialect, provider.places) == ("anywhere", False)
    root = write_tree({"README.md": "x"})
    found = discover(RuleweaveConfig(cwd=root, builtin_rules=False), (provider,))
    assert [(r.name, r.source.provider) for r in found.rules] == [("acme-style", "acme")]


def test_a_providers_repr_leaves_out_its_loader() -> None:
    """The repr names the data only: a loader's repr holds a memory address that differs per process."""
    provider = Provider("acme", 70, _load, "acme's rules", dialect="root", places=True)
    assert repr(provider) == (
        "Provider(id='acme', priority=70, summary=\"acme's rules\", dialect='root', places=True)"
    )
