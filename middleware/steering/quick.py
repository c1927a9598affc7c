"""``ruleweave spec decide`` without pydantic: a compiled SkillSpec kept on disk, or checked from the table.

Reading a SkillSpec builds the pydantic models of the whole grammar, which
costs many times Python's own start-up; a decision needs none of them. A
valid spec's compiled form (:func:`ruleweave.steering.algebra.compile_plain`)
is kept in ``<state dir>/spec-decide/<key>.json``, the key being a BLAKE2b hash
of the spec's bytes and of this ruleweave's steering code. :func:`answer`
reads the spec, finds that file and decides with :mod:`~ruleweave.steering.algebra`
and :mod:`~ruleweave.steering.render`: the same code, so the same bytes out.

When there is no such file (the first call on a spec, or after an edit),
:func:`answer` checks the spec itself: the full command's reader, YAML
reading and cross-reference checks, with the grammar's table
(:mod:`ruleweave.steering.plain`) in place of the models. It writes the file
and decides. A spec the table cannot vouch for, or with any problem, goes
the full way, which explains the problem and, for a valid spec, writes the
file too (:func:`remember`).

Only specs whose verdict depends on their own text alone are kept: no
``imports``, ``resources``, ``code`` or file dependencies (those name other
files, which may change), and no ``trace.required``. Anything else — another
option (``--trace-dir``, ``--help``, an abbreviation), an argument argparse
would read differently, an unknown fact, undecodable text, a missing or
unreadable snapshot — returns None, and the full command answers.
"""

from __future__ import annotations

import json
import os
import sys

try:  # the built-in BLAKE2: hashlib would load OpenSSL, a tenth of this path's start-up
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b

from ruleweave._kernel.state import state_directory
from ruleweave.steering.algebra import FORMAT, compile_plain, decision_json, evaluate, json_ready
from ruleweave.steering.phrases import KEYWORDS, TASK_FACTS, says_any

TYPE_CHECKING = False  # not typing's: this module is the warm path
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from ruleweave.steering.model import SkillSpec

FOLDER = "spec-decide"
"""The folder of compiled specs under the state directory."""

MAX_SPEC_BYTES = 64 * 1024 * 1024
"""As ``ruleweave.cli.common.MAX_INPUT_BYTES``: a larger spec goes the full way (and is refused there)."""

_CODE = (
    "algebra.py", "crossrefs.py", "fields.py", "loader.py", "model.py", "phrases.py", "plain.py",
    "sections.py", "shapes.py", "validation.py", "yamldoc.py",
)  # the modules that decide what a spec compiles to: an edit or upgrade of one changes the key

_VALUED = {"--input": "input", "--fact": "fact", "--import-root": "import_root", "--cwd": "cwd"}


def answer(arguments: Sequence[str]) -> int | None:
    """Answer ``spec decide`` from a kept compiled spec, printing what the full command prints.

    Args:
        arguments: The arguments after ``spec decide``.

    Returns:
        The exit code (0), or None when the full command must answer.
    """
    options = _parse(arguments)
    if options is None:
        return None
    file, text, facts, cwd, as_json = options
    path = file if os.path.isabs(file) else os.path.join(cwd, file)
    raw = _read(path)
    if raw is None:
        return None
    key = _key(raw)
    compiled = _load(key)  # kept by an earlier call
    if compiled is None:
        try:
            compiled = _first(raw, path, key)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError):
            compiled = None  # never a crash here: the full command reads it and reports what it finds
    if compiled is None:
        return None
    try:
        out = _decide(compiled, text, facts, as_json)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None  # a damaged snapshot: the full command answers (and writes it again)
    sys.stdout.write(out)
    return 0


def remember(spec: SkillSpec, text: str) -> None:
    """Keep a valid spec's compiled form for :func:`answer`, when its verdict depends on its text alone.

    Args:
        spec: The validated document.
        text: The spec's text, as read.
    """
    _keep(spec.model_dump(by_alias=True), _key(text.encode("utf-8")))


