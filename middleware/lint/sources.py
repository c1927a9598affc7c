"""What lint looks at, gathered once: the rule set, every rule (nested folders too), the file listing,
every instruction file, and bounded reads of their text.

Checks receive one ``LintSources`` and do no discovery of their own. File
text is read with the one bounded reader, only inside the project (never
through a link that leaves it), and remembered.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property

from ruleweave._files.paths import real_inside, real_path
from ruleweave._files.reading import read_text
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.nested import FOLDER_MARKERS, NestedFolder
from ruleweave.instructions.agent_settings import AgentNames, read_agent_names
from ruleweave.instructions.formats import FORMATS
from ruleweave.lint.agents import INSTRUCTION_FILES
from ruleweave.lint.tracked import Listing, list_files
from ruleweave.rules import DiscoveryWarning, Rule
from ruleweave.ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class FileText:
    """One file's text and where it starts in lines.

    Attributes:
        path: Relative to the project root.
        text: The whole text (``\\r\\n`` normalised), or '' when unreadable.
        body_line: The 1-based line where the body starts (after any frontmatter).
    """

    path: str
    text: str
    body_line: int = 1


@dataclass
class LintSources:
    """Everything the checks read.

    Args:
        ruleset: The loaded rule set (discovery from ``config.cwd``).
        listing: The project's files.
    """

    ruleset: RuleSet
    listing: Listing
    _texts: dict[str, FileText | None] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, config: RuleweaveConfig) -> LintSources:
        """Load the rule set and list the project's files.

        Args:
            config: The configuration.

        Returns:
            The sources; bad files are warnings, never exceptions.
        """
        ruleset = RuleSet.load(config)
        return cls(ruleset, list_files(ruleset.nested.tree))

    @property
    def config(self) -> RuleweaveConfig:
        """The configuration."""
        return self.ruleset.config

    @cached_property
    def root(self) -> str:
        """The project root, normalised."""
        return os.path.normpath(str(self.config.root))

    @cached_property
    def rules(self) -> tuple[Rule, ...]:
        """Every project rule (no user tier, no built-ins): the walk's winners and shadowed copies,
        then every nested folder's."""
        found = self.ruleset.discovery
        nested_rules = (rule for folder in self.nested_folders for rule in folder.rules.values())
        every = (*found.rules, *found.shadowed, *nested_rules)
        return tuple(rule for rule in every if rule.source.level == "project")

    @cached_property
    def nested_folders(self) -> tuple[NestedFolder, ...]:
        """Every non-empty rule folder below the walk, found from the listing (no second walk).

        A directory is a candidate when a listed path runs through one of its rule-folder
        markers (``apps/web/.cursor/rules/x.mdc``); ignored directories and links out of the
        project are left out as in sessions (``NestedRules``).
        """
        nested = self.ruleset.notices.nested_rules
        if nested is None:
            return ()
        candidates: set[str] = set()
        for path in self.listing.paths:
            if "/." not in path:
                continue
            parts = path.split("/")
            for index in range(1, len(parts)):
                if parts[index] in FOLDER_MARKERS:
                    candidates.add("/".join(parts[:index]))
        out: list[NestedFolder] = []
        for directory in sorted(candidates):
            absolute = os.path.join(self.root, *directory.split("/"))
            chain = nested.tree.chain(absolute)
            if chain and chain[-1] == absolute and not (folder := nested.folder(absolute)).empty:
                out.append(folder)
        return tuple(out)

    @cached_property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Problems met loading, reading nested folders and listing files (after ``rules``)."""
        nested = self.ruleset.notices.nested_rules
        _ = self.rules
        return tuple(
            dict.fromkeys(
                (*self.ruleset.warnings, *(nested.warnings if nested else ()), *self.listing.warnings)
            )
        )

    @cached_property
    def agent_names(self) -> AgentNames:
        """The instruction-file names agents' own settings add here (``read_agent_names``; their
        problems are the rule set's warnings already)."""
        return read_agent_names(DiscoveryContext(self.config))

    @cached_property
    def instruction_files(self) -> tuple[str, ...]:
        """Every agent's session-start file present in the project (relative paths, sorted)."""
        by_base: dict[str, list[str]] = {}
        settings = self.agent_names
        known = (*INSTRUCTION_FILES, *(f.name for f in FORMATS), *self.config.instruction_files,
                 *settings.codex, *settings.gemini, *settings.qwen)
        for name in dict.fromkeys(known):
            by_base.setdefault(name.rsplit("/", 1)[-1], []).append(name)
        found: set[str] = set()
        for path in self.listing.paths:
            names = by_base.get(path.rsplit("/", 1)[-1])
            if names and any(path == name or path.endswith("/" + name) for name in names):
                found.add(path)
        for part in self.ruleset.blob.files:
            if part.level == "project":
                found.add(self.relative(part.abs_path))
        return tuple(sorted(p for p in found if p and not p.startswith("../")))

    def relative(self, path: str) -> str:
        """``path`` relative to the project root, ``/``-separated (unchanged when outside it)."""
        absolute = os.path.normpath(path)
        if absolute.startswith(self.root.rstrip(os.sep) + os.sep):
            return absolute[len(self.root.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
        return path

    def text(self, relative: str) -> FileText | None:
        """The text of a project file (``None`` when missing, unreadable, binary or outside the project)."""
        if relative in self._texts:
            return self._texts[relative]
        result: FileText | None = None
        real_root = real_path(self.root)
        absolute = os.path.join(self.root, *relative.split("/"))
        if real_root is not None and real_inside(absolute, real_root) is not None:
            read = read_text(absolute, self.config.max_file_bytes)
            if read.text is not None:
                text = read.text.replace("\r\n", "\n").removeprefix("\ufeff")
                result = FileText(relative, text, _body_line(text))
        self._texts[relative] = result
        return result


def _body_line(text: str) -> int:
    """The line where the body starts: after a closing ``---`` when the text opens with frontmatter."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return 1
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            return index + 2
    return 1
