"""Regexes compiled on first use.

A hook process with no snapshot imports the whole rule machinery once per tool
call, and ``re.compile`` of the module-level patterns it imports took ~6 ms
of it, two thirds for patterns that call never used (a patch parser, the
Markdown scanner of a project with no instruction file, the control-character
class of text that has none). ``LazyRegex`` compiles when a method is first
called; from then on each method is the compiled pattern's own, bound on the
instance, so a call costs what a module-level pattern's call does.
"""

from __future__ import annotations

import re
import sys

TYPE_CHECKING = False  # not typing's: modules on the hook's fast path import this one
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

_METHODS = ("search", "match", "fullmatch", "sub", "split", "finditer", "findall")


class LazyRegex:
    """``re.compile(pattern, flags)``, done the first time one of its methods is called.

    Args:
        pattern: The regular expression.
        flags: ``re`` flags.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        compiled = re.compile(self.pattern, self.flags)
        # Instance attributes shadow the methods below: later calls go straight to ``compiled``.
        self.__dict__.update({name: getattr(compiled, name) for name in _METHODS})
        self.__dict__["compiled"] = lambda: compiled
        return compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.search``."""
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.match``."""
        return self.compiled().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.fullmatch``."""
        return self.compiled().fullmatch(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        """``re.Pattern.sub``."""
        return self.compiled().sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        """``re.Pattern.split``."""
        return self.compiled().split(string, maxsplit)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        """``re.Pattern.finditer``."""
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        """``re.Pattern.findall``."""
        return self.compiled().findall(string, pos, endpos)
