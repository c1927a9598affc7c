"""The docs hold: generated pages are current, every Python block runs, every link and citation resolves.

The Python blocks of ``README.md`` and ``docs/*.md`` run as scripts, each in a
fresh temp directory with a temp ``HOME`` (so your own ``~/.cursor/rules`` and
the like cannot change what they print) and with this installation's
``ruleweave`` first on ``PATH``. A block that cannot run here (it needs a
network service, an API key or your own objects) is marked by a
``<!-- no-run: reason -->`` line right above it; ``MAX_SKIPPED`` keeps those few.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import re
import subprocess
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
PAGES = sorted([REPO / "README.md", *DOCS.glob("*.md")])
MAX_SKIPPED = 3
"""How many Python blocks may be marked not runnable, across every page."""

TIMEOUT = 180
"""Seconds one block may run (a framework's import alone can take a few)."""

FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
NO_RUN = re.compile(r"^<!--\s*no-run\b(.*?)-->$")
LINK = re.compile(r"!?\[(?:[^\[\]`]|`[^`]*`)*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
ANCHOR_TAG = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
CITATION = re.compile(r"(?<![\w@/.-])docs/([\w-]+\.md)(?:#([\w-]+))?")


class Block(NamedTuple):
    """A fenced code block of a page."""

    page: Path
    line: int
    info: str
    code: str
    no_run: str
    """Why the block is not run ('' when it runs): the text after ``no-run`` in its marker."""

    @property
    def name(self) -> str:
        """Where it is, as ``docs/page.md:12``."""
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> Iterator[Block]:
    """Every fenced block of ``page``, with its info string."""
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opened = FENCE.match(lines[index])
        if not opened:
            index += 1
            continue
        fence, info = opened.group(1), opened.group(2).strip()
        start = index
        body: list[str] = []
        index += 1
        while index < len(lines) and not lines[index].startswith(fence):
            body.append(lines[index])
            index += 1
        before = next((line.strip() for line in reversed(lines[:start]) if line.strip()), "")
        marked = NO_RUN.match(before)
        reason = (marked.group(1).strip(" :") or "(no reason given)") if marked else ""
        if "no-run" in info.split()[1:]:
            reason = "(no reason given)"
        yield Block(page, start + 1, info, "\n".join(body) + "\n", reason)
        index += 1


def python_blocks() -> list[Block]:
    """Every ```python block of the README and the docs pages."""
    return [b for page in PAGES for b in blocks(page) if b.info.split()[:1] == ["python"]]


def prose(page: Path) -> str:
    """``page`` without its fenced blocks (their ``#`` lines are no headings, their brackets no links)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    kept: list[str] = []
    fence = ""
    for line in lines:
        opened = FENCE.match(line)
        if fence:
            if line.startswith(fence):
                fence = ""
        elif opened:
            fence = opened.group(1)
        else:
            kept.append(line)
    return "\n".join(kept)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page: its headings (numbered when repeated) and ``<a id>`` tags."""
    text = prose(page)
    found: set[str] = set(ANCHOR_TAG.findall(text))
    seen: dict[str, int] = {}
    for match in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.MULTILINE):
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def generator() -> ModuleType:
    """``docs/generate.py``, imported from its file (``docs/`` is no package)."""
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATED = ["configuration.md", "cli.md", "formats.md", "architecture.md", "replay.md", "errors.md"]


def test_the_generator_knows_every_generated_page() -> None:
    """The pages this test checks are the generator's pages."""
    assert sorted(generator().PAGES) == sorted(GENERATED)


@pytest.mark.parametrize("page", GENERATED)
def test_generated_page_is_current(page: str) -> None:
    """A generated page matches what the code it is built from gives today."""
    committed, fresh = generator().pages()[page]
    assert committed == fresh, (
        f"docs/{page} is out of date with the code: run `.venv/bin/python docs/generate.py` "
        "(or `make docs`) and commit the result."
    )


def test_every_format_names_the_source_it_follows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #28: each provider, format module and instruction file names the agent's source or docs.

    The generator stops on one that does not, so a new format cannot reach the page without it.
    """
    from ruleweave.instructions import formats

    module = generator()
    providers = module._provider_modules()
    assert all(module.follows(provider_module) for _, provider_module in providers)
    assert "custom-instructions.ts" in module.follows(next(m for p, m in providers if p.id == "roo"))
    assert all(fmt.follows for fmt in formats.FORMATS)
    silent = ModuleType("ruleweave.discovery.silent", "silent (priority 1): nothing.\n\nNo source named.")
    with pytest.raises(SystemExit, match="silent's docstring must end with a paragraph 'Follows: "):
        module.follows(silent)
    monkeypatch.setattr(formats, "FORMATS", (formats.FileFormat("NEW.md", "New agent"),))
    with pytest.raises(SystemExit, match=r"NEW\.md declares no follows="):
        module.formats_instruction_files()


def test_generated_parts_are_marked() -> None:
    """Every generated part sits between its markers, so hand-written text is never overwritten."""
    module = generator()
    for page, parts in module.PAGES.items():
        text = (DOCS / page).read_text(encoding="utf-8")
        for name in parts:
            assert f"<!-- generated: {name} " in text and f"<!-- end generated: {name} -->" in text, page


def test_few_blocks_are_skipped() -> None:
    """Almost every Python block runs; the few that cannot say why."""
    found = python_blocks()
    skipped = [b for b in found if b.no_run]
    assert len(found) - len(skipped) >= 15, "the block parser found too few Python blocks"
    assert len(skipped) <= MAX_SKIPPED, [b.name for b in skipped]
    for block in skipped:
        assert block.no_run != "(no reason given)", f"{block.name}: say why (<!-- no-run: why -->)"


@pytest.mark.parametrize("block", [b for b in python_blocks() if not b.no_run], ids=lambda b: b.name)
def test_python_block_runs(block: Block, tmp_path: Path) -> None:
    """The block runs as a script in a fresh directory and exits 0."""
    script = tmp_path / "snippet.py"
    script.write_text(block.code, encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in {"CLAUDE_CONFIG_DIR", "CODEX_HOME", "RULEWEAVE_HOME", "RULEWEAVE_STATE_DIR"}}
    env.update(
        HOME=str(home),
        RULEWEAVE_STATE_DIR=str(tmp_path / "state"),
        PATH=os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", ""))),
    )
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=TIMEOUT, check=False,
    )
    assert done.returncode == 0, f"{block.name} failed:\n{done.stdout}\n{done.stderr}"


def links() -> list[tuple[Path, str]]:
    """Every relative link target of the README and the docs pages."""
    found = []
    for page in PAGES:
        for target in LINK.findall(prose(page)):
            if not re.match(r"[a-z][a-z0-9+.-]*:", target):
                found.append((page, target))
    return found


def test_pages_have_links() -> None:
    """The link check sees the pages' links (a broken pattern would pass every page)."""
    assert len(links()) > 50


def test_relative_links_resolve() -> None:
    """Every relative link names an existing file, and an existing anchor when it has one."""
    broken = []
    for page, target in links():
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{page.relative_to(REPO)}: {target} (no such anchor)")
    assert not broken, "\n".join(broken)


def prose_of(source: Path) -> str:
    """The docstrings and comments of a Python file: where code cites a docs page (string literals
    are data, such as the ``docs/x.md`` of a test's fixture tree)."""
    text = source.read_text(encoding="utf-8")
    found = [
        ast.get_docstring(node, clean=False) or ""
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    found += [token.string for token in tokens if token.type == tokenize.COMMENT]
    return "\n".join(found)


def test_code_cites_existing_pages() -> None:
    """The docs pages and anchors that docstrings and comments cite exist.

    A citation of a page that does not exist may be an example (a rule named
    ``docs/style.md``), so only one with an anchor counts as broken.
    """
    broken = []
    cited = 0
    for folder in ("middleware", "adapters", "tests", "benchmarks", "examples"):
        for source in sorted((REPO / folder).rglob("*.py")):
            if source == Path(__file__).resolve():  # its docstring shows the pattern
                continue
            for page, anchor in CITATION.findall(prose_of(source)):
                target = DOCS / page
                cited += target.exists()
                if anchor and (not target.exists() or anchor not in anchors(target)):
                    broken.append(f"{source.relative_to(REPO)}: docs/{page}#{anchor}")
    assert not broken, "\n".join(broken)
    assert cited >= 10, "the citation check found too few citations of the docs pages"


def test_slug_follows_github() -> None:
    """Anchors are spelled as GitHub spells them."""
    assert slug("`ruleweave scan`") == "ruleweave-scan"
    assert slug("Monorepos: nested rule folders") == "monorepos-nested-rule-folders"
    assert slug("Integrations compared, and writing your own") == "integrations-compared-and-writing-your-own"
    assert slug("Keep your rules healthy: `ruleweave lint`") == "keep-your-rules-healthy-ruleweave-lint"
