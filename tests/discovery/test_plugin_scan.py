"""The plugin entry-point scan is cached per process, and still sees packages added to ``sys.path``."""

from __future__ import annotations

import sys
from pathlib import Path

from ruleweave.discovery import plugins


def _fake_distribution(site: Path, name: str, target: str) -> None:
    """A minimal installed distribution (metadata only) declaring one ruleweave provider."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        f"[{plugins.GROUP}]\n{name} = {target}\n", encoding="utf-8"
    )


def test_the_scan_is_cached_while_sys_path_is_unchanged() -> None:
    """Two scans with the same ``sys.path`` give the very same result object."""
    assert plugins.plugin_entry_points() is plugins.plugin_entry_points()


def test_a_distribution_put_on_sys_path_is_seen_and_forgotten(tmp_path: Path) -> None:
    """Adding a directory with a distribution to ``sys.path`` shows its entry point; removing it hides it."""
    site = tmp_path / "site"
    _fake_distribution(site, "rw_scan_probe", "rw_scan_probe_module:load")
    before = {point.name for point in plugins.plugin_entry_points()}
    sys.path.insert(0, str(site))
    try:
        during = {point.name for point in plugins.plugin_entry_points()}
    finally:
        sys.path.remove(str(site))
    after = {point.name for point in plugins.plugin_entry_points()}
    assert "rw_scan_probe" not in before
    assert "rw_scan_probe" in during
    assert after == before


def test_a_distribution_installed_into_a_listed_directory_is_seen(tmp_path: Path) -> None:
    """A package installed into a directory already on ``sys.path`` changes its mtime: a new scan runs."""
    site = tmp_path / "site"
    site.mkdir()
    sys.path.insert(0, str(site))
    try:
        assert "rw_scan_late" not in {point.name for point in plugins.plugin_entry_points()}
        _fake_distribution(site, "rw_scan_late", "rw_scan_late_module:load")
        assert "rw_scan_late" in {point.name for point in plugins.plugin_entry_points()}
    finally:
        sys.path.remove(str(site))
