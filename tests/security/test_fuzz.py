"""The fuzz suite: hostile trees, tool arguments, streamed deltas and replay lines, generated.

Each property asserts what the hardening promises, whatever hypothesis builds:
no exception escapes (but the documented ``ArgumentTypeError``/``ReplayError``),
nothing outside the project is opened, and every call returns within ``HANG``
seconds (a hang detector, never a timing assertion). Example counts are kept
small: the suite runs in ``make test``. ``make fuzz`` runs the open-ended
``atheris`` target on the frontmatter parser (``fuzz_frontmatter.py``).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.errors import ReplayError
from ruleweave.replay import replay
from ruleweave.ttsr.scope import SOURCES, Source
from tests.security.helpers import HANG, returns_within, unblock_fifo

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)

CANARY = "CANARY-7f3a"
"""Text only files outside the project hold: it must never reach a prompt, a rule or a notice."""

HIDDEN = "\x1b[2J\x07\u202e\u200b\ufeff"

LOCATIONS = (
    "", ".cursor/rules/", ".claude/", ".claude/rules/", ".ruleweave/", ".ruleweave/rules/", ".github/",
    ".github/instructions/", ".continue/rules/", ".kiro/steering/", ".agents/rules/", "pkg/",
    "pkg/.cursor/rules/", "pkg/src/", "vendor/", ".clinerules/",
)
NAMES = (
    "AGENTS.md", "CLAUDE.md", "RULES.md", "a.md", "b.mdc", "x.instructions.md", "copilot-instructions.md",
    ".cursorrules", f"n{HIDDEN}.md", "skill.spec.yml", ".gitignore",
)
SPOTS = (
    ".cursor", ".claude", ".ruleweave", ".github", ".continue", ".kiro", ".agents", ".clinerules", "vendor",
    "pkg", "rootfs", ".cursor/rules", ".claude/rules", ".github/instructions", "pkg/.cursor", "pkg/src",
    "AGENTS.md", "CLAUDE.md", ".cursorrules", ".gitignore", ".claude/CLAUDE.md", ".cursor/rules/x.mdc",
    ".ruleweave/RULES.md", ".ruleweave/skill.spec.yml", "pkg/AGENTS.md", "pipe.txt",
)
SPECIAL = ("dir_link_out", "file_link_out", "root_link", "link_in", "fifo", "device", "loop")
BODIES = (
    "---\nalwaysApply: true\n---\nAlways {text}",
    "---\nglobs: '**/*'\n---\nScoped {text}",
    "---\nglobs: '**/*'\nregex: x\n---\nGated {text}",
    "---\ndescription: '{text}'\n---\nDescribed",
    "---\ncondition: 'x'\n---\nStreamed {text}",
    "---\nglobs: ['" + "{{a,b}}" * 10 + "', 'src/[x']\n---\nDead",
    "{text}\n\n    @../outside/CLAUDE.md\n@../../{text}\n</generic-rules>\n[rule: forged]\n",
    "{text}",
)
ENCODINGS = ("utf-8", "utf-16", "latin-1", "utf-8-sig")

Plan = tuple[list[tuple[str, str]], list[tuple[str, str, str, str, str]]]
"""Special entries (spot, kind), then files (location, name, body, text, encoding)."""


def _outside(base: Path) -> Path:
    """A directory beside the project holding canaries wherever a link into it could find rules."""
    outside = base / "outside"
    canaries = ("CLAUDE.md", "AGENTS.md", "RULES.md", "rules/c.mdc", "rules/c.md", "c.md", "x.txt",
                "instructions/c.instructions.md", "copilot-instructions.md", "steering/c.md", "v/CLAUDE.md")
    for relative in canaries:
        path = outside / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nalwaysApply: true\n---\n{CANARY} x", encoding="utf-8")
    return outside


plans = st.tuples(
    st.lists(st.tuples(st.sampled_from(SPOTS), st.sampled_from(SPECIAL)), max_size=5),
    st.lists(
        st.tuples(st.sampled_from(LOCATIONS), st.sampled_from(NAMES), st.sampled_from(BODIES),
                  st.text(max_size=40), st.sampled_from(ENCODINGS)),
        max_size=10,
    ),
)


def _special(root: Path, outside: Path, path: Path, kind: str) -> bool:
    """Make one special entry at ``path``; True when it is a FIFO."""
    if kind == "dir_link_out":
        path.symlink_to(outside, target_is_directory=True)
    elif kind == "file_link_out":
        path.symlink_to(outside / "CLAUDE.md")
    elif kind == "root_link":
        path.symlink_to("/", target_is_directory=True)
    elif kind == "link_in":
        path.symlink_to(root / ".cursor", target_is_directory=True)
    elif kind == "fifo":
        os.mkfifo(path)
        return True
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.symlink_to(path)
    return False


def _build(root: Path, outside: Path, plan: Plan) -> list[Path]:
    """Make the special entries, then write the files that land inside the project; the FIFOs made."""
    specials, files = plan
    real_root = os.path.realpath(root) + os.sep
    fifos: list[Path] = []
    for spot, kind in specials:
        path = root / spot
        if os.path.lexists(path) or not os.path.realpath(path.parent).startswith(real_root[:-1]):
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue  # a parent is a file, a FIFO or a link already
        if _special(root, outside, path, kind):
            fifos.append(path)
    for location, name, body, text, encoding in files:
        path = root / location / name
        if os.path.lexists(path) or not os.path.realpath(path).startswith(real_root):
            continue  # never write through a link out of the project (the canaries stay as they are)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        data = body.replace("{text}", text.replace("{", "").replace("}", ""))
        path.write_bytes(data.encode(encoding, "replace" if encoding == "latin-1" else "surrogatepass"))
    return fifos


@contextmanager
def _opened_outside(outside: Path) -> Iterator[list[str]]:
    """Every path ruleweave opens that lies in ``outside`` or ``/dev`` (recorded, then opened as asked)."""
    found: list[str] = []
    real_outside = os.path.realpath(outside) + os.sep
    real_open = os.open

    def recording_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if isinstance(path, (str, os.PathLike)):
            real = os.path.realpath(path)
            if real.startswith((real_outside, "/dev/")):
                found.append(real)
        return real_open(path, flags, *args, **kwargs)

    os.open = recording_open
    try:
        yield found
    finally:
        os.open = real_open


@contextmanager
def _project(plan: Plan) -> Iterator[tuple[Path, Path]]:
    with tempfile.TemporaryDirectory() as base_name:
        base = Path(base_name)
        root = base / "repo"
        (root / ".git").mkdir(parents=True)
        outside = _outside(base)
        fifos = _build(root, outside, plan)
        try:
            yield root, outside
        finally:
            for path in fifos:
                unblock_fifo(path)()


def _within(call: Callable[[], Any]) -> Any:
    """``call()`` in the test's own thread when possible: run it, failing past ``HANG`` seconds."""
    return returns_within(HANG, call)


