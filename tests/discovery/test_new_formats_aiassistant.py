"""aiassistant provider: JetBrains AI Assistant ``.aiassistant/rules/*.md`` and its ``apply`` types."""

from __future__ import annotations

from ruleweave.discovery import aiassistant
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, messages, named, run

# AI Assistant docs, "Configure project rules" (jetbrains.com/help/ai-assistant/configure-project-rules.html):
# "By default, project rules are automatically added to each chat session"; rule types "Always",
# "Manually – applied only when explicitly invoked in the chat using @rule: or #rule:", "By model
# decision – … You must also provide an Instruction", "By file patterns – applied when a file
# referenced in the chat matches the specified file pattern (for example, *.kt or src/**)", and
# "Off – the rule is inactive and will not be applied". The IDE writes the type as frontmatter
# (`apply: by file patterns` with `patterns:`, `apply: by model decision` with `instructions:`).


def test_apply_types_map_to_buckets(write_tree: WriteTree) -> None:
    """No ``apply`` and ``always`` → generic; file patterns → scoped; model decision → rulebook; manual."""
    root = write_tree(
        {
            ".aiassistant/rules/plain.md": "# Review\nKeep functions short.",
            ".aiassistant/rules/always.md": "---\napply: always\n---\nKotlin first.",
            ".aiassistant/rules/kotlin.md": (
                "---\napply: by file patterns\npatterns: '*.kt, src/**'\n---\nKt."
            ),
            ".aiassistant/rules/sql.md": (
                "---\napply: by model decision\ninstructions: When editing SQL\n---\nNo SELECT *."
            ),
            ".aiassistant/rules/manual.md": "---\napply: manually\n---\nBy #rule: only.",
        }
    )
    found = run(root, only=aiassistant.PROVIDER)
    assert buckets(found) == {
        "plain": Bucket.GENERIC,
        "always": Bucket.GENERIC,
        "kotlin": Bucket.SCOPED,
        "sql": Bucket.RULEBOOK,
        "manual": Bucket.MANUAL,
    }
    rules = named(found)
    assert rules["kotlin"].globs == ("**/*.kt", "src/**")  # "*.kt": Kotlin files anywhere
    assert rules["sql"].description == "When editing SQL"
    assert messages(found) == []


def test_rules_switched_off_are_not_read(write_tree: WriteTree) -> None:
    """``apply: off`` is an inactive rule: it is not a rule at all."""
    root = write_tree(
        {
            ".aiassistant/rules/off.md": "---\napply: off\n---\nDisabled.",
            ".aiassistant/rules/on.md": "On.",
        }
    )
    assert set(named(run(root, only=aiassistant.PROVIDER))) == {"on"}
