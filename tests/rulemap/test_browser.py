"""The map's page in a real headless Chromium: the tree, a rule's coverage, an agent switch, lint findings,
and rule text that stays text. Each test writes a screenshot under its temp dir."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleweaveConfig
from ruleweave.rulemap import build_map, render_page
from tests.rulemap.chromium import Browser
from tests.rulemap.conftest import every_format_config
from tests.rulemap.monorepo import HOSTILE_BODY, HOSTILE_NAME

PNG = b"\x89PNG\r\n\x1a\n"


def write_page(directory: Path, data: dict[str, Any]) -> str:
    """Write the page for ``data`` into ``directory``; return its file:// URL."""
    path = directory / "map.html"
    path.write_text(render_page(data), encoding="utf-8")
    return path.as_uri()


def js(value: str) -> str:
    """A JavaScript string literal."""
    return json.dumps(value)


def row(browser: Browser, path: str, what: str) -> Any:
    """A property of the tree row showing directory ``path`` ('' for the root)."""
    return browser.evaluate(f"document.querySelector('#tree .row[data-path=' + {js(js(path))} + ']').{what}")


def choose_agent(browser: Browser, agent: str) -> None:
    """Pick ``agent`` in the page's agent selector, as a person would (a change event)."""
    browser.evaluate(
        f"(() => {{ const s = document.querySelector('#agent'); s.value = {js(agent)};"
        " s.dispatchEvent(new Event('change')); })()"
    )


def click(browser: Browser, selector: str) -> None:
    """Click the first element matching ``selector``."""
    browser.evaluate(f"document.querySelector({js(selector)}).click()")


def press(browser: Browser, key: str, code: int) -> None:
    """Press and release a key in the focused element, through the browser's input pipeline."""
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)


def text(browser: Browser, selector: str) -> str:
    """The text of the first element matching ``selector``."""
    found: str = browser.evaluate(f"document.querySelector({js(selector)}).textContent")
    return found


def assert_clean(browser: Browser, url: str) -> None:
    """No script error, no log entry (a CSP violation would be one), no request but the page itself."""
    assert browser.exceptions == []
    assert browser.log == []
    assert browser.requests == [url.split("#")[0]]


def test_the_example_repository_page(browser: Browser, tmp_path: Path) -> None:
    """examples/every-format-repo: opened as codex by the URL fragment, switched to Claude Code, a rule's
    coverage and agents, an unreachable-rule finding on .cursor/rules; a screenshot of each step."""
    url = write_page(tmp_path, build_map(every_format_config()))
    browser.open(url + "#agent=codex")
    assert browser.evaluate("document.body.dataset.ready") == "1"
    assert browser.evaluate("document.body.dataset.agent") == "codex"
    assert browser.evaluate("document.querySelector('#agent').value") == "codex"
    # The tree: the root open, its directories shown, deeper ones folded away until expanded.
    assert row(browser, "", "hidden") is False and row(browser, "api", "hidden") is False
    assert row(browser, "api/tests", "hidden") is True
    assert row(browser, "api", "querySelector('.name').textContent") == "api"
    assert row(browser, "api", "querySelector('.files').textContent") == "7"
    # Codex reads no rule files: only its nested instruction file applies in api/.
    assert row(browser, "api", "dataset.rules") == "1"
    browser.screenshot(tmp_path / "codex.png")
    choose_agent(browser, "claude")
    assert browser.evaluate("location.hash") == "#agent=claude"
    assert browser.evaluate("document.body.dataset.agent") == "claude"
    assert row(browser, "api", "dataset.rules") == "2"  # api-errors and api/AGENTS.md
    assert "Claude Code" in text(browser, "#agent-summary")
    click(browser, "#tree .row[data-path='api'] .toggle")
    assert row(browser, "api/tests", "hidden") is False
    browser.evaluate("document.querySelector(\"#tree .row[data-path='web']\").focus()")
    press(browser, "ArrowRight", 39)  # the keyboard opens a directory too
    assert row(browser, "web/src", "hidden") is False
    click(browser, "#tree .row[data-path='api']")
    assert "api-errors" in text(browser, "#detail-rules") and "api/**/*.py" in text(browser, "#detail-rules")
    browser.screenshot(tmp_path / "claude-api.png")
    # A rule's coverage and which agents load it.
    click(browser, "button[data-tab=rules]")
    browser.evaluate(
        "[...document.querySelectorAll('tr.rule-row')]"
        ".find(r => r.cells[0].textContent === 'api-errors').click()"
    )
    assert text(browser, "#rule-name") == "api-errors"
    covers = browser.evaluate("[...document.querySelectorAll('#rule-covers tr')].map(r => r.textContent)")
    assert covers == ["api/api/**/*.py2 files", "api/tests/api/**/*.py2 files"]
    assert "by path" in text(browser, "#rule-agents tr[data-agent=claude]")
    assert "not loaded: format" in text(browser, "#rule-agents tr[data-agent=codex]")
    browser.screenshot(tmp_path / "rule.png")
    # Lint's findings: on the tree and in their own tab.
    assert row(browser, ".cursor/rules", "querySelector('.badge').textContent") == "⚠ 1"
    click(browser, "button[data-tab=findings]")
    findings = browser.evaluate(
        "[...document.querySelectorAll('#findings .finding[data-code=unreachable]')].map(f => f.textContent)"
    )
    assert any(".cursor/rules/old-notes.md:1" in f and "Cursor reads only .mdc files" in f for f in findings)
    click(browser, "#findings .finding[data-code=unreachable] .where")
    assert text(browser, "#detail-path").endswith("rules")
    assert "unreachable" in text(browser, "#detail")
    shot = browser.screenshot(tmp_path / "findings.png")
    assert shot.read_bytes().startswith(PNG) and shot.stat().st_size > 10_000
    assert_clean(browser, url)


