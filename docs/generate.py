"""Write the generated parts of the docs pages from the code's own declarations.

Run: ``.venv/bin/python docs/generate.py`` (or ``make docs``); ``--check`` writes
nothing and exits 1 when a page is out of date. ``tests/test_docs.py`` runs the
same check, so a page cannot drift from the code it describes.

A generated part of a page sits between two marker lines::

    <!-- generated: NAME (docs/generate.py; edit the code, then run make docs) -->
    ...
    <!-- end generated: NAME -->

Everything outside the markers is written by hand and left as it is. Each
part is rendered from one declaration in the code:

* ``configuration.md``: ``RuleweaveConfig.__init__`` (names, types, defaults)
  and its docstring's ``Attributes:`` section (descriptions);
* ``cli.md``: the argparse parsers of ``ruleweave.cli.build_parser()``;
* ``formats.md``: ``ruleweave.discovery.registry.PROVIDERS`` with each provider
  module's docstring (its last paragraph, ``Follows: …``, names the agent's source
  or docs), ``ruleweave.instructions.formats.FORMATS`` (with each format's
  ``follows``) and ``ruleweave.lint.agents.AGENTS``;
* ``architecture.md``: the first docstring line of every package and module;
* ``replay.md``: ``ruleweave.events.EVENTS``;
* ``errors.md``: the tree that opens ``ruleweave.errors``.

The output depends on the code only (not on the environment, the terminal
width or the Python version), so the same checkout always gives the same pages.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import itertools
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
COMMAND = ".venv/bin/python docs/generate.py"
MARK = "(docs/generate.py; edit the code, then run make docs)"
"""What an opening marker says after the part's name."""

Renderer = Callable[[], str]
"""Renders one generated part of a page (its text between the markers, without them)."""


# --- text helpers ---------------------------------------------------------------------------


def cell(text: str) -> str:
    """``text`` fit for one Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def code(text: str) -> str:
    """``text`` as inline code (with a longer fence when it holds a backtick)."""
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def plain(text: str) -> str:
    """``text`` shown as written: Markdown's emphasis, link and HTML characters escaped."""
    return re.sub(r"([\\`*_\[\]])", r"\\\1", text).replace("<", "&lt;")


