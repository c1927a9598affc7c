"""Cross-reference checks of the sections around the steering core (the reference's verdicts).

- ``states``: ids are identifiers; ``do`` names actions, ``next``/``yes``/``no``
  states, ``say`` a snippet, ``ask`` an elicitation;
- ``trace``: ``record`` lists each event kind once;
- ``dependencies``: ids are identifiers; ``command``/``path``/``env`` (and
  under ``check``) are not empty; ``provision.elicit`` names an elicitation;
  provision options have unique identifier ids and labels;
- ``imports``: ids are identifiers; ``path`` and ``section`` are not empty;
  ``requires.imports`` names imports, without cycles; ``used_by`` names a
  thing of the kind it says; an ``on_demand`` import nobody uses is an orphan;
- ``resources``: ids are identifiers; ``path`` is not empty; ``used_by`` is
  checked like imports'; a resource nobody uses is an orphan;
- ``code``: ids are identifiers; ``language`` and the source are not empty;
  provenance names exactly one of a resource or an import; everything under
  ``requires``, ``inputs`` and ``outputs`` exists;
- ``artifacts``: ids are identifiers; ``path`` is not empty; producers and
  consumers name commands, code blocks or recipes of their kind;
- ``recipes``: ids are identifiers; requirements and steps name what exists;
  a branch has a condition and goes to a command, code block or recipe;
  a note is not empty;
- ``commands``: ids are identifiers; required dependencies and resources exist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleweave.steering.issue import SpecIssue
from ruleweave.steering.validation import Checker, items, keys, table, text

if TYPE_CHECKING:
    from ruleweave.steering.source import SourceMap, YamlPath

_USE_TABLES = {
    "state": "states",
    "elicitation": "elicitations",
    "dependency": "dependencies",
    "command": "commands",
    "code": "code",
    "artifact": "artifacts",
    "recipe": "recipes",
    "snippet": "snippets",
}


def check_sections(checker: Checker) -> None:
    """Check every section beyond routes, rules, elicitations and tests.

    Args:
        checker: The document's checker; problems are added to it.
    """
    _Sections(checker).run()


class _Sections:
    def __init__(self, checker: Checker) -> None:
        self.c = checker
        data = checker.data
        self.imports = keys(data, "imports")
        self.resources = keys(data, "resources")
        self.dependencies = keys(data, "dependencies")
        self.artifacts = keys(data, "artifacts")
        self.commands = keys(data, "commands")
        self.code = keys(data, "code")
        self.recipes = keys(data, "recipes")
        self.snippets = keys(data, "snippets")

    def ids(self, kind: str) -> set[str]:
        if kind == "route":
            return self.c.routes
        if kind == "rule":
            return self.c.rules
        return keys(self.c.data, _USE_TABLES[kind])

    def run(self) -> None:
        self.states()
        self.trace()
        self.dependencies_()
        self.imports_()
        self.resources_()
        self.code_()
        self.artifacts_()
        self.recipes_()
        self.commands_()

    def states(self) -> None:
        c = self.c
        for key, state in table(c.data, "states"):
            at: YamlPath = ("states", key)
            c.identifier(at, key, "state id")
            c.known_all((*at, "do"), state.get("do"), c.actions, "command or closure")
            for field in ("next", "yes", "no"):
                c.known((*at, field), state.get(field), c.states, "state")
            c.known((*at, "say"), state.get("say"), self.snippets, "snippet")
            c.known((*at, "ask"), state.get("ask"), c.elicitations, "elicitation")

    def trace(self) -> None:
        trace = self.c.data.get("trace")
        record = trace.get("record") if isinstance(trace, dict) else None
        if isinstance(record, list):
            seen: dict[str, int] = {}
            for index, kind in enumerate(record):
                self.c.unique(("trace", "record", index), kind, seen, "trace event")

    def dependencies_(self) -> None:
        c = self.c
        for key, dependency in table(c.data, "dependencies"):
            at: YamlPath = ("dependencies", key)
            c.identifier(at, key, "dependency id")
            for field in ("command", "path", "env"):
                c.blank((*at, field), dependency.get(field), f"{field} of dependency {key!r}", strip=False)
            check = dependency.get("check")
            if isinstance(check, dict):
                for field in ("command", "path", "env"):
                    c.blank((*at, "check", field), check.get(field), f"check {field} of {key!r}", strip=False)
            provision = dependency.get("provision")
            if not isinstance(provision, dict):
                continue
            c.known((*at, "provision", "elicit"), provision.get("elicit"), c.elicitations, "elicitation")
            seen: dict[str, int] = {}
            for index, option in items(provision, "options"):
                where: YamlPath = (*at, "provision", "options", index)
                c.identifier((*where, "id"), option.get("id"), "provision option id")
                c.unique((*where, "id"), option.get("id"), seen, "provision option id")
                c.blank((*where, "label"), option.get("label"), "label of a provision option")

    def used_by(self, at: YamlPath, entry: dict[str, Any]) -> None:
        for index, use in items(entry, "used_by"):
            kind = text(use.get("kind"))
            if kind in _USE_TABLES or kind in ("route", "rule"):
                self.c.known((*at, "used_by", index, "id"), use.get("id"), self.ids(kind), kind)

    def imports_(self) -> None:
        c = self.c
        used = self.import_references()
        graph: dict[str, list[str]] = {}
        for key, entry in table(c.data, "imports"):
            at: YamlPath = ("imports", key)
            c.identifier(at, key, "import id")
            c.blank((*at, "path"), entry.get("path"), f"path of import {key!r}")
            c.blank((*at, "section"), entry.get("section"), f"section of import {key!r}", strip=False)
            requires = entry.get("requires")
            wanted = requires.get("imports") if isinstance(requires, dict) else None
            c.known_all((*at, "requires", "imports"), wanted, self.imports, "import")
            graph[key] = [n for v in wanted if (n := text(v))] if isinstance(wanted, list) else []
            self.used_by(at, entry)
            if key not in used and not entry.get("used_by") and text(entry.get("load")) != "always":
                c.add(
                    at,
                    f"Import {key!r} is an orphan: nothing requires or loads it, it declares no "
                    "used_by, and it is not load: always.",
                )
        for cycle in _cycles(graph):
            c.add(("imports", cycle[0]), f"The imports form a cycle: {' -> '.join(cycle)}.")

    def import_references(self) -> set[str]:
        data = self.c.data
        found: set[str] = set()
        for _, entry in table(data, "imports"):
            found.update(_names(_get(entry, "requires", "imports")))
        for _, block in table(data, "code"):
            found.update(_names(_get(block, "requires", "imports")))
        for _, recipe in table(data, "recipes"):
            found.update(_names(_get(recipe, "requires", "imports")))
            found.update(_names([step.get("load_import") for _, step in items(recipe, "steps")]))
        return found

    def resource_references(self) -> set[str]:
        data = self.c.data
        found: set[str] = set()
        for _, block in table(data, "code"):
            found.update(_names([_get(block, "source", "from_resource")]))
            found.update(_names(_get(block, "requires", "resources")))
        for _, recipe in table(data, "recipes"):
            found.update(_names(_get(recipe, "requires", "resources")))
            found.update(_names([step.get("load_resource") for _, step in items(recipe, "steps")]))
        for _, command in table(data, "commands"):
            found.update(_names(_get(command, "requires", "resources")))
        return found

    def resources_(self) -> None:
        c = self.c
        used = self.resource_references()
        for key, entry in table(c.data, "resources"):
            at: YamlPath = ("resources", key)
            c.identifier(at, key, "resource id")
            c.blank((*at, "path"), entry.get("path"), f"path of resource {key!r}")
            self.used_by(at, entry)
            if key not in used and not entry.get("used_by"):
                c.add(at, f"Resource {key!r} is an orphan: nothing uses it and it declares no used_by.")

    def code_(self) -> None:
        c = self.c
        for key, block in table(c.data, "code"):
            at: YamlPath = ("code", key)
            c.identifier(at, key, "code id")
            c.blank((*at, "language"), block.get("language"), f"language of code block {key!r}")
            source = block.get("source")
            if isinstance(source, dict):
                c.blank((*at, "source", "inline"), source.get("inline"), f"inline source of {key!r}")
                c.blank((*at, "source", "file"), source.get("file"), f"source file of {key!r}")
                c.known(
                    (*at, "source", "from_resource"), source.get("from_resource"), self.resources, "resource"
                )
            provenance = block.get("provenance")
            if isinstance(provenance, dict):
                resource, imported = provenance.get("resource"), provenance.get("import")
                if resource is None and imported is None:
                    c.add(
                        (*at, "provenance"),
                        f"The provenance of code block {key!r} names no resource or import.",
                    )
                elif resource is not None and imported is not None:
                    c.add(
                        (*at, "provenance"),
                        f"The provenance of code block {key!r} names a resource and an import; keep one.",
                    )
                c.known((*at, "provenance", "resource"), resource, self.resources, "resource")
                c.known((*at, "provenance", "import"), imported, self.imports, "import")
            self.requires((*at, "requires"), block.get("requires"))
            for field in ("inputs", "outputs"):
                c.known_all((*at, field), block.get(field), self.artifacts, "artifact")

    def requires(self, at: YamlPath, requires: Any) -> None:
        if not isinstance(requires, dict):
            return
        tables = {
            "dependencies": (self.dependencies, "dependency"),
            "imports": (self.imports, "import"),
            "resources": (self.resources, "resource"),
            "artifacts": (self.artifacts, "artifact"),
        }
        for field, (ids, what) in tables.items():
            self.c.known_all((*at, field), requires.get(field), ids, what)

    def artifacts_(self) -> None:
        c = self.c
        kinds = {"command": self.commands, "code": self.code, "recipe": self.recipes}
        for key, artifact in table(c.data, "artifacts"):
            at: YamlPath = ("artifacts", key)
            c.identifier(at, key, "artifact id")
            c.blank((*at, "path"), artifact.get("path"), f"path of artifact {key!r}", strip=False)
            for field in ("produced_by", "consumed_by"):
                for index, ref in items(artifact, field):
                    kind = text(ref.get("kind"))
                    if kind in kinds:
                        c.known((*at, field, index, "id"), ref.get("id"), kinds[kind], kind)

    def recipes_(self) -> None:
        c = self.c
        steps = {
            "load_import": (self.imports, "import"),
            "load_resource": (self.resources, "resource"),
            "run_command": (self.commands, "command"),
            "run_code": (self.code, "code block"),
            "produce_artifact": (self.artifacts, "artifact"),
            "consume_artifact": (self.artifacts, "artifact"),
            "ask": (c.elicitations, "elicitation"),
        }
        targets = self.commands | self.code | self.recipes
        for key, recipe in table(c.data, "recipes"):
            at: YamlPath = ("recipes", key)
            c.identifier(at, key, "recipe id")
            self.requires((*at, "requires"), recipe.get("requires"))
            for index, step in items(recipe, "steps"):
                where: YamlPath = (*at, "steps", index)
                for field, (ids, what) in steps.items():
                    c.known((*where, field), step.get(field), ids, what)
                c.blank((*where, "note"), step.get("note"), "note of a recipe step")
                branch = step.get("branch")
                if isinstance(branch, dict):
                    c.blank((*where, "branch", "if"), branch.get("if"), "condition of a branch")
                    for field in ("then", "otherwise"):
                        c.known(
                            (*where, "branch", field), branch.get(field), targets, "command, code or recipe"
                        )

    def commands_(self) -> None:
        c = self.c
        for key, command in table(c.data, "commands"):
            at: YamlPath = ("commands", key)
            c.identifier(at, key, "command id")
            requires = command.get("requires")
            if isinstance(requires, dict):
                c.known_all(
                    (*at, "requires", "dependencies"),
                    requires.get("dependencies"),
                    self.dependencies,
                    "dependency",
                )
                c.known_all(
                    (*at, "requires", "resources"), requires.get("resources"), self.resources, "resource"
                )


def _get(entry: dict[str, Any], *path: str) -> Any:
    value: Any = entry
    for part in path:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _names(values: Any) -> set[str]:
    if not isinstance(values, list):
        return set()
    return {name for value in values if (name := text(value)) is not None}


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Each cycle of the ``requires.imports`` graph once, as ``[a, b, a]`` (sorted start).

    Depth first without recursion, each import entered once: a chain of thousands
    of imports costs linear time and no Python stack.
    """
    cycles: list[list[str]] = []
    seen: set[frozenset[str]] = set()
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        stack: list[str] = [start]
        on_stack: dict[str, int] = {start: 0}
        pending = [iter(graph[start])]
        while pending:
            child = next(pending[-1], None)
            if child is None:
                pending.pop()
                finished = stack.pop()
                del on_stack[finished]
                done.add(finished)
                continue
            if child in on_stack:
                cycle = [*stack[on_stack[child] :], child]
                members = frozenset(cycle)
                if members not in seen:
                    seen.add(members)
                    cycles.append(cycle)
            elif child not in done and child in graph:
                on_stack[child] = len(stack)
                stack.append(child)
                pending.append(iter(graph[child]))
    return cycles


def check_references(data: dict[str, Any], source: SourceMap) -> list[SpecIssue]:
    """Every identifier, duplicate and reference problem in a parsed document.

    Args:
        data: The parsed YAML mapping.
        source: Lines of the document, for locating problems.

    Returns:
        The problems found, in document order.
    """
    checker = Checker(data, source)
    checker.run()
    check_sections(checker)
    return checker.issues
