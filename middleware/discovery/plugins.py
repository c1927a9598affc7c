"""plugins (priority 90): rule providers from other installed packages.

Each entry point in the group ``ruleweave.providers`` names either a
``Provider`` or a function ``load(ctx) -> list[Rule]``. Plugins are loaded
in entry-point name order; their rules keep the names the plugin gives and
are stamped with this provider's priority. A plugin that fails to import
or raises becomes a warning naming it.

The entry-point scan reads the metadata of every installed distribution
(milliseconds); its result is cached per process, keyed by ``sys.path`` and
the modification time and link count of each of its directories, so a
package installed while the process runs is seen by the next load. Before
it, a look at each distribution's ``entry_points.txt`` for the group's name
skips ``importlib.metadata`` altogether when no plugin is installed (its
import alone costs a hook process three times Python's start-up); a
``sys.path`` entry that is no plain directory (a zip, an egg) always takes
the full scan.

Follows: Python's entry-point specification,
https://packaging.python.org/en/latest/specifications/entry-points/; the
``Provider`` it names is ruleweave's own (``ruleweave.discovery.provider``).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from ruleweave._files.reading import read_bytes
from ruleweave._lru import LruCache
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.rules import Rule, SourceMeta, validated

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ID, PRIORITY = "plugins", 90
GROUP = "ruleweave.providers"
_MAX_EP = 1024 * 1024  # an entry_points.txt larger than this is read only this far

_ScanKey = tuple[tuple[str, tuple[int, int] | None], ...]
# The documented per-process cache of entry-point scans (see the module docstring).
_scans: LruCache[_ScanKey, tuple[EntryPoint, ...]] = LruCache(8)


def _stamp(entry: str) -> tuple[int, int] | None:
    # Installing a package adds a `*.dist-info` directory: the mtime changes, and the link count
    # too (a coarse clock may leave the mtime as it was).
    try:
        info = os.stat(entry or ".")
    except (OSError, ValueError):
        return None
    return info.st_mtime_ns, info.st_nlink


def plugin_entry_points() -> tuple[EntryPoint, ...]:
    """The group's entry points in name order (cached; see the module docstring)."""
    key = tuple((entry, _stamp(entry)) for entry in sys.path)
    found = _scans.get(key)
    if found is None:
        found = _scans.setdefault(key, _scan() if any(_may_name_group(e) for e in sys.path) else ())
    return found


def _scan() -> tuple[EntryPoint, ...]:
    from importlib.metadata import entry_points

    return tuple(sorted(entry_points(group=GROUP), key=lambda p: p.name))


def _may_name_group(entry: str) -> bool:
    """Whether a distribution under this ``sys.path`` entry may declare the group (``True`` when
    the entry is no directory that can be listed: only the full scan can tell)."""
    try:
        with os.scandir(entry or ".") as listing:
            names = [e.name for e in listing if e.name.endswith((".dist-info", ".egg-info", ".egg"))]
    except NotADirectoryError:
        return True  # a zip file on sys.path
    except (OSError, ValueError):
        return False  # missing: importlib.metadata finds nothing there either
    marker = GROUP.encode("ascii")
    for name in names:
        if name.endswith(".egg"):
            return True
        # Without blocking (a project directory may be on sys.path): no file, a FIFO or an
        # .egg-info file is no plugin here.
        data, _problem, _oversized = read_bytes(os.path.join(entry or ".", name, "entry_points.txt"), _MAX_EP)
        if data is not None and marker in data:
            return True
    return False


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load every plugin's rules."""
    rules: list[Rule] = []
    for point in plugin_entry_points():
        try:
            target = point.load()
            loader = target.load if isinstance(target, Provider) else target
            loaded = loader(ctx)
            if not isinstance(loaded, list) or not all(isinstance(r, Rule) for r in loaded):
                raise TypeError("it did not return a list of Rule")
            loaded = [validated(r) for r in loaded]  # a plugin's rule is checked field by field
        except Exception as exc:
            ctx.warn(point.value, f"plugin {point.name!r} failed: {exc}")
            continue
        for rule in loaded:
            source = SourceMeta(
                provider=f"{ID}:{point.name}", priority=PRIORITY,
                level=rule.source.level, path=rule.source.path,
            )
            rules.append(rule._replace(source=source))
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "entry points in group ruleweave.providers")