def _escape_html(text: str) -> str:
    """``<`` outside code spans made literal, so ``rules-<mode>`` is not read as an HTML tag."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") else part.replace("<", "&lt;") for part in parts)


def from_rst(doc: str) -> str:
    """A docstring as Markdown: ````x```` becomes ```x```, ``text::`` + indented block a fenced block."""
    lines = inspect.cleandoc(doc).splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.endswith("::") and index + 1 < len(lines) and not lines[index + 1].strip():
            out += [_escape_html(line[:-1].replace("``", "`")), "", "```text"]
            index += 2
            block: list[str] = []
            while index < len(lines) and (not lines[index].strip() or lines[index].startswith(" ")):
                block.append(lines[index])
                index += 1
            while block and not block[-1].strip():
                block.pop()
            out += [(b[4:] if b.startswith("    ") else b.lstrip()).replace("``", "`") for b in block]
            out += ["```", ""]
            continue
        out.append(_escape_html(line.replace("``", "`")))
        index += 1
    return "\n".join(out).strip()


def first_line(doc: str | None) -> str:
    """The summary of a docstring (its first paragraph, on one line), as Markdown."""
    return " ".join(from_rst(doc).split("\n\n", 1)[0].split()) if doc else ""


def module_docstring(path: Path) -> str | None:
    """A module's docstring, read without importing it (an adapter's framework may be missing)."""
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))


def table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """A Markdown table."""
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def kib(value: int) -> str:
    """A byte count, with its KiB spelling when it is a whole number of them."""
    if value >= 1024 and value % 1024 == 0:
        return f"{value:,} ({value // 1024} KiB)"
    return f"{value:,}"


# --- configuration.md -------------------------------------------------------------------------


def _attributes(doc: str) -> dict[str, str]:
    """The ``Attributes:`` section of a Google-style docstring: name → description."""
    lines = inspect.cleandoc(doc).splitlines()
    start = lines.index("Attributes:") + 1
    found: dict[str, str] = {}
    name = ""
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break
        match = re.match(r"    (\w+): (.*)", line)
        if match:
            name = match.group(1)
            found[name] = match.group(2)
        elif line.strip() and name:
            found[name] += " " + line.strip()
    return found


def _default(name: str, value: object, constants: dict[int, str]) -> str:
    if id(value) in constants:
        return f"[`{constants[id(value)]}`](#{constants[id(value)].lower()})"
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return code(repr(value))
    if isinstance(value, int):
        return kib(value) if name.endswith("_bytes") else f"{value:,}"
    if isinstance(value, tuple) and not value:
        return "none"
    if isinstance(value, tuple):
        return ", ".join(code(str(v)) for v in value)
    return code(repr(value))


def _literal_values(hint: Any) -> tuple[str, ...]:
    """The string values a ``Literal`` hint (or an optional one) allows."""
    if get_origin(hint) is Literal:
        return tuple(str(v) for v in get_args(hint))
    return tuple(v for arg in get_args(hint) for v in _literal_values(arg))


def config_options() -> str:
    """One row per ``RuleweaveConfig`` option."""
    from ruleweave import config as module

    cls = module.RuleweaveConfig
    described = _attributes(cls.__doc__ or "")
    hints = get_type_hints(cls.__init__, vars(module))
    constants = {id(v): n for n, v in vars(module).items() if n.isupper() and isinstance(v, tuple)}
    rows = []
    names = []
    for name, parameter in inspect.signature(cls.__init__).parameters.items():
        if name == "self":
            continue
        names.append(name)
        if name not in described:
            raise SystemExit(f"RuleweaveConfig's docstring does not describe the option {name!r}.")
        kind = code(str(parameter.annotation))
        values = _literal_values(hints[name])
        if values:
            kind = f"[{kind}](#{str(parameter.annotation).lower()}): one of " + ", ".join(
                code(repr(v)) for v in values)
        rows.append((
            f'<a id="{name}"></a>{code(name)}', kind,
            _default(name, parameter.default, constants), from_rst(described[name]),
        ))
    missing = set(described) - set(names)
    if missing:
        raise SystemExit(f"RuleweaveConfig's docstring describes options it lacks: {sorted(missing)}.")
    return table(("option", "type", "default", "what it does"), ([cell(c) for c in row] for row in rows))


def config_constants() -> str:
    """The named types and constants the options use, with their values and docstrings."""
    from ruleweave import config as module

    parameters = inspect.signature(module.RuleweaveConfig.__init__).parameters.values()
    defaults = {id(p.default) for p in parameters}
    source = REPO / "middleware" / "config" / "__init__.py"
    parts = []
    for name in dict.fromkeys(str(p.annotation) for p in parameters):
        values = _literal_values(getattr(module, name, None)) if name.isidentifier() else ()
        if values:
            doc = _assigned_doc(_defined_in(source, name), name)
            listed = ", ".join(code(repr(v)) for v in values)
            parts.append(f"### {name}\n\nOne of {listed}.\n\n{from_rst(doc)}".strip())
    for name, value in vars(module).items():
        if name.isupper() and isinstance(value, tuple) and id(value) in defaults:
            doc = _assigned_doc(source, name)
            listed = ", ".join(code(str(v)) for v in value)
            parts.append(f"### {name}\n\n{listed}\n\n{from_rst(doc)}".strip())
    return "\n\n".join(parts)


def _defined_in(source: Path, name: str) -> Path:
    """The file that defines ``name``: ``source`` itself, or the ruleweave module it imports it from."""
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ruleweave.")
            and any(alias.name == name for alias in node.names)
        ):
            folder = REPO / "middleware" / Path(*node.module.split(".")[1:])
            return folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")
    return source


def _assigned_doc(path: Path, name: str) -> str:
    """The docstring under a module-level assignment (the attribute-docstring convention)."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    for node, after in itertools.pairwise(body):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        named = any(isinstance(t, ast.Name) and t.id == name for t in targets)
        if named and isinstance(after, ast.Expr):
            value = after.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
    return ""


# --- cli.md ---------------------------------------------------------------------------------