def _first(raw: bytes, path: str, key: str) -> dict[str, Any] | None:
    """The first call on a spec: check it without pydantic, keep it, and return what :func:`_load` would.

    The checks are the full command's, but for the models': the same text
    (:func:`_read` refuses what ``read_text`` refuses, and the rest is UTF-8), the
    same YAML reading and cross-reference checks, and :func:`~ruleweave.steering.plain.plain_spec`
    for the shape, which vouches only for what the models accept. Anything it is
    not sure of, any problem, and any spec :func:`_keep` would not keep is None:
    the full command answers, explaining the problem.
    """
    from ruleweave.steering.crossrefs import check_references
    from ruleweave.steering.plain import plain_spec
    from ruleweave.steering.yamldoc import read_yaml

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    document = read_yaml(text, path)
    if document.issues or document.merge_keys or not isinstance(document.data, dict):
        return None
    plain = plain_spec(document.data)
    if plain is None or check_references(document.data, document.source):
        return None
    return _keep(plain, key)


def _keep(document: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    """Write a valid document's compiled form under ``key``, and return it as :func:`_load` reads it.

    Args:
        document: The document's plain form (``SkillSpec.model_dump(by_alias=True)``).
        key: :func:`_key` of the spec's bytes.

    Returns:
        The compiled form read back from its JSON; None for a document whose
        verdict depends on other files (nothing is written).
    """
    trace = document["trace"]
    if document["imports"] or document["resources"] or document["code"] or (trace and trace["required"]):
        return None
    if any(dependency["kind"] == "file" for dependency in document["dependencies"].values()):
        return None
    compiled = compile_plain(document)
    for rule in compiled["rules"]:
        rule["allow"] = json_ready(rule["allow"])
        rule["x"] = json_ready(rule["x"])
    try:
        data = json.dumps(compiled, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        return None
    folder = os.path.join(_state_dir(), FOLDER)
    target = os.path.join(folder, key + ".json")
    scratch = f"{target}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with open(scratch, "w", encoding="utf-8") as handle:
            handle.write(data)
        os.replace(scratch, target)
    except OSError:  # a read-only home: the next call takes the full way again
        import contextlib

        with contextlib.suppress(OSError):
            os.unlink(scratch)
    loaded: dict[str, Any] = json.loads(data)
    return loaded


def _parse(arguments: Sequence[str]) -> tuple[str, str, dict[str, bool], str, bool] | None:
    """The options argparse would read, or None for anything this path does not take exactly."""
    values: dict[str, str] = {}
    facts: list[str] = []
    files: list[str] = []
    as_json = False
    index = 0
    while index < len(arguments):
        item = arguments[index]
        if item == "--json":
            as_json = True
        elif item in _VALUED:
            if index + 1 >= len(arguments):
                return None
            value = arguments[index + 1]
            if value.startswith("-"):  # argparse may take it for an option
                return None
            name = _VALUED[item]
            if name == "fact":
                facts.append(value)
            elif name in values:
                return None  # given twice: leave argparse's rules to argparse
            else:
                values[name] = value
            index += 1
        elif item.startswith("-"):
            return None
        else:
            files.append(item)
        index += 1
    text = values.get("input")
    if len(files) != 1 or text is None:
        return None
    resolved, problem = read_facts(facts)
    cwd = values.get("cwd", ".")
    if problem is not None or _surrogates(text, *facts, *files, cwd):
        return None
    return files[0], text, resolved, cwd, as_json


def read_facts(items: list[str]) -> tuple[dict[str, bool], str | None]:
    """``--fact NAME[=true|false]`` values (a bare name is true), and the first problem, one sentence.

    ``ruleweave.cli.spec`` reports the problem as a usage error; the warm path leaves such a call to it.
    """
    facts: dict[str, bool] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip().lower()
        if not sep:
            value = "true"
        if value not in ("true", "false"):
            return facts, f"--fact {item}: the value must be true or false."
        if name not in TASK_FACTS and not name.startswith("x-"):
            return facts, f"--fact {item}: unknown fact; use one of {', '.join(TASK_FACTS)} or an x- name."
        facts[name] = value == "true"
    return facts, None


def _surrogates(*texts: str) -> bool:
    # An undecodable byte on the command line: the full command's JSON spells it its own way.
    return any(not text.isascii() and any("\ud800" <= ch <= "\udfff" for ch in text) for text in texts)


def _read(path: str) -> bytes | None:
    """The spec's bytes: a regular file, opened without blocking, within the cap."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if (info.st_mode & 0o170000) != 0o100000 or info.st_size > MAX_SPEC_BYTES:
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        raw = b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(raw) > MAX_SPEC_BYTES or b"\x00" in raw:
        return None
    return raw


def _key(raw: bytes) -> str:
    digest = blake2b(raw, digest_size=32)
    here = os.path.dirname(os.path.abspath(__file__))
    stamps = []
    for name in _CODE:
        try:
            stamps.append(f"{name}:{os.stat(os.path.join(here, name)).st_mtime_ns}")
        except OSError:
            stamps.append(f"{name}:-")
    digest.update(f"\0{FORMAT}\0{';'.join(stamps)}".encode())
    return digest.hexdigest()


def _state_dir() -> str:
    # This process's own entry point reads the environment, as the hook's does.
    return state_directory(os.environ, os.path.expanduser("~"))


def _load(key: str) -> dict[str, Any] | None:
    try:
        with open(os.path.join(_state_dir(), FOLDER, key + ".json"), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("trace_required") is not False:
        return None
    return data


def _decide(compiled: Mapping[str, Any], text: str, facts: dict[str, bool], as_json: bool) -> str:
    """What the full command prints for this decision."""
    from ruleweave._text.controls import escape_controls

    resolved: dict[str, tuple[bool, str]] = {name: (value, "caller") for name, value in facts.items()}

    def fact(name: str) -> tuple[bool, str] | None:
        found = resolved.get(name)
        if found is None and name in KEYWORDS:
            found = resolved[name] = (says_any(text, KEYWORDS[name]) is not None, "heuristic")
        return found

    result = evaluate(compiled, text, fact, {})
    questions = [_question(compiled, item) for item in result["elicit"]]
    plan = compiled["plans"].get(result["route"]) if result["route"] is not None else None
    if as_json:
        data = decision_json(
            result,
            skill=compiled["id"],
            text=text,
            plan=plan,
            allow=dict(sorted(result["allow"].items())),
            questions=questions,
            facts={name: value for name, (value, _) in resolved.items()},
        )
        return escape_controls(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
    from ruleweave.steering.render import render_steering

    block = render_steering(_View(compiled["id"], result, plan, questions))  # type: ignore[arg-type]
    if not block:
        block = "No route and no matching rule: the SkillSpec does not steer this input."
    return escape_controls(block) + "\n"


def _question(compiled: Mapping[str, Any], elicitation_id: str) -> dict[str, Any]:
    found = compiled["elicitations"].get(elicitation_id)
    if found is None:
        return {"id": elicitation_id, "question": "", "choices": [], "default": None}
    return {"id": elicitation_id, **found}


class _Node:
    """Attribute access over a JSON object, for the renderer (``plan.phases[0].jumps``...)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        for name, value in data.items():
            if isinstance(value, dict):
                value = _Node(value)
            elif isinstance(value, list):
                value = tuple(_Node(item) if isinstance(item, dict) else item for item in value)
            setattr(self, name, value)


class _View:
    """The fields of a ``Decision`` that ``render_steering`` reads, from plain results."""

    def __init__(
        self, skill: str, result: Mapping[str, Any], plan: Any, questions: list[dict[str, Any]]
    ) -> None:
        selection = result["selection"]
        self.skill = skill
        self.route = result["route"]
        self.route_selection = _Node(selection) if selection else None
        self.route_basis = selection["basis"] if selection else None
        self.route_order = tuple(result["order"])
        self.plan = _Node(plan) if plan is not None else None
        self.plan_phases = tuple(phase["id"] for phase in plan["phases"]) if plan else ()
        self.forbid = tuple(result["forbid"])
        self.allow = result["allow"]
        self.elicit = tuple(_Node(item) for item in questions)
        self.after_success = tuple(result["after_success"])
        self.reasons = tuple(_Node({"rule": rule, "reason": why}) for rule, why in result["reasons"])
        self.matched_rules = tuple(result["matched"])