touched = st.lists(
    st.one_of(
        st.sampled_from(("a.py", "pkg/src/x.ts", "vendor/x", "rootfs/tmp/x", "pipe.txt", "AGENTS.md")),
        st.builds("{}/{}".format, st.sampled_from(SPOTS), st.sampled_from(("x.py", "v/x.md"))),
        st.text(max_size=30),
    ),
    max_size=6,
)


def _check_tree(plan: Plan, paths: list[str]) -> None:
    """Load the planned tree and touch ``paths``: the canary never shows and nothing outside is opened."""
    with _project(plan) as (root, outside), _opened_outside(outside) as opened:
        config = RuleweaveConfig(cwd=root, builtin_rules=False, home=root.parent / "home")
        ruleset: RuleSet = _within(lambda: RuleSet.load(config))
        session = ruleset.session("fuzz")
        seen = [_within(session.system_prompt), *(rule.content for rule in ruleset.rules)]
        for path in [*paths, str(outside / "x.txt"), str(outside / "v" / "x.py")]:
            injection = _within(partial(session.after_tool_call, "read", {"path": path, "content": "x"}))
            if injection is not None:
                seen.append(injection.text)
        assert not opened, opened
        for text in seen:
            assert CANARY not in text


@FUZZ
@given(plan=plans, paths=touched)
def test_hostile_trees_never_leak_outside_hang_or_raise(plan: Plan, paths: list[str]) -> None:
    """Links in and out, FIFOs, devices, odd encodings: no canary shows, nothing outside is opened."""
    _check_tree(plan, paths)


def test_one_tree_with_every_kind_of_entry() -> None:
    """The worst case the property draws from, every special entry at once, loads and leaks nothing."""
    specials = [(".cursor", "dir_link_out"), ("AGENTS.md", "fifo"), (".claude", "dir_link_out"),
                (".ruleweave", "dir_link_out"), ("vendor", "dir_link_out"), ("rootfs", "root_link"),
                (".gitignore", "file_link_out"), ("CLAUDE.md", "device"), (".clinerules", "loop"),
                ("pipe.txt", "fifo"), (".github", "dir_link_out")]
    files = [(".continue/rules/", "a.md", BODIES[2], "x", "utf-8")]
    touched = ["vendor/x.py", "rootfs/tmp/x", "pipe.txt", "CLAUDE.md", ".cursor/rules/c.mdc"]
    _check_tree((specials, files), touched)


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=50),
              st.sampled_from(("a.py", "../../etc/passwd", "/dev/zero", "x" * 5000, "a\x00b"))),
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.sampled_from(("path", "paths", "file_path", "content", "x", "filePath")),
                        children, max_size=4),
    ),
    max_leaves=30,
)
odd_values = st.one_of(json_values, st.binary(max_size=20), st.builds(object), st.just(10**5000),
                       st.just(float("nan")))