def _help(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    text = action.help or ""
    if "%" in text:  # argparse's own expansion (%(default)s, %(prog)s …)
        params = dict(vars(action), prog=parser.prog)
        params = {k: getattr(v, "__name__", v) for k, v in params.items() if v is not argparse.SUPPRESS}
        text = text % params
    return text


def _metavar(action: argparse.Action) -> str:
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices is not None:
        return "{" + ",".join(map(str, action.choices)) + "}"
    return action.dest.upper() if action.option_strings else action.dest


def _spelled(action: argparse.Action) -> str:
    """An argument as a user types it: ``--fail-on CODE…``, ``PATH…``, ``--json``."""
    if action.nargs == 0:
        value = ""
    else:
        value = _metavar(action)
        if action.nargs in ("+", "*", argparse.REMAINDER):
            value += "…"
        elif action.nargs == "?":
            value = f"[{value}]"
    if not action.option_strings:
        return value
    flags = ", ".join(action.option_strings)
    return f"{flags} {value}".rstrip()


def _visible(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [
        a for a in parser._actions
        if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
        and a.help is not argparse.SUPPRESS
    ]


def _usage(name: str, parser: argparse.ArgumentParser) -> str:
    grouped: dict[int, argparse._MutuallyExclusiveGroup] = {}
    for group in parser._mutually_exclusive_groups:
        for action in group._group_actions:
            grouped[id(action)] = group
    words, seen = [name], set()
    positionals: list[str] = []
    for action in _visible(parser):
        if not action.option_strings:
            positionals.append(_spelled(action))
            continue
        exclusive = grouped.get(id(action))
        if exclusive is not None:
            if id(exclusive) not in seen:
                seen.add(id(exclusive))
                words.append("[" + " | ".join(_short(a) for a in exclusive._group_actions) + "]")
            continue
        words.append(_short(action) if action.required else f"[{_short(action)}]")
    sub = _subparsers(parser)
    if sub is not None:
        positionals.append(_metavar(sub))
    return " ".join(words + positionals)


def _short(action: argparse.Action) -> str:
    flag = action.option_strings[-1]
    value = "" if action.nargs == 0 else " " + _metavar(action) + ("…" if action.nargs in ("+", "*") else "")
    return flag + value


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _command(name: str, summary: str, parser: argparse.ArgumentParser, level: int) -> list[str]:
    out = [f"{'#' * level} {name}", ""]
    for text in (summary, parser.description, parser.epilog):
        if text:
            out += [_escape_html(" ".join(text.split())), ""]
    out += ["```text", _usage(name, parser), "```", ""]
    rows = [(cell(code(_spelled(a))), cell(_escape_html(_help(a, parser))) or "—") for a in _visible(parser)]
    if rows:
        out += [table(("argument", "what it does"), rows), ""]
    sub = _subparsers(parser)
    if sub is not None:
        helps = {a.dest: a.help or "" for a in sub._choices_actions}
        for child, child_parser in sub.choices.items():
            out += _command(f"{name} {child}", helps.get(child, ""), child_parser, level + 1)
    return out


def cli_commands() -> str:
    """Every subcommand of ``ruleweave`` (and every action below one), with its arguments."""
    from ruleweave.cli import build_parser

    parser = build_parser()
    sub = _subparsers(parser)
    assert sub is not None
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    listing = table(
        ("command", "what it does"),
        ((f"[{code('ruleweave ' + n)}](#ruleweave-{n})", cell(helps.get(n, ""))) for n in sub.choices),
    )
    out = [listing, ""]
    for child, child_parser in sub.choices.items():
        out += _command(f"ruleweave {child}", helps.get(child, ""), child_parser, 2)
    return "\n".join(out).strip()


# --- formats.md -----------------------------------------------------------------------------

FORMAT_MODULES: dict[str, str] = {"antigravity": "agents"}
"""Modules of ``ruleweave.discovery`` that hold one agent's format, read by another provider."""

DISCOVERY_INTERNALS = frozenset({
    "context", "provider", "registry", "rule_file", "placement", "nested", "glob_caps",
})
"""Modules of ``ruleweave.discovery`` that are machinery, not a format (no section of their own)."""


FOLLOWS = "Follows: "
"""How the last paragraph of a provider's (or format module's) docstring opens: what it follows."""


def follows(module: Any) -> str:
    """What a provider or format module follows: its docstring's last paragraph, as Markdown.

    Raises:
        SystemExit: The docstring does not end with a ``Follows: …`` paragraph.
    """
    last = inspect.cleandoc(module.__doc__ or "").rsplit("\n\n", 1)[-1]
    if not last.startswith(FOLLOWS) or last.count(FOLLOWS) != 1:
        raise SystemExit(f"{module.__name__}'s docstring must end with a paragraph '{FOLLOWS}<the agent's "
                         "source file or documentation page>.'")
    return cell(from_rst(last[len(FOLLOWS):]).rstrip("."))


def _provider_modules() -> list[tuple[Any, Any]]:
    from ruleweave.discovery.registry import PROVIDERS

    found = []
    for provider in PROVIDERS:
        module = importlib.import_module(provider.load.__module__)
        declared = (getattr(module, "ID", None), getattr(module, "PRIORITY", None))
        if declared != (provider.id, provider.priority):
            raise SystemExit(f"{module.__name__}: ID/PRIORITY differ from its Provider declaration.")
        if not (module.__doc__ or "").startswith(f"{provider.id} (priority {provider.priority})"):
            raise SystemExit(f"{module.__name__}'s docstring must open with "
                             f"'{provider.id} (priority {provider.priority})'.")
        follows(module)
        found.append((provider, module))
    known = {m.__name__.rsplit(".", 1)[1] for _, m in found} | set(FORMAT_MODULES) | DISCOVERY_INTERNALS
    folder = REPO / "middleware" / "discovery"
    for name in FORMAT_MODULES:
        follows(importlib.import_module(f"ruleweave.discovery.{name}"))
    unknown = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__" and p.stem not in known)
    if unknown:
        raise SystemExit(f"docs/generate.py does not know ruleweave.discovery.{unknown[0]}: add it to "
                         "FORMAT_MODULES (a format another provider reads) or DISCOVERY_INTERNALS.")
    return found


DIALECTS = {"anywhere": "anywhere", "root": "top of the folder's directory"}
"""How a provider's agent reads a glob without ``/`` (``Provider.dialect``), in a few words."""


def formats_providers() -> str:
    """The provider table: id, priority, what it reads, how a bare glob matches, what it follows."""
    rows = [
        (f"[{code(p.id)}](#{p.id})", str(p.priority), cell(plain(p.summary)), DIALECTS[p.dialect], follows(m))
        for p, m in _provider_modules()
    ]
    return table(("provider", "priority", "reads", "a bare `*.py` matches", "follows"), rows)


def formats_sections() -> str:
    """One section per provider: its module docstring (and the formats it reads for other agents)."""
    parts = []
    for provider, module in _provider_modules():
        doc = from_rst(module.__doc__ or "")
        title, _, body = doc.partition("\n")
        parts.append(f"### {provider.id}\n\n**{title}**\n\n{body.strip()}")
        for name, reader in FORMAT_MODULES.items():
            if reader == provider.id:
                other = importlib.import_module(f"ruleweave.discovery.{name}")
                parts.append(f"#### {name}\n\n{from_rst(other.__doc__ or '')}")
    return "\n\n".join(parts)


def _where(fmt: Any) -> str:
    if fmt.root_only:
        where = "the project root only"
    elif fmt.above_root:
        where = "every directory of the walk, and each directory above the project root"
    else:
        where = "every directory of the walk"
    return where


def formats_instruction_files() -> str:
    """The instruction-file formats, in priority order, and how each is read."""
    from ruleweave.instructions import formats

    groups: dict[str, list[str]] = {}
    for fmt in formats.FORMATS:
        if fmt.group:
            groups.setdefault(fmt.group, []).append(fmt.name)
    rows = []
    for fmt in formats.FORMATS:
        if not fmt.follows:
            raise SystemExit(f"ruleweave.instructions.formats: {fmt.name} declares no follows= (the agent's "
                             "source file or documentation page).")
        where = _where(fmt)
        others = [n for n in groups.get(fmt.group, []) if n != fmt.name]
        if others:
            where += "; one of " + ", ".join(code(n) for n in groups[fmt.group]) + " (the first present)"
        rows.append((code(fmt.name), cell(fmt.agent), "expanded" if fmt.imports else "text", where,
                     cell(from_rst(fmt.follows))))
    return table(("file", "agent", "`@path`", "where", "follows"), rows)


def formats_agents() -> str:
    """What each agent loads, as ``ruleweave lint`` knows it."""
    from ruleweave.lint.agents import AGENTS

    rows = []
    for agent in AGENTS:
        files = ", ".join(code(f) for f in agent.instruction_files)
        if files and agent.first_only:
            files += " (the first present)"
        limits = "; ".join(
            f"{lim.amount:,} {lim.unit} ({lim.name}): {lim.consequence}" for lim in agent.limits
        )
        ignores = "; ".join(i.reason for i in agent.ignores)
        rows.append((
            f"{cell(agent.label)} (`{agent.id}`)",
            ", ".join(f"[{code(p)}](#{p})" for p in agent.providers) or "—",
            files or "—", DIALECTS[agent.dialect], cell(limits) or "—", cell(ignores) or "—",
        ))
    return table(("agent (`--agent`)", "rule formats", "session-start files", "bare globs", "limits",
                  "skips"), rows)


# --- architecture.md ------------------------------------------------------------------------


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.py") if p.name != "__init__.py")


def _packages(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if (p / "__init__.py").is_file())


def _row(dotted: str, path: Path, *, listed: Iterable[str] = ()) -> tuple[str, str, str]:
    shown = path.relative_to(REPO).as_posix()
    target = shown + ("/" if path.is_dir() else "")
    doc = module_docstring(path / "__init__.py" if path.is_dir() else path)
    names = ", ".join(code(n) for n in listed)
    return (f"[{code(dotted)}](../{target})", cell(first_line(doc)), names)


def package_map() -> str:
    """Every top-level module and package of ``ruleweave`` and ``ruleweave.adapters``, with its job."""
    rows: list[tuple[str, str, str]] = []
    core = REPO / "middleware"

    def walk(folder: Path, dotted: str) -> None:
        for package in _packages(folder):
            name = f"{dotted}.{package.name}"
            rows.append(_row(name, package, listed=[m.stem for m in _modules(package)]))
            walk(package, name)

    rows.append(_row("ruleweave", core))
    rows += [_row(f"ruleweave.{m.stem}", m) for m in _modules(core)]
    walk(core, "ruleweave")
    adapters = REPO / "adapters"
    rows.append(_row("ruleweave.adapters", adapters))
    rows += [_row(f"ruleweave.adapters.{m.stem}", m) for m in _modules(adapters)]
    return table(("module or package", "its one job", "modules"), rows)


# --- replay.md and errors.md ----------------------------------------------------------------


def events_table() -> str:
    """Every event a session logs, when, and its fields."""
    from ruleweave.events import EVENTS

    rows = []
    for spec in EVENTS.values():
        fields = [f"{code(k)}: {cell(_escape_html(v))}" for k, v in spec.fields.items()]
        if spec.open:
            fields.append("and the caller's own context (e.g. `adapter`)")
        rows.append((code(spec.name), cell(spec.description), "<br>".join(fields) or "—"))
    return table(("event", "logged when", "fields (besides `session`)"), rows)


def error_tree() -> str:
    """The docstring that opens ``ruleweave.errors``: the tree and what each error means."""
    from ruleweave import errors

    return from_rst(errors.__doc__ or "").partition("\n")[2].strip()


# --- pages ----------------------------------------------------------------------------------

PAGES: dict[str, dict[str, Renderer]] = {
    "configuration.md": {"options": config_options, "constants": config_constants},
    "cli.md": {"commands": cli_commands},
    "formats.md": {
        "providers": formats_providers,
        "provider-sections": formats_sections,
        "instruction-files": formats_instruction_files,
        "agents": formats_agents,
    },
    "architecture.md": {"package-map": package_map},
    "replay.md": {"events": events_table},
    "errors.md": {"error-tree": error_tree},
}
"""Each generated page and its generated parts, by marker name."""

_PART = re.compile(
    r"(?P<open><!-- generated: (?P<name>[\w-]+) [^\n]*-->\n)(?P<body>.*?)(?P<close><!-- end generated: "
    r"(?P=name) -->)",
    re.DOTALL,
)


def render(page: str, text: str) -> str:
    """``text`` (a page as committed) with each of its generated parts rendered anew.

    Raises:
        SystemExit: A part ``PAGES`` names has no markers in the page.
    """
    parts = PAGES[page]
    done: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in parts:
            raise SystemExit(f"docs/{page}: no renderer for the generated part {name!r}.")
        done.add(name)
        return f"{match.group('open')}\n{parts[name]().strip()}\n\n{match.group('close')}"

    out = _PART.sub(replace, text)
    missing = sorted(set(parts) - done)
    if missing:
        raise SystemExit(f"docs/{page} lacks the markers of {missing[0]!r}: add\n"
                         f"<!-- generated: {missing[0]} {MARK} -->\n<!-- end generated: {missing[0]} -->")
    return out


def pages() -> dict[str, tuple[str, str]]:
    """Every generated page: name → (the committed text, the text it should have)."""
    found = {}
    for page in PAGES:
        text = (DOCS / page).read_text(encoding="utf-8")
        found[page] = (text, render(page, text))
    return found


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every generated page; returns the exit code."""
    parser = argparse.ArgumentParser(description="Write the generated parts of the docs pages.")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page is stale")
    args = parser.parse_args(argv)
    stale = []
    for page, (old, new) in pages().items():
        if old == new:
            continue
        stale.append(page)
        if not args.check:
            (DOCS / page).write_text(new, encoding="utf-8")
    verb = "out of date" if args.check else "written"
    for page in stale:
        print(f"docs/{page}: {verb}")
    if args.check and stale:
        print(f"run: {COMMAND} (or make docs)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
