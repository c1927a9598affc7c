"""Tool streams whose ``args`` arrive as growing, partial JSON text (LangChain, OpenAI streaming)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from ruleweave.session.touch import parse_args
from ruleweave.ttsr import TtsrHit
from ruleweave.ttsr import watcher as watcher_module
from tests.conftest import WriteTree
from tests.ttsr.helpers import chunks, load, names, rule


def stream_text_args(watcher: Any, tool: str, args: dict[str, Any], size: int = 20) -> list[TtsrHit]:
    """Stream ``args`` as JSON deltas passing the text so far as ``args``, then complete the call."""
    text, so_far, hits = json.dumps(args), "", []
    for delta in chunks(text, size):
        so_far += delta
        hits.append(watcher.watch("tool", delta, tool=tool, call_id="c1", args=so_far))
    hits.append(watcher.watch("tool", "", tool=tool, call_id="c1", args=args))
    return [h for h in hits if h is not None]


def test_a_gated_match_fires_once_the_path_is_known(write_tree: WriteTree) -> None:
    """A ``globs``-gated match made before the call's path is readable fires when it is, however far back."""
    root = write_tree({".ruleweave/rules/no-eval.md": rule(
        condition="'eval\\('", scope="tool:write", globs="'**/*.py'")})
    loaded = load(root)
    content = "x = 1\n" * 500 + "eval(data)\n" + "y = 2\n" * 1_000
    hits = stream_text_args(loaded.watcher(), "write", {"content": content, "file_path": "a.py"})
    assert names(hits) == ["no-eval"]
    assert (hits[0].matches[0].matched, hits[0].matches[0].path) == ("eval(", "a.py")
    other = {"content": content, "file_path": "a.ts"}
    assert stream_text_args(loaded.watcher("s2"), "write", other) == []


def test_partial_argument_text_is_not_parsed_again_at_every_delta(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading paths and code from a growing argument text parses a bounded multiple of its size."""
    root = write_tree({
        ".ruleweave/rules/gated.md": rule(condition="'never-there'", globs="'**/*.py'"),
        ".ruleweave/rules/no-eval.md": rule(astCondition="'eval($X)'", scope="tool:write"),
    })
    parsed: list[int] = []

    def counting(args: Any) -> Mapping[str, Any]:
        parsed.append(len(args) if isinstance(args, (str, bytes)) else 0)
        return parse_args(args)

    monkeypatch.setattr(watcher_module, "parse_args", counting)
    args = {"content": "x = 1\n" * 10_000 + "eval(y)\n", "file_path": "a.py"}
    hits = stream_text_args(load(root).watcher(), "write", args)
    assert names(hits) == ["no-eval"]
    assert sum(parsed) < 20 * len(json.dumps(args))


def stream_without_args(
    watcher: Any, tool: str, args: dict[str, Any], size: int = 20
) -> tuple[list[TtsrHit], list[TtsrHit]]:
    """Stream ``args`` as JSON deltas with ``args=None``, then complete; hits while streaming, at the end."""
    streaming = [
        watcher.watch("tool", delta, tool=tool, call_id="c1")
        for delta in chunks(json.dumps(args), size)
    ]
    final = watcher.watch("tool", "", tool=tool, call_id="c1", args=args)
    return [h for h in streaming if h is not None], [final] if final is not None else []


def test_streaming_without_args_uses_the_watchers_own_text(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With args=None the watcher reads the path from the text it was fed, so a gated rule fires
    while the call still streams (not only when it completes), parsing a bounded multiple of it."""
    root = write_tree({
        ".ruleweave/rules/no-eval.md": rule(condition="'eval\\('", scope="tool:write", globs="'**/*.py'"),
    })
    parsed: list[int] = []

    def counting(args: Any) -> Mapping[str, Any]:
        parsed.append(len(args) if isinstance(args, (str, bytes)) else 0)
        return parse_args(args)

    monkeypatch.setattr(watcher_module, "parse_args", counting)
    content = "x = 1\n" * 5_000 + "eval(data)\n"
    args = {"file_path": "a.py", "content": content}
    loaded = load(root)
    streaming, final = stream_without_args(loaded.watcher(), "write", args)
    assert names(streaming) == ["no-eval"] and final == []
    assert streaming[0].matches[0].path == "a.py"
    assert sum(parsed) < 20 * len(json.dumps(args))
    assert stream_without_args(loaded.watcher("s2"), "write", {**args, "file_path": "a.ts"}) == ([], [])


def test_a_long_value_streaming_is_not_parsed_while_it_streams(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With args=None the watcher's own text is parsed again only when a member has ended: a
    100 KB ``content`` streaming after its path costs a handful of parses, not one per delta."""
    root = write_tree({
        ".ruleweave/rules/no-eval.md": rule(condition="'eval\\('", scope="tool:write", globs="'**/*.py'"),
    })
    parsed: list[int] = []

    def counting(args: Any) -> Mapping[str, Any]:
        parsed.append(len(args) if isinstance(args, (str, bytes)) else 0)
        return parse_args(args)

    monkeypatch.setattr(watcher_module, "parse_args", counting)
    args = {"file_path": "a.py", "content": "x = 1\n" * 200 + "eval(data)\n" + "y = 2\n" * 16_000}
    streaming, final = stream_without_args(load(root).watcher(), "write", args)
    assert names(streaming) == ["no-eval"] and streaming[0].matches[0].path == "a.py"
    assert final == []
    assert len(parsed) <= 6, parsed