def test_rule_text_and_names_stay_text(browser: Browser, monorepo: Path, tmp_path: Path) -> None:
    """A body holding </script>, </textarea> and an onerror image, in a file named with markup, shows as
    text: no element is added, no script runs, hidden characters are spelled out."""
    data = build_map(RuleweaveConfig(cwd=monorepo))
    url = write_page(tmp_path, data)
    [hostile] = [r["id"] for r in data["rules"] if r["name"] == HOSTILE_NAME]
    browser.open(f"{url}#agent=cursor&rule={hostile}")
    assert text(browser, "#rule-name") == HOSTILE_NAME
    shown = HOSTILE_BODY.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    assert text(browser, "#rule-text") == shown
    assert browser.evaluate("document.body.dataset.pwned") is None
    assert browser.evaluate("document.scripts.length") == 2
    assert browser.evaluate("document.querySelectorAll('img, textarea').length") == 0
    browser.screenshot(tmp_path / "hostile.png")
    assert_clean(browser, url)


def test_a_monorepo_page_switches_agents_by_fragment(
    browser: Browser, monorepo: Path, tmp_path: Path
) -> None:
    """The generated monorepo: its nested Cursor folder counts for Cursor, not for Codex; a new URL
    fragment switches the agent; dead rules show on their folder; the budget tab names the notice overflow."""
    url = write_page(tmp_path, build_map(RuleweaveConfig(cwd=monorepo)))
    browser.open(url + "#agent=cursor")
    cursor = int(row(browser, "packages", "dataset.rules"))
    switched = browser.evaluate(
        "new Promise(done => { addEventListener('hashchange', () => setTimeout(() =>"
        " done(document.body.dataset.agent)), { once: true }); location.hash = '#agent=codex'; })"
    )
    assert switched == "codex"
    codex = int(row(browser, "packages", "dataset.rules"))
    assert cursor > codex >= 1  # Codex: the package's nested AGENTS.override.md
    assert row(browser, ".cursor", "querySelector('.badge').textContent").startswith("⚠")
    click(browser, "button[data-tab=budget]")
    assert "notice_max_bytes: 8,192 bytes" in text(browser, "#budget")
    assert "py-style-0" in text(browser, "#budget .notice-over")
    browser.screenshot(tmp_path / "budget.png")
    assert_clean(browser, url)


@pytest.mark.parametrize("agent", ["ruleweave", "claude"])
def test_every_row_has_a_count_and_a_colour(browser: Browser, tmp_path: Path, agent: str) -> None:
    """Each directory row shows how many rules apply there and is coloured by that number."""
    url = write_page(tmp_path, build_map(every_format_config()))
    browser.open(f"{url}#agent={agent}")
    counts = browser.evaluate(
        "[...document.querySelectorAll('#tree .row')].map(r => [r.dataset.rules, "
        "r.querySelector('.count').textContent, r.querySelector('.heat').style.backgroundColor])"
    )
    assert len(counts) == 47  # examples/every-format-repo's directories
    assert all(rules == shown and colour for rules, shown, colour in counts)
    assert len({colour for _, _, colour in counts}) > 1