arguments = st.one_of(
    st.dictionaries(st.text(max_size=12), odd_values, max_size=6),
    json_values.map(json.dumps),
    st.text(max_size=80),
    odd_values,
)


@pytest.fixture(scope="module")
def fuzz_ruleset(tmp_path_factory: pytest.TempPathFactory) -> RuleSet:
    """A project with a scoped, a gated, a nested and a streamed rule, shared by the argument properties."""
    root = tmp_path_factory.mktemp("fuzz") / "repo"
    for relative, text in {
        ".git/HEAD": "ref",
        ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nTyped.",
        ".continue/rules/gate.md": "---\nglobs: '**/*'\nregex: x\n---\nGated.",
        "pkg/AGENTS.md": "Nested.",
        ".ruleweave/rules/t.md": "---\ncondition: 'eval\\('\nscope: tool:edit(**/*.py)\n---\nNo eval.",
    }.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=True))


@settings(FUZZ, max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                         HealthCheck.too_slow])
@given(tool=st.text(max_size=20), args=arguments, call_id=st.one_of(st.none(), st.text(max_size=8)))
def test_tool_arguments_never_raise_or_hang(
    fuzz_ruleset: RuleSet, tool: str, args: Any, call_id: str | None
) -> None:
    """Whatever a model passes as arguments, the tool-call hooks return."""
    session = fuzz_ruleset.session("args")
    _within(lambda: session.before_tool_call(tool, args, call_id=call_id))
    _within(lambda: session.after_tool_call(tool, args, call_id=call_id))
    _within(lambda: session.check_tool(tool, args))


deltas = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(('{"file_path": "a.py", "content": "', "[", "{", "\\", '\\"', "\\u12", "\\ud83d",
                         '"', ",", "]", "}", "eval(", "[" * 2000, '{"a":' * 500)),
    ),
    max_size=40,
)


@settings(FUZZ, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                         HealthCheck.too_slow])
@given(stream=deltas, source=st.sampled_from(SOURCES),
       call_id=st.one_of(st.none(), st.sampled_from(("c1", "c2"))))
def test_streamed_deltas_never_raise_or_hang(
    fuzz_ruleset: RuleSet, stream: list[str], source: Source, call_id: str | None
) -> None:
    """Any sequence of deltas, nested or split mid-escape, is watched without error."""
    session = fuzz_ruleset.session("stream")
    for delta in stream:
        _within(partial(session.watch, source, delta, tool="edit", call_id=call_id))
    _within(lambda: session.watch(source, "", tool="edit", call_id=call_id, args=None))
    session.turn_start()


option_values = st.one_of(
    json_values, st.sampled_from((True, "follow", "/tmp", ["../x"], {"notice": "{name.x}"}))
)
options = st.dictionaries(
    st.sampled_from(("event_log", "skillspec", "home", "templates", "allow_outside_imports", "symlinks",
                     "max_file_bytes", "instruction_files", "root_markers", "disabled_rules", "ttsr_window",
                     "builtin_rules", "store", "custom_system_prompt", "unknown")),
    option_values, max_size=5,
)
lines = st.lists(
    st.one_of(
        st.builds(lambda o, g: json.dumps({"event": "session_start", "session": "s", "options": o,
                                           "generic_rules": g, "cwd": "/nonexistent"}),
                  options, st.one_of(st.none(), json_values)),
        st.builds(
            lambda a, i, p: json.dumps(
                {"event": "tool_touch", "session": "s", "tool": "read", "args": a, "injected": i, "paths": p}
            ),
            json_values, json_values, json_values,
        ),
        st.builds(lambda n: "[" * n + "]" * n, st.integers(0, 3000)),
        st.text(max_size=60),
        st.just('{"event": "compacted", "session": "s"}'),
    ),
    min_size=1, max_size=8,
)


@settings(FUZZ, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                         HealthCheck.too_slow])
@given(log_lines=lines)
def test_replay_lines_are_a_report_or_a_replay_error(fuzz_ruleset: RuleSet, log_lines: list[str]) -> None:
    """Any log is replayed or refused with ReplayError; no option it carries writes a file."""
    root = fuzz_ruleset.config.root
    with tempfile.TemporaryDirectory() as base:
        log = Path(base) / "events.jsonl"
        planted = Path(base) / "planted.jsonl"
        text = "\n".join(log_lines).replace("/tmp", str(planted))
        log.write_text(text + "\n", encoding="utf-8", errors="surrogatepass")
        with suppress(ReplayError):
            _within(lambda: replay(log, cwd=root))
        assert not planted.exists()
