"""wcmatch's glob translations, kept in the state directory between hook processes.

A hook with no snapshot translates each glob whose shape needs a regex
(``ruleweave.globs._shapes.translations``), and the first translation imports
``wcmatch.glob``: ~10 ms of a cold start, paid again after every rule edit
although the globs mostly stayed as they were. ``remember`` arranges for the
saved translations to be read at the first one the process lacks (a rule set
whose globs need none reads nothing); ``save`` writes them back with the ones
learned meanwhile, the ``MAX_KEPT`` most recently used.

The file (``snapshots/globs.json``, beside the snapshots) is keyed by
``FORMAT`` and by wcmatch's translator module as installed (its inode, size
and modification time): another wcmatch translates anew. A damaged or foreign
file is ignored, and rewritten.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from ruleweave.globs import _shapes
from ruleweave.hosts._core.snapshot import read_json

FORMAT = 1
"""The file's layout and the translation flags it holds (``_shapes.translations``)."""

MAX_KEPT = 2048
"""Alternatives the file keeps: enough for the rule sets one user works in, small to read."""

_NAME = "globs.json"


class GlobCache:
    """The translations one hook process read and what it must write back.

    Args:
        state: The state directory.
    """

    def __init__(self, state: str) -> None:
        self.path = os.path.join(state, "snapshots", _NAME)
        self.read: frozenset[str] = frozenset()
        self.stamp: list[int] | None = None

    def remember(self) -> None:
        """Have the saved translations read when the process first lacks one."""
        _shapes.before_wcmatch(self._load)

    def _load(self) -> None:
        self.stamp = _wcmatch_stamp()
        data = read_json(self.path)
        if not isinstance(data, dict) or data.get("format") != FORMAT or self.stamp is None:
            return
        saved = data.get("translations")
        if data.get("wcmatch") != self.stamp or not isinstance(saved, dict):
            return
        read = []
        for alternative, regexes in saved.items():
            if isinstance(regexes, list) and all(isinstance(r, str) for r in regexes):
                _shapes.TRANSLATED.setdefault(alternative, tuple(regexes))
                read.append(alternative)
        self.read = frozenset(read)

    def save(self, write: Callable[[str, Any], None]) -> None:
        """Write the translations back when this process learned one the file lacks.

        Args:
            write: ``write(path, data)``: writes JSON whole or not at all, inside the state directory.
        """
        translated = _shapes.TRANSLATED
        known = list(translated)  # least recently used first
        if self.stamp is None or not any(a not in self.read for a in known):
            return
        kept = {a: list(found) for a in known[-MAX_KEPT:] if (found := translated.get(a)) is not None}
        write(self.path, {"format": FORMAT, "wcmatch": self.stamp, "translations": kept})


def _wcmatch_stamp() -> list[int] | None:
    """wcmatch's translator module as installed (inode, size, mtime), found without importing it."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            spec = find("wcmatch", None)
        except Exception:  # a finder another package installed: not ours to trust
            continue
        locations = getattr(spec, "submodule_search_locations", None) if spec is not None else None
        for location in locations or ():
            try:
                st = os.stat(os.path.join(location, "_wcparse.py"))
            except (OSError, ValueError):
                continue
            return [st.st_ino, st.st_size, st.st_mtime_ns]
    return None
