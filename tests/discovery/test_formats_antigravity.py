"""Issue #12 point 6: Antigravity's ``.agents/rules`` triggers, read like Windsurf's.

https://antigravity.google/docs/rules-workflows: workspace rules are markdown
files in ``.agents/rules/`` (``.agent/rules/`` before 1.19 — the Google AI
forum thread "New folder for rules" confirms new rules "are being saved to
the .agents/rules directory" and ``.agent`` keeps working) with an activation
``trigger``: ``always_on`` (always in context), ``glob`` (files matching
``globs``), ``model_decision`` (the model reads it when the description fits)
and ``manual`` (only when @-mentioned).
"""

from __future__ import annotations

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.rules import Bucket
from tests.conftest import WriteTree


def test_triggers_map_like_windsurf(write_tree: WriteTree) -> None:
    """``always_on`` → prompt, ``glob`` → on touch, ``model_decision`` → listed, ``manual`` → hidden."""
    root = write_tree(
        {
            ".agents/rules/style.md": "---\ntrigger: always_on\n---\nALWAYS: small diffs.",
            ".agents/rules/ts.md": "---\ntrigger: glob\nglobs: '*.ts'\n---\nTS: strict mode.",
            ".agents/rules/deploy.md": (
                "---\ntrigger: model_decision\ndescription: When deploying\n---\nDEPLOY: use the script."
            ),
            ".agents/rules/secret.md": (
                "---\ntrigger: manual\ndescription: by mention\n---\nMANUAL: only on @."
            ),
            ".agent/rules/legacy.md": "---\ntrigger: always_on\n---\nLEGACY: still read.",
        }
    )
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False))
    assert {n: ruleset.bucket_of(n) for n in ("style", "ts", "deploy", "secret", "legacy")} == {
        "style": Bucket.GENERIC,
        "ts": Bucket.SCOPED,
        "deploy": Bucket.RULEBOOK,
        "secret": Bucket.MANUAL,
        "legacy": Bucket.GENERIC,
    }
    session = ruleset.session("s")
    prompt = session.system_prompt()
    assert "ALWAYS: small diffs." in prompt and "LEGACY: still read." in prompt
    assert "deploy" in prompt and "When deploying" in prompt
    assert "secret" not in prompt and "MANUAL" not in prompt  # manual rules are not advertised
    injection = session.after_tool_call("read_file", {"path": str(root / "web/src/app.ts")})
    assert injection is not None and [i.name for i in injection.items] == ["ts"]


def test_files_without_trigger_keep_the_shared_mapping(write_tree: WriteTree) -> None:
    """Other tools' files in the same folder (``alwaysApply``/``globs``) read as before."""
    root = write_tree({".agents/rules/other.md": "---\nalwaysApply: true\n---\nShared format."})
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False))
    assert ruleset.bucket_of("other") is Bucket.GENERIC
