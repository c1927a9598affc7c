"""plugins provider: real entry points from a fixture distribution installed by pip.

The distribution in ``tests/fixtures/dists/ruleweave-fixture-plugin`` is
packed into a wheel here (the metadata comes from its ``pyproject.toml``), so
no build backend or network is needed; pip installs the wheel into a private
target directory, never into the shared venv, and each test puts that
directory on ``sys.path`` only while it runs.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from ruleweave.discovery import cursor, plugins
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run

DIST = Path(__file__).resolve().parents[1] / "fixtures" / "dists" / "ruleweave-fixture-plugin"
MODULE = "rw_fixture_plugin"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(source: Path, out_dir: Path) -> Path:
    """Pack a pure-Python, single-module distribution described by ``pyproject.toml``."""
    project = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    dist_name = name.replace("-", "_")
    info = f"{dist_name}-{version}.dist-info"
    groups = project.get("entry-points", {})
    entry_text = "".join(
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items()) + "\n"
        for group, points in groups.items()
    )
    files: dict[str, bytes] = {
        f"{MODULE}.py": (source / f"{MODULE}.py").read_bytes(),
        f"{info}/METADATA": (
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
            f"Summary: {project['description']}\n"
        ).encode(),
        f"{info}/WHEEL": (
            b"Wheel-Version: 1.0\nGenerator: ruleweave-tests\nRoot-Is-Purelib: true\n"
            b"Tag: py3-none-any\n"
        ),
        f"{info}/entry_points.txt": entry_text.encode(),
    }
    record = [_record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = out_dir / f"{dist_name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Install the fixture distribution with pip into a private site directory."""
    work = tmp_path_factory.mktemp("plugin-dist")
    wheel = build_wheel(DIST, work)
    site = work / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    yield site
    sys.modules.pop(MODULE, None)


@pytest.fixture
def installed(plugin_site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Make the installed plugin visible to ``importlib.metadata`` for one test."""
    monkeypatch.syspath_prepend(str(plugin_site))
    yield plugin_site
    sys.modules.pop(MODULE, None)


def test_fixture_distribution_is_really_installed(installed: Path) -> None:
    """pip wrote a dist-info whose entry points are visible to importlib.metadata."""
    assert list(installed.glob("ruleweave_fixture_plugin-1.0.0.dist-info/RECORD"))
    names = {point.name for point in entry_points(group=plugins.GROUP)}
    assert {"acme", "bad-field", "broken", "listed", "missing", "typed", "wrong-shape"} <= names


def test_plugin_rules_are_loaded_and_stamped(installed: Path, write_tree: WriteTree) -> None:
    """A plugin's rules keep their names and get provider ``plugins:<entry point>``, priority 90."""
    root = write_tree({"README.md": "x"})
    found = run(root, only=plugins.PROVIDER)
    rules = named(found)
    assert [r.name for r in found.rules] == ["acme-secrets", "shared-style", "acme-listed", "acme-typed"]
    assert rules["acme-secrets"].source.provider == "plugins:acme"
    assert rules["acme-typed"].source.provider == "plugins:typed"
    assert {r.source.priority for r in found.rules} == {90}
    assert rules["acme-secrets"].path == str(root / "acme-policy.yaml")
    assert buckets(found) == {
        "acme-secrets": Bucket.RULEBOOK,
        "shared-style": Bucket.GENERIC,
        "acme-listed": Bucket.SCOPED,
        "acme-typed": Bucket.SCOPED,
    }
    assert rules["acme-listed"].globs == ("**/*.go",)  # a plugin's list is taken as a tuple


def test_failing_plugins_become_warnings_naming_them(
    installed: Path, write_tree: WriteTree
) -> None:
    """A plugin that raises, cannot import or returns junk is a warning; the others still load."""
    root = write_tree({"README.md": "x"})
    found = run(root, only=plugins.PROVIDER)
    by_plugin = {w.message.split("'")[1]: w for w in found.warnings}
    assert set(by_plugin) == {"bad-field", "broken", "missing", "wrong-shape"}
    assert "the ACME policy server is unreachable" in by_plugin["broken"].message
    assert by_plugin["broken"].path == "rw_fixture_plugin:explode"
    assert "rw_fixture_plugin_not_installed" in by_plugin["missing"].message
    assert "did not return a list of Rule" in by_plugin["wrong-shape"].message
    assert "Rule.globs must be a sequence of strings, not '**/*.py'" in by_plugin["bad-field"].message
    assert {w.provider for w in found.warnings} == {"plugins"}
    assert len(found.rules) == 4


def test_plugin_outranks_cursor_on_a_name_clash(installed: Path, write_tree: WriteTree) -> None:
    """Plugins (90) beat cursor (50): the cursor rule of the same name is shadowed."""
    root = write_tree({".cursor/rules/shared-style.mdc": "Cursor's style."})
    found = run(root, only=(cursor.PROVIDER, plugins.PROVIDER))
    rule = named(found)["shared-style"]
    assert rule.source.provider == "plugins:acme"
    assert [s.provider for s in rule.shadowed] == ["cursor"]


def test_disabling_plugins_skips_entry_points(installed: Path, write_tree: WriteTree) -> None:
    """``disabled_providers={'plugins'}`` loads no plugin and reports none of their failures."""
    root = write_tree({"README.md": "x"})
    found = run(root, disabled_providers={"plugins"})
    assert found.rules == ()
    assert found.warnings == ()


def test_without_the_distribution_there_are_no_plugins(write_tree: WriteTree) -> None:
    """With the fixture off ``sys.path`` the group is empty and the provider yields nothing."""
    root = write_tree({"README.md": "x"})
    found = run(root, only=plugins.PROVIDER)
    assert found.rules == ()
    assert found.warnings == ()


def test_a_fifo_as_entry_points_on_sys_path_does_not_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look for the plugin group reads ``entry_points.txt`` without blocking: a FIFO there
    (a hostile project directory on ``sys.path``) names no plugin, and discovery goes on."""
    info = tmp_path / "hostile-1.0.dist-info"
    info.mkdir()
    os.mkfifo(info / "entry_points.txt")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugins.plugin_entry_points() == ()
