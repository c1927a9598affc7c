"""``render_page``: one self-contained page whose only script and style are allowed by hash, with the
data embedded so that no rule text can close its element."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleweaveConfig
from ruleweave.rulemap import build_map, render_page
from ruleweave.rulemap.page import asset, embedded_json
from tests.rulemap.monorepo import HOSTILE_BODY, build_monorepo

SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)
STYLE = re.compile(r"<style>(.*?)</style>", re.S)
DATA = re.compile(r'<script type="application/json" id="map-data">(.*?)</script>', re.S)
CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def sha(text: str) -> str:
    """The CSP hash source of an inline element's text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.fixture(scope="module")
def page(monorepo: Path) -> str:
    """The page of the small generated monorepo (holding the hostile rule)."""
    return render_page(build_map(RuleweaveConfig(cwd=monorepo)))


def test_the_policy_allows_exactly_the_inline_script_and_style(page: str) -> None:
    """default-src 'none'; the one script and the one style sheet by their SHA-256; images as data: only."""
    [policy] = CSP.findall(page)
    [script] = SCRIPT.findall(page)
    [style] = STYLE.findall(page)
    assert policy == (
        f"default-src 'none'; script-src {sha(script)}; style-src {sha(style)}; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    assert "unsafe-inline" not in page and "unsafe-eval" not in page


def test_nothing_is_loaded_from_anywhere(page: str) -> None:
    """No src or href attribute, no URL to fetch, no @import or url() in the style sheet."""
    assert not re.search(r"\s(src|href)\s*=", page.split('id="map-data">')[0])
    assert "http://" not in asset("page.js") and "https://" not in asset("page.js")
    assert "@import" not in asset("page.css") and "url(" not in asset("page.css")
    assert page.count("<script") == 2


def test_the_data_cannot_close_its_element(page: str, monorepo: Path) -> None:
    """The hostile body's </script>, </textarea>, <!-- and U+2028 are escapes in the page, and the JSON
    still reads back to the same data."""
    [embedded] = DATA.findall(page)
    assert not set(embedded) & {"<", ">", "&"} and embedded.isascii()
    assert "\\u003c/script\\u003e" in embedded and "\\u2028" in embedded
    data: dict[str, Any] = json.loads(embedded)
    assert any(rule["excerpt"] == HOSTILE_BODY for rule in data["rules"])
    assert data == build_map(RuleweaveConfig(cwd=monorepo))


def test_the_title_is_escaped(tmp_path: Path) -> None:
    """A project directory named with markup shows as text in the title."""
    root = tmp_path / "<i>repo&co\"<"
    (root / ".git").mkdir(parents=True)
    (root / "a.py").write_text("x\n", encoding="utf-8")
    page = render_page(build_map(RuleweaveConfig(cwd=root)))
    assert "<title>ruleweave map: &lt;i&gt;repo&amp;co&quot;&lt;</title>" in page


def test_embedded_json_escapes_separators_and_lone_surrogates() -> None:
    """U+2028/2029 and an undecodable file name's lone surrogate come out as \\u escapes, ASCII only."""
    text = embedded_json({"path": "a\u2028b\u2029c\udcff</script>&"})
    assert text == '{"path":"a\\u2028b\\u2029c\\udcff\\u003c/script\\u003e\\u0026"}'


def test_the_script_builds_the_page_with_dom_calls_only() -> None:
    """The page's script never parses text as markup (no innerHTML, document.write or eval)."""
    script = asset("page.js")
    for forbidden in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function("):
        assert forbidden not in script
    assert "</script" not in script.lower() and "</style" not in asset("page.css").lower()


def test_a_20000_file_repository_gives_a_page_under_2_mb(tmp_path: Path) -> None:
    """The benchmark's repository (20,000 files, 300 rules) renders to under 2 MB."""
    root = build_monorepo(tmp_path / "repo")
    data = build_map(RuleweaveConfig(cwd=root))
    assert data["project"]["files"] > 20_000 and len(data["rules"]) == 300
    assert len(render_page(data).encode()) < 2 * 1024 * 1024
